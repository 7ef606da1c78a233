# map-fusion folds a Map into the reduction that reads its output, and runs
# reductions along one axis that read a common tensor in one kernel: r and
# s (both along rows of X) are one kernel, m another, each computing the
# elements it reduces; the results are those of the statements as written.
# q's reduction reads q: its Map stays a kernel of its own, and
# -Rpass-missed says why.
program p(X: Tensor[Int32, 3, 4], b: Tensor[Int32, 4], r: Tensor[Int32, 3], m: Tensor[Int32, 4],
          s: Tensor[Int32, 3], q: Tensor[Int32, 4], n: Int32) {
    r = fx.reduce_sum(X * X, axis=1)
    m = fx.reduce_max(fx.abs(X - n) + b, axis=0)
    let T = X * 2
    let U = T - b
    s = fx.reduce_min(U, axis=1)
    q = fx.reduce_max(X + q, axis=0)
}
