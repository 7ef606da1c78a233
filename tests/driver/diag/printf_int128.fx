kernel k(p: Ptr[Int128]) {
    fx.printf("%d\n", p[0])
}
