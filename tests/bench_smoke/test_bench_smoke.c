/* test_bench_smoke.c - the kernel pairs of bench/perf/kernels stay usable:
 * each .fx kernel compiles for gfx942 (LLVM-verified, down to assembly),
 * its HIP twin compiles with clang-19 when it is installed (its path is
 * the suite's first argument, "" when it is not), and each .fx kernel runs
 * on the host on small inputs and matches a reference written here in C.
 * Inputs are chosen so that float results are exact (small integers) except
 * softmax, whose exponentials are compared with a relative tolerance. */
#include "fxtest.h"
#include "fxsource.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NKERNELS 10
static const char *const kernels[NKERNELS] = {
    "saxpy", "vec4_add", "reduce", "softmax", "transpose", "sgemm", "gemm_int8", "cvt_f16", "hash", "histogram",
};

static char *kernel_source(const char *name, const char *ext)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.%s", KERNEL_DIR, name, ext);
    char *src = fxt_read_file(path);
    if (!src)
        fprintf(stderr, "\n  cannot read %s", path);
    return src;
}

/* Opens kernel `name` for the host; the module must be closed. */
static bool open_kernel(FxsModule *m, const char *name)
{
    char *src = kernel_source(name, "fx");
    bool ok = src && fxs_open(m, src);
    free(src);
    return ok;
}

/* A fixed pseudo-random sequence, so failures reproduce. */
static uint32_t rng_state = 12345;
static uint32_t next_random(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* ---- compiling ---- */

static void test_fx_compiles_for_gfx942(void)
{
    for (int i = 0; i < NKERNELS; i++) {
        char *src = kernel_source(kernels[i], "fx");
        CU_ASSERT_FATAL(src != NULL);
        FxsModule m;
        char *s = fxs_assembly(&m, src, "gfx942");
        if (!s || !strstr(s, kernels[i]))
            fprintf(stderr, "\n  %s.fx does not compile for gfx942", kernels[i]);
        CU_ASSERT(s != NULL && strstr(s, ".amdgpu_metadata") != NULL);
        free(s);
        fxs_close(&m);
        free(src);
    }
}

/* The HIP twins, with the flags bench/perf/perf.py times. */
static void test_hip_compiles_with_clang(void)
{
    const char *clang = fxt_nargs > 0 ? fxt_args[0] : "";
    if (!clang[0]) {
        fprintf(stderr, "\n  clang-19 not installed: HIP twins not compiled");
        return;
    }
    for (int i = 0; i < NKERNELS; i++) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd,
                 "'%s' -x hip --offload-arch=gfx942 --cuda-device-only -nogpuinc -nogpulib -O3 -S "
                 "'%s/%s.hip' -o /dev/null",
                 clang, KERNEL_DIR, kernels[i]);
        int rc = system(cmd);
        if (rc != 0)
            fprintf(stderr, "\n  %s.hip does not compile", kernels[i]);
        CU_ASSERT_EQUAL(rc, 0);
    }
}

/* ---- running against C references ---- */

static void test_saxpy(void)
{
    enum { N = 1000 };
    float x[N], y[N], want[N], a = 2.5f;
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 37) - 18.0f, y[i] = (float)(i % 11);
        want[i] = a * x[i] + y[i];          /* small integers: exact either way */
    }
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "saxpy"));
    int32_t n = N;
    void *px = x, *py = y;
    void *args[] = { &px, &py, &a, &n };
    const size_t bytes[] = { sizeof x, sizeof y, 0, 0 };
    CU_ASSERT(fxs_launch(&m, "saxpy", (N + 255) / 256, 256, args, bytes));
    CU_ASSERT(memcmp(y, want, sizeof y) == 0);
    fxs_close(&m);
}

static void test_vec4_add(void)
{
    enum { N = 300 };
    float a[4 * N], b[4 * N], c[4 * N];
    for (int i = 0; i < 4 * N; i++)
        a[i] = (float)i, b[i] = (float)(3 * i + 1), c[i] = -1.0f;
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "vec4_add"));
    int32_t n = N - 1;                      /* the last vector stays untouched */
    void *pa = a, *pb = b, *pc = c;
    void *args[] = { &pa, &pb, &pc, &n };
    const size_t bytes[] = { sizeof a, sizeof b, sizeof c, 0 };
    CU_ASSERT(fxs_launch(&m, "vec4_add", (N + 255) / 256, 256, args, bytes));
    int bad = 0;
    for (int i = 0; i < 4 * N; i++)
        bad += c[i] != (i < 4 * n ? a[i] + b[i] : -1.0f);
    CU_ASSERT_EQUAL(bad, 0);
    fxs_close(&m);
}

