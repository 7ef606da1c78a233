fn f(a: Int32) {
    if a {
    } elif a {
    }
}
