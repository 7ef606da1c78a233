kernel k(p: Ptr[Uint8]) {
    fx.atomic_or(p, 0, Uint8(1))
}
