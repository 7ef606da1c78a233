/* test_programs.c - tensor programs on the host against naive references:
 * GEMM over many shapes (1x1, primes, non-multiples of the tile,
 * tall/skinny), both transposes, column-major operands, static and run-time
 * alpha/beta, BLAS beta == 0 / alpha == 0 with NaNs, Int8 x Int8 -> Int32,
 * broadcasting maps, each reduction; and every program kernel compiling for
 * gfx90a, gfx942, gfx1100.
 *
 * The tests that run programs run once on the host's own FXIR and once per
 * GPU (gfx90a, gfx942, gfx1100, gfx1201) with that GPU's FXIR and its waves
 * emulated: the matrix-core tiles, their register layouts and the LDS
 * staging then run here. Float GEMMs must match an fma chain in k order bit
 * for bit (the order the matrix instructions accumulate in; Float16 and
 * BFloat16 products are exact in their Float32 accumulator); Int8 exactly. */
#include "fxtest.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver/pipeline.h"
#include "abi/fxplan.h"
#include "runtime/fxrt_hip.h"
#include "runtime/fxrt_program.h"
#include "prog.h"
#include <llvm-c/IRReader.h>
#include "support/floatfmt.h"

/* ---- compiled programs, kept per source for the suite (shapes are run-time
 * parameters, so one compilation serves every shape) ---- */

enum { CACHE = 64 };   /* more than the distinct sources of a suite */
static struct { char *src; Prog p; } cache[CACHE];

static Prog *cached_program(const char *src)
{
    int free_slot = -1;
    for (int i = 0; i < CACHE; i++) {
        if (cache[i].src && strcmp(cache[i].src, src) == 0)
            return &cache[i].p;
        if (!cache[i].src && free_slot < 0)
            free_slot = i;
    }
    if (free_slot < 0)
        return NULL;
    if (!prog_open(&cache[free_slot].p, src, "g", NULL)) {
        fprintf(stderr, "\n%s", src);
        prog_close(&cache[free_slot].p);
        return NULL;
    }
    cache[free_slot].src = strdup(src);
    return &cache[free_slot].p;
}

static int clear_cache(void)
{
    for (int i = 0; i < CACHE; i++)
        if (cache[i].src) {
            prog_close(&cache[i].p);
            free(cache[i].src);
            cache[i].src = NULL;
        }
    return 0;
}

/* ---- GEMM against a reference with the same summation order ---- */

typedef struct GemmCase {
    int M, N, K;
    bool ta, tb;
    bool cm_a, cm_b, cm_c;       /* column-major storage */
    const char *alpha, *beta;    /* NULL alpha: 1; NULL beta: no C term; "alpha"/"beta": run-time */
    double alpha_v, beta_v;      /* the values (run-time ones are passed as arguments) */
    bool nan_in_c, nan_in_ab;
} GemmCase;

static uint64_t rng = 88172645463325252ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53 * 2.0 - 1.0;
}

/* element (i, j) of an R x C matrix stored row- or column-major */
static size_t at(int i, int j, int R, int C, bool cm)
{
    return cm ? (size_t)j * (size_t)R + (size_t)i : (size_t)i * (size_t)C + (size_t)j;
}

static char *gemm_source(const GemmCase *g, const char *T)
{
    char *s = NULL;
    size_t n;
    FILE *f = open_memstream(&s, &n);
    const char *ad = g->ta ? "K, M" : "M, K", *bd = g->tb ? "N, K" : "K, N";
    fprintf(f, "program g(A: Tensor[%s, %s%s], B: Tensor[%s, %s%s], C: Tensor[%s, M, N%s], "
               "M: Int32, N: Int32, K: Int32, alpha: %s, beta: %s) {\n    C = ",
            T, ad, g->cm_a ? ", col_major" : "", T, bd, g->cm_b ? ", col_major" : "", T,
            g->cm_c ? ", col_major" : "", T, T);
    if (g->alpha)
        fprintf(f, "%s * ", g->alpha);
    fprintf(f, "A%s @ B%s", g->ta ? ".T" : "", g->tb ? ".T" : "");
    if (g->beta)
        fprintf(f, " + %s * C", g->beta);
    fprintf(f, "\n}\n");
    fclose(f);
    return s;
}

static int run_gemm64(const GemmCase *g)
{
    char *src = gemm_source(g, "Float64");
    Prog *p = cached_program(src);
    CU_ASSERT_PTR_NOT_NULL(p);
    if (!p) {
        free(src);
        return 1;
    }
    int M = g->M, N = g->N, K = g->K;
    int ar = g->ta ? K : M, ac = g->ta ? M : K, br = g->tb ? N : K, bc = g->tb ? K : N;
    double *A = malloc(sizeof(double) * (size_t)(M * K)), *B = malloc(sizeof(double) * (size_t)(K * N));
    double *C = malloc(sizeof(double) * (size_t)(M * N)), *want = malloc(sizeof(double) * (size_t)(M * N));
    for (int i = 0; i < M * K; i++)
        A[i] = g->nan_in_ab && i == 0 ? NAN : uniform();
    for (int i = 0; i < K * N; i++)
        B[i] = uniform();
    for (int i = 0; i < M * N; i++)
        C[i] = g->nan_in_c ? NAN : uniform();
    bool skip_ab = g->alpha && g->alpha_v == 0 && strcmp(g->alpha, "alpha") != 0;
    bool reads_c = g->beta && !(g->beta_v == 0 && strcmp(g->beta, "beta") != 0);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double acc = 0;
            for (int k = 0; k < K && !skip_ab; k++) {
                double a = g->ta ? A[at(k, i, ar, ac, g->cm_a)] : A[at(i, k, ar, ac, g->cm_a)];
                double b = g->tb ? B[at(j, k, br, bc, g->cm_b)] : B[at(k, j, br, bc, g->cm_b)];
                acc = fma(a, b, acc);
            }
            double r = g->alpha && !(g->alpha_v == 1 && strcmp(g->alpha, "alpha") != 0) ? g->alpha_v * acc : acc;
            if (reads_c)
                r = r + g->beta_v * C[at(i, j, M, N, g->cm_c)];
            want[at(i, j, M, N, g->cm_c)] = r;
        }
    int32_t m = M, n = N, k = K;
    double alpha = g->alpha_v, beta = g->beta_v;
    void *pa = A, *pb = B, *pc = C;
    void *args[] = { &pa, &pb, &pc, &m, &n, &k, &alpha, &beta };
    CU_ASSERT(prog_run(p, args));
    int bad = 0;
    for (int i = 0; i < M * N; i++)
        if (memcmp(&C[i], &want[i], sizeof(double)) != 0 && !(isnan(C[i]) && isnan(want[i]))) {
            if (bad++ < 3)
                fprintf(stderr, "\n  gemm %dx%dx%d ta=%d tb=%d: C[%d] = %.17g, want %.17g", M, N, K, g->ta, g->tb, i,
                        C[i], want[i]);
        }
    CU_ASSERT_EQUAL(bad, 0);
    free(A);
    free(B);
    free(C);
    free(want);
    free(src);
    return bad;
}

static void test_gemm_shapes(void)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 7, 5, 3 }, { 17, 33, 16 }, { 64, 2, 100 }, { 2, 70, 5 },
                                     { 31, 17, 47 }, { 16, 16, 16 }, { 1, 50, 37 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int t = 0; t < 4; t++) {
            GemmCase g = { .M = shapes[s][0], .N = shapes[s][1], .K = shapes[s][2], .ta = t & 1, .tb = (t >> 1) & 1 };
            run_gemm64(&g);
        }
}

