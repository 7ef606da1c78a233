fn f() {
    var x
}
