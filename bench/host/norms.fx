# norms.fx - the sums of squares of the rows of X: one reduction of an
# expression, which map-fusion folds into one kernel (bench/host/results.md,
# "Before and after: reductions of expressions, and reductions in one
# kernel").
program norms(X: Tensor[Float32, M, N], r: Tensor[Float32, M], M: Int32, N: Int32) {
    r = fx.reduce_sum(X * X, axis=1)
}
