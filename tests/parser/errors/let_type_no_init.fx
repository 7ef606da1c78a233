fn f(n: Int32) {
    let x: Float32
}
