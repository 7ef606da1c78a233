# One rounding (fused) versus two (unfused): a = b = 1 + 2^-13, c = -1 in
# Float32 and a = b = 1 + 2^-30 in Float64 make them differ.
kernel fma_rounding(r32: Ptr[Float32], r64: Ptr[Float64], a32: Float32, c32: Float32, a64: Float64, c64: Float64) {
    r32[0] = a32 * a32 + c32
    r32[1] = fx.fma(a32, a32, c32)
    r64[0] = a64 * a64 + c64
    r64[1] = fx.fma(a64, a64, c64)
}
