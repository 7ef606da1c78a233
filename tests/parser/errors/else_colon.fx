fn f(a: Boolean) {
    if a {
    } else:
    }
}
