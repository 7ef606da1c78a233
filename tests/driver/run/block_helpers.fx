# a block-wide sum as a helper: the shared array is the caller's
fn block_sum(shared s: Array[Float32, 64], v: Float32) -> Float32 {
    let t = thread_idx.x
    s[t] = v
    fx.barrier()
    var stride = 32
    while stride > 0 {
        if t < stride {
            s[t] += s[t + stride]
        }
        fx.barrier()
        stride = stride // 2
    }
    let r = s[0]
    fx.barrier()
    return r
}

# a helper with its own shared scratch: one allocation per kernel
fn block_max(v: Float32) -> Float32 {
    shared m: Array[Float32, 64]
    let t = thread_idx.x
    m[t] = v
    fx.barrier()
    var r = m[0]
    for k in range(1, 64) {
        r = fx.max(r, m[k])
    }
    fx.barrier()
    return r
}

kernel stats(x: const Ptr[Float32], out: Ptr[Float32]) {
    shared buf: Array[Float32, 64]
    let v = x[block_idx.x * 64 + thread_idx.x]
    let s = block_sum(buf, v)
    let m = block_max(v)
    let m2 = block_max(v * 2.0)
    if thread_idx.x == 0 {
        out[block_idx.x * 3] = s
        out[block_idx.x * 3 + 1] = m
        out[block_idx.x * 3 + 2] = m2
    }
}
