/* test_contraction.c - seed 003's low-precision contractions
 * (ContractionPrecisionPass: QuantizeContraction, OzakiContraction Slicing
 * and Modular) run on the host against references computed here: the exact
 * Ozaki-II integer product, accuracy bounds on uniform and normal data,
 * transposed and column-major operands, BLAS zeros with NaNs, the GEMM
 * epilogue, K at the Int32 limit, direct against power-of-two rescaling,
 * every requirement's remark, and @contraction_precision on programs.
 *
 * Matrices are kept here in their mathematical form (op(A) M x K, op(B)
 * K x N, C M x N, row-major doubles, Float32 data already rounded to float)
 * and packed into the storage order the program declares. References are
 * __float128 sums (products of doubles are exact in it) or exact __int128
 * integer sums. Errors are max over entries of |C - Cref| / sum_k |A_ik B_kj|
 * (with alpha and beta: |alpha| sum_k |A_ik B_kj| + |beta C0_ij|). */
#include "fxtest.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prog.h"

typedef __float128 quad;

/* ---- deterministic data ---- */

static uint64_t rng_state = 1;

static void rng_seed(uint64_t s)
{
    rng_state = s * 0x9E3779B97F4A7C15ull | 1;
}

static uint64_t rng_next(void)   /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static double unit(void)   /* [0, 1) */
{
    return (double)(rng_next() >> 11) * 0x1p-53;
}

static double uniform(void)   /* [-1, 1) */
{
    return 2.0 * unit() - 1.0;
}

static double normal(void)   /* Box-Muller */
{
    double u = 1.0 - unit(), v = unit();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* sign * [0.5, 1) * 2^[-lo, hi]: random signs and magnitudes */
static double wide(int lo, int hi, int sign)
{
    double m = ldexp(0.5 + 0.5 * unit(), (int)(rng_next() % (uint64_t)(lo + hi + 1)) - lo);
    if (sign == 0)
        sign = rng_next() & 1 ? 1 : -1;
    return sign * m;
}

typedef enum { D_UNIFORM, D_NORMAL } Dist;
static const char *const dist_name[] = { "uniform", "normal" };

static double *matrix(int n, Dist d, bool f32)
{
    double *x = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) {
        double v = d == D_UNIFORM ? uniform() : normal();
        x[i] = f32 ? (double)(float)v : v;
    }
    return x;
}

/* ---- programs ---- */

typedef struct Gemm {
    bool f32;
    int M, N, K;
    bool ta, tb, cm_a, cm_b, cm_c;
    const char *alpha, *beta;   /* static coefficients as written, NULL: none */
    double alpha_v, beta_v;     /* their values */
    const char *annot;          /* @contraction_precision("...") argument, or NULL */
} Gemm;

static double alpha_of(const Gemm *g)
{
    return g->alpha ? g->alpha_v : 1.0;
}

static double beta_of(const Gemm *g)
{
    return g->beta ? g->beta_v : 0.0;
}

/* program g(A, B, C) { C = [alpha *] A[.T] @ B[.T] [+ beta * C] } */
static const char *gemm_source(const Gemm *g)
{
    static char buf[1024];
    const char *T = g->f32 ? "Float32" : "Float64";
    char ann[128] = "", al[64] = "", be[64] = "";
    if (g->annot)
        snprintf(ann, sizeof ann, "@contraction_precision(\"%s\")\n", g->annot);
    if (g->alpha)
        snprintf(al, sizeof al, "%s * ", g->alpha);
    if (g->beta)
        snprintf(be, sizeof be, " + %s * C", g->beta);
    snprintf(buf, sizeof buf,
             "%sprogram g(A: Tensor[%s, %d, %d%s], B: Tensor[%s, %d, %d%s], C: Tensor[%s, %d, %d%s]) {\n"
             "    C = %sA%s @ B%s%s\n}\n",
             ann, T, g->ta ? g->K : g->M, g->ta ? g->M : g->K, g->cm_a ? ", col_major" : "", T,
             g->tb ? g->N : g->K, g->tb ? g->K : g->N, g->cm_b ? ", col_major" : "", T, g->M, g->N,
             g->cm_c ? ", col_major" : "", al, g->ta ? ".T" : "", g->tb ? ".T" : "", be);
    return buf;
}

/* element (i, j) of an R x C matrix stored row- or column-major */
static size_t at(int i, int j, int R, int C, bool cm)
{
    return cm ? (size_t)j * (size_t)R + (size_t)i : (size_t)i * (size_t)C + (size_t)j;
}

/* Compile for the host with fxcc options (NULL-ended); the diagnostics
 * printed meanwhile (remarks) go to *remarks when asked for. */
static bool open_src(Prog *p, const char *src, const char *const *opts, char **remarks)
{
    fxt_capture_begin();
    bool ok = prog_open(p, src, "g", opts);
    char *r = fxt_capture_end();
    if (!ok)
        fprintf(stderr, "\n  cannot compile:\n%s%s", src, r);
    if (remarks)
        *remarks = r;
    else
        free(r);
    return ok;
}

/* Parse and lower only (the pass runs, nothing is built): the remarks. */
static char *lower_remarks(const char *src, const char *const *opts)
{
    Prog p;
    fxt_capture_begin();
    bool ok = prog_lower(&p, src, NULL, true, opts);
    char *r = fxt_capture_end();
    CU_ASSERT(ok);
    if (!ok)
        fprintf(stderr, "\n  cannot lower:\n%s%s", src, r);
    prog_close(&p);
    return r;
}

