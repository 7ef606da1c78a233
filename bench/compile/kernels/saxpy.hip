#include "fxbench_hip.h"
static __device__ float axpy1(float a, float x, float y) { return a * x + y; }
extern "C" __global__ __launch_bounds__(256) void saxpy(const float *x, float *y, float a, int n)
{
    int i = bid_x() * bdim_x() + tid_x();
    if (i < n)
        y[i] = axpy1(a, x[i], y[i]);
}
