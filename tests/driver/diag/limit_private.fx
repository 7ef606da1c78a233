# docs/limits.md
kernel k(p: Ptr[Float32]) {
    var a: Array[Float32, 20000]
    a[thread_idx.x] = 1.0
    p[0] = a[0]
}
