# gemm_tiled.fx - C = A @ B for row-major Float32 matrices (A is M x K, B is
# K x N) as a SIMT kernel: each block of TILE x TILE work-items computes one
# TILE x TILE tile of C. For each slice of TILE columns of A and rows of B,
# the block copies both tiles to shared memory (one element per work-item,
# zero outside the matrices), waits at a barrier, accumulates from shared
# memory, and waits again before the tiles are overwritten.
#   fxrun gemm_tiled.fx gemm_tiled --grid ceil(N/16),ceil(M/16) --block 16,16 ...
import "common.fx"

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
        As[ty, tx] = 0.0
        if in_range(row, M) and in_range(k0 + tx, K) {
            As[ty, tx] = A[row * K + k0 + tx]
        }
        Bs[ty, tx] = 0.0
        if in_range(k0 + ty, K) and in_range(col, N) {
            Bs[ty, tx] = B[(k0 + ty) * N + col]
        }
        fx.barrier()
        for kk in static_range(TILE) {
            acc += As[ty, kk] * Bs[kk, tx]     # contracted to one fma per step
        }
        fx.barrier()
    }
    if in_range(row, M) and in_range(col, N) {
        C[row * N + col] = acc
    }
}
