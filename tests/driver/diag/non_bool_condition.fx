kernel k(p: Ptr[Int32]) {
    if p[0] {
        p[0] = 1
    }
}
