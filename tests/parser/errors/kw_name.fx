fn f() {
    let in = 1
}
