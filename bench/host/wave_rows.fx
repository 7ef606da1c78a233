# wave_rows.fx - row sums through wave reductions, the usual way to reduce
# on a GPU: each work-item sums a stride of the row, fx.wave_sum adds a
# wave's partial sums, lane 0 of each wave leaves its wave's in shared
# memory, and after a barrier work-item 0 adds those. On the host it runs on
# the emulated waves of `fxrun --arch` (docs/waves.md): as work-item loops
# cut at the exchange and the barrier, or on fibers.
kernel wave_rows(x: const Ptr[Float32], y: Ptr[Float32], cols: Int32) {
    shared part: Array[Float32, 1024]
    let t = thread_idx.x
    let row = block_idx.x
    var acc: Float32 = 0.0
    for c in range(t, cols, block_dim.x) {
        acc += x[row * cols + c]
    }
    let s = fx.wave_sum(acc)
    if fx.lane_id() == 0 {
        part[t // fx.wave_size()] = s
    }
    fx.barrier()
    if t == 0 {
        var total: Float32 = 0.0
        for w in range((block_dim.x + fx.wave_size() - 1) // fx.wave_size()) {
            total += part[w]
        }
        y[row] = total
    }
}
