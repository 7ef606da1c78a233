// reduce: total += sum(x[0:n]); grid-stride partial sums, a shared-memory
// tree per block, one atomic per block.
#include "hip_device.h"

extern "C" __global__ __launch_bounds__(256) void reduce(const float *__restrict__ x, float *total, int n)
{
    __shared__ float part[256];
    int t = threadIdx_x;
    float acc = 0.0f;
    for (int i = blockIdx_x * 256 + t; i < n; i += gridDim_x * 256)
        acc += x[i];
    part[t] = acc;
    syncthreads();
    for (int s = 128; s > 0; s /= 2) {
        if (t < s)
            part[t] += part[t + s];
        syncthreads();
    }
    if (t == 0)
        atomic_add_agent(total, part[0]);
}
