fn f(a: Int32) {
    a ++
}
