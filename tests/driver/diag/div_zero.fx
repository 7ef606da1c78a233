kernel k(p: Ptr[Int32]) {
    p[0] = p[1] // 0
}
