fn f(a: Int32) {
    1 += a
}
