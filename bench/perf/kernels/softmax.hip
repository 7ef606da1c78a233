// softmax: one block of 256 work-items per row; maximum and sum combined in
// shared memory. max_nan propagates a NaN as fx.max does (fmaxf drops it).
#include "hip_device.h"

static __device__ inline float max_nan(float a, float b)
{
    return a != a ? a : b != b ? b : a > b ? a : b;
}

extern "C" __global__ __launch_bounds__(256) void softmax(const float *__restrict__ x, float *y, int rows, int cols)
{
    __shared__ float red[256];
    int r = blockIdx_x;
    int t = threadIdx_x;
    if (r >= rows)
        return;
    int base = r * cols;
    float m = -__builtin_inff();
    for (int j = t; j < cols; j += 256)
        m = max_nan(m, x[base + j]);
    red[t] = m;
    syncthreads();
    for (int s = 128; s > 0; s /= 2) {
        if (t < s)
            red[t] = max_nan(red[t], red[t + s]);
        syncthreads();
    }
    float row_max = red[0];
    syncthreads();
    float sum = 0.0f;
    for (int j = t; j < cols; j += 256) {
        float e = __builtin_expf(x[base + j] - row_max);
        y[base + j] = e;
        sum += e;
    }
    red[t] = sum;
    syncthreads();
    for (int s = 128; s > 0; s /= 2) {
        if (t < s)
            red[t] += red[t + s];
        syncthreads();
    }
    float inv = 1.0f / red[0];
    for (int j = t; j < cols; j += 256)
        y[base + j] = y[base + j] * inv;
}
