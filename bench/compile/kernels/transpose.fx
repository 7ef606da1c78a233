# transpose.fx - out = transpose(in) for a rows x cols Float32 matrix through a
# 32 x 33 shared tile (the extra column avoids bank conflicts).
@launch_bounds(1024)
kernel transpose(src: const Ptr[Float32], dst: Ptr[Float32], rows: Int32, cols: Int32) {
    shared tile: Array[Float32, 32, 33]
    let tx = thread_idx.x
    let ty = thread_idx.y
    let c = block_idx.x * 32 + tx
    let r = block_idx.y * 32 + ty
    if r < rows and c < cols {
        tile[ty, tx] = src[r * cols + c]
    }
    fx.barrier()
    let oc = block_idx.y * 32 + tx
    let orow = block_idx.x * 32 + ty
    if orow < cols and oc < rows {
        dst[orow * rows + oc] = tile[tx, ty]
    }
}
