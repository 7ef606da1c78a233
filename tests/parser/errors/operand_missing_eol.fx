program p(A: Tensor[Float32, 4, 4]) {
    A = A @
}
