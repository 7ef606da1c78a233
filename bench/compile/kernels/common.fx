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

# Zero outside [0, n): pads the tiles at the matrix edges.
fn in_range(i: Int32, n: Int32) -> Boolean {
    return i >= 0 and i < n
}
