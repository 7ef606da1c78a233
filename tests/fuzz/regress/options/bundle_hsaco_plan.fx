#fxcc: --offload-arch=gfx90a,gfx1100 -o fuzz.out -D BLOCK=128 -Wextra --fastmath=fast
# Two processors (an offload bundle: each compiled and linked), a const
# overridden from the command line, all fast-math flags.
const BLOCK = 256
program scale(A: Tensor[Float32, N], B: Tensor[Float32, N], N: Int32) {
    B = A * 2.0 + fx.sqrt(A)
}
kernel fill(x: Ptr[Float32], n: Int32) {
    let i = block_idx.x * BLOCK + thread_idx.x
    if i < n {
        x[i] = 0.0
    }
}