static void put(void *buf, size_t i, double v, bool f32)
{
    if (f32)
        ((float *)buf)[i] = (float)v;
    else
        ((double *)buf)[i] = v;
}

static double get(const void *buf, size_t i, bool f32)
{
    return f32 ? (double)((const float *)buf)[i] : ((const double *)buf)[i];
}

/* Run g on a (op(A), M x K), b (op(B), K x N) and c (M x N: C's value
 * before, its value after), packed into the declared storage orders. */
static bool gemm_run(Prog *p, const Gemm *g, const double *a, const double *b, double *c)
{
    int M = g->M, N = g->N, K = g->K;
    size_t es = g->f32 ? sizeof(float) : sizeof(double);
    void *sa = malloc(es * (size_t)M * (size_t)K), *sb = malloc(es * (size_t)K * (size_t)N);
    void *sc = malloc(es * (size_t)M * (size_t)N);
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++)
            put(sa, g->ta ? at(k, i, K, M, g->cm_a) : at(i, k, M, K, g->cm_a), a[(size_t)i * (size_t)K + (size_t)k],
                g->f32);
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++)
            put(sb, g->tb ? at(j, k, N, K, g->cm_b) : at(k, j, K, N, g->cm_b), b[(size_t)k * (size_t)N + (size_t)j],
                g->f32);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            put(sc, at(i, j, M, N, g->cm_c), c[i * N + j], g->f32);
    void *args[] = { &sa, &sb, &sc };
    bool ok = prog_run(p, args);
    CU_ASSERT(ok);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++)
            c[i * N + j] = get(sc, at(i, j, M, N, g->cm_c), g->f32);
    free(sa);
    free(sb);
    free(sc);
    return ok;
}

/* Compile, run once, close; c in/out as for gemm_run. */
static bool gemm_once(const Gemm *g, const char *const *opts, const double *a, const double *b, double *c,
                      char **remarks)
{
    Prog p;
    bool ok = open_src(&p, gemm_source(g), opts, remarks);
    CU_ASSERT(ok);
    if (ok)
        ok = gemm_run(&p, g, a, b, c);
    prog_close(&p);
    return ok;
}

/* ---- references ---- */

/* max over entries of |c - ref| / (|alpha| sum_k |a b| + |beta c0|), ref
 * in __float128; a NaN or inf where the reference is finite counts as inf. */
static double gemm_error(const Gemm *g, const double *a, const double *b, const double *c0, const double *c)
{
    double worst = 0;
    quad al = alpha_of(g), be = beta_of(g);
    for (int i = 0; i < g->M; i++)
        for (int j = 0; j < g->N; j++) {
            quad s = 0, den = 0;
            for (int k = 0; k < g->K; k++) {
                quad t = (quad)a[(size_t)i * (size_t)g->K + (size_t)k] * (quad)b[(size_t)k * (size_t)g->N + (size_t)j];
                s += t;
                den += t < 0 ? -t : t;
            }
            quad ref = al * s, cc = g->beta ? be * (quad)c0[i * g->N + j] : 0;
            ref += cc;
            den = (al < 0 ? -al : al) * den + (cc < 0 ? -cc : cc);
            double got = c[i * g->N + j], e;
            if (!isfinite(got))
                e = INFINITY;
            else if (den == 0)
                e = (quad)got == ref ? 0 : INFINITY;
            else {
                quad d = (quad)got - ref;
                e = (double)((d < 0 ? -d : d) / den);
            }
            if (e > worst)
                worst = e;
        }
    return worst;
}

static const int moduli[] = { 256, 255, 253, 251, 247, 241, 239, 233, 229, 227,
                              223, 211, 199, 197, 193, 191, 181, 179, 173, 167 };

/* Ozaki-II's q: the largest with K 2^(2q) 4 < m_1 ... m_L (L <= 14 here). */
static int ozaki2_q(int L, long long K)
{
    __int128 P = 1;
    for (int l = 0; l < L; l++)
        P *= moduli[l];
    int q = -1;
    while (((__int128)K * 4 << (2 * (q + 1))) < P)
        q++;
    return q;
}

static int frexp_exp(double x)
{
    int e;
    frexp(x, &e);
    return e;
}

/* The exact Ozaki-II result: A'[i,k] = trunc(A[i,k] 2^(q - e_i)) with e_i the
 * exponent of row i's absmax (|x| in [2^(e-1), 2^e)), B' likewise by
 * columns, C' = sum_k A' B' in __int128, C = 2^(e_i + f_j - 2q) C' rounded
 * once to the type. */
static void ozaki2_exact(const Gemm *g, int q, const double *a, const double *b, double *want)
{
    int M = g->M, N = g->N, K = g->K;
    int *e = malloc(sizeof(int) * (size_t)M), *f = malloc(sizeof(int) * (size_t)N);
    for (int i = 0; i < M; i++) {
        double mx = 0;
        for (int k = 0; k < K; k++)
            mx = fmax(mx, fabs(a[i * K + k]));
        e[i] = frexp_exp(mx);
    }
    for (int j = 0; j < N; j++) {
        double mx = 0;
        for (int k = 0; k < K; k++)
            mx = fmax(mx, fabs(b[k * N + j]));
        f[j] = frexp_exp(mx);
    }
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            __int128 s = 0;
            for (int k = 0; k < K; k++) {
                int64_t x = (int64_t)trunc(ldexp(a[i * K + k], q - e[i]));
                int64_t y = (int64_t)trunc(ldexp(b[k * N + j], q - f[j]));
                s += (__int128)x * y;
            }
            CU_ASSERT((double)s == (long double)s);   /* below 2^53: exact in a double */
            double v = ldexp((double)s, e[i] + f[j] - 2 * q);
            want[i * N + j] = g->f32 ? (double)(float)v : v;
        }
    free(e);
    free(f);
}

