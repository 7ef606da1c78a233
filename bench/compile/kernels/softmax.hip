#include "fxbench_hip.h"
#define ROW_BLOCK 256
extern "C" __global__ __launch_bounds__(ROW_BLOCK) void softmax(const float *x, float *y, int rows, int cols)
{
    __shared__ float red[ROW_BLOCK];
    int r = bid_x(), t = tid_x();
    if (r < rows) {
        int base = r * cols;
        float m = -__builtin_inff();
        for (int j = t; j < cols; j += ROW_BLOCK)
            m = __builtin_fmaxf(m, x[base + j]);
        red[t] = m;
        sync_threads();
        for (int s = ROW_BLOCK / 2; s > 0; s /= 2) {
            if (t < s)
                red[t] = __builtin_fmaxf(red[t], red[t + s]);
            sync_threads();
        }
        float row_max = red[0];
        sync_threads();
        float sum = 0.0f;
        for (int j = t; j < cols; j += ROW_BLOCK) {
            float e = __builtin_expf(x[base + j] - row_max);
            y[base + j] = e;
            sum += e;
        }
        red[t] = sum;
        sync_threads();
        for (int s = ROW_BLOCK / 2; s > 0; s /= 2) {
            if (t < s)
                red[t] += red[t + s];
            sync_threads();
        }
        float inv = 1.0f / red[0];
        for (int j = t; j < cols; j += ROW_BLOCK)
            y[base + j] = y[base + j] * inv;
    }
}
