# 64 KiB of private array per work-item (the limit, docs/limits.md) with a
# barrier: every work-item runs on its own fiber stack, which holds it.
kernel k(out: Ptr[Float32]) {
    var a: Array[Float32, 16384]
    shared s: Array[Float32, 64]
    let t = thread_idx.x
    for i in range(16384) {
        a[i] = Float32(i + t)
    }
    s[t] = a[16383] + a[t]
    fx.barrier()
    out[t] = s[63 - t]
}
