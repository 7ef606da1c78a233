# reduce_sum.fx - partial sums of x, one per block, by halving in shared memory.
@launch_bounds(256)
kernel reduce_sum(x: const Ptr[Float32], partial: Ptr[Float32], n: Int32) {
    shared red: Array[Float32, 256]
    let t = thread_idx.x
    var acc: Float32 = 0.0
    for j in range(block_idx.x * 256 + t, n, grid_dim.x * 256) {
        acc += x[j]
    }
    red[t] = acc
    fx.barrier()
    for k in static_range(8) {
        let s = 256 >> (k + 1)
        if t < s {
            red[t] += red[t + s]
        }
        fx.barrier()
    }
    if t == 0 {
        partial[block_idx.x] = red[0]
    }
}
