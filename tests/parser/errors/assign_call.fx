fn f(a: Int32) {
    g(a) = 1
}
