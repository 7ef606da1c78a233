# transpose: out (cols x rows) = in (rows x cols)ᵀ through a 16 x 17 shared
# tile (the extra column keeps the column reads off one LDS bank). Blocks
# of 256 work-items in one dimension; grid = ceil(cols/16) * ceil(rows/16).
@launch_bounds(256)
kernel transpose(src: const Ptr[Float32], dst: Ptr[Float32], rows: Int32, cols: Int32) {
    shared tile: Array[Float32, 16, 17]
    let tx = thread_idx.x % 16
    let ty = thread_idx.x // 16
    let tiles_x = (cols + 15) // 16
    let bx = block_idx.x % tiles_x
    let by = block_idx.x // tiles_x
    let r = by * 16 + ty
    let c = bx * 16 + tx
    if r < rows and c < cols {
        tile[ty, tx] = src[r * cols + c]
    }
    fx.barrier()
    let orow = bx * 16 + ty            # a row of dst is a column of src
    let ocol = by * 16 + tx
    if orow < cols and ocol < rows {
        dst[orow * rows + ocol] = tile[tx, ty]
    }
}
