# The same as fold_vs_contract with --fp-contract=off: folded = run time.
const A = Float32(0.01)
kernel k(p: Ptr[Float32], a: Float32) {
    p[0] = a * 0.1 - 1e-3
    p[1] = A * 0.1 - 1e-3
}
