kernel k(p: Ptr[Float16]) {
    fx.atomic_xor(p, 0, Float16(1.0))
}
