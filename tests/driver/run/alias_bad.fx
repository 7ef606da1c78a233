# A parameter may only share a buffer that is not itself shared.
kernel scale(x: Ptr[Float32], y: Ptr[Float32], a: Float32) {
    let i = thread_idx.x
    y[i] = a * x[i]
}
