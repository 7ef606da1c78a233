kernel k(p: Ptr[Int32], n: Int32) {
    p[0] = n
}
