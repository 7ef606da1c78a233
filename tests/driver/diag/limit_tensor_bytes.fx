# docs/limits.md
program p(A: Tensor[Float32, 2**31, 2**31], B: Tensor[Float32, 2**31, 2**31]) {
    B = A * 2.0
}
