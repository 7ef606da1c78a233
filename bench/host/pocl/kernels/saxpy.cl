/* saxpy.cl - y = a * x + y over n floats, one work-item per element, in
 * work-groups of 256: the kernel of saxpy.fx in OpenCL C, with fma() where
 * saxpy.fx has fx.fma() (one rounding in both). */
__kernel void saxpy(__global const float *x, __global float *y, float a, int n)
{
    int i = (int)get_group_id(0) * (int)get_local_size(0) + (int)get_local_id(0);
    if (i < n)
        y[i] = fma(a, x[i], y[i]);
}
