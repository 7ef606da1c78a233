# Pointer views: p.cast(Ptr[U]) reads the same bytes as U elements (here
# 16 Int8 at a time, one 128-bit load on a GPU); p + k and p - k move by
# whole elements; a const Ptr stays const.
kernel views(b: const Ptr[Int8], w: Ptr[Uint32], sums: Ptr[Int32]) {
    let t = thread_idx.x
    let chunk = b.cast(Ptr[Int8x16])[t]
    var s: Int32 = 0
    for l in static_range(16) {
        s += Int32(chunk[l])
    }
    sums[t] = s
    let bytes = w.cast(Ptr[Uint8])
    let tail = w + 4
    tail[t] = Uint32(bytes[4 * t])       # the low byte of w[t]
    let back = tail - 2
    back[t] += 100
}
