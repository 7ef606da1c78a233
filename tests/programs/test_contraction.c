/* test_contraction.c - seed 003's low-precision contractions
 * (ContractionPrecisionPass: QuantizeContraction, OzakiContraction Slicing
 * and Modular) run on the host against references computed here: the exact
 * Ozaki-II integer product, accuracy bounds on uniform and normal data,
 * transposed and column-major operands, BLAS zeros with NaNs (and zero
 * rows), the GEMM epilogue, two contractions in one program, K at the Int32
 * limit, direct against power-of-two rescaling, every requirement's remark,
 * and @contraction_precision on programs.
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

typedef enum { D_UNIFORM, D_NORMAL, D_POSITIVE } Dist;
static const char *const dist_name[] = { "uniform", "normal", "[0,1)" };

static double *matrix(int n, Dist d, bool f32)
{
    double *x = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++) {
        double v = d == D_UNIFORM ? uniform() : d == D_NORMAL ? normal() : unit();
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
    bool sym;                   /* M and N are Int32 parameters (run-time dimensions) */
} Gemm;

static double alpha_of(const Gemm *g)
{
    return g->alpha ? g->alpha_v : 1.0;
}

static double beta_of(const Gemm *g)
{
    return g->beta ? g->beta_v : 0.0;
}

/* program g(A, B, C) { C = [alpha *] A[.T] @ B[.T] [+ beta * C] }, or for
 * n > 1 GEMMs one program with A0, B0, C0, A1, ... and a statement each. */
static const char *multi_source(const Gemm *gs, int n)
{
    static char buf[8192];
    const char *T = gs[0].f32 ? "Float32" : "Float64";
    size_t len = 0;
    if (gs[0].annot)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "@contraction_precision(\"%s\")\n", gs[0].annot);
    len += (size_t)snprintf(buf + len, sizeof buf - len, "program g(");
    for (int i = 0; i < n; i++) {
        const Gemm *g = &gs[i];
        char x[16] = "", M[16], N[16], K[16];
        if (n > 1)
            snprintf(x, sizeof x, "%d", i);
        snprintf(M, sizeof M, g->sym ? "M" : "%d", g->M);
        snprintf(N, sizeof N, g->sym ? "N" : "%d", g->N);
        snprintf(K, sizeof K, "%d", g->K);
        len += (size_t)snprintf(buf + len, sizeof buf - len,
                                "%sA%s: Tensor[%s, %s, %s%s], B%s: Tensor[%s, %s, %s%s], C%s: Tensor[%s, %s, %s%s]",
                                i ? ",\n          " : "", x, T, g->ta ? K : M, g->ta ? M : K,
                                g->cm_a ? ", col_major" : "", x, T, g->tb ? N : K, g->tb ? K : N,
                                g->cm_b ? ", col_major" : "", x, T, M, N, g->cm_c ? ", col_major" : "");
    }
    len += (size_t)snprintf(buf + len, sizeof buf - len, "%s) {\n", gs[0].sym ? ", M: Int32, N: Int32" : "");
    for (int i = 0; i < n; i++) {
        const Gemm *g = &gs[i];
        char x[16] = "", al[64] = "", be[64] = "";
        if (n > 1)
            snprintf(x, sizeof x, "%d", i);
        if (g->alpha)
            snprintf(al, sizeof al, "%s * ", g->alpha);
        if (g->beta)
            snprintf(be, sizeof be, " + %s * C%s", g->beta, x);
        len += (size_t)snprintf(buf + len, sizeof buf - len, "    C%s = %sA%s%s @ B%s%s%s\n", x, al, x,
                                g->ta ? ".T" : "", x, g->tb ? ".T" : "", be);
    }
    snprintf(buf + len, sizeof buf - len, "}\n");
    return buf;
}

static const char *gemm_source(const Gemm *g)
{
    return multi_source(g, 1);
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

/* Run the n GEMMs of a multi_source program on a[i] (op(A), M x K),
 * b[i] (op(B), K x N) and c[i] (M x N: C's value before, its value after),
 * packed into the declared storage orders. */
static bool multi_run(Prog *p, const Gemm *gs, int n, const double *const *a, const double *const *b, double **c)
{
    void **bufs = calloc((size_t)(3 * n), sizeof(void *)), **args = calloc((size_t)(3 * n + 2), sizeof(void *));
    int32_t dims[2] = { gs[0].M, gs[0].N };   /* symbolic M and N: the same for all */
    if (gs[0].sym) {
        args[3 * n] = &dims[0];
        args[3 * n + 1] = &dims[1];
    }
    for (int x = 0; x < n; x++) {
        const Gemm *g = &gs[x];
        int M = g->M, N = g->N, K = g->K;
        size_t es = g->f32 ? sizeof(float) : sizeof(double);
        void *sa = bufs[3 * x] = malloc(es * (size_t)M * (size_t)K);
        void *sb = bufs[3 * x + 1] = malloc(es * (size_t)K * (size_t)N);
        void *sc = bufs[3 * x + 2] = malloc(es * (size_t)M * (size_t)N);
        for (int i = 0; i < M; i++)
            for (int k = 0; k < K; k++)
                put(sa, g->ta ? at(k, i, K, M, g->cm_a) : at(i, k, M, K, g->cm_a),
                    a[x][(size_t)i * (size_t)K + (size_t)k], g->f32);
        for (int k = 0; k < K; k++)
            for (int j = 0; j < N; j++)
                put(sb, g->tb ? at(j, k, N, K, g->cm_b) : at(k, j, K, N, g->cm_b),
                    b[x][(size_t)k * (size_t)N + (size_t)j], g->f32);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++)
                put(sc, at(i, j, M, N, g->cm_c), c[x][i * N + j], g->f32);
        for (int k = 0; k < 3; k++)
            args[3 * x + k] = &bufs[3 * x + k];
    }
    bool ok = prog_run(p, args);
    CU_ASSERT(ok);
    for (int x = 0; x < n; x++) {
        const Gemm *g = &gs[x];
        for (int i = 0; i < g->M; i++)
            for (int j = 0; j < g->N; j++)
                c[x][i * g->N + j] = get(bufs[3 * x + 2], at(i, j, g->M, g->N, g->cm_c), g->f32);
    }
    for (int k = 0; k < 3 * n; k++)
        free(bufs[k]);
    free(bufs);
    free(args);
    return ok;
}