static void test_gemm_layouts_and_scalars(void)
{
    GemmCase cases[] = {
        { .M = 9, .N = 7, .K = 5, .cm_a = true, .alpha_v = 1 },
        { .M = 9, .N = 7, .K = 5, .cm_b = true, .cm_c = true, .alpha_v = 1 },
        { .M = 9, .N = 7, .K = 5, .ta = true, .tb = true, .cm_a = true, .cm_b = true, .cm_c = true, .alpha_v = 1 },
        { .M = 13, .N = 11, .K = 19, .alpha = "2.5", .beta = "0.5", .alpha_v = 2.5, .beta_v = 0.5 },
        { .M = 13, .N = 11, .K = 19, .ta = true, .alpha = "alpha", .beta = "beta", .alpha_v = -1.25, .beta_v = 3.0 },
        { .M = 13, .N = 11, .K = 19, .tb = true, .cm_c = true, .alpha = "alpha", .beta = "0.25", .alpha_v = 0.75,
          .beta_v = 0.25 },
        /* BLAS: a static beta of 0 does not read C, even if it holds NaN */
        { .M = 6, .N = 5, .K = 4, .alpha = "2.0", .beta = "0.0", .alpha_v = 2.0, .nan_in_c = true },
        /* a static alpha of 0 does not compute A @ B: a NaN in A does not propagate */
        { .M = 6, .N = 5, .K = 4, .alpha = "0.0", .beta = "1.5", .beta_v = 1.5, .nan_in_ab = true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        run_gemm64(&cases[i]);
}

/* Float32 too, including a run-time beta of 0 which (unlike a static one) reads C. */
static void test_gemm_float32(void)
{
    const char *src = "program g(A: Tensor[Float32, 5, 3], B: Tensor[Float32, 3, 4], C: Tensor[Float32, 5, 4], "
                      "beta: Float32) {\n    C = A @ B + beta * C\n}\n";
    Prog p;
    CU_ASSERT_FATAL(prog_open(&p, src, "g", NULL));
    float A[15], B[12], C[20], want[20], beta = 0;
    for (int i = 0; i < 15; i++)
        A[i] = (float)uniform();
    for (int i = 0; i < 12; i++)
        B[i] = (float)uniform();
    for (int i = 0; i < 20; i++)
        C[i] = i == 3 ? NAN : (float)uniform();
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++) {
            float acc = 0;
            for (int k = 0; k < 3; k++)
                acc = fmaf(A[i * 3 + k], B[k * 4 + j], acc);
            want[i * 4 + j] = acc + beta * C[i * 4 + j];
        }
    void *pa = A, *pb = B, *pc = C;
    void *args[] = { &pa, &pb, &pc, &beta };
    CU_ASSERT(prog_run(&p, args));
    for (int i = 0; i < 20; i++)
        CU_ASSERT(memcmp(&C[i], &want[i], 4) == 0 || (isnan(C[i]) && isnan(want[i])));
    CU_ASSERT(isnan(C[3]));   /* 0 * NaN is NaN: a run-time beta reads C */
    prog_close(&p);
}

/* Int8 (or Int4) x itself -> Int32: exact, over shapes, transposes and
 * layouts. An Int4 element is a byte holding -8..7. */
static bool gemm_int4;

static bool gemm_static_k;   /* K a number in the program, not a parameter */

static void run_gemm_int8(int M, int N, int K, bool ta, bool tb, bool cm_a, bool cm_c)
{
    char src[512], k_dim[16], a_dims[32], b_dims[32];
    const char *ty = gemm_int4 ? "Int4" : "Int8";
    snprintf(k_dim, sizeof k_dim, gemm_static_k ? "%d" : "K", K);
    snprintf(a_dims, sizeof a_dims, ta ? "%s, M" : "M, %s", k_dim);
    snprintf(b_dims, sizeof b_dims, tb ? "N, %s" : "%s, N", k_dim);
    snprintf(src, sizeof src,
             "program g(A: Tensor[%s, %s%s], B: Tensor[%s, %s], C: Tensor[Int32, M, N%s], M: Int32, N: Int32, "
             "K: Int32) {\n    C = A%s @ B%s\n}\n", ty, a_dims, cm_a ? ", col_major" : "", ty,
             b_dims, cm_c ? ", col_major" : "", ta ? ".T" : "", tb ? ".T" : "");
    Prog *p = cached_program(src);
    CU_ASSERT_PTR_NOT_NULL(p);
    if (!p)
        return;
    int ar = ta ? K : M, ac = ta ? M : K, br = tb ? N : K, bc = tb ? K : N;
    int8_t *A = malloc((size_t)(M * K)), *B = malloc((size_t)(K * N));
    int32_t *C = malloc(sizeof(int32_t) * (size_t)(M * N));
    for (int i = 0; i < M * K; i++)   /* -128 (-8) too */
        A[i] = gemm_int4 ? (int8_t)floor(uniform() * 8) : (int8_t)(int)(uniform() * 128.0 - (i % 7 == 0));
    for (int i = 0; i < K * N; i++)
        B[i] = gemm_int4 ? (int8_t)floor(uniform() * 8) : (int8_t)(int)(uniform() * 128.0 - (i % 5 == 0));
    int32_t m = M, n = N, k = K;
    void *pa = A, *pb = B, *pc = C;
    void *args[] = { &pa, &pb, &pc, &m, &n, &k };
    CU_ASSERT(prog_run(p, args));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int32_t want = 0;
            for (int kk = 0; kk < K; kk++)
                want += (ta ? A[at(kk, i, ar, ac, cm_a)] : A[at(i, kk, ar, ac, cm_a)]) *
                        (tb ? B[at(j, kk, br, bc, false)] : B[at(kk, j, br, bc, false)]);
            if (C[at(i, j, M, N, cm_c)] != want && bad++ < 3)
                fprintf(stderr, "\n  int8 gemm %dx%dx%d ta=%d tb=%d: C[%d][%d] = %d, want %d", M, N, K, ta, tb, i, j,
                        C[at(i, j, M, N, cm_c)], want);
        }
    CU_ASSERT_EQUAL(bad, 0);
    free(A);
    free(B);
    free(C);
}

static void test_gemm_int8(void)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 16, 16, 16 }, { 17, 33, 40 }, { 40, 36, 72 }, { 5, 70, 33 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int t = 0; t < 4; t++)
            run_gemm_int8(shapes[s][0], shapes[s][1], shapes[s][2], t & 1, t >> 1, false, false);
    run_gemm_int8(19, 23, 37, false, false, true, true);
    run_gemm_int8(19, 23, 37, true, false, true, false);
    /* whole 128 x 128 tiles and two slices: the loop without bounds tests */
    run_gemm_int8(130, 132, 160, false, true, false, false);
    run_gemm_int8(130, 132, 160, true, false, false, false);
    /* with K in the program: CDNA's 8 x 4 and 4 x 8 tiles (A @ B, A.T @ B.T,
     * A.T @ B) */
    gemm_static_k = true;
    run_gemm_int8(260, 264, 160, false, false, false, false);
    run_gemm_int8(260, 264, 160, true, true, false, false);
    run_gemm_int8(260, 264, 160, true, false, false, false);
    gemm_static_k = false;
}

/* Int4 the same way: WMMA's iu4 on gfx11 and gfx12 */
static void test_gemm_int4(void)
{
    gemm_int4 = true;
    static const int shapes[][3] = { { 1, 1, 1 }, { 40, 36, 72 }, { 5, 70, 33 } };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (int t = 0; t < 4; t += s == 1 ? 1 : 3)
            run_gemm_int8(shapes[s][0], shapes[s][1], shapes[s][2], t & 1, t >> 1, false, false);
    run_gemm_int8(130, 132, 160, true, false, false, false);   /* whole tiles, as for Int8 */
    gemm_int4 = false;
}

/* Float16 / BFloat16 x itself -> Float32 accumulation, C in Float32 or in
 * the input type: bit for bit the fma chain in k order of the widened
 * elements, then (for a 16-bit C) one rounding to nearest even. */
static uint16_t half_bits(bool bf16, float f)
{
    uint16_t h;
    uint32_t u;
    if (!bf16) {
        _Float16 x = (_Float16)f;
        memcpy(&h, &x, 2);
        return h;
    }
    memcpy(&u, &f, 4);   /* exact: f has an 8-bit significand */
    return (uint16_t)(u >> 16);
}

static float half_value(bool bf16, uint16_t h)
{
    if (!bf16) {
        _Float16 x;
        memcpy(&x, &h, 2);
        return (float)x;
    }
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void run_gemm_half(bool bf16, int M, int N, int K, bool ta, bool tb, bool out16)
{
    const char *ty = bf16 ? "BFloat16" : "Float16";
    char src[512];
    snprintf(src, sizeof src,
             "program g(A: Tensor[%s, %s], B: Tensor[%s, %s], C: Tensor[%s, M, N], M: Int32, N: Int32, K: Int32) {\n"
             "    C = %sA%s @ B%s\n}\n", ty, ta ? "K, M" : "M, K", ty, tb ? "N, K" : "K, N", out16 ? ty : "Float32",
             out16 ? "0.5 * " : "", ta ? ".T" : "", tb ? ".T" : "");
    Prog *p = cached_program(src);
    CU_ASSERT_PTR_NOT_NULL(p);
    if (!p)
        return;
    int ar = ta ? K : M, ac = ta ? M : K, br = tb ? N : K, bc = tb ? K : N;
    uint16_t *A = malloc(2 * (size_t)(M * K)), *B = malloc(2 * (size_t)(K * N));
    void *C = malloc(4 * (size_t)(M * N));
    /* significands of 11 (Float16) or 8 (BFloat16) bits: integers in
     * [-1024, 1024) or [-128, 128), scaled */
    for (int i = 0; i < M * K; i++)
        A[i] = half_bits(bf16, (float)ldexp(floor(uniform() * (bf16 ? 128 : 1024)), -8));
    for (int i = 0; i < K * N; i++)
        B[i] = half_bits(bf16, (float)ldexp(floor(uniform() * (bf16 ? 128 : 1024)), -9));
    int32_t m = M, n = N, k = K;
    void *pa = A, *pb = B, *pc = C;
    void *args[] = { &pa, &pb, &pc, &m, &n, &k };
    CU_ASSERT(prog_run(p, args));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int kk = 0; kk < K; kk++)
                acc = fmaf(half_value(bf16, ta ? A[at(kk, i, ar, ac, false)] : A[at(i, kk, ar, ac, false)]),
                           half_value(bf16, tb ? B[at(j, kk, br, bc, false)] : B[at(kk, j, br, bc, false)]), acc);
            uint32_t want, got;
            if (out16) {
                want = half_bits(bf16, 0.5f * acc);
                got = ((uint16_t *)C)[i * N + j];
                if (bf16) {   /* round the Float32 to nearest even BFloat16 */
                    float h = 0.5f * acc;
                    uint32_t u;
                    memcpy(&u, &h, 4);
                    want = (u + 0x7fff + (u >> 16 & 1)) >> 16;
                }
            } else {
                memcpy(&want, &acc, 4);
                got = ((uint32_t *)C)[i * N + j];
            }
            if (got != want && bad++ < 3)
                fprintf(stderr, "\n  %s gemm %dx%dx%d ta=%d tb=%d: C[%d][%d] = %#x, want %#x", ty, M, N, K, ta, tb, i,
                        j, got, want);
        }
    CU_ASSERT_EQUAL(bad, 0);
    free(A);
    free(B);
    free(C);
}

