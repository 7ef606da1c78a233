# an 8-bit float meets another 8-bit float only (fp8 by bf8), not a Float16
program p(A: Tensor[Float8E4M3FNUZ, 16, 32], B: Tensor[Float16, 32, 16], C: Tensor[Float32, 16, 16]) {
    C = A @ B
}
