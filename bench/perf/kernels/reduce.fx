# reduce: total += sum(x[0:n]). Each work-item sums a grid-stride slice
# (a range with a run-time step), the block combines its 256 partial sums
# in shared memory by halving, and work-item 0 adds the block's sum to the
# total with one atomic.
@launch_bounds(256)
kernel reduce(x: const Ptr[Float32], total: Ptr[Float32], n: Int32) {
    shared part: Array[Float32, 256]
    let t = thread_idx.x
    var acc: Float32 = 0.0
    for i in range(block_idx.x * 256 + t, n, grid_dim.x * 256) {
        acc += x[i]
    }
    part[t] = acc
    fx.barrier()
    var s = 128
    while s > 0 {
        if t < s {
            part[t] += part[t + s]
        }
        fx.barrier()
        s = s // 2
    }
    if t == 0 {
        fx.atomic_add(total, 0, part[0])
    }
}
