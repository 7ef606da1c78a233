# a Float8 product accumulates in Float32: an 8-bit result would drop it
program p(A: Tensor[Float8E4M3FN, 16, 32], B: Tensor[Float8E4M3FN, 32, 16], C: Tensor[Float8E4M3FN, 16, 16]) {
    C = A @ B
}
