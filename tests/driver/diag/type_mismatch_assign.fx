kernel k(p: Ptr[Float32], n: Int32) {
    var x: Float32 = 0.0
    x = n
    p[0] = x
}