/* Entries that differ in their bits; prints the first few. */
static int bit_mismatches(const char *what, int n, const double *got, const double *want)
{
    int bad = 0;
    for (int i = 0; i < n; i++)
        if (memcmp(&got[i], &want[i], sizeof(double)) != 0 && bad++ < 3)
            fprintf(stderr, "\n  %s: C[%d] = %a, want %a", what, i, got[i], want[i]);
    return bad;
}

static bool has(const char *text, const char *needle)
{
    bool ok = text && strstr(text, needle) != NULL;
    if (!ok)
        fprintf(stderr, "\n  missing \"%s\" in:\n%s", needle, text ? text : "(null)");
    return ok;
}

/* ---- 1. Ozaki-II's integer product is exact before rescaling ---- */

typedef enum { S_MIXED, S_NEGATIVE, S_WIDE } Signs;

static void fill_exact(double *x, int n, Signs s, bool f32, int which)
{
    for (int i = 0; i < n; i++) {
        double v = s == S_NEGATIVE ? (which ? wide(4, 4, 0) : wide(6, 6, -1)) : s == S_WIDE ? wide(30, 30, 0)
                                                                                            : wide(8, 8, 0);
        x[i] = f32 ? (double)(float)v : v;
    }
}

/* Ozaki-II with L moduli on g against ozaki2_exact; returns the result. */
static double *check_ozaki2_exact(const Gemm *g, int L, Signs s, uint64_t seed, const char *what)
{
    int M = g->M, N = g->N, K = g->K, q = ozaki2_q(L, K);
    CU_ASSERT(ldexp((double)K, 2 * q) < 0x1p53);
    rng_seed(seed);
    double *a = malloc(sizeof(double) * (size_t)(M * K)), *b = malloc(sizeof(double) * (size_t)(K * N));
    double *c = calloc((size_t)(M * N), sizeof(double)), *want = malloc(sizeof(double) * (size_t)(M * N));
    fill_exact(a, M * K, s, g->f32, 0);
    fill_exact(b, K * N, s, g->f32, 1);
    ozaki2_exact(g, q, a, b, want);
    char opt[64], rq[64], *rem = NULL;
    snprintf(opt, sizeof opt, "--contraction-precision=ozaki2:%d", L);
    snprintf(rq, sizeof rq, "q = %d bits for K = %d", q, K);
    const char *opts[] = { opt, "-Rpass=contraction-precision", NULL };
    if (gemm_once(g, opts, a, b, c, &rem)) {
        CU_ASSERT(has(rem, rq));
        int bad = bit_mismatches(what, M * N, c, want);
        CU_ASSERT_EQUAL(bad, 0);
        printf("\n    %-34s L = %d, q = %d, K = %d: %d of %d entries differ from the exact reference", what, L, q, K,
               bad, M * N);
    }
    free(rem);
    free(a);
    free(b);
    free(want);
    return c;
}

static void test_ozaki2_exact(void)
{
    Gemm g = { .M = 12, .N = 10, .K = 16 };
    free(check_ozaki2_exact(&g, 6, S_MIXED, 1, "Float64 mixed signs"));
    free(check_ozaki2_exact(&g, 6, S_WIDE, 2, "Float64 2^-30..2^30"));
    free(check_ozaki2_exact(&g, 6, S_NEGATIVE, 3, "Float64 negative A"));
    Gemm t = g;
    t.ta = t.tb = true;
    free(check_ozaki2_exact(&t, 6, S_MIXED, 4, "Float64 A.T @ B.T"));
    Gemm f = g;
    f.f32 = true;
    free(check_ozaki2_exact(&f, 6, S_MIXED, 5, "Float32 mixed signs"));
    Gemm l = { .M = 8, .N = 8, .K = 64 };
    free(check_ozaki2_exact(&l, 7, S_MIXED, 6, "Float64 L = 7"));
}

/* ---- 2. accuracy ---- */

typedef struct Scheme {
    const char *name;
    const char *opts[4];
    double bound32, bound64;   /* 0: only reported */
    const char *remark32, *remark64;
} Scheme;

static const Scheme schemes[] = {
    { "native", { NULL }, 0, 0, NULL, NULL },
    { "ozaki1", { "--contraction-precision=ozaki1", "-Rpass=contraction-precision", NULL }, 6e-8, 4e-16,
      "Ozaki-I, 4 slices, 10 Int8 matmuls", "Ozaki-I, 8 slices, 36 Int8 matmuls" },
    { "ozaki2", { "--contraction-precision=ozaki2", "-Rpass=contraction-precision", NULL }, 3e-8, 2.2e-16,
      "Ozaki-II", "Ozaki-II" },
    { "int8", { "--contraction-precision=int8", "-Rpass=contraction-precision", NULL }, 7.9e-3, 7.9e-3,
      "power-of-two rescaling", "power-of-two rescaling" },
    { "int8 direct",
      { "--contraction-precision=int8", "--quantize-rescaling=direct", "-Rpass=contraction-precision", NULL }, 7.9e-3,
      7.9e-3, "direct rescaling", "direct rescaling" },
};
enum { NSCHEMES = sizeof schemes / sizeof schemes[0] };

