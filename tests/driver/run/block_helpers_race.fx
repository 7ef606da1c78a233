# --check follows a shared array into the fn it is passed to: the fn reads
# its neighbour's element without a barrier after the kernel's store
fn right(shared s: Array[Float32, 64], t: Int32) -> Float32 {
    return s[(t + 1) % 64]
}

kernel shift(p: Ptr[Float32]) {
    shared s: Array[Float32, 64]
    let t = thread_idx.x
    s[t] = p[t]
    p[t] = right(s, t)
}
