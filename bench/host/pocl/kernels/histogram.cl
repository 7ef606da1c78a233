/* histogram.cl - bins[v] += the number of bytes equal to v in x[0 .. n):
 * a histogram per work-group of 256 in local memory filled with local
 * atomics over a grid-wide stride, then added to the global bins with
 * global atomics: histogram.fx in OpenCL C. */
#define BINS 256

__kernel void histogram(__global const uchar *x, int n, __global uint *bins)
{
    __local uint local_bins[BINS];
    int t = (int)get_local_id(0);   /* the work-group has BINS work-items */
    local_bins[t] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int stride = (int)get_num_groups(0) * (int)get_local_size(0);
    for (int i = (int)get_group_id(0) * (int)get_local_size(0) + t; i < n; i += stride)
        atomic_add(&local_bins[x[i]], 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&bins[t], local_bins[t]);
}
