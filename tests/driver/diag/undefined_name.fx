kernel k(p: Ptr[Float32]) {
    p[0] = q
}
