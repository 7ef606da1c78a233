kernel k() {
    shared t: Array[Float32, 4] = 0
}