static void test_reduce(void)
{
    enum { N = 5003 };
    float x[N], total = 0.5f, want = 0.5f;
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 7) - 2.0f;
        want += x[i];
    }
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "reduce"));
    int32_t n = N;
    void *px = x, *pt = &total;
    void *args[] = { &px, &pt, &n };
    const size_t bytes[] = { sizeof x, sizeof total, 0 };
    CU_ASSERT(fxs_launch(&m, "reduce", 3, 256, args, bytes));  /* grid-stride: 3 blocks for 5003 */
    CU_ASSERT_EQUAL(total, want);
    fxs_close(&m);
}

static void test_softmax(void)
{
    enum { ROWS = 3, COLS = 300 };
    static float x[ROWS * COLS], y[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; i++)
        x[i] = (float)((int)(next_random() % 2001) - 1000) / 100.0f;
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "softmax"));
    int32_t rows = ROWS, cols = COLS;
    void *px = x, *py = y;
    void *args[] = { &px, &py, &rows, &cols };
    const size_t bytes[] = { sizeof x, sizeof y, 0, 0 };
    CU_ASSERT(fxs_launch(&m, "softmax", ROWS, 256, args, bytes));
    double worst = 0.0;
    for (int r = 0; r < ROWS; r++) {
        double mx = -INFINITY, sum = 0.0;
        for (int j = 0; j < COLS; j++)
            mx = fmax(mx, x[r * COLS + j]);
        for (int j = 0; j < COLS; j++)
            sum += exp(x[r * COLS + j] - mx);
        for (int j = 0; j < COLS; j++) {
            double want = exp(x[r * COLS + j] - mx) / sum;
            worst = fmax(worst, fabs(y[r * COLS + j] - want) / want);
        }
    }
    if (worst > 1e-5)
        fprintf(stderr, "\n  softmax: relative error %g", worst);
    CU_ASSERT(worst <= 1e-5);
    fxs_close(&m);
}

static void test_transpose(void)
{
    enum { ROWS = 20, COLS = 37 };
    float src[ROWS * COLS], dst[ROWS * COLS];
    for (int i = 0; i < ROWS * COLS; i++)
        src[i] = (float)i, dst[i] = -1.0f;
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "transpose"));
    int32_t rows = ROWS, cols = COLS;
    void *ps = src, *pd = dst;
    void *args[] = { &ps, &pd, &rows, &cols };
    const size_t bytes[] = { sizeof src, sizeof dst, 0, 0 };
    unsigned grid = ((COLS + 15) / 16) * ((ROWS + 15) / 16);
    CU_ASSERT(fxs_launch(&m, "transpose", grid, 256, args, bytes));
    int bad = 0;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            bad += dst[c * ROWS + r] != src[r * COLS + c];
    CU_ASSERT_EQUAL(bad, 0);
    fxs_close(&m);
}

static void test_sgemm(void)
{
    enum { M = 64, N = 128, K = 32 };
    static float A[M * K], B[K * N], C[M * N];
    for (int i = 0; i < M * K; i++)
        A[i] = (float)((int)(next_random() % 9) - 4);
    for (int i = 0; i < K * N; i++)
        B[i] = (float)((int)(next_random() % 9) - 4);
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "sgemm"));
    int32_t mm = M, nn = N, kk = K;
    void *pa = A, *pb = B, *pc = C;
    void *args[] = { &pa, &pb, &pc, &mm, &nn, &kk };
    const size_t bytes[] = { sizeof A, sizeof B, sizeof C, 0, 0, 0 };
    CU_ASSERT(fxs_launch(&m, "sgemm", (M / 64) * (N / 64), 256, args, bytes));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float want = 0.0f;           /* small integers: every sum is exact */
            for (int k = 0; k < K; k++)
                want += A[i * K + k] * B[k * N + j];
            bad += C[i * N + j] != want;
        }
    CU_ASSERT_EQUAL(bad, 0);
    fxs_close(&m);
}

