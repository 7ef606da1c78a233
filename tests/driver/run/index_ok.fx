# The same kernel with an in-range base: the index rule changes nothing
# a correct launch can observe.
kernel poke(p: Ptr[Int32], base: Int32) {
    if thread_idx.x == 1 {
        p[base + thread_idx.x] = 7
    }
}
