kernel k(p: Ptr[Int32]) {
    p[0] = 1
    fx.threadfence("device")
}
