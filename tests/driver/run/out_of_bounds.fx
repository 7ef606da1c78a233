kernel k(p: Ptr[Float32], n: Int32) {
    p[thread_idx.x + n] = 1.0
}
