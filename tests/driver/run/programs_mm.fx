program mm(A: Tensor[Float64, M, K], B: Tensor[Float64, K, N], C: Tensor[Float64, M, N], M: Int32, N: Int32, K: Int32) {
    C = A @ B
}
program net(X: Tensor[Float32, 3, 4], s: Float32, b: Tensor[Float32, 4], Y: Tensor[Float32, 3, 4], r: Tensor[Float32, 3]) {
    let T = X * s + b
    Y = fx.max(T, 0.0)
    r = fx.reduce_sum(Y, axis=1)
}
