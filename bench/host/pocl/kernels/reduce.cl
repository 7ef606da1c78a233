/* reduce.cl - total[0] += the sum of x[0 .. n) (int, wrapping): a
 * grid-stride sum per work-item, a tree in local memory per work-group,
 * one global atomic per work-group: reduce.fx in OpenCL C. The sums are
 * of integers, so any order of the additions gives the same bits. A sum
 * that overflows is undefined for OpenCL C's int, as in C, so the sums are
 * taken as uint, which wraps as fx's Int32 does. */
#define B 256

__kernel void reduce(__global const int *x, int n, __global int *total)
{
    __local uint part[B];
    int t = (int)get_local_id(0);
    int stride = (int)get_num_groups(0) * (int)get_local_size(0);
    uint s = 0;
    for (int i = (int)get_group_id(0) * (int)get_local_size(0) + t; i < n; i += stride)
        s += (uint)x[i];
    part[t] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = B / 2; h > 0; h /= 2) {
        if (t < h)
            part[t] += part[t + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0)
        atomic_add(&total[0], (int)part[0]);
}
