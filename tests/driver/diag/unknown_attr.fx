kernel k(p: Ptr[Float32]) {
    p[0] = Float32(thread_idx.w)
}
