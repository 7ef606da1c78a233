kernel k(p: Ptr[Int128]) {
    fx.atomic_xchg(p, 0, 1)
}
