#include "fxbench_hip.h"
extern "C" __global__ __launch_bounds__(256) void dsincos(const double *x, double *s, double *c, int n)
{
    int i = bid_x() * bdim_x() + tid_x();
    if (i < n) {
        s[i] = __ocml_sin_f64(x[i]);
        c[i] = __ocml_cos_f64(x[i]);
    }
}
