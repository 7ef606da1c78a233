#include "fxbench_hip.h"
extern "C" __global__ __launch_bounds__(256) void reduce_sum(const float *x, float *partial, int n)
{
    __shared__ float red[256];
    int t = tid_x();
    float acc = 0.0f;
    for (int j = bid_x() * 256 + t; j < n; j += gdim_x() * 256)
        acc += x[j];
    red[t] = acc;
    sync_threads();
#pragma unroll
    for (int k = 0; k < 8; k++) {
        int s = 256 >> (k + 1);
        if (t < s)
            red[t] += red[t + s];
        sync_threads();
    }
    if (t == 0)
        partial[bid_x()] = red[0];
}
