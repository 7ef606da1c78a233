kernel k(a: Int32) {
    with fx.fastmath("fast")
    {
    }
}
