kernel k(p: Ptr[Float32], q: Ptr[Int32]) {
    p[0] = q[0].to(Float32, rounding_mode=fx.RoundingMode.upward)
}
