kernel k(p: Ptr[Int32]) {
    fx.printf("%d %d\n", p[0])
}