static void test_gemm_half(void)
{
    static const int shapes[][3] = { { 1, 1, 1 }, { 16, 16, 16 }, { 17, 33, 40 }, { 70, 36, 72 } };
    for (int bf = 0; bf < 2; bf++) {
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
            for (int t = 0; t < 4; t++)
                run_gemm_half(bf, shapes[s][0], shapes[s][1], shapes[s][2], t & 1, t >> 1, false);
        run_gemm_half(bf, 33, 19, 45, false, true, true);
        /* whole tiles (128 x 128; 128 x 96 on RDNA with a k-contiguous B)
         * and two slices: the loop without bounds tests */
        run_gemm_half(bf, 130, 132, 96, false, true, false);
        run_gemm_half(bf, 130, 132, 96, true, false, false);
    }
}

/* An 8-bit float format by its name in the language. */
typedef struct F8 {
    const char *name;
    const FloatFormat *ff;
} F8;

/* The 8-bit floats into Float32 with a run-time scale as alpha (the
 * per-tensor scales of quantized products): bit for bit the scaled fma chain
 * in k order; every finite encoding, subnormals included. A and B may be
 * of two formats (fp8 by bf8). */
static void run_gemm_f8(const F8 *fa, const F8 *fb, int M, int N, int K, bool ta, bool tb)
{
    char src[512];
    const char *ty = fa->name;
    const FloatFormat *ff = fa->ff, *ffb = fb->ff;
    snprintf(src, sizeof src,
             "program g(A: Tensor[%s, %s], B: Tensor[%s, %s], C: Tensor[Float32, M, N], s: Float32, M: Int32, "
             "N: Int32, K: Int32) {\n    C = s * A%s @ B%s\n}\n",
             ty, ta ? "K, M" : "M, K", fb->name, tb ? "N, K" : "K, N", ta ? ".T" : "", tb ? ".T" : "");
    Prog *p = cached_program(src);
    CU_ASSERT_PTR_NOT_NULL(p);
    if (!p)
        return;
    int ar = ta ? K : M, ac = ta ? M : K, br = tb ? N : K, bc = tb ? K : N;
    uint8_t *A = malloc((size_t)(M * K)), *B = malloc((size_t)(K * N));
    float *C = malloc(4 * (size_t)(M * N)), s = 0.375f;
    for (int i = 0; i < M * K + K * N; i++) {
        uint8_t e;
        do
            e = (uint8_t)(uniform() * 256);
        while (!isfinite(ff_to_double(i < M * K ? ff : ffb, e)));
        (i < M * K ? A : B)[i < M * K ? i : i - M * K] = e;
    }
    int32_t m = M, n = N, k = K;
    void *pa = A, *pb = B, *pc = C;
    void *args[] = { &pa, &pb, &pc, &s, &m, &n, &k };
    CU_ASSERT(prog_run(p, args));
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float acc = 0;
            for (int kk = 0; kk < K; kk++)
                acc = fmaf((float)ff_to_double(ff, ta ? A[at(kk, i, ar, ac, false)] : A[at(i, kk, ar, ac, false)]),
                           (float)ff_to_double(ffb, tb ? B[at(j, kk, br, bc, false)] : B[at(kk, j, br, bc, false)]),
                           acc);
            float want = s * acc, got = C[i * N + j];
            if (memcmp(&got, &want, 4) != 0 && bad++ < 3)
                fprintf(stderr, "\n  %s by %s gemm %dx%dx%d ta=%d tb=%d: C[%d][%d] = %.9g, want %.9g", ty, fb->name, M,
                        N, K, ta, tb, i, j, got, want);
        }
    CU_ASSERT_EQUAL(bad, 0);
    free(A);
    free(B);
    free(C);
}

static void test_gemm_f8(void)
{
    static const F8 f8[] = {
        { "Float8E4M3FNUZ", &ff_f8e4m3fnuz }, { "Float8E5M2FNUZ", &ff_f8e5m2fnuz },
        { "Float8E4M3FN", &ff_f8e4m3fn }, { "Float8E5M2", &ff_f8e5m2 },
    };
    /* every transpose in one format (the staging is the same for all four:
     * bytes), A @ B and A @ B.T in the others */
    for (int f = 0; f < 4; f++) {
        for (int t = 0; t < 4; t += f == 0 ? 1 : 2)
            run_gemm_f8(&f8[f], &f8[f], 70, 36, 72, t & 1, t >> 1);
        run_gemm_f8(&f8[f], &f8[f], 1, 1, 1, false, false);
        run_gemm_f8(&f8[f], &f8[f], 17, 33, 40, false, true);
    }
    /* one format by the other: gfx94x's and gfx12's fp8_bf8 and bf8_fp8
     * instructions, and a pair of the two conventions (FMA tiles everywhere) */
    static const int pairs[][2] = { { 0, 1 }, { 1, 0 }, { 2, 3 }, { 3, 2 }, { 2, 1 } };
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        run_gemm_f8(&f8[pairs[p][0]], &f8[pairs[p][1]], 70, 36, 72, p == 0, p == 1);
        run_gemm_f8(&f8[pairs[p][0]], &f8[pairs[p][1]], 17, 33, 40, false, true);
    }
}

/* ---- maps and reductions ---- */

static void test_maps_and_reductions(void)
{
    const char *src =
        "program m(X: Tensor[Float32, R, 4], row: Tensor[Float32, 4], col: Tensor[Float32, R, 1], s: Float32,\n"
        "          Y: Tensor[Float32, R, 4], Z: Tensor[Int32, R, 4], sum1: Tensor[Float32, R],\n"
        "          max0: Tensor[Float32, 4], min1: Tensor[Int32, R], R: Int32) {\n"
        "    let T = X * s + row\n"
        "    Y = fx.max(T - col, 0.0)\n"
        "    Z = Int32(X) % 3 - 1\n"
        "    sum1 = fx.reduce_sum(Y, axis=1)\n"
        "    max0 = fx.reduce_max(X, axis=0)\n"
        "    min1 = fx.reduce_min(Z, axis=1)\n"
        "}\n";
    Prog p;
    CU_ASSERT_FATAL(prog_open(&p, src, "m", NULL));
    enum { R = 37 };
    float X[R * 4], row[4] = { 1, 2, 3, 4 }, col[R], Y[R * 4], sum1[R], max0[4], s = 2;
    int32_t Z[R * 4], min1[R], r = R;
    for (int i = 0; i < R * 4; i++)
        X[i] = (float)((i * 7) % 23) - 11;
    X[4 * 5 + 2] = NAN;   /* a NaN propagates through max */
    for (int i = 0; i < R; i++)
        col[i] = (float)(i % 5);
    void *px = X, *prow = row, *pcol = col, *py = Y, *pz = Z, *ps1 = sum1, *pm0 = max0, *pm1 = min1;
    void *args[] = { &px, &prow, &pcol, &s, &py, &pz, &ps1, &pm0, &pm1, &r };
    CU_ASSERT_FATAL(prog_run(&p, args));
    for (int i = 0; i < R; i++) {
        float sum = 0;
        int32_t mn = INT32_MAX;
        for (int j = 0; j < 4; j++) {
            float t = X[i * 4 + j] * s + row[j];
            float want = isnan(t) ? NAN : fmaxf(t - col[i], 0.0f);
            CU_ASSERT(Y[i * 4 + j] == want || (isnan(want) && isnan(Y[i * 4 + j])));
            /* Int32(NaN) is 0; floored modulo of negative values */
            int32_t xi = isnan(X[i * 4 + j]) ? 0 : (int32_t)X[i * 4 + j];
            int32_t z = ((xi % 3) + 3) % 3 - 1;
            CU_ASSERT_EQUAL(Z[i * 4 + j], z);
            sum += Y[i * 4 + j];
            mn = z < mn ? z : mn;
        }
        CU_ASSERT(sum1[i] == sum || (isnan(sum) && isnan(sum1[i])));   /* small integers: exact in any order */
        CU_ASSERT_EQUAL(min1[i], mn);
    }
    for (int j = 0; j < 4; j++) {
        float mx = -INFINITY;
        bool nan = false;
        for (int i = 0; i < R; i++) {
            nan |= isnan(X[i * 4 + j]);
            mx = fmaxf(mx, X[i * 4 + j]);
        }
        CU_ASSERT(nan ? isnan(max0[j]) : max0[j] == mx);
    }
    prog_close(&p);
}

