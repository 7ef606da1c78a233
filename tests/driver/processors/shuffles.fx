# The shuffles: ds_bpermute_b32, which GCN 1 and 2 do not have
# (tests/driver/test_processors.c expects a located error there).
kernel shuffles(x: Ptr[Int32], f: Ptr[Float64]) {
    let g = thread_idx.x
    if x[g] > 0 {
        x[g] = fx.shuffle(x[g], 3) + fx.shuffle_xor(x[g], 1)
        f[g] = fx.shuffle_up(f[g], 2) + fx.shuffle_down(f[g], 1)
    }
}
