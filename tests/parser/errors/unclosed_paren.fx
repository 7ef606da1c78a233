fn f(n: Int32) {
    let x = g(1,
        2
}
