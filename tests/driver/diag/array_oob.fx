kernel k(p: Ptr[Float32]) {
    var a: Array[Float32, 4]
    a[4] = 1.0
    p[0] = a[0]
}
