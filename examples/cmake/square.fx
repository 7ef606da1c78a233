# square.fx - x = x * x in place over n elements. Imports nothing.

kernel square(x: Ptr[Float32], n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        x[i] = x[i] * x[i]
    }
}
