# gemm_tiled.fx - C = A @ B for row-major Float32 matrices (A is M x K, B is
# K x N), one 16 x 16 tile of C per block of 16 x 16 work-items. For each
# step of 16 along K the block copies a tile of A and one of B to shared
# memory (zero outside the matrices), waits, accumulates 16 fmas from
# shared memory, and waits again before the tiles are overwritten: two
# barriers a step. gemm_tiled.cl is the same.
#   fxrun gemm_tiled.fx gemm_tiled --grid N/16,M/16 --block 16,16 A=@a.bin B=@b.bin C=@c.bin M=.. N=.. K=..

const TILE = 16

@launch_bounds(TILE * TILE)
kernel gemm_tiled(A: const Ptr[Float32], B: const Ptr[Float32], C: Ptr[Float32],
                  M: Int32, N: Int32, K: Int32) {
    shared As: Array[Float32, TILE, TILE]
    shared Bs: Array[Float32, TILE, TILE]
    let tx = thread_idx.x
    let ty = thread_idx.y
    let row = block_idx.y * TILE + ty
    let col = block_idx.x * TILE + tx
    var acc: Float32 = 0.0
    for k0 in range(0, K, TILE) {
        As[ty, tx] = A[row * K + k0 + tx] if row < M and k0 + tx < K else 0.0
        Bs[ty, tx] = B[(k0 + ty) * N + col] if k0 + ty < K and col < N else 0.0
        fx.barrier()
        for kk in static_range(TILE) {
            acc = fx.fma(As[ty, kk], Bs[kk, tx], acc)
        }
        fx.barrier()
    }
    if row < M and col < N {
        C[row * N + col] = acc
    }
}
