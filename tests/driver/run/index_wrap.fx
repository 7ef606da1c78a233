# An index into a Ptr parameter is in [0, len): fxcc's GPU code therefore
# treats `base + t` (t >= 0) as not wrapping (the int-ranges index rule).
# On the host the add wraps as written and the negative index it gives is
# reported, so the erroneous launch is caught rather than run.
kernel poke(p: Ptr[Int32], base: Int32) {
    if thread_idx.x == 1 {
        p[base + thread_idx.x] = 7
    }
}
