# softmax.fx - y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)) for each
# row r of a rows x cols matrix (row-major). One block of ROW_BLOCK
# work-items per row: each work-item walks the row with a stride of
# ROW_BLOCK, then the block combines the partial maxima and sums with
# common.fx's block_max and block_sum.
#   fxrun softmax.fx softmax --grid ROWS --block 256 'x=...' 'y=zeros(Float32, ROWS*COLS)' rows=ROWS cols=COLS
import "common.fx"

@launch_bounds(ROW_BLOCK)
kernel softmax(x: const Ptr[Float32], y: Ptr[Float32], rows: Int32, cols: Int32) {
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
        let row_max = block_max(m)

        # 2. The exponentials and their sum.
        var sum: Float32 = 0.0
        j = t
        while j < cols {
            let e = exp_shifted(x[base + j], row_max)
            y[base + j] = e
            sum += e
            j += ROW_BLOCK
        }

        # 3. Normalize.
        let inv = 1.0 / block_sum(sum)
        j = t
        while j < cols {
            y[base + j] = y[base + j] * inv
            j += ROW_BLOCK
        }
    }
}
