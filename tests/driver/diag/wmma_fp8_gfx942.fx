# the OCP 8-bit float WMMA is gfx12's: on gfx942 the error names where it is
@launch_bounds(32)
kernel k(x: const Ptr[Float8E4M3FN], d: Ptr[Float32]) {
    let l = fx.lane_id()
    let a = Float8E4M3FNx8(x[l], x[l], x[l], x[l], x[l], x[l], x[l], x[l])
    let r = fx.wmma(a, a, Float32x8(0.0))
    d[l] = r[0]
}
