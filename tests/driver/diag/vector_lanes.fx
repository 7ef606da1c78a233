kernel k(p: Ptr[Float32x4], q: Ptr[Float32x2]) {
    p[0] = p[0] + q[0]
}
