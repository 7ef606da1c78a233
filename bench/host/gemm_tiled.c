/* gemm_tiled.c - the C reference for fxrun on examples/gemm_tiled.fx:
 *   gemm_tiled N OUT   C = A @ B, all N x N Float32 row-major, C to OUT.
 * The kernel's tiles add the products of one element in k order, each with
 * one rounding (its `acc += As * Bs` is contracted to an fma), so the loop
 * order i, k, j with fmaf gives the same bits. run.sh compiles this one
 * -march=native: fxrun's JIT compiles for the host's processor too, and
 * fmaf is a libm call without the FMA instructions. */
#include "common.h"
#include <math.h>

static void gemm(int n, const float *a, const float *b, float *c, float *acc)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            acc[j] = 0.0f;
        for (int k = 0; k < n; k++) {
            float aik = a[(size_t)i * n + k];
            for (int j = 0; j < n; j++)
                acc[j] = fmaf(aik, b[(size_t)k * n + j], acc[j]);
        }
        for (int j = 0; j < n; j++)
            c[(size_t)i * n + j] = acc[j];
    }
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int n = atoi(argv[1]);
    size_t nn = (size_t)n * n;
    float *a = bench_alloc(nn * 4), *b = bench_alloc(nn * 4), *c = bench_alloc(nn * 4), *acc = bench_alloc((size_t)n * 4);
    uint64_t sa = 1, sb = 2;
    for (size_t i = 0; i < nn; i++)
        a[i] = (float)bench_rand(&sa);
    for (size_t i = 0; i < nn; i++)
        b[i] = (float)bench_rand(&sb);
    BenchMark t = bench_mark();
    gemm(n, a, b, c, acc);
    bench_report(t);
    bench_save(argv[2], c, nn * 4);
    return 0;
}
