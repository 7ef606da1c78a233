fn helper() {
    shared d: Array[Float32, DYN]
}

kernel k(p: Ptr[Float32]) {
    var priv: Array[Float32, DYN]
    shared a: Array[Float32, DYN]
    shared b: Array[Int32, DYN]
    shared grid2: Array[Float32, DYN, 4]
    helper()
}
