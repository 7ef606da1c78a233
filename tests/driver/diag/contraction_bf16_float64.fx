# the BFloat16 schemes split Float32 operands; a Float64 product cannot use them
@contraction_precision("bf16x9")
program p(A: Tensor[Float64, 16, 32], B: Tensor[Float64, 32, 16], C: Tensor[Float64, 16, 16]) {
    C = A @ B
}
