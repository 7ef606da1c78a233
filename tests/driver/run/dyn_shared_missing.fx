# a block-wide reversal through dynamic shared memory: the block size is
# only known at launch, so is the array's length
fn reverse_in(shared s: Array[Float32, DYN], t: Int32, n: Int32) -> Float32 {
    return s[n - 1 - t]
}

kernel rev(p: Ptr[Float32]) {
    shared fixed: Array[Int32, 3]
    shared s: Array[Float32, DYN]
    let t = thread_idx.x
    let n = block_dim.x
    if t < 3 {
        fixed[t] = t
    }
    s[t] = p[block_idx.x * n + t]
    fx.barrier()
    p[block_idx.x * n + t] = reverse_in(s, t, n) + Float32(fixed[t % 3])
}
