fn add(a: Int32, b: Int32) -> Int32 {
    return a + b
}

kernel k(p: Ptr[Int32]) {
    p[0] = add(1, 2, 3)
}
