fn f(a: Int32) {
    let x = (a + )
}
