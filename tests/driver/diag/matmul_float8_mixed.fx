# gfx942 multiplies fp8 by bf8, but a product's operands are one type here
program p(A: Tensor[Float8E4M3FNUZ, 16, 32], B: Tensor[Float8E5M2FNUZ, 32, 16], C: Tensor[Float32, 16, 16]) {
    C = A @ B
}
