fn f(n: Int32) {
    for i range(n) {
    }
}
