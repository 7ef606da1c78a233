kernel k(p: Ptr[Float32], i: Int32) {
    p[0] = i
}
