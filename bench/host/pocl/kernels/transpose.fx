# transpose.fx - b = a^T for a rows x cols Float32 matrix (row-major; b is
# cols x rows), through shared memory: a block of 32 x 8 work-items reads a
# 32 x 32 tile of a along its rows (4 elements per work-item), waits, and
# writes the tile's columns as rows of b. The tile has a 33rd column of
# padding so that a column of it does not fall into one bank of a GPU's
# shared memory. transpose.cl is the same.
#   fxrun transpose.fx transpose --grid cols/32,rows/32 --block 32,8 a=@a.bin b=@b.bin rows=.. cols=..

const T = 32        # the tile's edge
const R = 8         # rows of work-items in a block

@launch_bounds(T * R)
kernel transpose(a: const Ptr[Float32], b: Ptr[Float32], rows: Int32, cols: Int32) {
    shared tile: Array[Float32, T, T + 1]
    let tx = thread_idx.x
    let ty = thread_idx.y
    let x = block_idx.x * T + tx            # a column of a
    let y = block_idx.y * T + ty            # a row of a
    for j in static_range(0, T, R) {
        if x < cols and y + j < rows {
            tile[ty + j, tx] = a[(y + j) * cols + x]
        }
    }
    fx.barrier()
    let xo = block_idx.y * T + tx           # a column of b (a row of a)
    let yo = block_idx.x * T + ty           # a row of b
    for j in static_range(0, T, R) {
        if xo < rows and yo + j < cols {
            b[(yo + j) * rows + xo] = tile[tx, ty + j]
        }
    }
}
