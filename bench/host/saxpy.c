/* saxpy.c - the C reference for fxrun on examples/saxpy.fx:
 *   saxpy N OUT   y = a * x + y over N Float32 elements, y written to OUT */
#include "common.h"

static void saxpy(const float *x, float *y, float a, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int32_t n = (int32_t)atol(argv[1]);
    float *x = bench_alloc((size_t)n * sizeof *x), *y = bench_alloc((size_t)n * sizeof *y);
    uint64_t sx = 1, sy = 2;
    for (int32_t i = 0; i < n; i++)
        x[i] = (float)bench_rand(&sx);
    for (int32_t i = 0; i < n; i++)
        y[i] = (float)bench_rand(&sy);
    BenchMark t = bench_mark();
    saxpy(x, y, 0.5f, n);
    bench_report(t);
    bench_save(argv[2], y, (size_t)n * sizeof *y);
    return 0;
}
