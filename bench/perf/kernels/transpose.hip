// transpose: dst (cols x rows) = src (rows x cols)^T through a 16 x 17
// shared tile; one-dimensional blocks of 256.
#include "hip_device.h"

extern "C" __global__ __launch_bounds__(256) void transpose(const float *__restrict__ src, float *dst, int rows, int cols)
{
    __shared__ float tile[16][17];
    int tx = threadIdx_x % 16;
    int ty = threadIdx_x / 16;
    int tiles_x = (cols + 15) / 16;
    int bx = blockIdx_x % tiles_x;
    int by = blockIdx_x / tiles_x;
    int r = by * 16 + ty;
    int c = bx * 16 + tx;
    if (r < rows && c < cols)
        tile[ty][tx] = src[r * cols + c];
    syncthreads();
    int orow = bx * 16 + ty;
    int ocol = by * 16 + tx;
    if (orow < cols && ocol < rows)
        dst[orow * rows + ocol] = tile[tx][ty];
}
