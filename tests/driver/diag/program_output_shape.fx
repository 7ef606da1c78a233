program p(X: Tensor[Float32, 8, 4], r: Tensor[Float32, 4]) {
    r = fx.reduce_sum(X, axis=1)
}
