# exp_f64.fx - y = exp(x) in Float64: one call into AMD's device math library.
@launch_bounds(256)
kernel exp_f64(x: const Ptr[Float64], y: Ptr[Float64], n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        y[i] = fx.exp(x[i])
    }
}
