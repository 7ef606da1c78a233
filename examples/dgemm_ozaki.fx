# dgemm_ozaki.fx - a Float64 matrix product computed from Int8 matrix
# products (the Ozaki scheme, docs/contraction.md): @contraction_precision
# asks for it whatever --contraction-precision says. dgemm_native is the
# same product computed in Float64 for comparison: the two agree to about
# one unit in the last place of the largest terms.
#   fxcc dgemm_ozaki.fx -Rpass=contraction-precision
@contraction_precision("ozaki")
program dgemm_ozaki(A: Tensor[Float64, 4, 64], B: Tensor[Float64, 64, 4], C: Tensor[Float64, 4, 4]) {
    C = A @ B
}

program dgemm_native(A: Tensor[Float64, 4, 64], B: Tensor[Float64, 64, 4], C: Tensor[Float64, 4, 4]) {
    C = A @ B
}
