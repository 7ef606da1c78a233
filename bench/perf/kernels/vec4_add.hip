// vec4_add: c = a + b over n four-lane vectors, one vector per work-item.
#include "hip_device.h"

extern "C" __global__ __launch_bounds__(256) void vec4_add(const float4_t *__restrict__ a,
                                                           const float4_t *__restrict__ b, float4_t *c, int n)
{
    int i = blockIdx_x * blockDim_x + threadIdx_x;
    if (i < n)
        c[i] = a[i] + b[i];
}
