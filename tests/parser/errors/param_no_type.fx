fn f(a, b) {
}
