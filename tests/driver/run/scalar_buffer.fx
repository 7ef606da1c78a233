# A buffer given to a scalar parameter says so.
kernel k(p: Ptr[Float32], n: Int32, u: Uint8) {
    p[0] = Float32(n) + Float32(u)
}
