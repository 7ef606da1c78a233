# saxpy.fx - y = a * x + y over n Float32, one work-item per element, in
# blocks of 256 (saxpy.cl is the same kernel in OpenCL C).
#   fxrun saxpy.fx saxpy --grid n/256 --block 256 x=@x.bin y=@y.bin a=0.5 n=N

@launch_bounds(256)
kernel saxpy(x: const Ptr[Float32], y: Ptr[Float32], a: Float32, n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        y[i] = fx.fma(a, x[i], y[i])
    }
}