/* ---- device compilation ---- */

static void test_device_compile(void)
{
    static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100" };
    const char *fixed = "program all(A: Tensor[Float64, M, K], B: Tensor[Float64, N, K], C: Tensor[Float64, M, N],\n"
                        "            X: Tensor[Float32, M, N], r: Tensor[Float32, M], M: Int32, N: Int32, K: Int32) {\n"
                        "    C = 2.0 * A @ B.T + 0.5 * C\n"
                        "    r = fx.reduce_max(fx.abs(X), axis=1)\n"
                        "}\n";
    for (int i = 0; i < 3; i++) {
        Prog p;
        bool ok = prog_lower(&p, fixed, archs[i], false, NULL);
        CU_ASSERT(ok);
        CgModule *m = ok ? pipe_codegen(&p.c) : NULL;
        CU_ASSERT_PTR_NOT_NULL(m);
        char out[128];
        snprintf(out, sizeof out, "/tmp/fxcc-prog-dev-%d.s", (int)getpid());
        if (m) {
            CU_ASSERT(cg_write(m, CG_OUT_ASM, out));
            char cmd[512];
            /* LDS traffic: ds_read/ds_write on CDNA, ds_load/ds_store on RDNA3 */
            snprintf(cmd, sizeof cmd, "grep -Eq 'ds_read|ds_load' %s && grep -Eq 'ds_write|ds_store' %s && "
                     "grep -q s_barrier %s", out, out, out);
            CU_ASSERT(system(cmd) == 0);
            remove(out);
            cg_free(m);
        }
        prog_close(&p);
    }
}

/* Assembly of a program for one processor. */
static char *program_asm(const char *src, const char *arch)
{
    char *text = prog_assembly(src, arch, NULL);
    return text ? text : calloc(1, 1);
}

static int occurrences(const char *text, const char *what)
{
    int n = 0;
    for (const char *at = text; (at = strstr(at, what)); at += strlen(what))
        n++;
    return n;
}

/* Three reductions along the rows of X, one of X * X folded into it, are
 * one kernel on the GPU: one load of X per element, a store per result,
 * the three trees sharing the barriers (8 steps and the one after the
 * strided pass), and no fma: the fold must not contract X * X into the
 * sum. */
static void test_reduce_group_isa(void)
{
    static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };
    const char *src = "program rowstats(X: Tensor[Float32, M, N], mx: Tensor[Float32, M], s1: Tensor[Float32, M],\n"
                      "                 s2: Tensor[Float32, M], M: Int32, N: Int32) {\n"
                      "    mx = fx.reduce_max(X, axis=1)\n    s1 = fx.reduce_sum(X, axis=1)\n"
                      "    s2 = fx.reduce_sum(X * X, axis=1)\n}\n";
    for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++) {
        char *s = program_asm(src, archs[i]);
        /* gfx12 splits a barrier into s_barrier_signal and s_barrier_wait */
        int barriers = occurrences(s, "s_barrier") - occurrences(s, "s_barrier_signal");
        bool ok = occurrences(s, "rowstats__k0:") == 1 && occurrences(s, "rowstats__k1:") == 0 &&
                  occurrences(s, "global_load") == 1 && occurrences(s, "global_store") == 3 && barriers == 9 &&
                  occurrences(s, "v_fma") == 0;   /* X * X rounds before the sum adds it, as in two kernels */
        if (!ok)
            fprintf(stderr, "\n  %s: %d loads, %d stores, %d barriers", archs[i], occurrences(s, "global_load"),
                    occurrences(s, "global_store"), barriers);
        CU_ASSERT(ok);
        free(s);
    }
}

/* The f64 and f32 GEMMs use the matrix cores on gfx90a/gfx942 (operands
 * staged in LDS) and FMA tiles on RDNA. */
static void test_gemm_isa(void)
{
    const char *dgemm = "program dgemm(A: Tensor[Float64, 512, 256], B: Tensor[Float64, 256, 384], "
                        "C: Tensor[Float64, 512, 384]) {\n    C = A @ B\n}\n";
    const char *sgemm = "program sgemm(A: Tensor[Float32, M, K], B: Tensor[Float32, K, N], C: Tensor[Float32, M, N], "
                        "M: Int32, N: Int32, K: Int32) {\n    C = 2.0 * A @ B + 0.5 * C\n}\n";
    char *s = program_asm(dgemm, "gfx942");
    CU_ASSERT(strstr(s, "v_mfma_f64_16x16x4") != NULL);
    /* one wave per workgroup: LLVM drops the barriers, which a single wave does not need */
    CU_ASSERT(strstr(s, "ds_read") != NULL && strstr(s, "ds_write") != NULL);
    free(s);
    s = program_asm(dgemm, "gfx90a");
    CU_ASSERT(strstr(s, "v_mfma_f64_16x16x4f64") != NULL);
    free(s);
    s = program_asm(sgemm, "gfx942");
    CU_ASSERT(strstr(s, "v_mfma_f32_16x16x4") != NULL);
    free(s);
    s = program_asm(dgemm, "gfx1100");
    CU_ASSERT(strstr(s, "v_mfma") == NULL && strstr(s, "v_fma_f64") != NULL);
    free(s);
    /* Int8 x Int8 -> Int32 on each processor's own Int8 matrix instruction */
    const char *igemm = "program igemm(A: Tensor[Int8, M, K], B: Tensor[Int8, K, N], C: Tensor[Int32, M, N], "
                        "M: Int32, N: Int32, K: Int32) {\n    C = A @ B\n}\n";
    static const char *const want[][2] = { { "gfx942", "v_mfma_i32_16x16x32_i8" }, { "gfx940", "v_mfma_i32_16x16x32_i8" },
                                           { "gfx90a", "v_mfma_i32_16x16x16i8" },
                                           { "gfx1100", "v_wmma_i32_16x16x16_iu8" },
                                           { "gfx1201", "v_wmma_i32_16x16x16_iu8" },
                                           /* no matrix instruction in the vendor tables: the dot4 path */
                                           { "gfx906", "v_dot4_i32_i8" }, { "gfx908", "v_dot4c_i32_i8" },
                                           { "gfx1030", "v_dot4c_i32_i8" } };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        s = program_asm(igemm, want[i][0]);
        CU_ASSERT(strstr(s, want[i][1]) != NULL);
        if (!strstr(s, want[i][1]))
            fprintf(stderr, "\n  %s: no %s", want[i][0], want[i][1]);
        free(s);
    }
    /* Float16 and BFloat16 into Float32 on each processor's own instruction;
     * FMA tiles where the vendor tables have none (gfx908, gfx1030) */
    static const char *const half[][3] = {
        { "gfx942", "v_mfma_f32_16x16x16_f16", "v_mfma_f32_16x16x16_bf16" },
        { "gfx90a", "v_mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16bf16_1k" },
        { "gfx1100", "v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16" },
        { "gfx1201", "v_wmma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_bf16" },
        { "gfx908", "v_fma", "v_fma" }, { "gfx1030", "v_fma", "v_fma" },
    };
    /* the 8-bit floats: gfx94x's fp8/bf8 are the FNUZ formats, gfx12's the
     * OCP ones; FMA tiles for the other convention and elsewhere; Int4 on
     * gfx11 and gfx12 */
    static const char *const f8[][4] = {   /* processor, A, instruction, B when not A's type */
        { "gfx942", "Float8E4M3FNUZ", "v_mfma_f32_16x16x32_fp8_fp8" },
        { "gfx942", "Float8E5M2FNUZ", "v_mfma_f32_16x16x32_bf8_bf8" },
        { "gfx1201", "Float8E4M3FN", "v_wmma_f32_16x16x16_fp8_fp8" },
        { "gfx1201", "Float8E5M2", "v_wmma_f32_16x16x16_bf8_bf8" },
        { "gfx942", "Float8E4M3FN", "v_fma" }, { "gfx1201", "Float8E5M2FNUZ", "v_fma" },
        { "gfx1100", "Int4", "v_wmma_i32_16x16x16_iu4" }, { "gfx1201", "Int4", "v_wmma_i32_16x16x16_iu4" },
        { "gfx90a", "Float8E4M3FNUZ", "v_fma" }, { "gfx1100", "Float8E4M3FN", "v_fma" },
        { "gfx942", "Float8E4M3FNUZ", "v_mfma_f32_16x16x32_fp8_bf8", "Float8E5M2FNUZ" },
        { "gfx942", "Float8E5M2FNUZ", "v_mfma_f32_16x16x32_bf8_fp8", "Float8E4M3FNUZ" },
        { "gfx1201", "Float8E4M3FN", "v_wmma_f32_16x16x16_fp8_bf8", "Float8E5M2" },
        { "gfx1201", "Float8E5M2", "v_wmma_f32_16x16x16_bf8_fp8", "Float8E4M3FN" },
        { "gfx942", "Float8E4M3FN", "v_fma", "Float8E5M2FNUZ" },
    };
    for (size_t i = 0; i < sizeof f8 / sizeof f8[0]; i++) {
        char src[320];
        const char *b = f8[i][3] ? f8[i][3] : f8[i][1];
        snprintf(src, sizeof src, "program f8gemm(A: Tensor[%s, M, K], B: Tensor[%s, K, N], C: Tensor[%s, M, N], "
                 "M: Int32, N: Int32, K: Int32) {\n    C = A @ B\n}\n", f8[i][1], b,
                 strcmp(f8[i][1], "Int4") == 0 ? "Int32" : "Float32");
        s = program_asm(src, f8[i][0]);
        bool fma = strcmp(f8[i][2], "v_fma") == 0;   /* v_fma_f32, v_fmac_f32, v_pk_fma_f32 */
        bool ok = fma ? strstr(s, "_fma") && !strstr(s, "v_mfma") && !strstr(s, "v_wmma") : strstr(s, f8[i][2]) != NULL;
        CU_ASSERT(ok);
        if (!ok)
            fprintf(stderr, "\n  %s %s: no %s", f8[i][0], f8[i][1], f8[i][2]);
        free(s);
    }
    for (size_t i = 0; i < sizeof half / sizeof half[0]; i++)
        for (int bf = 0; bf < 2; bf++) {
            char src[320];
            snprintf(src, sizeof src, "program hgemm(A: Tensor[%s, M, K], B: Tensor[%s, N, K], C: Tensor[Float32, M, N], "
                     "M: Int32, N: Int32, K: Int32) {\n    C = A @ B.T\n}\n", bf ? "BFloat16" : "Float16",
                     bf ? "BFloat16" : "Float16");
            s = program_asm(src, half[i][0]);
            bool has = s && strstr(s, half[i][1 + bf]) != NULL;
            bool fma_only = strcmp(half[i][1 + bf], "v_fma") != 0 || (s && !strstr(s, "v_mfma") && !strstr(s, "v_wmma"));
            CU_ASSERT(has && fma_only);
            if (!has || !fma_only)
                fprintf(stderr, "\n  %s: no %s", half[i][0], half[i][1 + bf]);
            free(s);
        }
}

