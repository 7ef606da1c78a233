# softmax.fx - y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)) for each
# row r of a rows x cols matrix (row-major). One block of ROW_BLOCK
# work-items per row: each work-item walks the row with a stride of
# ROW_BLOCK, then the block combines the partial maxima and sums in shared
# memory, halving the active work-items at each step, with a barrier between
# steps so that nobody reads a slot before it is written.
#   fxrun softmax.fx softmax --grid ROWS --block 256 'x=...' 'y=zeros(Float32, ROWS*COLS)' rows=ROWS cols=COLS
import "common.fx"

@launch_bounds(ROW_BLOCK)
kernel softmax(x: const Ptr[Float32], y: Ptr[Float32], rows: Int32, cols: Int32) {
    shared red: Array[Float32, ROW_BLOCK]
    let r = block_idx.x
    let t = thread_idx.x
    if r < rows {
        let base = r * cols

        # 1. The row's maximum.
        var m: Float32 = -fx.inf
        var j = t
        while j < cols {
            m = fx.max(m, x[base + j])
            j += ROW_BLOCK
        }
        red[t] = m
        fx.barrier()
        var s = ROW_BLOCK // 2
        while s > 0 {
            if t < s {
                red[t] = fx.max(red[t], red[t + s])
            }
            fx.barrier()
            s = s // 2
        }
        let row_max = red[0]
        fx.barrier()                  # all have read red[0] before it is reused

        # 2. The exponentials and their sum.
        var sum: Float32 = 0.0
        j = t
        while j < cols {
            let e = exp_shifted(x[base + j], row_max)
            y[base + j] = e
            sum += e
            j += ROW_BLOCK
        }
        red[t] = sum
        fx.barrier()
        s = ROW_BLOCK // 2
        while s > 0 {
            if t < s {
                red[t] += red[t + s]
            }
            fx.barrier()
            s = s // 2
        }

        # 3. Normalize.
        let inv = 1.0 / red[0]
        j = t
        while j < cols {
            y[base + j] = y[base + j] * inv
            j += ROW_BLOCK
        }
    }
}
