# docs/limits.md
kernel k(p: Ptr[Float32]) {
    shared s: Array[Float32, 2**30]
    s[thread_idx.x] = 1.0
    p[0] = s[0]
}
