def f(x) {
}
