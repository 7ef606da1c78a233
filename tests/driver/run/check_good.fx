# --check stays silent on a correct shared-memory reverse, also under the
# gfx942 wave model.
kernel good(p: Ptr[Float32]) {
    shared s: Array[Float32, 64]
    let t = thread_idx.x
    s[t] = p[t]
    fx.barrier()
    p[t] = s[63 - t]
}