static void test_gemm_int8(void)
{
    enum { M = 5, N = 7, K = 300 };
    int8_t A[M * K], Bt[N * K];
    int32_t C[M * N];
    for (int i = 0; i < M * K; i++)
        A[i] = (int8_t)next_random();
    for (int i = 0; i < N * K; i++)
        Bt[i] = (int8_t)next_random();
    A[0] = Bt[0] = -128;
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "gemm_int8"));
    int32_t mm = M, nn = N, kk = K;
    void *pa = A, *pb = Bt, *pc = C;
    void *args[] = { &pa, &pb, &pc, &mm, &nn, &kk };
    const size_t bytes[] = { sizeof A, sizeof Bt, sizeof C, 0, 0, 0 };
    CU_ASSERT(fxs_launch(&m, "gemm_int8", 1, 256, args, bytes));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int32_t want = 0;
            for (int k = 0; k < K; k++)
                want += A[i * K + k] * Bt[j * K + k];
            bad += C[i * N + j] != want;
        }
    CU_ASSERT_EQUAL(bad, 0);
    fxs_close(&m);
}

/* ---- Float32 to Float16, the model ---- */

enum { RNE, RTZ, RDN, RUP };

/* Rounds the magnitude's bits `a` (not NaN, not infinity) to Float16
 * under `mode` for the sign `negative`: truncate, then add one unit in the
 * last place when the dropped part says so (the carry may reach infinity). */
static uint16_t f16_magnitude(uint32_t a, bool negative, int mode)
{
    uint32_t h, rem, half;
    int e = (int)(a >> 23);
    if (a >= 0x47800000u) {                /* 2^16 and above */
        h = 0x7bffu, rem = 2, half = 1;     /* more than half an ulp past the largest */
    } else if (e >= 113) {
        h = ((uint32_t)(e - 112) << 10) | ((a >> 13) & 0x3ffu);
        rem = a & 0x1fffu, half = 0x1000u;
    } else {
        uint32_t mant = (a & 0x7fffffu) | (e ? 0x800000u : 0u);
        int shift = 126 - e;
        if (shift >= 32) {
            h = 0, rem = mant ? 1 : 0, half = 2;  /* below half the smallest subnormal */
        } else {
            h = mant >> shift, rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
        }
    }
    bool up;
    switch (mode) {
    case RNE: up = rem > half || (rem == half && (h & 1u)); break;
    case RTZ: up = false; break;
    case RDN: up = negative && rem != 0; break;
    default: up = !negative && rem != 0; break;
    }
    return (uint16_t)(h + (up ? 1u : 0u));
}

static uint16_t f32_to_f16(float x, int mode)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return 0x7e00u;                     /* the canonical NaN, whatever the sign and payload */
    if (a == 0x7f800000u)
        return sign | 0x7c00u;
    return sign | f16_magnitude(a, sign != 0, mode);
}

static void test_cvt_f16(void)
{
    enum { N = 64 };
    static const float fixed[] = { 0.0f, -0.0f, 0.1f, -0.1f, 1.0f, 65504.0f, 65519.0f, 65520.0f, 70000.0f,
                                   -70000.0f, 1e-8f, -1e-8f, 6.1e-5f, 2.98e-8f, 3.0e-8f, INFINITY, -INFINITY,
                                   1.00048828125f, 1.00146484375f, NAN, -NAN };
    enum { NFIXED = sizeof fixed / sizeof fixed[0] };
    float x[N];
    uint16_t out[4][N];
    for (int i = 0; i < N; i++) {
        /* exponents 2^-27 .. 2^18: Float16's subnormals, normals and overflow */
        uint32_t exponent = 100u + next_random() % 46u, sign = next_random() & 1u;
        uint32_t bits = sign << 31 | exponent << 23 | (next_random() & 0x7fffffu);
        memcpy(&x[i], &bits, sizeof bits);
        if (i < NFIXED)
            x[i] = fixed[i];
        if (i == NFIXED) {
            bits = 0xffc01234u;             /* a negative NaN with a payload */
            memcpy(&x[i], &bits, sizeof bits);
        }
    }
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "cvt_f16"));
    int32_t n = N;
    void *px = x, *p0 = out[0], *p1 = out[1], *p2 = out[2], *p3 = out[3];
    void *args[] = { &px, &p0, &p1, &p2, &p3, &n };
    const size_t bytes[] = { sizeof x, sizeof out[0], sizeof out[1], sizeof out[2], sizeof out[3], 0 };
    CU_ASSERT(fxs_launch(&m, "cvt_f16", 1, 256, args, bytes));
    static const int modes[4] = { RNE, RTZ, RDN, RUP };  /* the kernel's output order */
    int bad = 0;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < N; i++) {
            uint16_t want = f32_to_f16(x[i], modes[k]);
            if (out[k][i] != want) {
                fprintf(stderr, "\n  cvt_f16 mode %d: %a gave 0x%04x, want 0x%04x", k, (double)x[i],
                        out[k][i], want);
                bad++;
            }
        }
    CU_ASSERT_EQUAL(bad, 0);
    fxs_close(&m);
}

