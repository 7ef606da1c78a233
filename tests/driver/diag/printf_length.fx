kernel k(p: Ptr[Int64]) {
    fx.printf("%ld\n", p[0])
}
