fn f(a: Int32, b: Int32, c: Int32) {
    return a < b <= c
}
