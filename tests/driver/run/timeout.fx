# A kernel that never ends, with a barrier in its loop (work-items are
# fibers then): --timeout stops the run with exit status 124.
kernel spin(p: Ptr[Int32]) {
    shared s: Array[Int32, 64]
    while True {
        s[thread_idx.x] = p[0]
        fx.barrier()
        p[0] = s[63 - thread_idx.x] + 1
    }
}
