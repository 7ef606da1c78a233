fn f() {
    while {
    }
}
