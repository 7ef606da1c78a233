kernel k(p: Ptr[Int32]) {
    fx.printf(p[0])
}
