#fxcc: --target=host --offload-arch=gfx942 -c
# An Int8 GEMM for the host with gfx942's waves: 68 exchanges, over the
# limit of work-item-loop regions, so the kernel runs on fibers; the
# rejected region plan's maps were leaked (LeakSanitizer under the fuzzer).
# gemm_int8.fx - an Int8 matrix product accumulated exactly in Int32, as a
# tensor program: the matrix cores' Int8 instructions on gfx90a and gfx942,
# WMMA on gfx11 and gfx12, a dot-product loop on the host. B is read
# transposed (stored N x K), as quantized weights often are.
program gemm_int8(A: Tensor[Int8, M, K], Bt: Tensor[Int8, N, K], C: Tensor[Int32, M, N],
                  M: Int32, N: Int32, K: Int32) {
    C = A @ Bt.T
}