static void test_accuracy(void)
{
    static const int Ks[] = { 256, 1024 };
    for (int t = 0; t < 2; t++)
        for (int kk = 0; kk < 2; kk++) {
            Gemm g = { .f32 = t == 0, .M = 16, .N = 24, .K = Ks[kk] };
            double *a[2], *b[2], err[NSCHEMES][2];
            for (int d = 0; d < 2; d++) {
                rng_seed(100 + (uint64_t)(4 * t + 2 * kk + d));
                a[d] = matrix(g.M * g.K, (Dist)d, g.f32);
                b[d] = matrix(g.K * g.N, (Dist)d, g.f32);
            }
            for (int s = 0; s < NSCHEMES; s++) {
                const Scheme *sc = &schemes[s];
                Prog p;
                char *rem = NULL;
                bool ok = open_src(&p, gemm_source(&g), sc->opts[0] ? sc->opts : NULL, &rem);
                CU_ASSERT(ok);
                const char *want = g.f32 ? sc->remark32 : sc->remark64;
                if (want)
                    CU_ASSERT(has(rem, want));
                for (int d = 0; d < 2 && ok; d++) {
                    double *c = calloc((size_t)(g.M * g.N), sizeof(double));
                    err[s][d] = gemm_run(&p, &g, a[d], b[d], c) ? gemm_error(&g, a[d], b[d], NULL, c) : INFINITY;
                    double bound = g.f32 ? sc->bound32 : sc->bound64;
                    if (bound && !(err[s][d] <= bound)) {
                        fprintf(stderr, "\n  %s %s K = %d %s: error %.3g > %.3g", g.f32 ? "Float32" : "Float64",
                                sc->name, g.K, dist_name[d], err[s][d], bound);
                        CU_FAIL("error above the bound");
                    }
                    free(c);
                }
                if (!ok)
                    err[s][0] = err[s][1] = NAN;
                free(rem);
                prog_close(&p);
            }
            for (int d = 0; d < 2; d++) {
                printf("\n    %s K = %4d %-7s:", g.f32 ? "Float32" : "Float64", g.K, dist_name[d]);
                for (int s = 0; s < NSCHEMES; s++)
                    printf("  %s %.3g", schemes[s].name, err[s][d]);
                free(a[d]);
                free(b[d]);
            }
        }
}

/* ---- 3. transposed and column-major operands ---- */

typedef struct Layout {
    const char *name;
    bool ta, tb, cm_a, cm_b, cm_c;
} Layout;

static const Layout layouts[] = {
    { "A.T", true, false, false, false, false },
    { "B.T", false, true, false, false, false },
    { "A.T @ B.T", true, true, false, false, false },
    { "col_major A", false, false, true, false, false },
    { "col_major B", false, false, false, true, false },
    { "col_major C", false, false, false, false, true },
    { "A.T, col_major A", true, false, true, false, false },
    { "B.T, col_major B and C", false, true, false, true, true },
    { "all col_major", false, false, true, true, true },
    { "A.T @ B.T, all col_major", true, true, true, true, true },
};

static void apply(Gemm *g, const Layout *l)
{
    g->ta = l->ta;
    g->tb = l->tb;
    g->cm_a = l->cm_a;
    g->cm_b = l->cm_b;
    g->cm_c = l->cm_c;
}

static void test_layouts(void)
{
    /* Ozaki-II on exact-range data: bit-identical to the exact reference
     * and to the row-major run */
    Gemm g = { .M = 12, .N = 10, .K = 16 };
    double *plain = check_ozaki2_exact(&g, 6, S_MIXED, 7, "row-major");
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        Gemm t = g;
        apply(&t, &layouts[l]);
        double *c = check_ozaki2_exact(&t, 6, S_MIXED, 7, layouts[l].name);
        CU_ASSERT_EQUAL(bit_mismatches(layouts[l].name, g.M * g.N, c, plain), 0);
        free(c);
    }
    free(plain);

    /* ozaki2 (default L) and int8 on uniform data: the same bounds */
    for (int f = 0; f < 2; f++) {
        Gemm u = { .f32 = f == 1, .M = 12, .N = 20, .K = 256 };
        rng_seed(8);
        double *a = matrix(u.M * u.K, D_UNIFORM, u.f32), *b = matrix(u.K * u.N, D_UNIFORM, u.f32);
        for (int s = 2; s <= 3; s++) {   /* ozaki2, int8 */
            const Scheme *sc = &schemes[s];
            double bound = u.f32 ? sc->bound32 : sc->bound64;
            double *ref = calloc((size_t)(u.M * u.N), sizeof(double));
            gemm_once(&u, sc->opts, a, b, ref, NULL);
            printf("\n    %s %s row-major: %.3g", u.f32 ? "Float32" : "Float64", sc->name,
                   gemm_error(&u, a, b, NULL, ref));
            for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
                Gemm t = u;
                apply(&t, &layouts[l]);
                double *c = calloc((size_t)(u.M * u.N), sizeof(double));
                gemm_once(&t, sc->opts, a, b, c, NULL);
                double e = gemm_error(&t, a, b, NULL, c);
                int diff = 0;
                for (int i = 0; i < u.M * u.N; i++)
                    diff += memcmp(&c[i], &ref[i], sizeof(double)) != 0;
                printf("\n    %s %s %-26s: %.3g (%d entries differ from row-major)", u.f32 ? "Float32" : "Float64",
                       sc->name, layouts[l].name, e, diff);
                if (!(e <= bound)) {
                    fprintf(stderr, "\n  %s %s: error %.3g > %.3g", sc->name, layouts[l].name, e, bound);
                    CU_FAIL("error above the bound");
                }
                free(c);
            }
            free(ref);
        }
        free(a);
        free(b);
    }
}

