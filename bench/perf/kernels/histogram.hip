// histogram: bins[v & 255] += 1; grid-stride counting into 256 shared bins
// with atomics, then the block's non-zero bins added to the global ones.
#include "hip_device.h"

extern "C" __global__ __launch_bounds__(256) void histogram(const unsigned *__restrict__ data, unsigned *bins, int n)
{
    __shared__ unsigned local[256];
    int t = threadIdx_x;
    local[t] = 0;
    syncthreads();
    for (int i = blockIdx_x * 256 + t; i < n; i += gridDim_x * 256)
        atomic_add_block(&local[data[i] & 255u], 1u);
    syncthreads();
    unsigned c = local[t];
    if (c != 0)
        atomic_add_agent(&bins[t], c);
}
