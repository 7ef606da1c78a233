#include "fxbench_hip.h"
extern "C" __global__ __launch_bounds__(256) void stencil5(const float *u, float *v, int n)
{
    int x = bid_x() * bdim_x() + tid_x(), y = bid_y() * bdim_y() + tid_y();
    if (x > 0 && y > 0 && x < n - 1 && y < n - 1) {
        int i = y * n + x;
        v[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - n] + u[i + n]);
    }
}