/* Adjacent maps fuse: a transient read by one later map is never stored. */
static void test_map_fusion(void)
{
    const char *src = "program f(X: Tensor[Float32, 64], b: Tensor[Float32, 64], Y: Tensor[Float32, 64],\n"
                      "          r: Tensor[Float32, 1]) {\n"
                      "    let T = X * 2.0\n    let U = T + b\n    Y = fx.max(U, 0.0)\n"
                      "    r = fx.reduce_sum(Y, axis=0)\n}\n";
    Prog p;
    CU_ASSERT_FATAL(prog_open(&p, src, "f", NULL));
    FxPlan *plan = p.c.module->plans.items[0];
    CU_ASSERT_EQUAL(plan->nsteps, 2);        /* one fused map, one reduction */
    CU_ASSERT_EQUAL(plan->ntransients, 0);   /* T and U never reach memory */
    float X[64], b[64], Y[64], r[1];
    for (int i = 0; i < 64; i++) {
        X[i] = (float)(i % 9) - 4;
        b[i] = (float)(i % 5) - 2;
    }
    void *px = X, *pb = b, *py = Y, *pr = r;
    void *args[] = { &px, &pb, &py, &pr };
    CU_ASSERT_FATAL(prog_run(&p, args));
    float sum = 0;
    for (int i = 0; i < 64; i++) {
        float want = fmaxf(X[i] * 2.0f + b[i], 0.0f);
        CU_ASSERT(Y[i] == want);
        sum += want;
    }
    CU_ASSERT(r[0] == sum);
    prog_close(&p);
}

/* A Map whose output only a reduction reads folds into it: each reduction
 * is one kernel computing the elements it reduces (b broadcasts along rows,
 * c along columns), no transient is allocated, and a NaN still propagates. */
static void test_reduce_fusion(void)
{
    const char *src =
        "program f(X: Tensor[Float32, R, N], b: Tensor[Float32, N], c: Tensor[Float32, R, 1], s: Float32,\n"
        "          nrm: Tensor[Float32, R], mx: Tensor[Float32, N], mn: Tensor[Float32, R], R: Int32, N: Int32) {\n"
        "    nrm = fx.reduce_sum(X * X + b, axis=1)\n"
        "    mx = fx.reduce_max(fx.abs(X - c), axis=0)\n"
        "    let T = X * s\n"
        "    mn = fx.reduce_min(T - b, axis=1)\n"
        "}\n";
    Prog p;
    CU_ASSERT_FATAL(prog_open(&p, src, "f", NULL));
    FxPlan *plan = p.c.module->plans.items[0];
    CU_ASSERT_EQUAL(plan->nsteps, 2);        /* nrm and mn reduce rows of X in one kernel; mx */
    CU_ASSERT_EQUAL(plan->ntransients, 0);   /* what they reduce never reaches memory */
    enum { R = 29, N = 300 };
    static float X[R * N];
    float b[N], c[R], nrm[R], mx[N], mn[R], sv = 0.5f;
    int32_t rr = R, nn = N;
    for (int i = 0; i < R * N; i++)
        X[i] = (float)((i * 7) % 23) - 11;
    X[N * 3 + 17] = NAN;
    for (int j = 0; j < N; j++)
        b[j] = (float)(j % 6) - 2;
    for (int i = 0; i < R; i++)
        c[i] = (float)(i % 4);
    void *px = X, *pb = b, *pc = c, *pn = nrm, *pm = mx, *pmn = mn;
    void *args[] = { &px, &pb, &pc, &sv, &pn, &pm, &pmn, &rr, &nn };
    CU_ASSERT_FATAL(prog_run(&p, args));
    for (int i = 0; i < R; i++) {
        float sum = 0, lo = INFINITY;
        bool nan = false;
        for (int j = 0; j < N; j++) {
            float x = X[i * N + j];
            nan |= isnan(x);
            sum += x * x + b[j];   /* small integers: exact in any order */
            lo = fminf(lo, x * sv - b[j]);
        }
        CU_ASSERT(nan ? isnan(nrm[i]) : nrm[i] == sum);
        CU_ASSERT(nan ? isnan(mn[i]) : mn[i] == lo);
    }
    for (int j = 0; j < N; j++) {
        float hi = -INFINITY;
        bool nan = false;
        for (int i = 0; i < R; i++) {
            nan |= isnan(X[i * N + j]);
            hi = fmaxf(hi, fabsf(X[i * N + j] - c[i]));
        }
        CU_ASSERT(nan ? isnan(mx[j]) : mx[j] == hi);
    }
    prog_close(&p);
}

/* Folded or not, a reduction adds the same values in the same order: the
 * sums of X * X + b bit for bit equal those of T = X * X + b stored first
 * (T has a second reader, so there it stays a tensor). */
static void test_reduce_fusion_bits(void)
{
    const char *fused = "program f(X: Tensor[Float32, 7, 1000], b: Tensor[Float32, 1000], r: Tensor[Float32, 7],\n"
                        "          Y: Tensor[Float32, 7, 1000]) {\n"
                        "    r = fx.reduce_sum(X * X + b, axis=1)\n}\n";
    const char *stored = "program f(X: Tensor[Float32, 7, 1000], b: Tensor[Float32, 1000], r: Tensor[Float32, 7],\n"
                         "          Y: Tensor[Float32, 7, 1000]) {\n"
                         "    let T = X * X + b\n    r = fx.reduce_sum(T, axis=1)\n    Y = T\n}\n";
    static float X[7 * 1000], Y[7 * 1000];
    float b[1000], r[2][7];
    uint32_t h = 12345;
    for (int i = 0; i < 7 * 1000; i++) {
        h = h * 1103515245u + 12345u;
        X[i] = (float)(h >> 8) / 16777216.0f - 0.5f;
    }
    for (int j = 0; j < 1000; j++)
        b[j] = X[j] * 3.25f;
    for (int v = 0; v < 2; v++) {
        Prog p;
        CU_ASSERT_FATAL(prog_open(&p, v ? stored : fused, "f", NULL));
        CU_ASSERT_EQUAL(((FxPlan *)p.c.module->plans.items[0])->nsteps, v ? 3 : 1);   /* stored: T, r, Y */
        void *px = X, *pb = b, *pr = r[v], *py = Y;
        void *args[] = { &px, &pb, &pr, &py };
        CU_ASSERT_FATAL(prog_run(&p, args));
        prog_close(&p);
    }
    CU_ASSERT(memcmp(r[0], r[1], sizeof r[0]) == 0);
}

