#fxcc: --offload-arch=gfx1201 -S -g -O2 --contraction-precision=int8 --fastmath=nnan,ninf --no-assert -Rpass=contraction-precision
# A quantized Float32 GEMM through the backend (assembly with line tables)
# for an RDNA4 processor, fast-math flags on, fx.assert dropped.
kernel check(x: Ptr[Float32], n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    fx.assert(i >= 0)
    if i < n {
        x[i] = x[i] * 2.0 + 1.0
    }
}
program mm(A: Tensor[Float32, 16, 8], B: Tensor[Float32, 8, 16], C: Tensor[Float32, 16, 16]) {
    C = A @ B
}
