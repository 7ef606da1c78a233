# --check: a barrier under a condition on thread_idx: 2 work-items wait
# while the others finish.
kernel diverge(p: Ptr[Float32]) {
    shared s: Array[Float32, 64]
    let t = thread_idx.x
    s[t] = p[t]
    if t < 2 {
        fx.barrier()
    }
    p[t] = s[t]
}
