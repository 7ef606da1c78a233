kernel k(p: Ptr[Float16]) {
    p[0] = Float32(1.0).to(Float16, rounding_mode=fx.RoundingMode.upward)
}
