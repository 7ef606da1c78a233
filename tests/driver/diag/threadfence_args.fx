kernel k(p: Ptr[Int32]) {
    fx.threadfence("agent", "system")
}
