program p(X: Tensor[Float32, 4], s: Float32) {
    s = X
}
