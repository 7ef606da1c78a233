# Int4 fragments: no MFMA takes them
@launch_bounds(64)
kernel k(d: Ptr[Int32]) {
    let a = Int4x8(1, 2, 3, 4, 5, 6, 7, 0)
    let c = Int32x4(0)
    let r = fx.mfma(a, a, c)
    d[fx.lane_id()] = r[0]
}
