# sgemm_unroll128.fx - one element of C = A @ B per work-item with the
# 128-long dot product fully unrolled: a chain of 128 multiply-adds, the
# case that made fp-contraction quadratic.
const K = 128

@launch_bounds(256)
kernel sgemm_unroll128(A: const Ptr[Float32], B: const Ptr[Float32], C: Ptr[Float32], M: Int32, N: Int32) {
    let col = block_idx.x * block_dim.x + thread_idx.x
    let row = block_idx.y
    if row < M and col < N {
        var acc: Float32 = 0.0
        for k in static_range(K) {
            acc += A[row * K + k] * B[k * N + col]
        }
        C[row * N + col] = acc
    }
}
