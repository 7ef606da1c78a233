# convert.fx - float conversions under each rounding mode. Every mode works
# for every pair of float types on every target; where the GPU has no
# instruction for a mode, fxcc emits an exact software sequence, so the
# host and the GPUs agree bit for bit. Integer conversions truncate and
# saturate.
kernel convert(x: const Ptr[Float32], nearest: Ptr[Float16], down: Ptr[Float16], up: Ptr[Float16],
               zero: Ptr[Float16], away: Ptr[Float16], bf_zero: Ptr[BFloat16],
               fp8: Ptr[Float8E4M3FN], i8: Ptr[Int8], n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        let v = x[i]
        nearest[i] = v.to(Float16)                  # to_nearest_even, the default
        down[i] = v.to(Float16, rounding_mode=fx.RoundingMode.downward)
        up[i] = v.to(Float16, rounding_mode=fx.RoundingMode.upward)
        zero[i] = v.to(Float16, rounding_mode=fx.RoundingMode.toward_zero)
        away[i] = v.to(Float16, rounding_mode=fx.RoundingMode.to_nearest_away)
        bf_zero[i] = v.to(BFloat16, rounding_mode=fx.RoundingMode.toward_zero)
        fp8[i] = Float8E4M3FN(v)                     # 448 is its largest finite value
        i8[i] = Int8(v)                              # truncates, saturates at -128 and 127
    }
}
