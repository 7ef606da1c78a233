# fxrun enforces @launch_bounds and wants the launch shape spelled out.
@launch_bounds(128)
kernel k(p: Ptr[Int32]) {
    p[thread_idx.x] = 1
}