/* ---- 4. BLAS zeros and NaNs ---- */

static void test_blas_nan(void)
{
    static const char *const prec[] = { "ozaki2", "ozaki1", "int8" };
    Gemm g = { .M = 8, .N = 6, .K = 64, .alpha = "2.0", .alpha_v = 2.0, .beta = "0.0", .beta_v = 0.0 };
    rng_seed(9);
    double *a = matrix(g.M * g.K, D_UNIFORM, false), *b = matrix(g.K * g.N, D_UNIFORM, false);
    double c[48];
    const double bounds[] = { 2.2e-16, 4e-16, 7.9e-3 };
    /* a static beta of 0 does not read C, which holds NaNs */
    for (int s = 0; s < 3; s++) {
        char opt[64];
        snprintf(opt, sizeof opt, "--contraction-precision=%s", prec[s]);
        const char *opts[] = { opt, "-Rpass=contraction-precision", NULL };
        for (int i = 0; i < 48; i++)
            c[i] = NAN;
        char *rem = NULL;
        if (gemm_once(&g, opts, a, b, c, &rem)) {
            CU_ASSERT(has(rem, "remark: contraction-precision: GEMM: "));
            double e = gemm_error(&g, a, b, NULL, c);
            printf("\n    beta = 0, C = NaN, %s: error %.3g", prec[s], e);
            CU_ASSERT(e <= bounds[s]);
        }
        free(rem);
    }

    /* a static alpha of 0 stays native and does not compute A @ B */
    Gemm z = { .M = 8, .N = 6, .K = 64, .alpha = "0.0", .alpha_v = 0.0, .beta = "1.0", .beta_v = 1.0 };
    for (int s = 0; s < 3; s++) {
        char opt[64];
        snprintf(opt, sizeof opt, "--contraction-precision=%s", prec[s]);
        const char *opts[] = { opt, "-Rpass-missed=contraction-precision", NULL };
        double an[8 * 64], c0[48];
        memcpy(an, a, sizeof an);
        an[3 * 64 + 5] = NAN;
        for (int i = 0; i < 48; i++)
            c[i] = c0[i] = uniform();
        char *rem = NULL;
        if (gemm_once(&z, opts, an, b, c, &rem)) {
            CU_ASSERT(has(rem, ":2:"));
            CU_ASSERT(has(rem, "GEMM stays native: alpha is 0"));
            CU_ASSERT_EQUAL(bit_mismatches("alpha = 0", 48, c, c0), 0);
        }
        free(rem);
    }

    /* a NaN (or an inf) in row i of A: NaN (non-finite) in row i of C only */
    static const char *const prec2[] = { "ozaki2", "int8", "ozaki1", "int8 direct" };
    Gemm m = { .M = 8, .N = 6, .K = 64 };
    for (int s = 0; s < 4; s++) {
        bool direct = s == 3;
        char opt[64];
        snprintf(opt, sizeof opt, "--contraction-precision=%s", direct ? "int8" : prec2[s]);
        const char *opts[] = { opt, direct ? "--quantize-rescaling=direct" : NULL, NULL };
        Prog p;
        if (!open_src(&p, gemm_source(&m), opts, NULL)) {
            CU_FAIL("compile");
            prog_close(&p);
            continue;
        }
        for (int inf = 0; inf < 2; inf++) {
            double an[8 * 64];
            memcpy(an, a, sizeof an);
            an[5 * 64 + 17] = inf ? -INFINITY : NAN;
            for (int i = 0; i < 48; i++)
                c[i] = 0;
            gemm_run(&p, &m, an, b, c);
            int nan_row = 0, other_bad = 0;
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 6; j++) {
                    if (i == 5)
                        nan_row += inf ? !isfinite(c[i * 6 + j]) : isnan(c[i * 6 + j]) != 0;
                    else
                        other_bad += !isfinite(c[i * 6 + j]);
                }
            printf("\n    %s in A[5][17], %s: %d of 6 entries of row 5 %s, %d non-finite elsewhere", inf ? "-inf" : "NaN",
                   prec2[s], nan_row, inf ? "non-finite" : "NaN", other_bad);
            CU_ASSERT_EQUAL(nan_row, 6);
            CU_ASSERT_EQUAL(other_bad, 0);
            /* the other rows keep their accuracy */
            Gemm rest = m;
            rest.M = 5;
            CU_ASSERT(gemm_error(&rest, an, b, NULL, c) <= 7.9e-3);
        }
        prog_close(&p);
    }
    free(a);
    free(b);
}

/* ---- 5. the GEMM epilogue ---- */

