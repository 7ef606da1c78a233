/* gemm.c - the C reference for fxrun on examples/gemm.fx:
 *   gemm N OUT   C = alpha * A @ B + beta * C, all N x N Float64 row-major,
 *                C written to OUT.
 * The loop order is i, k, j (the inner loop runs along rows of B and C),
 * the usual way to write a GEMM in plain C; one rounding per multiply-add,
 * as the kernel's unfused multiply and add (no -ffp-contract). */
#include "common.h"

static void gemm(int n, double alpha, const double *a, const double *b, double beta, double *c, double *acc)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            acc[j] = 0.0;
        for (int k = 0; k < n; k++) {
            double aik = a[(size_t)i * n + k];
            for (int j = 0; j < n; j++)
                acc[j] += aik * b[(size_t)k * n + j];
        }
        for (int j = 0; j < n; j++)
            c[(size_t)i * n + j] = alpha * acc[j] + beta * c[(size_t)i * n + j];
    }
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    int n = atoi(argv[1]);
    size_t nn = (size_t)n * n;
    double *a = bench_alloc(nn * 8), *b = bench_alloc(nn * 8), *c = bench_alloc(nn * 8), *acc = bench_alloc((size_t)n * 8);
    uint64_t sa = 1, sb = 2, sc = 3;
    for (size_t i = 0; i < nn; i++)
        a[i] = bench_rand(&sa);
    for (size_t i = 0; i < nn; i++)
        b[i] = bench_rand(&sb);
    for (size_t i = 0; i < nn; i++)
        c[i] = bench_rand(&sc);
    BenchMark t = bench_mark();
    gemm(n, 1.5, a, b, 0.5, c, acc);
    bench_report(t);
    bench_save(argv[2], c, nn * 8);
    return 0;
}
