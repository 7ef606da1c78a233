fn f(a: Int32) {
    let x = g(a b)
}
