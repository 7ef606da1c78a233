# saxpy: y = a * x + y, one element per work-item.
@launch_bounds(256)
kernel saxpy(x: const Ptr[Float32], y: Ptr[Float32], a: Float32, n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        y[i] = a * x[i] + y[i]
    }
}
