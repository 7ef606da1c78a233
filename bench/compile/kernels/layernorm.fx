# layernorm.fx - y[r, :] = (x[r, :] - mean) / sqrt(variance + EPS) * gamma + beta
# for each row r of a rows x cols matrix: one block of ROW_BLOCK work-items
# per row, the mean and then the variance (of the deviations from the mean,
# which loses less than E[x^2] - E[x]^2) reduced in shared memory.
#   fxrun layernorm.fx layernorm --grid ROWS --block 256 'x=...' 'gamma=...' 'beta=...' 'y=...' rows=ROWS cols=COLS
import "common.fx"

const EPS = 1e-5           # -D EPS=... to change it

@launch_bounds(ROW_BLOCK)
kernel layernorm(x: const Ptr[Float32], gamma: const Ptr[Float32], beta: const Ptr[Float32],
                 y: Ptr[Float32], rows: Int32, cols: Int32) {
    shared red: Array[Float32, ROW_BLOCK]
    let r = block_idx.x
    let t = thread_idx.x
    if r < rows {
        let base = r * cols
        let n = Float32(cols)

        var acc: Float32 = 0.0
        for j in range(t, cols, ROW_BLOCK) {
            acc += x[base + j]
        }
        red[t] = acc
        fx.barrier()
        for k in static_range(8) {            # 256 = 2**8 slots, halved 8 times
            let s = ROW_BLOCK >> (k + 1)
            if t < s {
                red[t] += red[t + s]
            }
            fx.barrier()
        }
        let mean = red[0] / n
        fx.barrier()

        acc = 0.0
        for j in range(t, cols, ROW_BLOCK) {
            let d = x[base + j] - mean
            acc += d * d
        }
        red[t] = acc
        fx.barrier()
        for k in static_range(8) {
            let s = ROW_BLOCK >> (k + 1)
            if t < s {
                red[t] += red[t + s]
            }
            fx.barrier()
        }
        let inv_std = fx.rsqrt(red[0] / n + EPS)

        for j in range(t, cols, ROW_BLOCK) {
            y[base + j] = (x[base + j] - mean) * inv_std * gamma[j] + beta[j]
        }
    }
}

static_assert(ROW_BLOCK == 2**8, "the reduction loops halve ROW_BLOCK 8 times")
