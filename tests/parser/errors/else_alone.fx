fn f(a: Int32) {
    let x = 1
    else {
    }
}
