# A static step of 0 never ends in Python's range: an error here.
kernel k(p: Ptr[Int32], n: Int32) {
    for i in range(0, n, 0) {
        p[i] = i
    }
    for j in static_range(0, 4, 2 - 2) {
        p[j] = j
    }
}
