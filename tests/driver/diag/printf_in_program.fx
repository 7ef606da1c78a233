fn relu(x: Float32) -> Float32 {
    fx.printf("%f\n", x)
    return fx.max(x, 0.0)
}
program p(X: Tensor[Float32, 4], Y: Tensor[Float32, 4]) {
    Y = relu(X)
}
