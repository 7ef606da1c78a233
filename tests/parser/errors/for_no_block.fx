fn f(a: Int32) {
    for i in range(a)
}
