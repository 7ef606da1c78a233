# --check: a reverse through shared memory without a barrier: the reads
# race with the writes of other work-items (a planted missing barrier).
kernel rev(p: Ptr[Float32]) {
    shared s: Array[Float32, 64]
    let t = thread_idx.x
    s[t] = p[t]
    p[t] = s[63 - t]
}
