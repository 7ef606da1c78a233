// sgemm: C = A @ B (row-major Float32), a 64 x 64 tile of C per block of
// 256, a 4 x 4 piece per work-item, slices of 16 along K staged in shared
// memory. M, N multiples of 64, K a multiple of 16.
#include "hip_device.h"

extern "C" __global__ __launch_bounds__(256) void sgemm(const float *__restrict__ A, const float *__restrict__ B,
                                                        float *C, int M, int N, int K)
{
    __shared__ float As[64][16];
    __shared__ float Bs[16][64];
    int t = threadIdx_x;
    int tx = t % 16;
    int ty = t / 16;
    int tiles_n = N / 64;
    int row0 = (blockIdx_x / tiles_n) * 64;
    int col0 = (blockIdx_x % tiles_n) * 64;
    float acc[4][4] = {};
    for (int k0 = 0; k0 < K; k0 += 16) {
#pragma unroll
        for (int q = 0; q < 4; q++) {
            As[ty + 16 * q][tx] = A[(row0 + ty + 16 * q) * K + k0 + tx];
            Bs[ty][tx + 16 * q] = B[(k0 + ty) * N + col0 + tx + 16 * q];
        }
        syncthreads();
#pragma unroll
        for (int kk = 0; kk < 16; kk++)
#pragma unroll
            for (int i = 0; i < 4; i++) {
                float a = As[ty + 16 * i][kk];
#pragma unroll
                for (int j = 0; j < 4; j++)
                    acc[i][j] = __builtin_fmaf(a, Bs[kk][tx + 16 * j], acc[i][j]);
            }
        syncthreads();
    }
#pragma unroll
    for (int i = 0; i < 4; i++)
#pragma unroll
        for (int j = 0; j < 4; j++)
            C[(row0 + ty + 16 * i) * N + col0 + tx + 16 * j] = acc[i][j];
}
