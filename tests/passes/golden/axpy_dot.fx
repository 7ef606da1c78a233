# A real kernel: scaled update plus a small dot product per thread.
kernel axpy_dot(x: const Ptr[Float32], y: Ptr[Float32], out: Ptr[Float32], a: Float32, n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        let xi = x[i]
        y[i] = a * xi + y[i]
        var acc: Float32 = 0.0
        for k in range(4) {
            acc += x[k] * y[k]
        }
        out[i] = acc
    }
}
