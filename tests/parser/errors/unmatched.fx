fn f(a: Int32) {
    return a)
}
