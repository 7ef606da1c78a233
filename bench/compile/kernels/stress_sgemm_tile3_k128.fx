# sgemm_tile3_k128.fx - a 3 x 3 register tile of C = A @ B per work-item with
# the 128-deep k loop fully unrolled: 1152 multiply-adds in one block, a
# stress case for fp-contraction (not one of the ten timed kernels).
const K = 128
const R = 3

@launch_bounds(64)
kernel sgemm_tile3_k128(A: const Ptr[Float32], B: const Ptr[Float32], C: Ptr[Float32], N: Int32) {
    var acc: Array[Float32, R, R]
    let r0 = (block_idx.y * 8 + thread_idx.y) * R
    let c0 = (block_idx.x * 8 + thread_idx.x) * R
    for k in static_range(K) {
        for i in static_range(R) {
            for j in static_range(R) {
                acc[i, j] += A[(r0 + i) * K + k] * B[k * N + c0 + j]
            }
        }
    }
    for i in static_range(R) {
        for j in static_range(R) {
            C[(r0 + i) * N + c0 + j] = acc[i, j]
        }
    }
}
