kernel k(p: Ptr[Int32]) {
    fx.assert(p[0], "p[0] is set")
}
