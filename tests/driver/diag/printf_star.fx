kernel k(p: Ptr[Int32]) {
    fx.printf("%*d\n", p[0])
}