static void test_epilogue(void)
{
    for (int f = 0; f < 2; f++) {
        Gemm g = { .f32 = f == 1, .M = 16, .N = 16, .K = 256, .alpha = "2.0", .alpha_v = 2.0, .beta = "0.5",
                   .beta_v = 0.5 };
        rng_seed(10);
        double *a = matrix(g.M * g.K, D_UNIFORM, g.f32), *b = matrix(g.K * g.N, D_UNIFORM, g.f32);
        double *c0 = matrix(g.M * g.N, D_UNIFORM, g.f32), c[256];
        memcpy(c, c0, sizeof c);
        const char *opts[] = { "--contraction-precision=ozaki2", "-Rpass=contraction-precision", NULL };
        char *rem = NULL;
        if (gemm_once(&g, opts, a, b, c, &rem)) {
            CU_ASSERT(has(rem, "GEMM: Ozaki-II"));
            double e = gemm_error(&g, a, b, c0, c), bound = g.f32 ? 3e-8 : 2.2e-16;
            printf("\n    %s C = 2 A @ B + 0.5 C, ozaki2: error %.3g (bound %.2g)", g.f32 ? "Float32" : "Float64", e,
                   bound);
            CU_ASSERT(e <= bound);
        }
        free(rem);
        free(a);
        free(b);
        free(c0);
    }
}

/* ---- 6. K at the limit of the exact Int32 accumulation ---- */

static const char *dot_source(const char *T, long long K)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "program g(A: Tensor[%s, 1, %lld], B: Tensor[%s, %lld, 1], C: Tensor[%s, 1, 1]) {\n"
             "    C = A @ B\n}\n", T, K, T, K, T);
    return buf;
}

/* Lower a 1 x K x 1 product; true when it was rewritten. */
static bool k_accepted(const char *prec, const char *T, long long K, const char *missed_needle)
{
    char opt[64];
    snprintf(opt, sizeof opt, "--contraction-precision=%s", prec);
    const char *opts[] = { opt, "-Rpass=contraction-precision", "-Rpass-missed=contraction-precision", NULL };
    char *rem = lower_remarks(dot_source(T, K), opts);
    bool done = strstr(rem, "contraction-precision: MatMul: ") != NULL;
    bool native = strstr(rem, "MatMul stays native: K = ") != NULL;
    CU_ASSERT(done != native);
    if (native) {
        CU_ASSERT(has(rem, ":2:"));
        if (missed_needle)
            CU_ASSERT(has(rem, missed_needle));
    }
    printf("\n    %s %s K = %lld: %s", prec, T, K, done ? "rewritten" : native ? "stays native" : "?");
    free(rem);
    return done;
}

static void test_k_limit(void)
{
    /* Int8 values up to 127: K <= 133143 (seed 003); Ozaki-II's residues of
     * 256 reach -128: K 128^2 < 2^31, K <= 131071 */
    CU_ASSERT(k_accepted("int8", "Float32", 133143, NULL));
    CU_ASSERT(!k_accepted("int8", "Float32", 133144, "133143"));
    CU_ASSERT(!k_accepted("int8", "Float32", 133145, NULL));
    CU_ASSERT(k_accepted("ozaki1", "Float64", 133143, NULL));
    CU_ASSERT(!k_accepted("ozaki1", "Float64", 133144, "133143"));
    CU_ASSERT(!k_accepted("ozaki1", "Float64", 133145, NULL));
    CU_ASSERT(k_accepted("ozaki2", "Float64", 131071, NULL));
    CU_ASSERT(!k_accepted("ozaki2", "Float64", 131072, "131071"));
    CU_ASSERT(k_accepted("ozaki2:5", "Float64", 131071, NULL));
    CU_ASSERT(!k_accepted("ozaki2:5", "Float64", 131072, "131071"));
    CU_ASSERT_EQUAL(ozaki2_q(5, 131071), 10);

    /* the values at the accepted limits */
    enum { K8 = 133143, K2 = 131071 };
    double *a = malloc(sizeof(double) * K8), *b = malloc(sizeof(double) * K8), c[1];
    for (int k = 0; k < K8; k++)
        a[k] = b[k] = 1.0;
    Gemm g = { .f32 = true, .M = 1, .N = 1, .K = K8 };
    const char *int8[] = { "--contraction-precision=int8", NULL };
    c[0] = 0;
    if (gemm_once(&g, int8, a, b, c, NULL)) {
        printf("\n    int8 Float32 ones, K = %d: %.9g (%.3g ulp)", K8, c[0], fabs(c[0] - K8) / 0x1p-7);
        CU_ASSERT(fabs(c[0] - K8) <= 2 * 0x1p-7);   /* ulp(133143) in Float32 */
    }
    const char *oz1[] = { "--contraction-precision=ozaki1", NULL };
    c[0] = 0;
    g.f32 = false;
    if (gemm_once(&g, oz1, a, b, c, NULL)) {
        printf("\n    ozaki1 Float64 ones, K = %d: %.17g", K8, c[0]);
        CU_ASSERT(c[0] == K8);
    }
    /* A' = 512 and 128 (residue -128 modulo 256) for q = 10, e = 1 */
    for (int k = 0; k < K2; k++)
        a[k] = b[k] = k ? 0.25 : 1.0;
    Gemm h = { .M = 1, .N = 1, .K = K2 };
    const char *oz2[] = { "--contraction-precision=ozaki2:5", "-Rpass=contraction-precision", NULL };
    char *rem = NULL;
    c[0] = 0;
    if (gemm_once(&h, oz2, a, b, c, &rem)) {
        CU_ASSERT(has(rem, "Ozaki-II, 5 Int8 matmuls, q = 10 bits for K = 131071"));
        printf("\n    ozaki2:5 Float64 [1, 0.25 ...], K = %d: %.17g (exact %.17g)", K2, c[0], 1 + 131070 * 0.0625);
        CU_ASSERT(c[0] == 8192.875);
    }
    free(rem);
    free(a);
    free(b);
}

