# softmax: y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)), one block
# of 256 work-items per row; the row's maximum and sum are combined in
# shared memory by halving, with a barrier between steps.
@launch_bounds(256)
kernel softmax(x: const Ptr[Float32], y: Ptr[Float32], rows: Int32, cols: Int32) {
    shared red: Array[Float32, 256]
    let r = block_idx.x
    let t = thread_idx.x
    if r < rows {
        let base = r * cols
        var m: Float32 = -fx.inf
        for j in range(t, cols, 256) {
            m = fx.max(m, x[base + j])
        }
        red[t] = m
        fx.barrier()
        var s = 128
        while s > 0 {
            if t < s {
                red[t] = fx.max(red[t], red[t + s])
            }
            fx.barrier()
            s = s // 2
        }
        let row_max = red[0]
        fx.barrier()                  # everyone has read red[0] before it is reused
        var sum: Float32 = 0.0
        for j in range(t, cols, 256) {
            let e = fx.exp(x[base + j] - row_max)
            y[base + j] = e
            sum += e
        }
        red[t] = sum
        fx.barrier()
        s = 128
        while s > 0 {
            if t < s {
                red[t] += red[t + s]
            }
            fx.barrier()
            s = s // 2
        }
        let inv = 1.0 / red[0]
        for j in range(t, cols, 256) {
            y[base + j] = y[base + j] * inv
        }
    }
}
