/* common.h - what the C references share with fxrun's side of the
 * benchmark: fxrun's rand() sequence (so both fill their buffers with the
 * same values and their outputs can be compared byte for byte), writing a
 * buffer out (fxrun --save) and timing the computation. */
#ifndef BENCH_HOST_COMMON_H
#define BENCH_HOST_COMMON_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* Wall and CPU time in ms, printed as fxrun --time-passes prints its
 * "run on the host" stage, so run.sh reads both the same way. */
typedef struct BenchMark {
    struct timespec wall, cpu;
} BenchMark;

static BenchMark bench_mark(void)
{
    BenchMark m;
    clock_gettime(CLOCK_MONOTONIC, &m.wall);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &m.cpu);
    return m;
}

static double bench_ms(struct timespec a, struct timespec b)
{
    return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) * 1e-6;
}

static void bench_report(BenchMark start)
{
    BenchMark end = bench_mark();
    fprintf(stderr, "%10.3f %10.3f  run on the host\n", bench_ms(start.wall, end.wall), bench_ms(start.cpu, end.cpu));
}

static uint64_t bench_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* rand(Float64, n, seed=seed): uniform in [-1, 1) */
static double bench_rand(uint64_t *seed)
{
    return (double)(bench_rng_next(seed) >> 11) * 0x1p-53 * 2.0 - 1.0;
}

static void *bench_alloc(size_t bytes)
{
    void *p = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    return p;
}

static void bench_save(const char *path, const void *data, size_t bytes)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, bytes, f) != bytes || fclose(f)) {
        fprintf(stderr, "cannot write %s\n", path);
        exit(1);
    }
}
#endif
