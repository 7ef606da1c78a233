program p(X: Tensor[Float32, 8, 4], b: Tensor[Float32, 3], Y: Tensor[Float32, 8, 4]) {
    Y = X + b
}
