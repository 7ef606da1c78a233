/* gemm_tiled.cl - C = A @ B for row-major floats (A is M x K, B is K x N),
 * one 16 x 16 tile of C per work-group of 16 x 16, the tiles of A and B
 * staged in local memory, two barriers a step along K: gemm_tiled.fx in
 * OpenCL C, with the same fma()s in the same order. */
#define TILE 16

__kernel void gemm_tiled(__global const float *A, __global const float *B, __global float *C,
                         int M, int N, int K)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int tx = (int)get_local_id(0);
    int ty = (int)get_local_id(1);
    int row = (int)get_group_id(1) * TILE + ty;
    int col = (int)get_group_id(0) * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        Bs[ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int kk = 0; kk < TILE; kk++)
            acc = fma(As[ty][kk], Bs[kk][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