/* Reductions over one shape and axis that read a common tensor run as one
 * kernel (siblings), each with its own accumulator and tree: a plain one
 * and two that computed elements folded into them; the sum over the other
 * axis is a kernel of its own. Each result equals that reduction run by
 * itself, bit for bit. */
static void test_reduce_siblings(void)
{
    static const char *const stmts[] = {
        "    mx = fx.reduce_max(X, axis=1)\n",
        "    sq = fx.reduce_sum(X * X + b, axis=1)\n",
        "    s0 = fx.reduce_sum(X, axis=0)\n",
        "    mn = fx.reduce_min(X - b, axis=1)\n",
    };
    const char *head = "program f(X: Tensor[Float32, R, N], b: Tensor[Float32, N], mx: Tensor[Float32, R],\n"
                       "          sq: Tensor[Float32, R], s0: Tensor[Float32, N], mn: Tensor[Float32, R],\n"
                       "          R: Int32, N: Int32) {\n";
    enum { R = 29, N = 300, NOUT = 4 };
    static float X[R * N];
    float b[N], out[NOUT + 1][NOUT][N];   /* [0]: all four statements; [1 + i]: statement i alone */
    int32_t rr = R, nn = N;
    uint32_t h = 777;
    for (int i = 0; i < R * N; i++) {
        h = h * 1103515245u + 12345u;
        X[i] = (float)(h >> 8) / 16777216.0f - 0.5f;
    }
    X[N * 5 + 7] = NAN;
    for (int j = 0; j < N; j++)
        b[j] = X[j] * 0.75f;
    memset(out, 0, sizeof out);
    for (int v = 0; v <= NOUT; v++) {
        char src[1024];
        int len = snprintf(src, sizeof src, "%s", head);
        for (int i = 0; i < NOUT; i++)
            if (v == 0 || v == i + 1)
                len += snprintf(src + len, sizeof src - (size_t)len, "%s", stmts[i]);
        snprintf(src + len, sizeof src - (size_t)len, "}\n");
        Prog p;
        CU_ASSERT_FATAL(prog_open(&p, src, "f", NULL));
        FxPlan *plan = p.c.module->plans.items[0];
        CU_ASSERT_EQUAL(plan->nsteps, v == 0 ? 2 : 1);   /* mx, sq and mn in one kernel; s0 */
        CU_ASSERT_EQUAL(plan->ntransients, 0);
        void *px = X, *pb = b, *o0 = out[v][0], *o1 = out[v][1], *o2 = out[v][2], *o3 = out[v][3];
        void *args[] = { &px, &pb, &o0, &o1, &o2, &o3, &rr, &nn };
        CU_ASSERT_FATAL(prog_run(&p, args));
        prog_close(&p);
    }
    for (int i = 0; i < NOUT; i++)
        CU_ASSERT(memcmp(out[0][i], out[1 + i][i], sizeof out[0][i]) == 0);
    for (int i = 0; i < R; i++) {   /* and the values are right (min and max exactly) */
        float hi = -INFINITY, lo = INFINITY;
        bool nan = false;
        for (int j = 0; j < N; j++) {
            nan |= isnan(X[i * N + j]);
            hi = fmaxf(hi, X[i * N + j]);
            lo = fminf(lo, X[i * N + j] - b[j]);
        }
        CU_ASSERT(nan ? isnan(out[0][0][i]) : out[0][0][i] == hi);
        CU_ASSERT(nan ? isnan(out[0][3][i]) : out[0][3][i] == lo);
        CU_ASSERT(nan == isnan(out[0][1][i]));
    }
}

/* The source lines of the stores in block b and the blocks inside it, in order. */
static int store_lines(const FxBlock *b, int *lines, int n)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_STORE && n < 16)
            lines[n++] = i->loc.line;
        for (int k = 0; k < i->nblocks; k++)
            n = store_lines(&i->blocks[k], lines, n);
    }
    return n;
}

/* Maps of one shape that read a common tensor run as one kernel (siblings),
 * which loads that tensor once per element, even past a reduction that
 * neither touches; the results are each map's own. */
static void test_sibling_maps(void)
{
    const char *src = "program f(A: Tensor[Float32, 8, 32], r: Tensor[Float32, 8, 1], X: Tensor[Float32, 8, 32],\n"
                      "          Y: Tensor[Float32, 8, 32], Z: Tensor[Float32, 8, 32], W: Tensor[Float32, 32],\n"
                      "          k: Float32) {\n"
                      "    X = A * r\n    W = fx.reduce_max(A, axis=0)\n    Y = A - r\n    Z = A + k\n}\n";
    Prog p;
    CU_ASSERT_FATAL(prog_open(&p, src, "f", NULL));
    FxPlan *plan = p.c.module->plans.items[0];
    CU_ASSERT_EQUAL(plan->nsteps, 2);   /* X, Y and Z; the reduction */
    char *fxir = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&fxir, &len);
    int lines[16], nlines = 0;
    for (int f = 0; f < p.c.module->funcs.len; f++) {
        FxFunc *fn = p.c.module->funcs.items[f];
        if (!strcmp(fn->name, plan->steps[0].kernel)) {
            fxir_print_func(out, fn);
            nlines = store_lines(&fn->body, lines, 0);
        }
    }
    fclose(out);
    CU_ASSERT(nlines == 3 && lines[0] == 4 && lines[1] == 6 && lines[2] == 7);   /* each its statement's */
    int loads_of_a = 0, stores = 0;
    for (const char *q = fxir; (q = strstr(q, "= load %A[")); q++)
        loads_of_a++;
    for (const char *q = fxir; (q = strstr(q, "store %")); q++)
        stores++;
    CU_ASSERT_EQUAL(loads_of_a, 1);
    CU_ASSERT_EQUAL(stores, 3);
    free(fxir);
    float A[8 * 32], r[8], X[8 * 32], Y[8 * 32], Z[8 * 32], W[32], k = 0.375f;
    for (int i = 0; i < 8 * 32; i++)
        A[i] = (float)(i % 13) * 0.25f - 1.5f;
    for (int i = 0; i < 8; i++)
        r[i] = (float)i - 2.5f;
    void *pa = A, *pr = r, *px = X, *py = Y, *pz = Z, *pw = W;
    void *args[] = { &pa, &pr, &px, &py, &pz, &pw, &k };
    CU_ASSERT_FATAL(prog_run(&p, args));
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 32; j++) {
            float a = A[i * 32 + j];
            CU_ASSERT(X[i * 32 + j] == a * r[i] && Y[i * 32 + j] == a - r[i] && Z[i * 32 + j] == a + k);
        }
    for (int j = 0; j < 32; j++) {
        float m = A[j];
        for (int i = 1; i < 8; i++)
            m = fmaxf(m, A[i * 32 + j]);
        CU_ASSERT(W[j] == m);
    }
    prog_close(&p);
}

/* Maps stay apart when a later one reads what an earlier one writes, when a
 * node between them writes what the later one reads or reads what it
 * writes, when they read nothing in common, or when their shapes differ;
 * the second and third keep their order's results. */
static void test_siblings_stay_apart(void)
{
    static const struct { const char *body; int nsteps; } cases[] = {
        { "    X = A + 1.0\n    Y = X + A\n", 2 },                     /* Y reads X */
        { "    X = A + 1.0\n    A = B * 2.0\n    Y = A * 3.0\n", 3 },   /* A rewritten between */
        { "    X = A + 1.0\n    B = Y * 2.0\n    Y = A * 3.0\n", 3 },   /* Y read between */
        { "    X = A + 1.0\n    Y = B + 1.0\n", 2 },                   /* nothing in common */
        { "    X = A + 1.0 + w\n    v = w * 2.0\n", 2 },               /* w in common, another shape */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char src[512];
        snprintf(src, sizeof src,
                 "program f(A: Tensor[Float32, 16], B: Tensor[Float32, 16], X: Tensor[Float32, 16],\n"
                 "          Y: Tensor[Float32, 16], v: Tensor[Float32, 1], w: Tensor[Float32, 1]) {\n%s}\n",
                 cases[c].body);
        Prog p;
        CU_ASSERT_FATAL(prog_open(&p, src, "f", NULL));
        FxPlan *plan = p.c.module->plans.items[0];
        if (plan->nsteps != cases[c].nsteps)
            fprintf(stderr, "\n  case %zu: %d steps, expected %d", c, plan->nsteps, cases[c].nsteps);
        CU_ASSERT_EQUAL(plan->nsteps, cases[c].nsteps);
        float A[16], B[16], X[16], Y[16], v[1], w[1] = { 0.0f };
        for (int i = 0; i < 16; i++) {
            A[i] = (float)i;
            B[i] = (float)(100 + i);
            Y[i] = (float)(200 + i);
        }
        void *pa = A, *pb = B, *px = X, *py = Y, *pv = v, *pw = w;
        void *args[] = { &pa, &pb, &px, &py, &pv, &pw };
        CU_ASSERT_FATAL(prog_run(&p, args));
        for (int i = 0; i < 16; i++) {
            CU_ASSERT(X[i] == (float)i + 1.0f);
            if (c == 1)
                CU_ASSERT(A[i] == (float)(100 + i) * 2.0f && Y[i] == A[i] * 3.0f);
            if (c == 2)
                CU_ASSERT(B[i] == (float)(200 + i) * 2.0f && Y[i] == (float)i * 3.0f);
        }
        prog_close(&p);
    }
}

