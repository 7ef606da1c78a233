fn f(a: Boolean) {
    return !a
}
