# Every wave operation every processor has, in divergent code, and the
# Float16 conversions under every rounding mode (tests/driver/test_processors.c).
kernel waves(x: Ptr[Int32], f: Ptr[Float64], h: Ptr[Float16], u: Ptr[Float32]) {
    let g = thread_idx.x
    if x[g] > 0 {
        x[g] = fx.wave_sum(x[g])
        f[g] = fx.wave_max(f[g])
    }
    h[g] = fx.wave_min(h[g])
    x[g + 64] = fx.readlane(x[g], 3) + fx.readfirstlane(x[g]) + fx.lane_id()
    x[g + 128] = fx.ballot(x[g] > 0).to(Int32) + fx.any(x[g] > 1).select(1, 0) + fx.all(x[g] > 2).select(1, 0)
    h[g + 64] = u[g].to(Float16, rounding_mode=fx.RoundingMode.downward)
    h[g + 128] = u[g].to(Float16, rounding_mode=fx.RoundingMode.upward)
    h[g + 192] = u[g].to(Float16, rounding_mode=fx.RoundingMode.toward_zero)
    h[g + 256] = u[g].to(Float16, rounding_mode=fx.RoundingMode.to_nearest_away)
    h[g + 320] = fx.fma(h[g], h[g + 1], h[g + 2])
}