/* ---- MurmurHash3_x86_32 of one 4-byte key, the model ---- */

static uint32_t rotl32(uint32_t x, int r)
{
    return (x << r) | (x >> (32 - r));
}

static uint32_t murmur3_key32(uint32_t key, uint32_t seed)
{
    uint32_t k = rotl32(key * 0xcc9e2d51u, 15) * 0x1b873593u;
    uint32_t h = rotl32(seed ^ k, 13) * 5u + 0xe6546b64u;
    h ^= 4u;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    return h ^ (h >> 16);
}

static void test_hash(void)
{
    enum { N = 700 };
    uint32_t keys[N], out[N];
    for (int i = 0; i < N; i++)
        keys[i] = i < 8 ? (uint32_t)i : next_random() * 2654435761u;
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "hash"));
    uint32_t seed = 0;
    int32_t n = N;
    void *pk = keys, *po = out;
    void *args[] = { &pk, &po, &seed, &n };
    const size_t bytes[] = { sizeof keys, sizeof out, 0, 0 };
    CU_ASSERT(fxs_launch(&m, "hash", (N + 255) / 256, 256, args, bytes));
    CU_ASSERT_EQUAL(out[0], 0x2362f9deu);   /* MurmurHash3_x86_32 of four zero bytes, seed 0 */
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != murmur3_key32(keys[i], seed);
    seed = 0x9747b28cu;
    CU_ASSERT(fxs_launch(&m, "hash", (N + 255) / 256, 256, args, bytes));
    for (int i = 0; i < N; i++)
        bad += out[i] != murmur3_key32(keys[i], seed);
    CU_ASSERT_EQUAL(bad, 0);
    fxs_close(&m);
}

static void test_histogram(void)
{
    enum { N = 10007 };
    static uint32_t data[N];
    uint32_t bins[256] = { 0 }, want[256] = { 0 };
    for (int i = 0; i < N; i++) {
        data[i] = next_random() ^ (next_random() << 16);
        want[data[i] & 255u]++;
    }
    bins[7] = 100;                          /* added to, not overwritten */
    want[7] += 100;
    FxsModule m;
    CU_ASSERT_FATAL(open_kernel(&m, "histogram"));
    int32_t n = N;
    void *pd = data, *pb = bins;
    void *args[] = { &pd, &pb, &n };
    const size_t bytes[] = { sizeof data, sizeof bins, 0 };
    CU_ASSERT(fxs_launch(&m, "histogram", 3, 256, args, bytes));
    CU_ASSERT(memcmp(bins, want, sizeof bins) == 0);
    fxs_close(&m);
}

static const FxtTest compile_tests[] = {
    { "every .fx kernel compiles for gfx942", test_fx_compiles_for_gfx942 },
    { "every HIP twin compiles with clang-19", test_hip_compiles_with_clang },
    { NULL, NULL },
};

static const FxtTest run_tests[] = {
    { "saxpy", test_saxpy },         { "vec4_add", test_vec4_add }, { "reduce", test_reduce },
    { "softmax", test_softmax },     { "transpose", test_transpose }, { "sgemm", test_sgemm },
    { "gemm_int8", test_gemm_int8 }, { "cvt_f16", test_cvt_f16 },   { "hash", test_hash },
    { "histogram", test_histogram }, { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "compile", compile_tests, NULL, NULL },
    { "run", run_tests, NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
