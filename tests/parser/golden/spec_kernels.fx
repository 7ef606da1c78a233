# spec §3 and §5: kernel parameters, arrays, shared memory, builtins, atomics.
const TILE = 16
const BLOCK = 256

@launch_bounds(BLOCK)
kernel tiled(x: const Ptr[Float32], y: Ptr[Float32], v4: Ptr[Float32x4], n: Int32) {
    shared tile: Array[Float32, TILE, TILE + 1]
    var a: Array[Float32, 4]
    let t = thread_idx.x + thread_idx.y * block_dim.x
    let g = block_idx.x * block_dim.x + thread_idx.x
    tile[thread_idx.y, thread_idx.x] = x[g]
    fx.barrier()
    a[0] += tile[thread_idx.x, thread_idx.y]
    let old = fx.atomic_add(y, 0, a[0])
    fx.atomic_max(y, 1, a[0])
    fx.atomic_cas(y, 2, old, a[0])
    if fx.lane_id() == 0 and fx.wave_size() == 64 {
        y[grid_dim.x] = Float32(len(Float32x4(1.0)))
    }
    static_assert(BLOCK % 64 == 0, "BLOCK must be a multiple of the wave size")
}

kernel bits(p: Ptr[Uint32], q: Ptr[BFloat16x8]) {
    let v = p[0]
    let w = v.bitcast(Float32)
    let h = Float16(w).to(Float8E4M3FN)
    let s = (v > 3).select(v, Uint32(0))
    if v.is_static() { }
    static_assert(Uint32.width == 32 and Uint32.log_width == 5)
    let (q1, r1) = divmod(Int32(7), Int32(2))
    p[1] = fx.ceildiv(Uint32(0xFFFFFFFF), Uint32(2))
}
