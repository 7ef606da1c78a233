fn f(a: Boolean, b: Boolean) {
    return a && b
}
