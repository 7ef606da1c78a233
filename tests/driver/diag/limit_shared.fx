# docs/limits.md
kernel k(p: Ptr[Float32]) {
    shared a: Array[Float32, 10000]
    shared b: Array[Float32, 10000]
    a[thread_idx.x] = 1.0
    b[thread_idx.x] = 1.0
    p[0] = a[0] + b[1]
}
