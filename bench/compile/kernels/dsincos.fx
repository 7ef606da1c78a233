# dsincos.fx - s = sin(x), c = cos(x) in Float64 (device math library).
@launch_bounds(256)
kernel dsincos(x: const Ptr[Float64], s: Ptr[Float64], c: Ptr[Float64], n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        s[i] = fx.sin(x[i])
        c[i] = fx.cos(x[i])
    }
}
