# "Folded = run time" and contraction (docs/decisions.md): p[1] is folded
# (two roundings); p[0] is the same expression at run time, fused into one
# fma under the default --fp-contract=on: for a = 0.01 the folded value is
# 0.0 and the fused one -5.49e-11 (the product's rounding error survives);
# with --fp-contract=off (fold_vs_contract_off) they are equal.
const A = Float32(0.01)
kernel k(p: Ptr[Float32], a: Float32) {
    p[0] = a * 0.1 - 1e-3
    p[1] = A * 0.1 - 1e-3
}
