# gemm.fx - a GEMM as a tensor program: C = alpha * A @ B + beta * C with
# symbolic sizes. fxcc turns it into kernels (FMA tiles, or the matrix
# cores where the target has them) and a launch plan: fxcc --print-plan.
#   fxrun gemm.fx gemm 'A=rand(Float64, M, K, seed=1)' ... M=.. N=.. K=.. alpha=.. beta=..
program gemm(A: Tensor[Float64, M, K], B: Tensor[Float64, K, N], C: Tensor[Float64, M, N],
             alpha: Float64, beta: Float64, M: Int32, N: Int32, K: Int32) {
    C = alpha * A @ B + beta * C
}
