# cvt_f16: Float32 to Float16 under four rounding modes. Where the GPU has
# no instruction for a mode fxcc emits an exact software sequence.
@launch_bounds(256)
kernel cvt_f16(x: const Ptr[Float32], nearest: Ptr[Float16], zero: Ptr[Float16],
               down: Ptr[Float16], up: Ptr[Float16], n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        let v = x[i]
        nearest[i] = v.to(Float16)
        zero[i] = v.to(Float16, rounding_mode=fx.RoundingMode.toward_zero)
        down[i] = v.to(Float16, rounding_mode=fx.RoundingMode.downward)
        up[i] = v.to(Float16, rounding_mode=fx.RoundingMode.upward)
    }
}
