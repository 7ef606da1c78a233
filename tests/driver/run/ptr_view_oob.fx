# An access through a derived Ptr is checked in bytes against the buffer of
# the parameter it comes from: w - 1 reads before w's first element.
kernel before(w: Ptr[Uint32], out: Ptr[Uint32]) {
    let t = thread_idx.x
    let prev = w - 1
    out[t] = prev[t]
}
