# histogram: bins[v & 255] += 1 for each v of data[0:n]. Each block counts
# a grid-stride slice (a range with a run-time step) into 256 bins in
# shared memory with atomics, then adds its non-zero bins to the global
# ones.
@launch_bounds(256)
kernel histogram(data: const Ptr[Uint32], bins: Ptr[Uint32], n: Int32) {
    shared local: Array[Uint32, 256]
    let t = thread_idx.x
    local[t] = Uint32(0)
    fx.barrier()
    for i in range(block_idx.x * 256 + t, n, grid_dim.x * 256) {
        fx.atomic_add(local, Int32(data[i] & Uint32(255)), Uint32(1))
    }
    fx.barrier()
    let c = local[t]
    if c != Uint32(0) {
        fx.atomic_add(bins, t, c)
    }
}
