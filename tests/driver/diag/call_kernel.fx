kernel a(p: Ptr[Float32]) {
    p[0] = 1.0
}

kernel b(p: Ptr[Float32]) {
    a(p)
}
