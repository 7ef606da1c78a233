fn f(n: Int32) -> Int32 {
    return f(n - 1)
}

kernel k(p: Ptr[Int32]) {
    p[0] = f(3)
}
