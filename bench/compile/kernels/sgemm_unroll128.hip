#include "fxbench_hip.h"
#define K 128
extern "C" __global__ __launch_bounds__(256) void sgemm_unroll128(const float *A, const float *B, float *C, int M, int N)
{
    int col = bid_x() * bdim_x() + tid_x(), row = bid_y();
    if (row < M && col < N) {
        float acc = 0.0f;
#pragma unroll
        for (int k = 0; k < K; k++)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
