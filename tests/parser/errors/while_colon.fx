fn f(a: Boolean) {
    while a:
        break
}
