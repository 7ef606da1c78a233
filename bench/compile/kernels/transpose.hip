#include "fxbench_hip.h"
extern "C" __global__ __launch_bounds__(1024) void transpose(const float *src, float *dst, int rows, int cols)
{
    __shared__ float tile[32][33];
    int tx = tid_x(), ty = tid_y();
    int c = bid_x() * 32 + tx, r = bid_y() * 32 + ty;
    if (r < rows && c < cols)
        tile[ty][tx] = src[r * cols + c];
    sync_threads();
    int oc = bid_y() * 32 + tx, orow = bid_x() * 32 + ty;
    if (orow < cols && oc < rows)
        dst[orow * rows + oc] = tile[tx][ty];
}
