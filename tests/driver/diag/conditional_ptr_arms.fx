kernel k(a: Ptr[Float32], b: const Ptr[Float32], idx: Ptr[Int32]) {
    let p = a + idx[0] if thread_idx.x == 0 else a
    let q = a if thread_idx.x == 0 else b
    p[0] = q[0]
}
