# Loops, fns, var, wrap-around and floored division on the host.
fn triangle(n: Int32) -> Int32 {
    var s: Int32 = 0
    for i in range(n + 1) {
        s += i
    }
    return s
}

kernel loops(out: Ptr[Int32], w: Ptr[Int8], d: Ptr[Int32]) {
    let t = thread_idx.x
    out[t] = triangle(t)
    w[t] = Int8(t) * Int8(64)
    d[t] = (Int32(t) - 3) // 2
}
