kernel k(p: Ptr[Float32]) {
    fx.printf("%d\n", p[0])
}
