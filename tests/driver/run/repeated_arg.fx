kernel k(p: Ptr[Float32], n: Int32) {
    p[0] = Float32(n)
}
