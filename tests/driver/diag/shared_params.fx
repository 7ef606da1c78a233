fn f(shared s: Array[Float32, 64], i: Int32) -> Float32 {
    return s[i]
}
fn g(s: Array[Float32, 64]) {
}
fn h(shared s: Float32) {
}
kernel k(shared p: Array[Float32, 4]) {
}
kernel k2(out: Ptr[Float32]) {
    var priv: Array[Float32, 64]
    shared other: Array[Float32, 32]
    out[0] = f(priv, 0)
    out[1] = f(other, 0)
    out[2] = f(out, 0)
}
