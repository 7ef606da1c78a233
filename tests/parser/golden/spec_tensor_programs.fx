# spec §7 "Programs (tensor level)": the statement forms inside programs.
program gemm(A: Tensor[Float64, M, K], B: Tensor[Float64, K, N], C: Tensor[Float64, M, N],
             alpha: Float64, beta: Float64, M: Int32, N: Int32, K: Int32) {
    C = A @ B                           # MatMul library node
    C = alpha * A @ B + beta * C        # GEMM (row-major; alpha, beta scalars)
    C = A.T @ B                         # transposes allowed on either operand
    let T = A @ B                       # a transient tensor, allocated by the plan
}

program mlp(X: Tensor[Float32, 64, 128], s: Float32, b: Tensor[Float32, 128],
            Y: Tensor[Float32, 64, 128], A: Tensor[Float32, 64, 128], r: Tensor[Float32, 64]) {
    Y = fx.max(X * s + b, 0.0)          # elementwise map with numpy broadcasting
    r = fx.reduce_max(fx.abs(A), axis=1)  # reductions: reduce_max/min/sum, axis=
}

program colmajor(A: Tensor[Float32, 16, 8, col_major], B: Tensor[Float32, 8, 4],
                 C: Tensor[Float32, 16, 4]) {
    C = A @ B
}
