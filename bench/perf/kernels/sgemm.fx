# sgemm: C = A @ B for row-major Float32 matrices (A is M x K, B is K x N),
# M and N multiples of 64, K a multiple of 16. A block of 256 work-items
# computes a 64 x 64 tile of C, each work-item a 4 x 4 piece of it; per
# slice of 16 along K the block stages a 64 x 16 tile of A and a 16 x 64
# tile of B in shared memory (four elements of each per work-item).
@launch_bounds(256)
kernel sgemm(A: const Ptr[Float32], B: const Ptr[Float32], C: Ptr[Float32],
             M: Int32, N: Int32, K: Int32) {
    shared As: Array[Float32, 64, 16]
    shared Bs: Array[Float32, 16, 64]
    let t = thread_idx.x
    let tx = t % 16
    let ty = t // 16
    let tiles_n = N // 64
    let row0 = (block_idx.x // tiles_n) * 64
    let col0 = (block_idx.x % tiles_n) * 64
    var acc: Array[Float32, 4, 4]
    for k0 in range(0, K, 16) {
        for q in static_range(4) {
            As[ty + 16 * q, tx] = A[(row0 + ty + 16 * q) * K + k0 + tx]
            Bs[ty, tx + 16 * q] = B[(k0 + ty) * N + col0 + tx + 16 * q]
        }
        fx.barrier()
        for kk in static_range(16) {
            for i in static_range(4) {
                let a = As[ty + 16 * i, kk]
                for j in static_range(4) {
                    acc[i, j] += a * Bs[kk, tx + 16 * j]
                }
            }
        }
        fx.barrier()
    }
    for i in static_range(4) {
        for j in static_range(4) {
            C[(row0 + ty + 16 * i) * N + col0 + tx + 16 * j] = acc[i, j]
        }
    }
}
