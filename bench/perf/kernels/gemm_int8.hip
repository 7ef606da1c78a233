// gemm_int8: C = A @ Bt^T, Int8 inputs, Int32 accumulation that wraps (done
// in unsigned arithmetic, where C++ defines the wrap). One work-item per
// element of C.
#include "hip_device.h"

extern "C" __global__ __launch_bounds__(256) void gemm_int8(const signed char *__restrict__ A,
                                                            const signed char *__restrict__ Bt, int *C, int M,
                                                            int N, int K)
{
    int e = blockIdx_x * 256 + threadIdx_x;
    if (e < M * N) {
        int row = e / N;
        int col = e % N;
        unsigned acc = 0;
        for (int k = 0; k < K; k++)
            acc += (unsigned)((int)A[row * K + k] * (int)Bt[col * K + k]);
        C[e] = (int)acc;
    }
}
