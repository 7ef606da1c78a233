# softmax.fx - y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)) for
# each row r of a rows x cols Float32 matrix (row-major), one block of 256
# work-items per row. Each work-item walks the row with a stride of 256;
# the block combines the partial maxima, then the partial sums, in a tree
# in shared memory (9 barriers each, 18 a block). softmax.cl is the same.
#   fxrun softmax.fx softmax --grid ROWS --block 256 x=@x.bin y=@y.bin rows=ROWS cols=COLS

const B = 256

# The tree: 128 work-items combine slot t with slot t + 128, then 64 with
# t + 64, ... down to slot 0; a barrier after each step.
fn tree_max(shared s: Array[Float32, B], v: Float32) -> Float32 {
    let t = thread_idx.x
    s[t] = v
    fx.barrier()
    for k in static_range(8) {
        let h = B >> (k + 1)
        if t < h {
            s[t] = fx.max(s[t], s[t + h])
        }
        fx.barrier()
    }
    return s[0]
}

fn tree_sum(shared s: Array[Float32, B], v: Float32) -> Float32 {
    let t = thread_idx.x
    s[t] = v
    fx.barrier()
    for k in static_range(8) {
        let h = B >> (k + 1)
        if t < h {
            s[t] += s[t + h]
        }
        fx.barrier()
    }
    return s[0]
}

@launch_bounds(B)
kernel softmax(x: const Ptr[Float32], y: Ptr[Float32], rows: Int32, cols: Int32) {
    shared maxes: Array[Float32, B]
    shared sums: Array[Float32, B]
    let r = block_idx.x
    let t = thread_idx.x
    if r < rows {
        let base = r * cols
        var m: Float32 = -fx.inf
        for j in range(t, cols, B) {
            m = fx.max(m, x[base + j])
        }
        let row_max = tree_max(maxes, m)
        var sum: Float32 = 0.0
        for j in range(t, cols, B) {
            let e = fx.exp(x[base + j] - row_max)
            y[base + j] = e
            sum += e
        }
        let inv = 1.0 / tree_sum(sums, sum)
        for j in range(t, cols, B) {
            y[base + j] = y[base + j] * inv
        }
    }
}