/* A program's name has no length limit: its kernels and the plan's launch
 * lines are named after it, and the plan text is parsed back (prog_open). */
static void test_long_program_name(void)
{
    char name[401], src[1024];
    memset(name, 'q', 400);
    name[400] = 0;
    snprintf(src, sizeof src, "program %s(X: Tensor[Float32, 8], Y: Tensor[Float32, 8]) {\n    Y = X * 3.0\n}\n", name);
    Prog p;
    CU_ASSERT_FATAL(prog_open(&p, src, name, NULL));
    float X[8], Y[8];
    for (int i = 0; i < 8; i++)
        X[i] = (float)i;
    void *px = X, *py = Y;
    void *args[] = { &px, &py };
    CU_ASSERT_FATAL(prog_run(&p, args));
    for (int i = 0; i < 8; i++)
        CU_ASSERT(Y[i] == 3.0f * (float)i);
    prog_close(&p);
}

/* Ozaki-II's products (one per modulus, from one statement) are one kernel:
 * each step binds its own slices and output, and the symbolic dims it
 * reads (K is static: the scheme needs it); the copies are gone from the module. The plan's text keeps the
 * bindings, and a binding to an unknown buffer or an unclosed list is a
 * malformed plan. (test_contraction.c runs these plans against exact
 * references.) */
static void test_shared_kernels(void)
{
    const char *src = "program p(A: Tensor[Float64, M, 64], B: Tensor[Float64, 64, N], C: Tensor[Float64, M, N],\n"
                      "          M: Int32, N: Int32) {\n    C = A @ B\n}\n";
    const char *opts[] = { "--contraction-precision=ozaki2:4", NULL };
    Prog p;
    CU_ASSERT_FATAL(prog_lower(&p, src, NULL, false, opts));
    const FxPlan *plan = p.c.module->plans.items[0];
    const char *shared = NULL;
    int nshared = 0;
    for (int s = 0; s < plan->nsteps; s++) {
        const FxPlanStep *st = &plan->steps[s];
        if (!st->nbind)
            continue;
        if (!shared)
            shared = st->kernel;
        CU_ASSERT_STRING_EQUAL(st->kernel, shared);
        nshared++;
        bool reads_m = false;
        for (int a = 0; a < st->nbind; a++)
            reads_m |= strcmp(plan->args[st->bind[a]], "M") == 0;
        CU_ASSERT_TRUE(reads_m);
        for (int t = 0; t < s; t++)   /* its output is its own */
            if (plan->steps[t].nbind)
                CU_ASSERT(plan->steps[t].bind[st->nbind - 1] != st->bind[st->nbind - 1]);
    }
    CU_ASSERT_EQUAL(nshared, 4);
    int nkernels = 0;
    for (int f = 0; f < p.c.module->funcs.len; f++) {
        const FxFunc *fn = p.c.module->funcs.items[f];
        nkernels += fn->kind == FXF_KERNEL;
        if (shared && !strcmp(fn->name, shared))
            CU_ASSERT_EQUAL(fn->nparams, plan->steps[plan->nsteps - 2].nbind);
    }
    CU_ASSERT_EQUAL(nkernels, plan->nsteps - 3);
    char *text = fxplan_to_text(plan), *err = NULL;
    FxPlan *back = fxplan_parse(text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(back);
    char *again = fxplan_to_text(back);
    CU_ASSERT_STRING_EQUAL(again, text);
    char *cut = strstr(text, " args(");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cut);
    memcpy(cut + 6, "nope", 4);
    CU_ASSERT_PTR_NULL(fxplan_parse(text, &err));
    CU_ASSERT(err && strstr(err, "malformed launch plan"));
    free(err);
    err = NULL;
    strcpy(strstr(text, "args(") + 5, "A");   /* no ')' */
    CU_ASSERT_PTR_NULL(fxplan_parse(text, &err));
    free(err);
    free(again);
    fxplan_free(back);
    free(text);
    prog_close(&p);
}

/* Two products of the same shapes from two statements stay two kernels:
 * their locations (line tables, the host's reports) differ. */
static void test_statements_keep_kernels(void)
{
    const char *src = "program p(A: Tensor[Float32, 8, 8], B: Tensor[Float32, 8, 8], X: Tensor[Float32, 8, 8],\n"
                      "          Y: Tensor[Float32, 8, 8]) {\n    X = A @ B\n    Y = B @ A\n}\n";
    Prog p;
    CU_ASSERT_FATAL(prog_lower(&p, src, NULL, false, NULL));
    const FxPlan *plan = p.c.module->plans.items[0];
    CU_ASSERT_EQUAL(plan->nsteps, 2);
    CU_ASSERT(plan->steps[0].nbind == 0 && plan->steps[1].nbind == 0);
    CU_ASSERT_STRING_NOT_EQUAL(plan->steps[0].kernel, plan->steps[1].kernel);
    prog_close(&p);
}

/* A work-item whose frame outgrows its fiber stack faults in the guard below
 * it, and the launch reports it instead of crashing. fxcc keeps private
 * arrays to 64 KiB, so the test enlarges one in the LLVM IR after codegen.
 * The barrier puts the kernel on fibers only with --host-barriers=fibers
 * (every work-item reaches it, so it would run as work-item loops). */
