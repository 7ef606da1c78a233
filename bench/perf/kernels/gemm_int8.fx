# gemm_int8: C = A @ Btᵀ with Int8 A (M x K) and Bt (N x K, B stored
# transposed as quantized weights often are), accumulated exactly in Int32
# (wrapping). One work-item per element of C; blocks of 256 in one
# dimension over the M * N elements.
@launch_bounds(256)
kernel gemm_int8(A: const Ptr[Int8], Bt: const Ptr[Int8], C: Ptr[Int32],
                 M: Int32, N: Int32, K: Int32) {
    let e = block_idx.x * 256 + thread_idx.x
    if e < M * N {
        let row = e // N
        let col = e % N
        var acc: Int32 = 0
        for k in range(K) {
            acc += Int32(A[row * K + k]) * Int32(Bt[col * K + k])
        }
        C[e] = acc
    }
}
