# The same under the gfx1100 wave model: a wave operation in the loop.
kernel spin(p: Ptr[Int32]) {
    var x = Int32(thread_idx.x)
    while True {
        x = fx.wave_sum(x) % 1000
    }
    p[0] = x
}
