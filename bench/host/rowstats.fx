# rowstats.fx - the maximum, sum and sum of squares of each row of X: three
# reductions of one tensor along one axis, which map-fusion runs as one
# kernel reading X once (bench/host/results.md, "Before and after:
# reductions of expressions, and reductions in one kernel").
program rowstats(X: Tensor[Float32, M, N], mx: Tensor[Float32, M], s1: Tensor[Float32, M],
                 s2: Tensor[Float32, M], M: Int32, N: Int32) {
    mx = fx.reduce_max(X, axis=1)
    s1 = fx.reduce_sum(X, axis=1)
    s2 = fx.reduce_sum(X * X, axis=1)
}
