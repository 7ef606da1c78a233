# common.fx - constants and functions shared by the examples. It defines no
# kernel, so the Makefile does not compile it on its own: it is only
# imported (and named in the importers' dependency files).

const ROW_BLOCK = 256      # work-items per row in softmax and layernorm
const TILE = 16            # edge of the square tiles of gemm_tiled

# exp(x - m): with m the row maximum the argument is <= 0, so the
# exponential cannot overflow.
fn exp_shifted(x: Float32, m: Float32) -> Float32 {
    return fx.exp(x - m)
}

# Block-wide reductions for kernels of ROW_BLOCK work-items: every
# work-item gets the result. A tree in shared memory halves the active
# work-items at each step, with a barrier between steps so that nobody reads
# a slot before it is written. The array is the fn's own: one per kernel
# that calls the fn, however often; the barrier after reading the result
# lets the next call reuse it. Call them where every work-item of the block
# does (they wait at barriers).
fn block_sum(v: Float32) -> Float32 {
    shared red: Array[Float32, ROW_BLOCK]
    let t = thread_idx.x
    red[t] = v
    fx.barrier()
    for k in static_range(8) {            # 256 = 2**8 slots, halved 8 times
        let s = ROW_BLOCK >> (k + 1)
        if t < s {
            red[t] += red[t + s]
        }
        fx.barrier()
    }
    let total = red[0]
    fx.barrier()
    return total
}

fn block_max(v: Float32) -> Float32 {
    shared red: Array[Float32, ROW_BLOCK]
    let t = thread_idx.x
    red[t] = v
    fx.barrier()
    for k in static_range(8) {
        let s = ROW_BLOCK >> (k + 1)
        if t < s {
            red[t] = fx.max(red[t], red[t + s])
        }
        fx.barrier()
    }
    let top = red[0]
    fx.barrier()
    return top
}

static_assert(ROW_BLOCK == 2**8, "the reductions halve ROW_BLOCK 8 times")

# Zero outside [0, n): pads the tiles at the matrix edges.
fn in_range(i: Int32, n: Int32) -> Boolean {
    return i >= 0 and i < n
}