static bool gemm_run(Prog *p, const Gemm *g, const double *a, const double *b, double *c)
{
    return multi_run(p, g, 1, &a, &b, &c);
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
            /* BLAS: a beta of 0 does not read C */
            quad ref = al * s, cc = be != 0 ? be * (quad)c0[i * g->N + j] : 0;
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

/* Ozaki-II's q: the largest with K 2^(2q) 4 < m_1 ... m_L (L <= 16, so
 * that P < 2^126 and the first K 2^(2q) 4 >= P stays below 2^128). */
static int ozaki2_q(int L, long long K)
{
    unsigned __int128 P = 1;
    CU_ASSERT_FATAL(L <= 16);
    for (int l = 0; l < L; l++)
        P *= (unsigned)moduli[l];
    int q = -1;
    while (((unsigned __int128)K * 4 << (2 * (q + 1))) < P)
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
 * once, to the type (C' beyond 2^53 too). */
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
            /* one rounding: straight from the integer to the type */
            int sc = e[i] + f[j] - 2 * q;
            want[i * N + j] = g->f32 ? (double)ldexpf((float)s, sc) : ldexp((double)s, sc);
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

typedef enum { S_MIXED, S_NEGATIVE, S_WIDE, S_HUGE, S_TINY, S_NSIGNS } Signs;
static const char *const signs_name[] = { "mixed signs, 2^-8..2^8", "A < 0, B mixed", "mixed, 2^-30..2^30",
                                          "A ~2^1000, B ~2^-1000", "A ~2^30, B subnormal" };

/* A (which = 0) or B (1) for a data set */
static void fill_exact(double *x, int n, Signs s, bool f32, int which)
{
    for (int i = 0; i < n; i++) {
        double v;
        switch (s) {
        case S_NEGATIVE: v = which ? wide(4, 4, 0) : wide(6, 6, -1); break;
        case S_WIDE: v = wide(30, 30, 0); break;
        case S_HUGE: v = ldexp(wide(8, 8, 0), which ? -1000 : 1000); break;
        case S_TINY: v = ldexp(wide(8, 8, 0), which ? -1050 : 30); break;
        default: v = wide(8, 8, 0); break;
        }
        x[i] = f32 ? (double)(float)v : v;
    }
}

/* Ozaki-II with L moduli (one compilation) on the data sets ss[0..n-1]
 * against ozaki2_exact, bit for bit: K 2^(2q) < 2^53, so the integer
 * product and its reconstruction are exact and only the final scaling to
 * the type rounds. */
static void check_ozaki2_exact(const Gemm *g, int L, const Signs *ss, int n, uint64_t seed, const char *what)
{
    int M = g->M, N = g->N, K = g->K, q = ozaki2_q(L, K);
    CU_ASSERT(ldexp((double)K, 2 * q) < 0x1p53);
    char opt[64], rq[64], *rem = NULL;
    snprintf(opt, sizeof opt, "--contraction-precision=ozaki2:%d", L);
    snprintf(rq, sizeof rq, "q = %d bits for K = %d", q, K);
    const char *opts[] = { opt, "-Rpass=contraction-precision", NULL };
    Prog p;
    if (!open_src(&p, gemm_source(g), opts, &rem)) {
        CU_FAIL("compile");
        prog_close(&p);
        free(rem);
        return;
    }
    CU_ASSERT(has(rem, rq));
    double *a = malloc(sizeof(double) * (size_t)(M * K)), *b = malloc(sizeof(double) * (size_t)(K * N));
    double *c = calloc((size_t)(M * N), sizeof(double)), *want = malloc(sizeof(double) * (size_t)(M * N));
    rng_seed(seed);
    for (int x = 0; x < n; x++) {
        fill_exact(a, M * K, ss[x], g->f32, 0);
        fill_exact(b, K * N, ss[x], g->f32, 1);
        ozaki2_exact(g, q, a, b, want);
        memset(c, 0, sizeof(double) * (size_t)(M * N));
        gemm_run(&p, g, a, b, c);
        int bad = bit_mismatches(signs_name[ss[x]], M * N, c, want);
        CU_ASSERT_EQUAL(bad, 0);
        char label[128];
        snprintf(label, sizeof label, "%s, %s:", what, signs_name[ss[x]]);
        printf("\n    %-56s L = %d, q = %d, K = %d: %d of %d entries differ from the exact reference", label, L, q, K,
               bad, M * N);
    }
    prog_close(&p);
    free(rem);
    free(a);
    free(b);
    free(c);
    free(want);
}

/* The default moduli (Float64: q >= 55, Float32: q >= 26): C' = sum A' B'
 * is beyond 2^53, and the reconstruction carries it in double-Float64 and
 * rounds once. Against the exact C' (__int128) rounded once to the type:
 * the same bits, on data of both signs and on non-negative data (where
 * rounding at every Horner step used to accumulate in one direction). */
static void check_ozaki2_reconstruction(bool f32)
{
    Gemm g = { .f32 = f32, .M = 16, .N = 16, .K = 256 };
    const char *opts[] = { "--contraction-precision=ozaki2", "-Rpass=contraction-precision", NULL };
    int bits = f32 ? 26 : 55;
    Prog p;
    char *rem = NULL;
    if (open_src(&p, gemm_source(&g), opts, &rem)) {
        int L = 0, q = 0;
        const char *r = strstr(rem, "Ozaki-II, ");
        CU_ASSERT(r && sscanf(r, "Ozaki-II, %d Int8 matmuls, q = %d bits", &L, &q) == 2);
        CU_ASSERT(q >= bits && q == ozaki2_q(L, g.K) && ozaki2_q(L - 1, g.K) < bits);   /* the fewest moduli */
        CU_ASSERT(ldexp((double)g.K, 2 * q) > 0x1p53);
        double a[16 * 256], b[256 * 16], c[256], want[256];
        rng_seed(14);
        for (int d = 0; d < 3; d++) {
            for (int i = 0; i < 16 * 256; i++) {
                a[i] = d == 0 ? uniform() : d == 1 ? unit() : fabs(normal());
                b[i] = d == 0 ? uniform() : d == 1 ? unit() : fabs(normal());
                if (f32) {
                    a[i] = (float)a[i];
                    b[i] = (float)b[i];
                }
            }
            ozaki2_exact(&g, q, a, b, want);
            gemm_run(&p, &g, a, b, c);
            static const char *const names[] = { "uniform[-1,1)", "uniform[0,1)", "|normal|" };
            int diff = bit_mismatches(names[d], 256, c, want);
            printf("\n    %s default L = %d, q = %d, K = 256, %s: %d of 256 entries differ from the exact C' "
                   "rounded once; error %.3g", f32 ? "Float32" : "Float64", L, q, names[d], diff,
                   gemm_error(&g, a, b, NULL, c));
            CU_ASSERT_EQUAL(diff, 0);
        }
    } else {
        CU_FAIL("compile");
    }
    prog_close(&p);
    free(rem);
}

static void test_ozaki2_exact(void)
{
    static const Signs all[] = { S_MIXED, S_WIDE, S_NEGATIVE, S_HUGE, S_TINY };
    Gemm g = { .M = 12, .N = 10, .K = 16 };
    check_ozaki2_exact(&g, 6, all, 5, 1, "Float64");
    /* transposed operands and run-time M and N (the scales' views are symbolic) */
    static const Signs two[] = { S_MIXED, S_NEGATIVE };
    Gemm y = g;
    y.sym = y.ta = y.tb = true;
    check_ozaki2_exact(&y, 6, two, 2, 2, "Float64 A.T @ B.T, M, N: Int32");
    Gemm f = g;
    f.f32 = true;
    static const Signs f32[] = { S_MIXED, S_WIDE };
    check_ozaki2_exact(&f, 6, f32, 2, 3, "Float32");
    Gemm l = { .M = 8, .N = 8, .K = 64 };
    check_ozaki2_exact(&l, 7, two, 1, 4, "Float64 K = 64");
    check_ozaki2_reconstruction(false);
    check_ozaki2_reconstruction(true);
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

/* Every scheme on uniform[-1,1) and normal data, M = 16, N = 24: the bounds
 * of seed 003 (ozaki1 with 4 / 8 slices, ozaki2 with the default moduli),
 * the native error printed for comparison. On uniform[0,1) data (no
 * cancellation, the relative error of every entry counts) the same bounds
 * in Float64, where the reconstruction rounds once; in Float32 the
 * truncated splits lose up to 2^-26 of every element in one direction, and
 * the Ozaki schemes are "as accurate as the native matmul" (seed 003). */
static void accuracy(bool f32, int K)
{
    Gemm g = { .f32 = f32, .M = 16, .N = 24, .K = K };
    double *a[3], *b[3], err[NSCHEMES][3];
    for (int d = 0; d < 3; d++) {
        rng_seed(100 + (uint64_t)(8 * f32 + 3 * (K > 256) + d));
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
        for (int d = 0; d < 3; d++) {
            double *c = calloc((size_t)(g.M * g.N), sizeof(double));
            err[s][d] = ok && gemm_run(&p, &g, a[d], b[d], c) ? gemm_error(&g, a[d], b[d], NULL, c) : NAN;
            double bound = g.f32 ? sc->bound32 : sc->bound64;
            if (d == D_POSITIVE && s > 0 && s < 3 && g.f32)
                bound = err[0][d];   /* native's: seed 003's truncation biases Float32's 26 bits */
            if (bound) {
                CU_ASSERT(err[s][d] <= bound);
                if (!(err[s][d] <= bound))
                    fprintf(stderr, "\n  %s %s K = %d %s: error %.3g > %.3g", g.f32 ? "Float32" : "Float64", sc->name,
                            g.K, dist_name[d], err[s][d], bound);
            }
            free(c);
        }
        free(rem);
        prog_close(&p);
    }
    for (int d = 0; d < 3; d++) {
        printf("\n    %s K = %4d %-7s:", g.f32 ? "Float32" : "Float64", g.K, dist_name[d]);
        for (int s = 0; s < NSCHEMES; s++)
            printf("  %s %.3g", schemes[s].name, err[s][d]);
        free(a[d]);
        free(b[d]);
    }
}

static void test_accuracy32_256(void)
{
    accuracy(true, 256);
}

static void test_accuracy32_1024(void)
{
    accuracy(true, 1024);
}

static void test_accuracy64_256(void)
{
    accuracy(false, 256);
}

static void test_accuracy64_1024(void)
{
    accuracy(false, 1024);
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

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *r = text; r && (r = strstr(r, needle)); r++)
        n++;
    return n;
}

/* One program: the row-major GEMM g and g in each layout ls[0..n-1], on the
 * same mathematical matrices; c[0] is the row-major result. */
static double **layouts_run(const Gemm *g, const int *ls, int n, const char *const *opts, const double *a,
                            const double *b, const char *remark, Gemm *gs)
{
    const double *as[16], *bs[16];
    double **c = malloc(sizeof(double *) * (size_t)(n + 1));
    for (int x = 0; x <= n; x++) {
        gs[x] = *g;
        if (x)
            apply(&gs[x], &layouts[ls[x - 1]]);
        as[x] = a;
        bs[x] = b;
        c[x] = calloc((size_t)(g->M * g->N), sizeof(double));
    }
    Prog p;
    char *rem = NULL;
    if (open_src(&p, multi_source(gs, n + 1), opts, &rem)) {
        CU_ASSERT_EQUAL(count(rem, remark), n + 1);   /* every GEMM rewritten */
        multi_run(&p, gs, n + 1, as, bs, c);
    } else {
        CU_FAIL("compile");
    }
    prog_close(&p);
    free(rem);
    return c;
}

/* each flag alone, and all of them together */
static const int some_layouts[] = { 0, 1, 3, 4, 5, 9 };
enum { NL = sizeof layouts / sizeof layouts[0], NSOME = sizeof some_layouts / sizeof some_layouts[0] };

/* Ozaki-II (4 moduli: q = 12 at K = 16) on exact-range data: bit-identical
 * to the exact reference and to the row-major run */
static void test_layouts_exact(void)
{
    Gemm g = { .M = 12, .N = 10, .K = 16 }, gs[NL + 1];
    int q = ozaki2_q(4, g.K);
    CU_ASSERT_EQUAL(q, 12);
    rng_seed(7);
    double *a = malloc(sizeof(double) * (size_t)(g.M * g.K)), *b = malloc(sizeof(double) * (size_t)(g.K * g.N));
    double *want = malloc(sizeof(double) * (size_t)(g.M * g.N));
    fill_exact(a, g.M * g.K, S_MIXED, false, 0);
    fill_exact(b, g.K * g.N, S_MIXED, false, 1);
    ozaki2_exact(&g, q, a, b, want);
    const char *oz[] = { "--contraction-precision=ozaki2:4", "-Rpass=contraction-precision", NULL };
    double **c = layouts_run(&g, some_layouts, NSOME, oz, a, b, "Ozaki-II, 4 Int8 matmuls, q = 12 bits for K = 16", gs);
    for (int x = 0; x <= NSOME; x++) {
        const char *name = x ? layouts[some_layouts[x - 1]].name : "row-major";
        int bad = bit_mismatches(name, g.M * g.N, c[x], want), diff = bit_mismatches(name, g.M * g.N, c[x], c[0]);
        printf("\n    ozaki2:4 exact-range %-26s: %d entries differ from the exact reference, %d from row-major", name,
               bad, diff);
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(diff, 0);
    }
    for (int x = 0; x <= NSOME; x++)
        free(c[x]);
    free(c);
    free(a);
    free(b);
    free(want);
}

/* uniform data, the same bounds as row-major: ozaki2 (Float32, default L)
 * on the layouts that combine the flags, int8 (Float32) on every layout,
 * int8 (Float64) on each flag alone and all together */
static void test_layouts_bounds(void)
{
    Gemm gs[NL + 1];
    static const int oz_layouts[] = { 2, 9 }, int8_layouts[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    for (int run = 0; run < 3; run++) {
        bool f32 = run != 2;
        const Scheme *sc = &schemes[run == 0 ? 2 : 3];
        const int *ls = run == 0 ? oz_layouts : run == 1 ? int8_layouts : some_layouts;
        int nls = run == 0 ? 2 : run == 1 ? NL : NSOME;
        Gemm u = { .f32 = f32, .M = 12, .N = 20, .K = 256 };
        rng_seed(8);
        double *ua = matrix(u.M * u.K, D_UNIFORM, f32), *ub = matrix(u.K * u.N, D_UNIFORM, f32);
        double bound = f32 ? sc->bound32 : sc->bound64;
        double **uc = layouts_run(&u, ls, nls, sc->opts, ua, ub, f32 ? sc->remark32 : sc->remark64, gs);
        for (int x = 0; x <= nls; x++) {
            const char *name = x ? layouts[ls[x - 1]].name : "row-major";
            double e = gemm_error(&gs[x], ua, ub, NULL, uc[x]);
            int diff = 0;
            for (int i = 0; i < u.M * u.N; i++)
                diff += memcmp(&uc[x][i], &uc[0][i], sizeof(double)) != 0;
            printf("\n    %s %s %-26s: %.3g (%d entries differ from row-major)", f32 ? "Float32" : "Float64",
                   sc->name, name, e, diff);
            CU_ASSERT(e <= bound);
            if (!(e <= bound))
                fprintf(stderr, "\n  %s %s: error %.3g > %.3g", sc->name, name, e, bound);
        }
        for (int x = 0; x <= nls; x++)
            free(uc[x]);
        free(uc);
        free(ua);
        free(ub);
    }
}

/* ---- 4. BLAS zeros and NaNs ---- */

/* Float32 with the default slices and moduli (4 and 8 here): the BLAS
 * cases do not depend on the type, and these compile fast. */
static void test_blas_nan(void)
{
    static const char *const prec[] = { "ozaki2", "ozaki1", "int8" };
    static const double bounds[] = { 3e-8, 6e-8, 7.9e-3 };
    enum { M = 8, N = 6, K = 64 };
    Gemm g = { .f32 = true, .M = M, .N = N, .K = K, .alpha = "2.0", .alpha_v = 2.0, .beta = "0.0", .beta_v = 0.0 };
    rng_seed(9);
    double *a = matrix(M * K, D_UNIFORM, true), *b = matrix(K * N, D_UNIFORM, true);
    double c[M * N];
    /* a static beta of 0 does not read C, which holds NaNs */
    for (int s = 0; s < 3; s++) {
        char opt[64];
        snprintf(opt, sizeof opt, "--contraction-precision=%s", prec[s]);
        const char *opts[] = { opt, "-Rpass=contraction-precision", NULL };
        for (int i = 0; i < M * N; i++)
            c[i] = NAN;
        char *rem = NULL;
        if (gemm_once(&g, opts, a, b, c, &rem)) {
            CU_ASSERT(has(rem, "remark: contraction-precision: GEMM: "));
            double e = gemm_error(&g, a, b, NULL, c);
            printf("\n    C = 2 A @ B + 0 C, C = NaN, %s: error %.3g", prec[s], e);
            CU_ASSERT(e <= bounds[s]);
        }
        free(rem);
    }

    /* a static alpha of 0 stays native and does not compute A @ B */
    Gemm z = { .f32 = true, .M = M, .N = N, .K = K, .alpha = "0.0", .alpha_v = 0.0, .beta = "1.0", .beta_v = 1.0 };
    for (int s = 0; s < 3; s++) {
        char opt[64];
        snprintf(opt, sizeof opt, "--contraction-precision=%s", prec[s]);
        const char *opts[] = { opt, "-Rpass-missed=contraction-precision", NULL };
        double an[M * K], c0[M * N];
        memcpy(an, a, sizeof an);
        an[3 * K + 5] = NAN;
        for (int i = 0; i < M * N; i++)
            c[i] = c0[i] = (float)uniform();
        char *rem = NULL;
        if (gemm_once(&z, opts, an, b, c, &rem)) {
            CU_ASSERT(has(rem, ".fx:2:"));
            CU_ASSERT(has(rem, "GEMM stays native: alpha is 0"));
            int bad = bit_mismatches("alpha = 0", M * N, c, c0);
            printf("\n    C = 0 A @ B + 1 C, NaN in A, %s: stays native, %d entries of C changed", prec[s], bad);
            CU_ASSERT_EQUAL(bad, 0);
        }
        free(rem);
    }

    /* a NaN (or an inf) in row 5 of A: NaN (non-finite) in row 5 of C only */
    static const char *const prec2[] = { "ozaki2", "int8", "ozaki1", "int8 direct" };
    Gemm m = { .f32 = true, .M = M, .N = N, .K = K };
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
        /* a zero row of A and a zero column of B (scale 0): exact zeros there */
        {
            double az[M * K], bz[K * N];
            memcpy(az, a, sizeof az);
            memcpy(bz, b, sizeof bz);
            for (int k = 0; k < K; k++) {
                az[2 * K + k] = 0;
                bz[k * N + 4] = 0;
            }
            for (int i = 0; i < M * N; i++)
                c[i] = NAN;
            gemm_run(&p, &m, az, bz, c);
            int nonzero = 0;
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++)
                    nonzero += (i == 2 || j == 4) && c[i * N + j] != 0;
            double e = gemm_error(&m, az, bz, NULL, c);
            printf("\n    zero row 2 of A, zero column 4 of B, %s: %d entries there not 0, error %.3g", prec2[s],
                   nonzero, e);
            CU_ASSERT_EQUAL(nonzero, 0);
            CU_ASSERT(e <= bounds[s == 3 ? 2 : s == 1 ? 2 : s == 2 ? 1 : 0]);
        }
        for (int inf = 0; inf < 2; inf++) {
            double an[M * K];
            memcpy(an, a, sizeof an);
            an[5 * K + 17] = inf ? -INFINITY : NAN;
            for (int i = 0; i < M * N; i++)
                c[i] = 0;
            gemm_run(&p, &m, an, b, c);
            int bad_row = 0, other_bad = 0;
            for (int i = 0; i < M; i++)
                for (int j = 0; j < N; j++) {
                    if (i == 5)
                        bad_row += inf ? !isfinite(c[i * N + j]) : isnan(c[i * N + j]) != 0;
                    else
                        other_bad += !isfinite(c[i * N + j]);
                }
            /* the other rows keep their accuracy */
            Gemm rest = m;
            rest.M = M - 1;
            double ar[(M - 1) * K], cr[(M - 1) * N];
            for (int i = 0, r = 0; i < M; i++)
                if (i != 5) {
                    memcpy(&ar[r * K], &a[i * K], sizeof(double) * K);
                    memcpy(&cr[r * N], &c[i * N], sizeof(double) * N);
                    r++;
                }
            double e = gemm_error(&rest, ar, b, NULL, cr);
            printf("\n    %s in A[5][17], %s: %d of %d entries of row 5 %s, %d non-finite elsewhere, error there %.3g",
                   inf ? "-inf" : "NaN", prec2[s], bad_row, N, inf ? "non-finite" : "NaN", other_bad, e);
            CU_ASSERT_EQUAL(bad_row, N);
            CU_ASSERT_EQUAL(other_bad, 0);
            CU_ASSERT(e <= bounds[s == 3 ? 2 : s == 1 ? 2 : s == 2 ? 1 : 0]);
        }
        prog_close(&p);
    }
    free(a);
    free(b);
}

/* ---- 5. the GEMM epilogue ---- */

/* C = 2 A @ B + 0.5 C (Float64 and Float32); in Float32 also other
 * coefficients with transposed and column-major operands, C included (the
 * combining map reads C in its own order). One program per type. */
static void test_epilogue(void)
{
    static const struct {
        const char *alpha, *beta;
        double av, bv;
        int layout;   /* -1: row-major */
    } forms[] = { { "2.0", "0.5", 2.0, 0.5, -1 }, { "-1.5", "2.0", -1.5, 2.0, 0 }, { "0.25", "-1.0", 0.25, -1.0, 7 } };
    for (int f = 0; f < 2; f++) {
        int n = f ? 3 : 1;
        Gemm gs[3];
        double *a[3], *b[3], *c0[3], *c[3];
        rng_seed(10);
        for (int x = 0; x < n; x++) {
            gs[x] = (Gemm){ .f32 = f == 1, .M = 16, .N = 16, .K = 256, .alpha = forms[x].alpha,
                            .alpha_v = forms[x].av, .beta = forms[x].beta, .beta_v = forms[x].bv };
            if (forms[x].layout >= 0) {
                apply(&gs[x], &layouts[forms[x].layout]);
                gs[x].cm_c = true;
            }
            a[x] = matrix(16 * 256, D_UNIFORM, gs[x].f32);
            b[x] = matrix(256 * 16, D_UNIFORM, gs[x].f32);
            c0[x] = matrix(16 * 16, D_UNIFORM, gs[x].f32);
            c[x] = malloc(sizeof(double) * 256);
            memcpy(c[x], c0[x], sizeof(double) * 256);
        }
        const char *opts[] = { "--contraction-precision=ozaki2", "-Rpass=contraction-precision", NULL };
        Prog p;
        char *rem = NULL;
        if (open_src(&p, multi_source(gs, n), opts, &rem)) {
            CU_ASSERT_EQUAL(count(rem, "GEMM: Ozaki-II"), n);
            multi_run(&p, gs, n, (const double *const *)a, (const double *const *)b, c);
            for (int x = 0; x < n; x++) {
                double e = gemm_error(&gs[x], a[x], b[x], c0[x], c[x]), bound = f ? 3e-8 : 2.2e-16;
                printf("\n    %s C = %s A%s @ B%s + %s C%s, ozaki2: error %.3g (bound %.2g)", f ? "Float32" : "Float64",
                       forms[x].alpha, gs[x].ta ? ".T" : "", gs[x].tb ? ".T" : "", forms[x].beta,
                       forms[x].layout >= 0 ? " (col_major C)" : "", e, bound);
                CU_ASSERT(e <= bound);
            }
        } else {
            CU_FAIL("compile");
        }
        prog_close(&p);
        free(rem);
        for (int x = 0; x < n; x++) {
            free(a[x]);
            free(b[x]);
            free(c0[x]);
            free(c[x]);
        }
    }
}

/* ---- two contractions in one program ---- */

/* A chain through a transient (T = A @ B, C = T @ D), and two statements
 * writing the same tensor (C = A @ B; C = 0.5 * A @ B + 1.0 * C), which
 * natively compile and run. */
static void test_two_contractions(void)
{
    enum { M = 8, K = 32, L = 16, N = 6 };
    rng_seed(13);
    double *a = matrix(M * K, D_UNIFORM, true), *b = matrix(K * L, D_UNIFORM, true);
    double *d = matrix(L * N, D_UNIFORM, true);
    const char *chain = "program g(A: Tensor[Float32, 8, 32], B: Tensor[Float32, 32, 16], D: Tensor[Float32, 16, 6], "
                        "C: Tensor[Float32, 8, 6]) {\n    let T = A @ B\n    C = T @ D\n}\n";
    const char *oz[] = { "--contraction-precision=ozaki2", "-Rpass=contraction-precision", NULL };
    Prog p;
    char *rem = NULL;
    if (open_src(&p, chain, oz, &rem)) {
        CU_ASSERT_EQUAL(count(rem, "MatMul: Ozaki-II"), 2);
        float fa[M * K], fb[K * L], fd[L * N], fc[M * N];
        for (int i = 0; i < M * K; i++)
            fa[i] = (float)a[i];
        for (int i = 0; i < K * L; i++)
            fb[i] = (float)b[i];
        for (int i = 0; i < L * N; i++)
            fd[i] = (float)d[i];
        void *pa = fa, *pb = fb, *pd = fd, *pc = fc;
        void *args[] = { &pa, &pb, &pd, &pc };
        CU_ASSERT(prog_run(&p, args));
        /* error relative to sum_l sum_k |A_ik B_kl D_lj|: each product adds its bound */
        double worst = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                quad ref = 0, den = 0;
                for (int l = 0; l < L; l++)
                    for (int k = 0; k < K; k++) {
                        quad t = (quad)a[i * K + k] * (quad)b[k * L + l] * (quad)d[l * N + j];
                        ref += t;
                        den += t < 0 ? -t : t;
                    }
                quad e = (quad)fc[i * N + j] - ref;
                double r = isfinite(fc[i * N + j]) ? (double)((e < 0 ? -e : e) / den) : INFINITY;
                worst = r > worst ? r : worst;
            }
        printf("\n    Float32 T = A @ B, C = T @ D, ozaki2: error %.3g (bound 6e-8)", worst);
        CU_ASSERT(worst <= 6e-8);
    } else {
        CU_FAIL("the chain does not compile under ozaki2");
    }
    prog_close(&p);
    free(rem);

    /* C written twice: C = 1.5 A @ B */
    const char *twice = "program g(A: Tensor[Float32, 8, 32], B: Tensor[Float32, 32, 16], "
                        "C: Tensor[Float32, 8, 16]) {\n"
                        "    C = A @ B\n    C = 0.5 * A @ B + 1.0 * C\n}\n";
    Gemm g = { .f32 = true, .M = M, .N = L, .K = K, .alpha = "1.5", .alpha_v = 1.5 };   /* for the error */
    static const char *const precs[] = { "native", "int8", "ozaki2:3" };
    for (int s = 0; s < 3; s++) {
        char opt[64];
        snprintf(opt, sizeof opt, "--contraction-precision=%s", precs[s]);
        const char *opts[] = { opt, NULL };
        double c[M * L] = { 0 };
        bool ok = open_src(&p, twice, opts, NULL);
        if (ok) {
            gemm_run(&p, &g, a, b, c);
            double e = gemm_error(&g, a, b, NULL, c);
            printf("\n    Float32 C = A @ B; C = 0.5 * A @ B + 1.0 * C, %s: error %.3g", precs[s], e);
            CU_ASSERT(e <= 7.9e-3);
        } else {
            printf("\n    Float32 C = A @ B; C = 0.5 * A @ B + 1.0 * C, %s: does not compile", precs[s]);
            CU_FAIL("two contractions writing one tensor do not compile");
        }
        prog_close(&p);
    }
    free(a);
    free(b);
    free(d);
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
    /* 2 slices (3 Int8 matmuls) keep the run short: 1.0 is one slice of 64 */
    const char *oz1[] = { "--contraction-precision=ozaki1:2", NULL };
    c[0] = 0;
    g.f32 = false;
    if (gemm_once(&g, oz1, a, b, c, NULL)) {
        printf("\n    ozaki1:2 Float64 ones, K = %d: %.17g", K8, c[0]);
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
        "program ra(A: Tensor[Float64, 16, 64], B: Tensor[Float64, 64, 16], C: Tensor[Float64, 16, 16], "
        "alpha: Float64) {\n"
        "    C = alpha * A @ B\n"
        "}\n"
        "program rb(A: Tensor[Float32, 16, 64], B: Tensor[Float32, 64, 16], C: Tensor[Float32, 16, 16], "
        "beta: Float32) {\n"
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
        for (const char *r = rem; s == 0 && (r = strstr(r, ".fx:")); r++)   /* each remark's first line */
            printf("\n    %.*s", (int)strcspn(r, "\n"), r);
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

/* ---- the BFloat16 schemes ---- */

/* x rounded to the nearest BFloat16, ties to even (x finite) */
static float bf16_rn(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    u = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
    memcpy(&x, &u, 4);
    return x;
}

/* x's three BFloat16 terms, as docs/contraction.md specifies them; false
 * when they do not sum to x (three terms hold all 24 bits) */
static bool bf16_terms(float x, float t[3])
{
    for (int k = 0; k < 3; k++) {
        t[k] = bf16_rn(x);
        x -= t[k];
    }
    return x == 0.0f;
}

static int row_exponent(const double *x, int n, int stride)
{
    double mx = 0;
    for (int k = 0; k < n; k++)
        mx = fmax(mx, fabs(x[(size_t)k * (size_t)stride]));
    return frexp_exp(mx);
}

/* What bf16x9 (nprod 9) or bf16x6 computes, bit for bit: rows of A and
 * columns of B scaled by 2^-e, split into three terms each, the products
 * of terms t, u as fma chains in k order, summed from t + u = 4 (or 2)
 * down to 0, t ascending, and scaled back. */
static void bf16_scheme_ref(const Gemm *g, int nprod, const double *a, const double *b, double *want)
{
    int M = g->M, N = g->N, K = g->K;
    float(*at)[3] = malloc(sizeof *at * (size_t)(M * K)), (*bt)[3] = malloc(sizeof *bt * (size_t)(K * N));
    int *e = malloc(sizeof(int) * (size_t)M), *f = malloc(sizeof(int) * (size_t)N), inexact = 0;
    for (int i = 0; i < M; i++) {
        e[i] = row_exponent(a + (size_t)i * (size_t)K, K, 1);
        for (int k = 0; k < K; k++)
            inexact += !bf16_terms(ldexpf((float)a[i * K + k], -e[i]), at[i * K + k]);
    }
    for (int j = 0; j < N; j++) {
        f[j] = row_exponent(b + j, K, N);
        for (int k = 0; k < K; k++)
            inexact += !bf16_terms(ldexpf((float)b[k * N + j], -f[j]), bt[k * N + j]);
    }
    CU_ASSERT_EQUAL(inexact, 0);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float y = 0;
            bool first = true;
            for (int d = nprod == 9 ? 4 : 2; d >= 0; d--)
                for (int t = 0; t < 3; t++) {
                    int u = d - t;
                    if (u < 0 || u > 2)
                        continue;
                    float acc = 0;
                    for (int k = 0; k < K; k++)
                        acc = fmaf(at[i * K + k][t], bt[k * N + j][u], acc);
                    y = first ? acc : y + acc;
                    first = false;
                }
            want[i * N + j] = (double)ldexpf(y, e[i] + f[j]);
        }
    free(at);
    free(bt);
    free(e);
    free(f);
}

/* bf16x9 and bf16x6 on Float32: bit for bit what docs/contraction.md says
 * (on every layout); bf16x9 at most native Float32's error and bf16x6 at
 * most twice it, on uniform, normal and [0, 1) data with K = 256 and 1024. */
static void test_bf16_schemes(void)
{
    for (int K = 256; K <= 1024; K *= 4) {
        Gemm g = { .f32 = true, .M = 16, .N = 24, .K = K };
        Prog p[3];   /* native, bf16x9, bf16x6 */
        bool ok[3];
        for (int s = 0; s < 3; s++) {
            char opt[64], remark[64], *rem = NULL;
            snprintf(opt, sizeof opt, "--contraction-precision=%s", s == 0 ? "native" : s == 1 ? "bf16x9" : "bf16x6");
            snprintf(remark, sizeof remark, "bf16x%d, %d BFloat16 matmuls into Float32", s == 1 ? 9 : 6, s == 1 ? 9 : 6);
            const char *opts[] = { opt, "-Rpass=contraction-precision", NULL };
            ok[s] = open_src(&p[s], gemm_source(&g), opts, &rem);
            CU_ASSERT(ok[s] && (s == 0 || has(rem, remark)));
            free(rem);
        }
        for (int d = 0; d < 3 && ok[0] && ok[1] && ok[2]; d++) {
            rng_seed(300 + (uint64_t)(10 * K + d));
            double *a = matrix(g.M * g.K, (Dist)d, true), *b = matrix(g.K * g.N, (Dist)d, true), native = 0;
            double *c = calloc((size_t)(g.M * g.N), sizeof(double)), *want = malloc(sizeof(double) * (size_t)(g.M * g.N));
            for (int s = 0; s < 3; s++) {
                int nprod = s == 1 ? 9 : 6;
                CU_ASSERT(gemm_run(&p[s], &g, a, b, c));
                double err = gemm_error(&g, a, b, NULL, c);
                if (s == 0) {
                    native = err;
                    continue;
                }
                bf16_scheme_ref(&g, nprod, a, b, want);
                CU_ASSERT_EQUAL(bit_mismatches(s == 1 ? "bf16x9" : "bf16x6", g.M * g.N, c, want), 0);
                printf("\n    bf16x%d K = %4d %-7s: error %.3g, native %.3g", nprod, K, dist_name[d], err, native);
                CU_ASSERT(err <= (nprod == 9 ? native : 2 * native));
            }
            free(a);
            free(b);
            free(c);
            free(want);
        }
        for (int s = 0; s < 3; s++)
            prog_close(&p[s]);
    }
}

/* bf16x9 with transposed and column-major operands: the row-major bits */
static void test_bf16_layouts(void)
{
    Gemm g = { .f32 = true, .M = 20, .N = 18, .K = 70 }, gs[NL + 1];
    rng_seed(17);
    double *a = matrix(g.M * g.K, D_NORMAL, true), *b = matrix(g.K * g.N, D_UNIFORM, true);
    double *want = malloc(sizeof(double) * (size_t)(g.M * g.N));
    bf16_scheme_ref(&g, 9, a, b, want);
    const char *opts[] = { "--contraction-precision=bf16x9", "-Rpass=contraction-precision", NULL };
    double **c = layouts_run(&g, some_layouts, NSOME, opts, a, b, "bf16x9, 9 BFloat16 matmuls", gs);
    for (int x = 0; x <= NSOME; x++) {
        CU_ASSERT_EQUAL(bit_mismatches(x ? layouts[some_layouts[x - 1]].name : "row-major", g.M * g.N, c[x], want), 0);
        free(c[x]);
    }
    free(c);
    free(a);
    free(b);
    free(want);
}

/* The guard of the BFloat16 schemes: a result far below its row's and
 * column's largest products (here 2^-139 against 1) loses its terms to
 * underflow (2^-141 is below BFloat16's smallest subnormal), so that result
 * runs natively; on ordinary data nothing falls back. */
static void test_bf16_guard(void)
{
    static const char *src = "program g(A: Tensor[Float32, 2, 2], B: Tensor[Float32, 2, 2], C: Tensor[Float32, 2, 2]) "
                             "{\n    C = A @ B\n}\n";
    float tiny = ldexpf(1, -140), A[4] = { 1, tiny, 0.5f, 0.25f }, B[4] = { tiny, 1, 1, 0.75f }, C[4];
    void *pa = A, *pb = B, *pc = C;
    void *args[] = { &pa, &pb, &pc };
    for (int guarded = 0; guarded < 2; guarded++) {
        const char *opts[] = { "--contraction-precision=bf16x9", guarded ? "--contraction-guard=fallback" : NULL,
                               NULL };
        Prog p;
        CU_ASSERT_FATAL(open_src(&p, src, opts, NULL));
        for (int benign = 0; benign < 2; benign++) {
            A[1] = B[0] = benign ? 0.125f : tiny;
            RtRunReport report = { 0 };
            char *err = NULL;
            CU_ASSERT(rt_program_run_report(p.hm, p.plan, args, &report, &err) == 0);
            float want = benign ? 0.25f : ldexpf(1, -139);
            bool fell_back = report.notes && has(report.notes, "ran natively: 1 of its results are below 2^-75");
            /* unguarded, the tiny result is lost; guarded, it runs natively */
            CU_ASSERT_EQUAL(C[0] == want, benign || guarded);
            CU_ASSERT_EQUAL(fell_back, guarded && !benign);
            CU_ASSERT_EQUAL(C[1], 1.0f + A[1] * 0.75f);
            if (report.notes && !fell_back)
                fprintf(stderr, "\n  unexpected note: %s", report.notes);
            rt_run_report_free(&report);
            free(err);
        }
        prog_close(&p);
    }
}

/* bf16x9 with BLAS zeros and non-finite values, as the Int8 schemes: a
 * static beta of 0 does not read C (NaNs); a zero row of A and a zero
 * column of B give exact zeros; a NaN or -inf in row 5 of A gives NaN in
 * row 5 of C only, the other rows keep their accuracy. */
static void test_bf16_specials(void)
{
    enum { M = 8, N = 6, K = 64 };
    rng_seed(19);
    double *a = matrix(M * K, D_UNIFORM, true), *b = matrix(K * N, D_UNIFORM, true), c[M * N], an[M * K];
    const char *opts[] = { "--contraction-precision=bf16x9", NULL };
    Gemm g = { .f32 = true, .M = M, .N = N, .K = K, .alpha = "2.0", .alpha_v = 2.0, .beta = "0.0", .beta_v = 0.0 };
    for (int i = 0; i < M * N; i++)
        c[i] = NAN;
    CU_ASSERT(gemm_once(&g, opts, a, b, c, NULL));
    CU_ASSERT(gemm_error(&g, a, b, NULL, c) <= 3e-7);
    Gemm m = { .f32 = true, .M = M, .N = N, .K = K };
    for (int v = 0; v < 3; v++) {
        double bz[K * N];
        memcpy(an, a, sizeof an);
        memcpy(bz, b, sizeof bz);
        if (v == 0)
            for (int k = 0; k < K; k++)
                an[2 * K + k] = bz[k * N + 4] = 0;
        else
            an[5 * K + 17] = v == 1 ? NAN : -INFINITY;
        CU_ASSERT(gemm_once(&m, opts, an, bz, c, NULL));
        int wrong = 0;
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                double x = c[i * N + j];
                if (v == 0)
                    wrong += (i == 2 || j == 4) ? x != 0 : !isfinite(x);
                else
                    wrong += i == 5 ? !isnan(x) : !isfinite(x);
            }
        CU_ASSERT_EQUAL(wrong, 0);
        if (v == 0)
            CU_ASSERT(gemm_error(&m, an, bz, NULL, c) <= 3e-7);
    }
    free(a);
    free(b);
}

/* Float64 has no BFloat16 scheme: under the option it stays native with a
 * remark; a program asking for one with its decorator is an error (the
 * golden diagnostic contraction_bf16_float64). */
static void test_bf16_float64(void)
{
    Gemm g = { .M = 4, .N = 4, .K = 8 };
    const char *opts[] = { "--contraction-precision=bf16x6", "-Rpass-missed=contraction-precision", NULL };
    char *rem = lower_remarks(gemm_source(&g), opts);
    CU_ASSERT(has(rem, "MatMul stays native: its type is Float64; bf16x6 splits Float32 operands into BFloat16 terms"));
    free(rem);
}

/* The promise of docs/contraction.md ("Bit-reproducible results"): a
 * scheme's result does not depend on where it runs. The Int8 products are
 * exact in Int32 whatever the order of their sums, and every other step is
 * elementwise, so the host's FMA tiles, each processor's matrix-core tiles
 * (its wave model) and one or two worker threads give the same bits. Edges
 * in every dimension, K over several slices, B transposed. */
static void test_reproducible(void)
{
    static const char *const archs[] = { NULL, "gfx90a", "gfx942", "gfx1100", "gfx1201" };
    static const char *const precs[] = { "ozaki2", "ozaki1", "int8" };
    enum { NARCH = sizeof archs / sizeof archs[0], NPREC = sizeof precs / sizeof precs[0] };
    for (int f32 = 0; f32 < 2; f32++) {
        Gemm g = { .f32 = f32, .M = 37, .N = 29, .K = 300, .tb = true };
        rng_seed(61 + (uint64_t)f32);
        double *a = matrix(g.M * g.K, D_NORMAL, g.f32), *b = matrix(g.K * g.N, D_UNIFORM, g.f32);
        size_t nc = (size_t)(g.M * g.N);
        double *first = malloc(sizeof(double) * nc), *c = malloc(sizeof(double) * nc);
        for (int pr = 0; pr < NPREC; pr++) {
            char opt[64], what[96];
            snprintf(opt, sizeof opt, "--contraction-precision=%s", precs[pr]);
            const char *opts[] = { opt, NULL };
            for (int x = 0; x < NARCH; x++) {
                prog_wave_arch = archs[x];
                Prog p;
                bool ok = open_src(&p, gemm_source(&g), opts, NULL);
                CU_ASSERT(ok);
                for (unsigned threads = 1; ok && threads <= 2; threads++) {
                    rt_host_set_threads(threads);
                    memset(c, 0, sizeof(double) * nc);
                    if (!gemm_run(&p, &g, a, b, c))
                        break;
                    snprintf(what, sizeof what, "%s %s on %s, %u thread%s", f32 ? "Float32" : "Float64", precs[pr],
                             archs[x] ? archs[x] : "the host", threads, threads > 1 ? "s" : "");
                    if (x == 0 && threads == 1)
                        memcpy(first, c, sizeof(double) * nc);
                    else
                        CU_ASSERT_EQUAL(bit_mismatches(what, (int)nc, c, first), 0);
                }
                prog_close(&p);
            }
            prog_wave_arch = NULL;
            rt_host_set_threads(0);
        }
        free(a);
        free(b);
        free(first);
        free(c);
    }
}

/* C for g on arch (NULL: the host) compiled with opts; the remarks in *rem. */
static bool run_on(const char *arch, const Gemm *g, const char *const *opts, const double *a, const double *b,
                   double *c, char **rem)
{
    prog_wave_arch = arch;
    memset(c, 0, sizeof(double) * (size_t)(g->M * g->N));
    bool ok = gemm_once(g, opts, a, b, c, rem);
    prog_wave_arch = NULL;
    return ok;
}

/* --contraction-precision=auto (docs/contraction.md): per target, native or
 * guarded Ozaki-II, whichever the throughput figures estimate faster. Float64
 * with K = 1024 and run-time M and N (estimated as 1024 each): the RDNA
 * processors, whose Float64 is 1/32 of their Float32 vector rate and which
 * have Int8 WMMA, take Ozaki-II and give its guarded result bit for bit;
 * CDNA2 and CDNA3 with their Float64 MFMA keep native, as does the host.
 * Float32 stays native everywhere. */
static void test_auto(void)
{
    static const char *const archs[] = { NULL, "gfx90a", "gfx942", "gfx1100", "gfx1201" };
    for (int f32 = 0; f32 < 2; f32++) {
        Gemm g = { .f32 = f32, .M = 8, .N = 8, .K = 1024, .sym = true };
        rng_seed(71);
        double *a = matrix(g.M * g.K, D_NORMAL, g.f32), *b = matrix(g.K * g.N, D_UNIFORM, g.f32);
        size_t nc = (size_t)(g.M * g.N);
        double *got = malloc(sizeof(double) * nc), *want = malloc(sizeof(double) * nc);
        for (size_t x = 0; x < sizeof archs / sizeof archs[0]; x++) {
            bool ozaki = !f32 && archs[x] && archs[x][3] == '1';
            const char *opts[] = { "--contraction-precision=auto", "-Rpass=contraction-precision",
                                   "-Rpass-missed=contraction-precision", NULL };
            const char *explicit_opts[] = { ozaki ? "--contraction-precision=ozaki2" : "--contraction-precision=native",
                                            "--contraction-guard=fallback", NULL };
            char *rem = NULL;
            CU_ASSERT(run_on(archs[x], &g, opts, a, b, got, &rem));
            CU_ASSERT(run_on(archs[x], &g, explicit_opts, a, b, want, NULL));
            char what[64];
            snprintf(what, sizeof what, "%s auto on %s", f32 ? "Float32" : "Float64", archs[x] ? archs[x] : "host");
            CU_ASSERT_EQUAL(bit_mismatches(what, (int)nc, got, want), 0);
            bool said = archs[x] ? has(rem, ozaki ? "; takes Ozaki-II, 16 Int8 matmuls" : "; keeps native") &&
                                       has(rem, "(a run-time M or N counted as 1024): native ")
                                 : has(rem, "stays native: auto keeps native on the host, which has no matrix unit");
            CU_ASSERT(said);
            free(rem);
        }
        free(a);
        free(b);
        free(got);
        free(want);
    }
}

/* The program's decorator takes precedence over the command line's auto,
 * as over every other value; a decorator may ask for auto itself. */
static void test_auto_precedence(void)
{
    Gemm g = { .M = 4, .N = 4, .K = 512, .annot = "ozaki2:3" };
    const char *opts[] = { "--contraction-precision=auto", "-Rpass=contraction-precision", NULL };
    prog_wave_arch = "gfx942";
    char *rem = lower_remarks(gemm_source(&g), opts);
    CU_ASSERT(has(rem, "MatMul: Ozaki-II, 3 Int8 matmuls"));
    free(rem);
    g.annot = "auto";
    const char *native_opts[] = { "-Rpass=contraction-precision", NULL };
    rem = lower_remarks(gemm_source(&g), native_opts);
    CU_ASSERT(has(rem, "MatMul: auto on gfx942, estimated CU-cycles: native "));
    free(rem);
    prog_wave_arch = NULL;
}

/* ---- --contraction-guard=adapt ---- */

/* C = A @ B with M = N = 8, K = 256, compiled by p for f32 or Float64: run
 * once on a and b; the run's notes in *notes. */
static bool adapt_exec(Prog *p, bool f32, const double *a, const double *b, double *c, char **notes)
{
    size_t eb = f32 ? 4 : 8;
    void *pa = malloc(eb * 8 * 256), *pb = malloc(eb * 256 * 8), *pc = calloc(64, eb);
    for (int i = 0; i < 8 * 256; i++) {
        put(pa, (size_t)i, a[i], f32);
        put(pb, (size_t)i, b[i], f32);
    }
    void *args[] = { &pa, &pb, &pc };
    RtRunReport report = { 0 };
    char *err = NULL;
    bool ok = rt_program_run_report(p->hm, p->plan, args, &report, &err) == 0;
    for (int i = 0; i < 64; i++)
        c[i] = get(pc, (size_t)i, f32);
    if (notes)
        *notes = strdup(report.notes ? report.notes : "");
    rt_run_report_free(&report);
    free(err);
    free(pa);
    free(pb);
    free(pc);
    return ok;
}

static bool adapt_once(bool f32, const char *precision, const double *a, const double *b, double *c)
{
    Gemm g = { .f32 = f32, .M = 8, .N = 8, .K = 256 };
    const char *opts[] = { precision, NULL };
    memset(c, 0, sizeof(double) * 64);
    return gemm_once(&g, opts, a, b, c, NULL);
}

/* The count the adaptive run says it took (0: it ran natively). */
static int adapt_count(const char *notes, const char *scheme)
{
    char key[32];
    snprintf(key, sizeof key, "ran %s with ", scheme);
    const char *at = strstr(notes, key);
    return at ? atoi(at + strlen(key)) : 0;
}

/* Column k of A scaled by 2^s_k and row k of B by 2^-s_k, s_k in
 * [-span/2, span/2]: the products stay balanced while each row of A and
 * column of B spans 2^span, so each result needs about span bits more. */
static void adapt_data(double *a, double *b, int span, bool f32)
{
    for (int k = 0; k < 256; k++) {
        int s = (int)(rng_next() % (uint64_t)(span + 1)) - span / 2;
        for (int i = 0; i < 8; i++) {
            double x = ldexp(uniform(), s), y = ldexp(uniform(), -s);
            a[i * 256 + k] = f32 ? (double)(float)x : x;
            b[k * 8 + i] = f32 ? (double)(float)y : y;
        }
    }
}

/* adapt runs the fewest moduli (slices) its results need, bit for bit what
 * the explicit count computes, within native's error where the default
 * count is not; beyond the largest count it runs natively. */
static void test_adapt_scheme(const char *scheme, const char *flag, bool f32, int widest)
{
    const char *opts[] = { flag, "--contraction-guard=adapt", NULL };
    Gemm g = { .f32 = f32, .M = 8, .N = 8, .K = 256 };
    Prog p;
    CU_ASSERT_FATAL(open_src(&p, gemm_source(&g), opts, NULL));
    double *a = malloc(sizeof(double) * 2048), *b = malloc(sizeof(double) * 2048);
    double c[64], want[64], native[64];
    const int spans[] = { 0, widest / 2, widest };
    int first = 0, last = 0;
    for (size_t k = 0; k < sizeof spans / sizeof spans[0]; k++) {
        rng_seed(81 + k);
        adapt_data(a, b, spans[k], f32);
        char *notes;
        CU_ASSERT(adapt_exec(&p, f32, a, b, c, &notes));
        int n = adapt_count(notes, scheme);
        char expl[48], what[96];
        if (n)
            snprintf(expl, sizeof expl, "--contraction-precision=%s:%d", strcmp(scheme, "Ozaki-I") ? "ozaki2" : "ozaki1",
                     n);
        else
            snprintf(expl, sizeof expl, "--contraction-precision=native");
        CU_ASSERT(adapt_once(f32, expl, a, b, want));
        CU_ASSERT(adapt_once(f32, "--contraction-precision=native", a, b, native));
        snprintf(what, sizeof what, "%s %s adapt, span 2^%d", f32 ? "Float32" : "Float64", scheme, spans[k]);
        CU_ASSERT(n > 0 && n >= last);   /* wider rows never need fewer */
        CU_ASSERT_EQUAL(bit_mismatches(what, 64, c, want), 0);
        double e = gemm_error(&g, a, b, NULL, c), en = gemm_error(&g, a, b, NULL, native);
        if (!(e <= en))
            fprintf(stderr, "\n  %s: error %.3g, native %.3g\n  %s", what, e, en, notes);
        CU_ASSERT(e <= en);
        printf("\n    %s: %d, error %.2e, native %.2e", what, n, e, en);
        first = k ? first : n;
        last = n;
        free(notes);
    }
    CU_ASSERT(last > first);   /* the widest took more than the benign data */
    /* a result far below its row's largest product: no count keeps its bits */
    memset(a, 0, sizeof(double) * 2048);
    memset(b, 0, sizeof(double) * 2048);
    a[0] = b[1 * 8 + 1] = b[0 * 8 + 0] = 1;
    a[1] = ldexp(1, f32 ? -120 : -600);   /* C[0][1] = 2^-600 (2^-120), C[0][0] = 1 */
    char *notes;
    CU_ASSERT(adapt_exec(&p, f32, a, b, c, &notes));
    CU_ASSERT(has(notes, "ran natively: its results need more than the"));
    CU_ASSERT(adapt_once(f32, "--contraction-precision=native", a, b, want));
    CU_ASSERT_EQUAL(bit_mismatches("adapt beyond the largest count", 64, c, want), 0);
    free(notes);
    prog_close(&p);
    free(a);
    free(b);
}

/* Ozaki-II keeps up to about 114 bits (32 moduli), Ozaki-I 83 (12 slices) */
static void test_adapt_ozaki2_f64(void) { test_adapt_scheme("Ozaki-II", "--contraction-precision=ozaki", false, 48); }
static void test_adapt_ozaki2_f32(void) { test_adapt_scheme("Ozaki-II", "--contraction-precision=ozaki", true, 48); }
static void test_adapt_ozaki1_f64(void) { test_adapt_scheme("Ozaki-I", "--contraction-precision=ozaki1", false, 24); }

static const FxtTest tests[] = {
    { "ozaki2_exact_integer_product", test_ozaki2_exact },
    { "accuracy_float32_k256", test_accuracy32_256 },
    { "accuracy_float32_k1024", test_accuracy32_1024 },
    { "accuracy_float64_k256", test_accuracy64_256 },
    { "accuracy_float64_k1024", test_accuracy64_1024 },
    { "layouts_ozaki2_bit_identical", test_layouts_exact },
    { "layouts_within_bounds", test_layouts_bounds },
    { "blas_zeros_and_nans", test_blas_nan },
    { "gemm_epilogue", test_epilogue },
    { "two_contractions_in_a_program", test_two_contractions },
    { "k_limit", test_k_limit },
    { "direct_rescaling_overflow", test_direct_overflow },
    { "requirements_remarks", test_remarks },
    { "program_precision", test_program_precision },
    { NULL, NULL },
};

/* ---- xf32 ---- */

/* C = A @ B as --contraction-precision=xf32 computes it: one Float32 fma
 * chain in k order over the xf32 inputs (their products are exact). */
static void xf32_ref(const Gemm *g, const double *a, const double *b, double *want)
{
    for (int i = 0; i < g->M; i++)
        for (int j = 0; j < g->N; j++) {
            float s = 0.0f;
            for (int k = 0; k < g->K; k++)
                s = fmaf(fxt_xf32(a[i * g->K + k]), fxt_xf32(b[k * g->N + j]), s);
            want[i * g->N + j] = s;
        }
}

/* Compiling for arch (NULL: the host) fails with a diagnostic holding needle. */
static void fails_with(const char *arch, const char *src, const char *const *opts, const char *needle)
{
    Prog p;
    prog_wave_arch = arch;
    fxt_capture_begin();
    bool ok = prog_lower(&p, src, NULL, true, opts);
    char *r = fxt_capture_end();
    prog_wave_arch = NULL;
    CU_ASSERT(!ok);
    CU_ASSERT(has(r, needle));
    if (ok || !has(r, needle))
        fprintf(stderr, "\n  %s: wanted an error with \"%s\", got:\n%s", arch ? arch : "host", needle, r);
    prog_close(&p);
    free(r);
}

/* --contraction-precision=xf32 (docs/contraction.md): on gfx942's wave model
 * every result is the xf32 fma chain bit for bit, in every layout, from the
 * option and from the decorator, with run-time M and N too; the inputs' 24-bit
 * significands make that differ from native Float32. Where the instruction
 * is missing (the host, gfx1100) it is an error at the contraction, as is a
 * Float64 contraction under the decorator; under the option a Float64 one
 * stays native. */
static void test_xf32(void)
{
    Gemm g = { .f32 = true, .M = 37, .N = 29, .K = 100 };
    rng_seed(83);
    double *a = matrix(g.M * g.K, D_NORMAL, true), *b = matrix(g.K * g.N, D_UNIFORM, true);
    double *want = malloc(sizeof(double) * (size_t)(g.M * g.N)), *c = malloc(sizeof(double) * (size_t)(g.M * g.N));
    xf32_ref(&g, a, b, want);
    const char *opts[] = { "--contraction-precision=xf32", "-Rpass=contraction-precision", NULL };
    Gemm gs[NSOME + 1];
    prog_wave_arch = "gfx942";
    double **cl = layouts_run(&g, some_layouts, NSOME, opts, a, b, "xf32 products (v_mfma_f32_16x16x8_xf32)", gs);
    prog_wave_arch = NULL;
    for (int x = 0; x <= NSOME; x++) {
        CU_ASSERT_EQUAL(bit_mismatches(x ? layouts[some_layouts[x - 1]].name : "row-major", g.M * g.N, cl[x], want), 0);
        free(cl[x]);
    }
    free(cl);
    Gemm d = g;
    d.annot = "xf32";
    d.sym = true;
    CU_ASSERT(run_on("gfx942", &d, NULL, a, b, c, NULL));
    CU_ASSERT_EQUAL(bit_mismatches("decorator, run-time M and N", g.M * g.N, c, want), 0);
    const char *native_opts[] = { NULL };
    CU_ASSERT(run_on("gfx942", &g, native_opts, a, b, c, NULL));
    int differ = 0;
    for (int i = 0; i < g.M * g.N; i++)
        differ += c[i] != want[i];
    CU_ASSERT(differ > g.M * g.N / 2);   /* native Float32 is another computation */
    const char *missing = "xf32 needs v_mfma_f32_16x16x8_xf32 (gfx940, gfx941, gfx942), which ";
    fails_with(NULL, gemm_source(&d), NULL, missing);
    fails_with("gfx1100", gemm_source(&g), opts, missing);
    Gemm g64 = { .M = 4, .N = 4, .K = 8, .annot = "xf32" };
    fails_with("gfx942", gemm_source(&g64), NULL, "reads Float32 operands as xf32, but this MatMul is Float64");
    g64.annot = NULL;
    const char *missed[] = { "--contraction-precision=xf32", "-Rpass-missed=contraction-precision", NULL };
    prog_wave_arch = "gfx942";
    char *rem = lower_remarks(gemm_source(&g64), missed);
    prog_wave_arch = NULL;
    CU_ASSERT(has(rem, "MatMul stays native: xf32 is for Float32 contractions"));
    free(rem);
    free(a);
    free(b);
    free(want);
    free(c);
}

static const FxtTest xf32_tests[] = {
    { "xf32 on gfx942: the xf32 fma chain bit for bit; located errors elsewhere", test_xf32 },
    { NULL, NULL },
};

static const FxtTest bf16_tests[] = {
    { "bf16x9_bf16x6_bits_and_accuracy", test_bf16_schemes },
    { "bf16x9_layouts_bit_identical", test_bf16_layouts },
    { "bf16_schemes_float64_stays_native", test_bf16_float64 },
    { "bf16_guard_falls_back_where_terms_underflow", test_bf16_guard },
    { "bf16x9_blas_zeros_nans_infs", test_bf16_specials },
    { NULL, NULL },
};

static const FxtTest auto_tests[] = {
    { "auto takes Ozaki-II on RDNA and keeps native on CDNA and the host", test_auto },
    { "a program's decorator takes precedence over auto", test_auto_precedence },
    { NULL, NULL },
};

static const FxtTest adapt_tests[] = {
    { "Float64 Ozaki-II: the fewest moduli the results need", test_adapt_ozaki2_f64 },
    { "Float32 Ozaki-II: the fewest moduli the results need", test_adapt_ozaki2_f32 },
    { "Float64 Ozaki-I: the fewest slices the results need", test_adapt_ozaki1_f64 },
    { NULL, NULL },
};

static const FxtTest reproducible_tests[] = {
    { "the same bits on the host, under each wave model, with 1 and 2 threads", test_reproducible },
    { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "contraction", tests, NULL, NULL },
    { "bf16", bf16_tests, NULL, NULL },
    { "reproducible", reproducible_tests, NULL, NULL },
    { "auto", auto_tests, NULL, NULL },
    { "adapt", adapt_tests, NULL, NULL },
    { "xf32", xf32_tests, NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
