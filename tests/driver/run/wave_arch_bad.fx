# fxrun --arch: the same kernel on the host's own waves (of one lane) and on
# gfx942's (64 lanes) and gfx1100's (32): lane ids, a shuffle and a wave sum
# over a block of 70 work-items (the last wave partial).
kernel waves(lane: Ptr[Int32], next: Ptr[Int32], sum: Ptr[Int32]) {
    let i = thread_idx.x
    lane[i] = fx.lane_id()
    next[i] = fx.shuffle_down(i, 1)
    sum[i] = fx.wave_sum(1)
}
