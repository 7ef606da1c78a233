kernel k(p: Ptr[Float32], n: Int32) {
    var a: Array[Float32, n]
    p[0] = a[0]
}
