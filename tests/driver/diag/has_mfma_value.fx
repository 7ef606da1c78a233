# fx.has_mfma takes fragment types, not fragments
@launch_bounds(64)
kernel k(d: Ptr[Float32]) {
    let a = Float16x4(1.0)
    let c = Float32x4(0.0)
    if fx.has_mfma(a, c) {
        d[0] = 1.0
    }
}
