#include "fxbench_hip.h"
extern "C" __global__ __launch_bounds__(256) void exp_f64(const double *x, double *y, int n)
{
    int i = bid_x() * bdim_x() + tid_x();
    if (i < n)
        y[i] = __ocml_exp_f64(x[i]);
}
