# fxrun checks indices into a shared array inside the fn it was passed to
fn at(shared s: Array[Int32, 16], i: Int32) -> Int32 {
    return s[i]
}

kernel k(p: Ptr[Int32]) {
    shared s: Array[Int32, 16]
    s[thread_idx.x] = thread_idx.x
    fx.barrier()
    p[thread_idx.x] = at(s, thread_idx.x + 1)
}
