fn f() {
    x = 1 +
