# --check: half the block writes, all of it reads: the other half reads
# shared memory nobody wrote (the GPU's LDS is not zeroed).
kernel uninit(p: Ptr[Float32]) {
    shared s: Array[Float32, 64]
    let t = thread_idx.x
    if t < 32 {
        s[t] = p[t]
    }
    fx.barrier()
    p[t] = s[63 - t]
}