/* ---- 7. direct rescaling overflows where pow2 does not ---- */

static void test_direct_overflow(void)
{
    Gemm g = { .f32 = true, .M = 4, .N = 5, .K = 256 };
    rng_seed(11);
    double *a = malloc(sizeof(double) * (size_t)(g.M * g.K)), *b = malloc(sizeof(double) * (size_t)(g.K * g.N));
    for (int k = 0; k < g.K; k++) {
        a[k] = (double)(float)(1e36 * (0.5 + 0.5 * unit()));   /* row 0 near 1e36 */
        for (int i = 1; i < g.M; i++)
            a[i * g.K + k] = (double)(float)uniform();
        for (int j = 0; j < g.N; j++)
            b[k * g.N + j] = (double)(float)(1e-30 * (0.5 + 0.5 * unit()));
    }
    for (int direct = 0; direct < 2; direct++) {
        const char *opts[] = { "--contraction-precision=int8", direct ? "--quantize-rescaling=direct" : NULL, NULL };
        double c[20] = { 0 };
        if (!gemm_once(&g, opts, a, b, c, NULL))
            continue;
        int infs = 0;
        for (int j = 0; j < g.N; j++)
            infs += isinf(c[j]) != 0;
        double e = gemm_error(&g, a, b, NULL, c);
        Gemm rest = g;   /* rows 1.. only */
        rest.M = g.M - 1;
        double e_rest = gemm_error(&rest, a + g.K, b, NULL, c + g.N);
        printf("\n    Float32 row of ~1e36 times ~1e-30, int8 %s: C[0][0] = %g, %d of %d inf in row 0, error %.3g "
               "(other rows %.3g)", direct ? "direct" : "pow2", c[0], infs, g.N, e, e_rest);
        if (direct) {
            CU_ASSERT_EQUAL(infs, g.N);
        } else {
            CU_ASSERT(e <= 7.9e-3);
        }
        CU_ASSERT(e_rest <= 7.9e-3);
    }
    free(a);
    free(b);
}

/* ---- 8. every requirement, with its remark ---- */

static void test_remarks(void)
{
    /* one program per violated requirement; the statement on line 2 + 3 n */
    const char *src =
        "program h(A: Tensor[Float16, 16, 64], B: Tensor[Float16, 64, 16], C: Tensor[Float16, 16, 16]) {\n"
        "    C = A @ B\n"
        "}\n"
        "program ra(A: Tensor[Float64, 16, 64], B: Tensor[Float64, 64, 16], C: Tensor[Float64, 16, 16], alpha: Float64) {\n"
        "    C = alpha * A @ B\n"
        "}\n"
        "program rb(A: Tensor[Float32, 16, 64], B: Tensor[Float32, 64, 16], C: Tensor[Float32, 16, 16], beta: Float32) {\n"
        "    C = 2.0 * A @ B + beta * C\n"
        "}\n"
        "program z(A: Tensor[Float64, 16, 64], B: Tensor[Float64, 64, 16], C: Tensor[Float64, 16, 16]) {\n"
        "    C = 0.0 * A @ B + 1.0 * C\n"
        "}\n"
        "program sk(A: Tensor[Float64, 16, K], B: Tensor[Float64, K, 16], C: Tensor[Float64, 16, 16], K: Int32) {\n"
        "    C = A @ B\n"
        "}\n"
        "program kl(A: Tensor[Float32, 2, 200000], B: Tensor[Float32, 200000, 2], C: Tensor[Float32, 2, 2]) {\n"
        "    C = A @ B\n"
        "}\n";
    static const struct {
        int line;
        const char *why;
    } missed[] = {
        { 2, "MatMul stays native: its types are in=Float16" },
        { 5, "GEMM stays native: alpha is a run-time value (parameter 'alpha')" },
        { 8, "GEMM stays native: beta is a run-time value (parameter 'beta')" },
        { 11, "GEMM stays native: alpha is 0" },
        { 14, "MatMul stays native: K is the run-time dimension 'K'" },
        { 17, "MatMul stays native: K = 200000 exceeds" },
    };
    static const char *const precs[] = { "int8", "ozaki1", "ozaki2" };
    for (int s = 0; s < 3; s++) {
        char opt[64];
        snprintf(opt, sizeof opt, "--contraction-precision=%s", precs[s]);
        const char *opts[] = { opt, "-Rpass-missed=contraction-precision", NULL };
        char *rem = lower_remarks(src, opts);
        int lines = 0;
        for (const char *r = rem; (r = strstr(r, "remark: ")); r++)
            lines++;
        CU_ASSERT_EQUAL(lines, 6);
        for (size_t i = 0; i < sizeof missed / sizeof missed[0]; i++) {
            char loc[32], line[512];
            snprintf(loc, sizeof loc, ".fx:%d:", missed[i].line);
            /* the remark's own line */
            const char *r = strstr(rem, loc);
            const char *eol = r ? strchr(r, '\n') : NULL;
            snprintf(line, sizeof line, "%.*s", eol ? (int)(eol - r) : 0, r ? r : "");
            CU_ASSERT(has(line, "remark: contraction-precision: "));
            CU_ASSERT(has(line, missed[i].why));
        }
        if (s == 0)
            printf("\n%s", rem);
        free(rem);
    }
    /* -Rpass-missed says nothing of what was done, -Rpass nothing of what was not */
    const char *ok = "program g(A: Tensor[Float64, 16, 64], B: Tensor[Float64, 64, 16], C: Tensor[Float64, 16, 16]) {\n"
                     "    C = 2.0 * A @ B + 0.5 * C\n}\n";
    {
        const char *opts[] = { "--contraction-precision=int8", "-Rpass-missed=contraction-precision", NULL };
        char *rem = lower_remarks(ok, opts);
        CU_ASSERT(strstr(rem, "remark") == NULL);
        free(rem);
        const char *opts2[] = { "--contraction-precision=int8", "-Rpass=contraction-precision", NULL };
        rem = lower_remarks(src, opts2);
        CU_ASSERT(strstr(rem, "remark") == NULL);
        free(rem);
    }
    static const struct {
        const char *prec, *text;
    } done[] = {
        { "int8", "GEMM: QuantizeContraction, 8 bits (q = 127), power-of-two rescaling, 1 Int8 matmul" },
        { "int4", "GEMM: QuantizeContraction, 4 bits (q = 7), power-of-two rescaling, 1 Int8 matmul" },
        { "ozaki1:4", "GEMM: Ozaki-I, 4 slices, 10 Int8 matmuls" },
        { "ozaki2:16", "GEMM: Ozaki-II, 16 Int8 matmuls, q = " },
        { "ozaki", "GEMM: Ozaki-II, " },
    };
    for (size_t i = 0; i < sizeof done / sizeof done[0]; i++) {
        char opt[64];
        snprintf(opt, sizeof opt, "--contraction-precision=%s", done[i].prec);
        const char *opts[] = { opt, "-Rpass=contraction-precision", NULL };
        char *rem = lower_remarks(ok, opts);
        CU_ASSERT(has(rem, ".fx:2:"));
        CU_ASSERT(has(rem, "remark: contraction-precision: "));
        CU_ASSERT(has(rem, done[i].text));
        printf("\n    %s: %.*s", done[i].prec, (int)strcspn(strstr(rem, "remark") ? strstr(rem, "remark") : rem, "\n"),
               strstr(rem, "remark") ? strstr(rem, "remark") : rem);
        free(rem);
    }
}

