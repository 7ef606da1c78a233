# spec §4 "Statements", one form per line inside a function body. (The spec
# lists `while c { }   break   continue   return expr` on one line as a
# catalogue; as code they need separators, so they are on separate lines.)
fn statements(expr: Float32, x: Float32, p: Ptr[Float32], i: Int32, v: Float32,
              c: Boolean, d: Boolean, n: Int32) -> Float32 {
    let x = expr            # immutable binding; type inferred
    let y: Float16 = 1.0    # a static value converts to the declared type
    var acc: Float32 = 0.0  # mutable; assignments must keep the type
    acc += x * y            # += -= *= /= //= %= &= |= ^= <<= >>=
    p[i] = v                # store through Ptr / Array element
    if c { } else if d { } else { }
    for i in range(n) { }   # range(stop), range(start, stop), range(start, stop, step)
    for i in static_range(4) { }
    while c { }
    break
    continue
    return expr
    with fx.fastmath("nnan,ninf") { }
    static_assert(Int32.width == 32)
}
