# @contraction_precision("xf32") on gfx942: the products read each Float32
# input with 10 significand bits (1 + 2^-10 stays, 1 + 2^-11 becomes 1).
@contraction_precision("xf32")
program mm(A: Tensor[Float32, M, K], B: Tensor[Float32, K, N], C: Tensor[Float32, M, N], M: Int32, N: Int32, K: Int32) {
    C = A @ B
}
