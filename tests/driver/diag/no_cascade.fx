# A rejected declaration still binds its names: one error each, no
# "undefined name" at the uses.
kernel k(p: Ptr[Float32], n: Int32) {
    let a: Int8 = p[0]
    let (q, r) = (1, 2, 3)
    var v: Ptr[Int32] = 1
    shared s: Array[Float32, n]
    let a2 = undefined_thing + 1
    p[0] = Float32(a) + Float32(q) + Float32(r) + Float32(v) + s[0] + a2
}
