fn f(a: Int32) {
    let (q, r) divmod(a, 2)
}