static void test_fiber_stack_overflow(void)
{
    const char *src = "kernel deep(p: Ptr[Float32]) {\n"
                      "    var a: Array[Float32, 16384]\n"
                      "    shared s: Array[Float32, 4]\n"
                      "    let t = thread_idx.x\n"
                      "    a[t * 4000] = 1.0\n"
                      "    s[t] = a[t * 4000]\n"
                      "    fx.barrier()\n"
                      "    p[t] = s[3 - t]\n}\n";
    const char *opts[] = { "-O0", "--host-barriers=fibers", NULL };
    Prog p;
    CU_ASSERT_FATAL(prog_lower(&p, src, NULL, true, opts));
    CgModule *m = pipe_codegen(&p.c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char *ir = LLVMPrintModuleToString(cg_llvm_module(m));
    cg_free(m);
    prog_close(&p);
    /* 16384 floats become 140000 (547 KiB): past the 512 KiB stack, into the
     * 128 KiB guard below it */
    char *big = malloc(strlen(ir) * 2 + 64), *o = big;
    for (const char *q = ir; *q;) {
        if (!strncmp(q, "[16384 x float]", 15)) {
            o += sprintf(o, "[140000 x float]");
            q += 15;
        } else if (!strncmp(q, "i64 65536,", 10)) {
            o += sprintf(o, "i64 560000,");
            q += 10;
        } else {
            *o++ = *q++;
        }
    }
    *o = 0;
    LLVMDisposeMessage(ir);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(big, strlen(big), "deep.ll");
    LLVMModuleRef mod = NULL;
    char *msg = NULL;
    CU_ASSERT_FATAL(!LLVMParseIRInContext(ctx, buf, &mod, &msg));
    free(big);
    char *err = NULL;
    RtHostModule *hm = rt_host_load(mod, ctx, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    float out[4] = { 0 };
    void *po = out;
    void *args[] = { &po };
    unsigned grid[3] = { 1, 1, 1 }, block[3] = { 4, 1, 1 };
    CU_ASSERT_EQUAL(rt_host_launch(hm, "deep", grid, block, args, &err), -1);
    CU_ASSERT(err && strstr(err, "a work-item of kernel 'deep' overflowed its 512 KiB stack"));
    if (err)
        fprintf(stderr, "\n  %s", err);
    free(err);
    /* the module still launches (the handler and its stack are gone again) */
    err = NULL;
    CU_ASSERT_EQUAL(rt_host_launch(hm, "deep", grid, block, args, &err), -1);
    free(err);
    rt_host_free(hm);
}

/* The plan travels inside the code object: read it back without a device. */
static void test_plan_in_artifact(void)
{
    const char *src = "program p(A: Tensor[Float32, M, K], B: Tensor[Float32, K, N], C: Tensor[Float32, M, N],\n"
                      "          M: Int32, N: Int32, K: Int32) {\n    let T = A @ B\n    C = fx.max(T, 0.0)\n}\n";
    Prog p;
    CU_ASSERT_FATAL(prog_lower(&p, src, NULL, false, NULL));
    char *want = fxplan_to_text(p.c.module->plans.items[0]);
    CgModule *m = pipe_codegen(&p.c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char out[128];
    snprintf(out, sizeof out, "/tmp/fxcc-prog-art-%d.hsaco", (int)getpid());
    CU_ASSERT_FATAL(cg_write(m, CG_OUT_HSACO, out));
    cg_free(m);
    FILE *h = fopen(out, "rb");
    fseek(h, 0, SEEK_END);
    long n = ftell(h);
    fseek(h, 0, SEEK_SET);
    char *img = malloc((size_t)n);
    CU_ASSERT(fread(img, 1, (size_t)n, h) == (size_t)n);
    fclose(h);
    remove(out);
    char *err = NULL;
    char *text = rt_artifact_plan(img, (size_t)n, "p", &err);
    CU_ASSERT_PTR_NOT_NULL(text);
    CU_ASSERT(text && strcmp(text, want) == 0);
    FxPlan *plan = text ? fxplan_parse(text, &err) : NULL;
    CU_ASSERT_PTR_NOT_NULL(plan);
    CU_ASSERT(plan && fxplan_nparams(plan) == 6 && strcmp(plan->program, "p") == 0);
    CU_ASSERT_PTR_NULL(rt_artifact_plan(img, (size_t)n, "nope", &err));
    free(err);
    CU_ASSERT_PTR_NULL(rt_artifact_plan("not an elf", 10, "p", &err));
    free(err);
    fxplan_free(plan);
    free(text);
    free(want);
    free(img);
    prog_close(&p);
}

/* One file is enough to run a program: host bitcode carries its kernels and
 * its plan; libfxrt loads it, reads the plan and runs it. Also when the
 * bitcode holds a GPU's kernels for the host's wave model (fxcc --target=host
 * --offload-arch=gfx942): the kernels tell libfxrt their wave size. */
static void run_host_artifact(const char *src, const char *arch, int n, const float *X, const float *want)
{
    Prog p;
    const char *archopt[] = { NULL, NULL };
    char opt[64];
    if (arch) {
        snprintf(opt, sizeof opt, "--offload-arch=%s", arch);
        archopt[0] = opt;
    }
    CU_ASSERT_FATAL(prog_lower(&p, src, NULL, true, archopt));
    CgModule *m = pipe_codegen(&p.c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    char bc[128];
    snprintf(bc, sizeof bc, "/tmp/fxcc-prog-bc-%d.bc", (int)getpid());
    CU_ASSERT_FATAL(cg_write(m, CG_OUT_BC, bc));
    cg_free(m);
    prog_close(&p);
    char *err = NULL;
    RtHostModule *hm = rt_host_load_file(bc, &err);
    remove(bc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hm);
    char *text = rt_host_plan(hm, "p", &err);
    FxPlan *plan = text ? fxplan_parse(text, &err) : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(plan);
    if (arch)   /* the matrix-core tile's 4 waves, not the host's 16 x 16 FMA tile */
        CU_ASSERT(plan->steps[0].block[0] == 256 && plan->steps[0].block[1] == 1);
    float *Y = calloc((size_t)n, sizeof(float));
    void *px = (void *)X, *py = Y;
    void *args[] = { &px, &py };
    CU_ASSERT_EQUAL(rt_program_run(hm, plan, args, &err), 0);
    for (int i = 0; i < n; i++)
        CU_ASSERT(Y[i] == want[i]);
    free(Y);
    fxplan_free(plan);
    free(text);
    rt_host_free(hm);
}

static void test_host_artifact(void)
{
    const char *src = "program p(X: Tensor[Float32, 5], Y: Tensor[Float32, 5]) {\n    Y = X * X + 1.0\n}\n";
    float X[5] = { 0, 1, 2, -3, 0.5f }, want[5];
    for (int i = 0; i < 5; i++)
        want[i] = fmaf(X[i], X[i], 1.0f);   /* fp-contraction fused it */
    run_host_artifact(src, NULL, 5, X, want);
    /* a GEMM on gfx942's matrix cores, waves emulated: an fma chain in k order */
    const char *gemm = "program p(X: Tensor[Float32, 16, 16], Y: Tensor[Float32, 16, 16]) {\n    Y = X @ X\n}\n";
    float A[256], W[256];
    for (int i = 0; i < 256; i++)
        A[i] = (float)uniform();
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            float acc = 0;
            for (int k = 0; k < 16; k++)
                acc = fmaf(A[i * 16 + k], A[k * 16 + j], acc);
            W[i * 16 + j] = acc;
        }
    run_host_artifact(gemm, "gfx942", 256, A, W);
    char *err = NULL;
    CU_ASSERT_PTR_NULL(rt_host_load_file("/nonexistent.bc", &err));
    free(err);
}

/* Without an AMD GPU (or without the HIP runtime) the HIP backend says so. */
static void test_hip_no_device(void)
{
    char *err = NULL;
    RtHip *h = rt_hip_open(&err);
    if (h) {   /* a machine with a GPU: nothing to check here */
        rt_hip_close(h);
        return;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT(strncmp(err, "no HIP device", 13) == 0);
    fprintf(stderr, "\n  rt_hip_open: %s\n", err);
    free(err);
}

/* ---- the host tests, once per arch ---- */

#define WAVE_SUITE(name, arch) \
    static int init_##name(void) { prog_wave_arch = arch; return 0; } \
    static int clean_##name(void) { prog_wave_arch = NULL; return clear_cache(); }
WAVE_SUITE(gfx90a, "gfx90a")
WAVE_SUITE(gfx942, "gfx942")
WAVE_SUITE(gfx1100, "gfx1100")
WAVE_SUITE(gfx1201, "gfx1201")

static const FxtTest runs[] = {
    { "GEMM: shapes x transposes (Float64, bit for bit)", test_gemm_shapes },
    { "GEMM: column-major, alpha/beta static and run-time, BLAS zeros", test_gemm_layouts_and_scalars },
    { "GEMM: Float32 with a run-time beta", test_gemm_float32 },
    { "GEMM: Int8 x Int8 -> Int32, exact", test_gemm_int8 },
    { "GEMM: Int4 x Int4 -> Int32, exact", test_gemm_int4 },
    { "GEMM: Float16/BFloat16 accumulated in Float32, bit for bit", test_gemm_half },
    { "GEMM: the 8-bit floats accumulated in Float32 and scaled, bit for bit", test_gemm_f8 },
    { "maps with broadcasting and each reduction", test_maps_and_reductions },
    { "adjacent maps fuse", test_map_fusion },
    { "a Map folds into the reduction of its output", test_reduce_fusion },
    { "folded reductions add the same bits", test_reduce_fusion_bits },
    { "reductions reading a common tensor run as one kernel", test_reduce_siblings },
    { "maps reading a common tensor run as one kernel", test_sibling_maps },
    { "maps that depend on each other or on a node between stay apart", test_siblings_stay_apart },
    { "a 400-character program name", test_long_program_name },
    { NULL, NULL },
};

static const FxtTest tests[] = {
    { "program kernels compile for gfx90a, gfx942, gfx1100", test_device_compile },
    { "GEMM ISA: MFMA on gfx90a/gfx942, FMA tiles on gfx1100; Int8, Float16, BFloat16 MFMA/WMMA", test_gemm_isa },
    { "reductions in one kernel: one load of X, three stores", test_reduce_group_isa },
    { "the plan travels inside the .hsaco", test_plan_in_artifact },
    { "Ozaki's products share one kernel, each step binding its buffers", test_shared_kernels },
    { "products of two statements keep their kernels", test_statements_keep_kernels },
    { "a host artifact (bitcode) runs its embedded plan, also with waves of gfx942", test_host_artifact },
    { "HIP backend without a device", test_hip_no_device },
    { "a work-item's stack overflow is an error, not a crash", test_fiber_stack_overflow },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = {
        { "programs on the host", runs, NULL, clear_cache },
        { "programs on gfx90a's waves (host wave model)", runs, init_gfx90a, clean_gfx90a },
        { "programs on gfx942's waves (host wave model)", runs, init_gfx942, clean_gfx942 },
        { "programs on gfx1100's waves (host wave model)", runs, init_gfx1100, clean_gfx1100 },
        { "programs on gfx1201's waves (host wave model)", runs, init_gfx1201, clean_gfx1201 },
        { "programs: artifacts and device code", tests, NULL, NULL },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
