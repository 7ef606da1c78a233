kernel k(p: Ptr[Float32]) {
    return 1.0
}