/* ---- 9. @contraction_precision on a program ---- */

static void test_program_precision(void)
{
    Gemm g = { .M = 16, .N = 16, .K = 256, .annot = "ozaki1:3" };
    rng_seed(12);
    double *a = matrix(g.M * g.K, D_UNIFORM, false), *b = matrix(g.K * g.N, D_UNIFORM, false);
    double c[256] = { 0 };
    const char *int8[] = { "--contraction-precision=int8", "-Rpass=contraction-precision", NULL };
    char *rem = NULL;
    if (gemm_once(&g, int8, a, b, c, &rem)) {
        CU_ASSERT(has(rem, "MatMul: Ozaki-I, 3 slices, 6 Int8 matmuls"));
        CU_ASSERT(strstr(rem, "QuantizeContraction") == NULL);
        /* 3 slices: ~21 bits, far better than int8's ~7 and far worse than native */
        double e = gemm_error(&g, a, b, NULL, c);
        printf("\n    @contraction_precision(\"ozaki1:3\") under int8: error %.3g", e);
        CU_ASSERT(e < 1e-5 && e > 1e-12);
    }
    free(rem);

    /* "native" on the program disables a global ozaki: the native GEMM,
     * whose sum is the fma chain in k order */
    Gemm n = g;
    n.annot = "native";
    const char *oz[] = { "--contraction-precision=ozaki", "-Rpass=contraction-precision",
                         "-Rpass-missed=contraction-precision", NULL };
    rem = NULL;
    memset(c, 0, sizeof c);
    Prog p;
    if (open_src(&p, gemm_source(&n), oz, &rem)) {
        CU_ASSERT(strstr(rem, "remark") == NULL);
        CU_ASSERT_EQUAL(p.plan->ntransients, 0);   /* no Int8 pieces, no products */
        gemm_run(&p, &n, a, b, c);
        int bad = 0;
        for (int i = 0; i < 16; i++)
            for (int j = 0; j < 16; j++) {
                double acc = 0;
                for (int k = 0; k < 256; k++)
                    acc = fma(a[i * 256 + k], b[k * 16 + j], acc);
                bad += memcmp(&acc, &c[i * 16 + j], sizeof acc) != 0;
            }
        printf("\n    @contraction_precision(\"native\") under ozaki: error %.3g, %d entries differ from the fma chain",
               gemm_error(&n, a, b, NULL, c), bad);
        CU_ASSERT_EQUAL(bad, 0);
    } else {
        CU_FAIL("compile");
    }
    prog_close(&p);
    free(rem);
    /* and the same program without the annotation is rewritten */
    n.annot = NULL;
    char *r2 = lower_remarks(gemm_source(&n), oz);
    CU_ASSERT(has(r2, "MatMul: Ozaki-II"));
    free(r2);
    free(a);
    free(b);
}

static const FxtTest tests[] = {
    { "ozaki2_exact_integer_product", test_ozaki2_exact },
    { "accuracy_bounds", test_accuracy },
    { "transposed_and_column_major", test_layouts },
    { "blas_zeros_and_nans", test_blas_nan },
    { "gemm_epilogue", test_epilogue },
    { "k_limit", test_k_limit },
    { "direct_rescaling_overflow", test_direct_overflow },
    { "requirements_remarks", test_remarks },
    { "program_precision", test_program_precision },
    { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "contraction", tests, NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
