program p(A: Tensor[Float32, M, K], B: Tensor[Float32, N, K], C: Tensor[Float32, M, N], M: Int32, N: Int32, K: Int32) {
    C = A @ B
}
