# docs/limits.md
program p(A: Tensor[Float32, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], B: Tensor[Float32, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]) {
    B = A * 2.0
}
