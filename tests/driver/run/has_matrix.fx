# fx.has_mfma / fx.has_wmma and a type chosen by them: the same source runs
# the instruction the target has; fx.mfma in the branch a static condition
# drops is checked, not built (gfx11 has no MFMA).
const MFMA = fx.has_mfma(Float16x4, Float32x4)
const WMMA11 = fx.has_wmma(Float16x16, Float32x8)
const WMMA12 = fx.has_wmma(Float16x8, Float32x8)
const FragA = Float16x4 if MFMA else Float16x16 if WMMA11 else Float16x8
const FragC = Float32x4 if MFMA else Float32x8

@launch_bounds(64)
kernel k(flags: Ptr[Int32], d: Ptr[Float32]) {
    if thread_idx.x == 0 {
        flags[0] = Int32(MFMA)
        flags[1] = Int32(WMMA11)
        flags[2] = Int32(WMMA12)
        flags[3] = len(FragA(0.0))
    }
    # A = all ones, B = all twos: every element of D is 16 * 2 + 1.
    let a = FragA(1.0)
    let b = FragA(2.0)
    var r = FragC(1.0)
    if MFMA {
        r = fx.mfma(a, b, r)
    } else {
        r = fx.wmma(a, b, r)
    }
    d[thread_idx.x] = r[0]
}
