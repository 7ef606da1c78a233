# histogram.fx - bins[v] += the number of bytes equal to v in x[0 .. n),
# 256 bins. Each block of 256 work-items zeroes a histogram of its own in
# shared memory, walks x with a grid-wide stride adding 1 to the bin of
# each byte with a shared atomic, waits, and adds its 256 counts to the
# global bins with atomics. histogram.cl is the same.
#   fxrun histogram.fx histogram --grid G --block 256 x=@x.bin n=N bins=@bins.bin

const BINS = 256

@launch_bounds(BINS)
kernel histogram(x: const Ptr[Uint8], n: Int32, bins: Ptr[Uint32]) {
    shared local: Array[Uint32, BINS]
    let t = thread_idx.x                    # block_dim.x is BINS
    local[t] = 0
    fx.barrier()
    let stride = grid_dim.x * block_dim.x
    for i in range(block_idx.x * block_dim.x + t, n, stride) {
        fx.atomic_add(local, Int32(x[i]), Uint32(1))
    }
    fx.barrier()
    fx.atomic_add(bins, t, local[t])
}
