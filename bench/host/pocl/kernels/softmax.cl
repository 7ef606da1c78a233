/* softmax.cl - y[r, :] = exp(x[r, :] - max) / sum(exp(x[r, :] - max)) for
 * each row r, one work-group of 256 per row, the partial maxima and sums
 * combined in a tree in local memory (9 barriers each): softmax.fx in
 * OpenCL C. fmax() and softmax.fx's fx.max() differ only for NaN operands,
 * which the inputs do not have. */
#define B 256

static float tree_max(__local float *s, float v)
{
    int t = (int)get_local_id(0);
    s[t] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = B / 2; h > 0; h /= 2) {
        if (t < h)
            s[t] = fmax(s[t], s[t + h]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return s[0];
}

static float tree_sum(__local float *s, float v)
{
    int t = (int)get_local_id(0);
    s[t] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = B / 2; h > 0; h /= 2) {
        if (t < h)
            s[t] += s[t + h];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return s[0];
}

__kernel void softmax(__global const float *x, __global float *y, int rows, int cols)
{
    __local float maxes[B];
    __local float sums[B];
    int r = (int)get_group_id(0);
    int t = (int)get_local_id(0);
    if (r < rows) {
        int base = r * cols;
        float m = -INFINITY;
        for (int j = t; j < cols; j += B)
            m = fmax(m, x[base + j]);
        float row_max = tree_max(maxes, m);
        float sum = 0.0f;
        for (int j = t; j < cols; j += B) {
            float e = exp(x[base + j] - row_max);
            y[base + j] = e;
            sum += e;
        }
        float inv = 1.0f / tree_sum(sums, sum);
        for (int j = t; j < cols; j += B)
            y[base + j] = y[base + j] * inv;
    }
}
