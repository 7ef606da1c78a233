fn f(n: Int32) {
    if n == 0
    {
        return
    }
}
