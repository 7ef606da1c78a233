fn f(a: Int32) {
    let x = 1 let y = 2
}
