# spec §3.6 "Rounding modes and fast-math", wrapped in a device function.
fn demo(x: Float32, a: Float32, b: Float32, c: Float32) -> Float32 {
    var acc: Float32 = 0.0
    let lo = x.to(Float16, rounding_mode=fx.RoundingMode.downward)
    let y  = fx.sqrt(x, fastmath=fx.FastMathFlags.afn)
    let z  = fx.exp(x, fastmath="fast")
    with fx.fastmath(fx.FastMathFlags.reassoc | fx.FastMathFlags.contract) {
        acc = a * b + c
    }
    return acc
}
