# gemm.fx - a GEMM as a tensor program: C = alpha * A @ B + beta * C with
# symbolic sizes. fxcc turns it into kernels (FMA tiles, or the matrix
# cores where the target has them) and a launch plan: fxcc --print-plan.
#   fxrun gemm.fx gemm 'A=rand(Float64, 64, 32, seed=1)' 'B=rand(Float64, 32, 48, seed=2)' \
#       'C=zeros(Float64, 64, 48)' M=64 N=48 K=32 alpha=1.5 beta=0.5 --print C
program gemm(A: Tensor[Float64, M, K], B: Tensor[Float64, K, N], C: Tensor[Float64, M, N],
             alpha: Float64, beta: Float64, M: Int32, N: Int32, K: Int32) {
    C = alpha * A @ B + beta * C
}
