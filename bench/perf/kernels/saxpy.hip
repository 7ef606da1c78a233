// saxpy: y = a * x + y, one element per work-item.
#include "hip_device.h"

extern "C" __global__ __launch_bounds__(256) void saxpy(const float *__restrict__ x, float *y, float a, int n)
{
    int i = blockIdx_x * blockDim_x + threadIdx_x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}
