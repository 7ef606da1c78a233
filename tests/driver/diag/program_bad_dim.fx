program p(X: Tensor[Float32, R, 4], R: Float32) {
}
