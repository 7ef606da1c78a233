# The last Int8x16 of a 40-byte buffer would end at byte 48: out of bounds
# (the byte range is checked, not just the first byte).
kernel tail(b: const Ptr[Int8], out: Ptr[Int32]) {
    let t = thread_idx.x
    let v = b.cast(Ptr[Int8x16])[t]
    out[t] = Int32(v[0])
}
