kernel k(p: Ptr[Int32]) {
    fx.printf("name %s\n", p[0])
}
