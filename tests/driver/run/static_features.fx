# Static if keeps one branch, static_range unrolls with a static index,
# consts (also types) steer both, and `with fx.fastmath` accepts any spec form.
const N = 4
const T = Int16
const USE_SQUARES = True
static_assert(N * 2 == 8, "N is 4")

kernel static_features(out: Ptr[T], f: Ptr[Float32]) {
    for i in static_range(N) {
        static_assert(i.is_static())
        if USE_SQUARES {
            out[i] = T(i * i)
        } else {
            out[i] = T(-1)
        }
    }
    for j in static_range(10, 4, -3) {
        out[N + j // 3 - 1] = T(j)
    }
    with fx.fastmath("nnan,ninf") {
        f[0] = fx.sqrt(Float32(2.0)) + f[1]
    }
    with fx.fastmath([fx.FastMathFlags.nsz, fx.FastMathFlags.afn]) {
        f[1] = f[1] * 2.0
    }
}
