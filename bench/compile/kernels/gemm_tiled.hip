#include "fxbench_hip.h"
#define TILE 16
static __device__ bool in_range(int i, int n) { return i >= 0 && i < n; }
extern "C" __global__ __launch_bounds__(TILE * TILE) void gemm_tiled(const float *A, const float *B, float *C,
                                                                     int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = tid_x(), ty = tid_y();
    int row = bid_y() * TILE + ty, col = bid_x() * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = 0.0f;
        if (in_range(row, M) && in_range(k0 + tx, K))
            As[ty][tx] = A[row * K + k0 + tx];
        Bs[ty][tx] = 0.0f;
        if (in_range(k0 + ty, K) && in_range(col, N))
            Bs[ty][tx] = B[(k0 + ty) * N + col];
        sync_threads();
#pragma unroll
        for (int kk = 0; kk < TILE; kk++)
            acc += As[ty][kk] * Bs[kk][tx];
        sync_threads();
    }
    if (in_range(row, M) && in_range(col, N))
        C[row * N + col] = acc;
}
