#include "fxbench_hip.h"
#define ROW_BLOCK 256
extern "C" __global__ __launch_bounds__(ROW_BLOCK) void layernorm(const float *x, const float *gamma,
                                                                  const float *beta, float *y, int rows, int cols)
{
    __shared__ float red[ROW_BLOCK];
    int r = bid_x(), t = tid_x();
    if (r < rows) {
        int base = r * cols;
        float n = (float)cols;
        float acc = 0.0f;
        for (int j = t; j < cols; j += ROW_BLOCK)
            acc += x[base + j];
        red[t] = acc;
        sync_threads();
#pragma unroll
        for (int k = 0; k < 8; k++) {
            int s = ROW_BLOCK >> (k + 1);
            if (t < s)
                red[t] += red[t + s];
            sync_threads();
        }
        float mean = red[0] / n;
        sync_threads();
        acc = 0.0f;
        for (int j = t; j < cols; j += ROW_BLOCK) {
            float d = x[base + j] - mean;
            acc += d * d;
        }
        red[t] = acc;
        sync_threads();
#pragma unroll
        for (int k = 0; k < 8; k++) {
            int s = ROW_BLOCK >> (k + 1);
            if (t < s)
                red[t] += red[t + s];
            sync_threads();
        }
        float inv_std = __builtin_amdgcn_rsqf(red[0] / n + 1e-5f);
        for (int j = t; j < cols; j += ROW_BLOCK)
            y[base + j] = (x[base + j] - mean) * inv_std * gamma[j] + beta[j];
    }
}
