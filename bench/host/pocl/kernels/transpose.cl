/* transpose.cl - b = a^T (a is rows x cols, row-major) through a 32 x 33
 * tile in local memory, work-groups of 32 x 8 (4 elements per work-item):
 * transpose.fx in OpenCL C. */
#define T 32
#define R 8

__kernel void transpose(__global const float *a, __global float *b, int rows, int cols)
{
    __local float tile[T][T + 1];
    int tx = (int)get_local_id(0);
    int ty = (int)get_local_id(1);
    int x = (int)get_group_id(0) * T + tx;
    int y = (int)get_group_id(1) * T + ty;
#pragma unroll
    for (int j = 0; j < T; j += R)
        if (x < cols && y + j < rows)
            tile[ty + j][tx] = a[(y + j) * cols + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int xo = (int)get_group_id(1) * T + tx;
    int yo = (int)get_group_id(0) * T + ty;
#pragma unroll
    for (int j = 0; j < T; j += R)
        if (xo < rows && yo + j < cols)
            b[(yo + j) * rows + xo] = tile[tx][ty + j];
}
