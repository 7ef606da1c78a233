fn first(shared s: Array[Float32, DYN]) -> Float32 {
    return s[0]
}

kernel k(p: Ptr[Float32]) {
    shared fixed: Array[Float32, 64]
    p[0] = first(fixed)
}
