# layernorm.fx - y[r, :] = (x[r, :] - mean) / sqrt(variance + EPS) * gamma + beta
# for each row r of a rows x cols matrix: one block of ROW_BLOCK work-items
# per row, the mean and then the variance (of the deviations from the mean,
# which loses less than E[x^2] - E[x]^2) reduced with common.fx's block_sum.
#   fxrun layernorm.fx layernorm --grid ROWS --block 256 'x=...' 'gamma=...' 'beta=...' 'y=...' rows=ROWS cols=COLS
import "common.fx"

const EPS = 1e-5           # -D EPS=... to change it

@launch_bounds(ROW_BLOCK)
kernel layernorm(x: const Ptr[Float32], gamma: const Ptr[Float32], beta: const Ptr[Float32],
                 y: Ptr[Float32], rows: Int32, cols: Int32) {
    let r = block_idx.x
    let t = thread_idx.x
    if r < rows {
        let base = r * cols
        let n = Float32(cols)

        var acc: Float32 = 0.0
        for j in range(t, cols, ROW_BLOCK) {
            acc += x[base + j]
        }
        let mean = block_sum(acc) / n

        acc = 0.0
        for j in range(t, cols, ROW_BLOCK) {
            let d = x[base + j] - mean
            acc += d * d
        }
        let inv_std = fx.rsqrt(block_sum(acc) / n + EPS)

        for j in range(t, cols, ROW_BLOCK) {
            y[base + j] = (x[base + j] - mean) * inv_std * gamma[j] + beta[j]
        }
    }
}
