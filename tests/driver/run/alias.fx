# Two Ptr parameters may point at one buffer (y=@x), as on the GPU: the
# kernel scales x in place through y.
kernel scale(x: Ptr[Float32], y: Ptr[Float32], a: Float32) {
    let i = thread_idx.x
    y[i] = a * x[i]
}
