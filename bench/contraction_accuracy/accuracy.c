/* accuracy.c - the accuracy of every contraction precision (seed 003),
 * measured on the compiler's own kernels run through libfxrt on the host.
 *
 * For Float32 and Float64, six data sets (uniform[-1, 1), normal, the
 * non-negative uniform[0, 1) and |normal|, the wide range log-normal with
 * sigma = 4, and uniform with column k of A scaled by 2^s_k and row k of B
 * by 2^-s_k, s_k uniform in [-24, 24]: products stay balanced while every
 * row of A and column of B spans 2^48),
 * K = 256, 1024, 4096 and M = N = 128, each scheme computes
 * C = A @ B; the error is max over (i, j) of |C - Cref| / sum_k |A_ik B_kj|
 * with Cref summed in binary128 (__float128: products of two doubles are
 * exact there, the sum is good to 2^-113). Writes results.md (a table per
 * type) and results.dat (one row per run, for plot.gp).
 *
 *   accuracy [--quick] [--guard] [--type Float32|Float64] [--scheme NAME] [OUTDIR]
 * --quick: K = 256 only, fewer schemes (a smoke run); --guard also runs each
 * Ozaki and BFloat16 scheme with --contraction-guard=fallback. The BFloat16
 * schemes (bf16x9, bf16x6) take Float32 only; their column counts
 * BFloat16 matmuls. The auto rows compile with --contraction-precision=auto
 * for one processor each and run on its wave model (fxrun --arch), with M
 * and N as run-time dimensions (a library GEMM: auto estimates them as
 * 1024); their column gives the Int8 matmuls auto chose at each K (0:
 * native). The xf32 row (Float32 only) compiles with
 * --contraction-precision=xf32 for gfx942 and runs on its wave model, whose
 * xf32 instruction reads each input with 10 significand bits.
 *
 * --scheme NAME keeps the rows whose name begins with NAME, and native. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "driver/pipeline.h"
#include "runtime/fxrt_program.h"

enum { M = 128, N = 128 };

typedef struct Scheme {
    const char *name;       /* as the table shows it */
    const char *precision;  /* --contraction-precision */
    bool direct;            /* --quantize-rescaling=direct */
    int matmuls;            /* Int8 matmuls (1 for native: one Float matmul; bf16: BFloat16 matmuls) */
    const char *family;     /* the plot's curve */
    const char *arch;       /* auto, xf32: the processor whose wave model runs it */
    bool adapt;             /* --contraction-guard=adapt */
} Scheme;

static Scheme schemes[64];
static int nschemes;

static void add_scheme(const char *name, const char *precision, bool direct, int matmuls, const char *family)
{
    schemes[nschemes++] = (Scheme){ strdup(name), strdup(precision), direct, matmuls, family, NULL, false };
}

static void make_schemes(bool quick)
{
    char n[32], p[32];
    add_scheme("native", "native", false, 1, "native");
    add_scheme("int8", "int8", false, 1, "int8");
    add_scheme("int8 direct", "int8", true, 1, "int8-direct");
    for (int s = 2; s <= 10; s += quick ? 4 : 1) {
        snprintf(n, sizeof n, "ozaki1 s=%d", s);
        snprintf(p, sizeof p, "ozaki1:%d", s);
        add_scheme(n, p, false, s * (s + 1) / 2, "ozaki1");
    }
    for (int L = 4; L <= 20; L += quick ? 8 : 1) {
        snprintf(n, sizeof n, "ozaki2 L=%d", L);
        snprintf(p, sizeof p, "ozaki2:%d", L);
        add_scheme(n, p, false, L, "ozaki2");
    }
    add_scheme("ozaki1 default", "ozaki1", false, 0, "default");
    add_scheme("ozaki2 default", "ozaki", false, 0, "default");
    add_scheme("bf16x9", "bf16x9", false, 9, "bf16");
    add_scheme("bf16x6", "bf16x6", false, 6, "bf16");
    add_scheme("ozaki2 adapt", "ozaki", false, 0, "adapt");
    schemes[nschemes - 1].adapt = true;
    add_scheme("ozaki1 adapt", "ozaki1", false, 0, "adapt");
    schemes[nschemes - 1].adapt = true;
    static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };
    for (int a = 0; a < 4; a++) {
        snprintf(n, sizeof n, "auto %s", archs[a]);
        add_scheme(n, "auto", false, 0, "auto");
        schemes[nschemes - 1].arch = archs[a];
    }
    add_scheme("xf32 gfx942", "xf32", false, 1, "xf32");
    schemes[nschemes - 1].arch = "gfx942";
}

/* Keep native and the schemes whose name begins with prefix. */
static void keep_schemes(const char *prefix)
{
    int n = 0;
    for (int s = 0; s < nschemes; s++)
        if (!strcmp(schemes[s].name, "native") || !strncmp(schemes[s].name, prefix, strlen(prefix)))
            schemes[n++] = schemes[s];
    nschemes = n;
}

/* A scheme this type has (the BFloat16 ones split Float32 only; xf32 reads
 * Float32 only). */
static bool applies(const Scheme *s, bool f32)
{
    return f32 || (strcmp(s->family, "bf16") != 0 && strcmp(s->family, "xf32") != 0);
}

/* A scheme --guard runs a second time, guarded. */
static bool guardable(const Scheme *s)
{
    return !s->adapt && (strncmp(s->precision, "ozaki", 5) == 0 || strcmp(s->family, "bf16") == 0);
}

/* ---- data ---- */

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static double uniform01(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1p-53;
}

static double normal(void)
{
    double u = uniform01(), v = uniform01();
    return sqrt(-2.0 * log(u > 0 ? u : 0x1p-53)) * cos(2 * M_PI * v);
}

static const char *const datasets[] = { "uniform", "normal", "[0,1)", "abs(normal)", "lognormal4", "scaled2^k" };
enum { NDATA = 6, SCALED = 5 };

static double sample(int data)
{
    switch (data) {
    case 0: return 2 * uniform01() - 1;
    case 1: return normal();
    case 2: return uniform01();
    case 3: return fabs(normal());
    case 4: return (uniform01() < 0.5 ? -1 : 1) * exp(4.0 * normal());
    default: return 2 * uniform01() - 1;
    }
}

/* A (M x K) and B (K x N) as doubles already rounded to the element type;
 * data set SCALED scales column k of A by 2^s_k and row k of B by 2^-s_k. */
static void fill(int data, bool f32, int K, double *A, double *B)
{
    for (int k = 0; k < K; k++) {
        int s = data == SCALED ? (int)(uniform01() * 49) - 24 : 0;
        for (int i = 0; i < M; i++)
            A[i * K + k] = f32 ? (float)ldexp(sample(data), s) : ldexp(sample(data), s);
        for (int j = 0; j < N; j++)
            B[k * N + j] = f32 ? (float)ldexp(sample(data), -s) : ldexp(sample(data), -s);
    }
}

/* Cref in binary128 and the denominators sum_k |a b| */
static void reference(int K, const double *A, const double *B, double *Cref, double *den)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            __float128 s = 0, d = 0;
            for (int k = 0; k < K; k++) {
                __float128 p = (__float128)A[i * K + k] * B[k * N + j];
                s += p;
                d += p < 0 ? -p : p;
            }
            Cref[i * N + j] = (double)s;
            den[i * N + j] = (double)d;
        }
}

/* ---- compiling and running ---- */

/* The Int8 MatMul nodes the contraction-precision pass made. */
static int count_int8_matmuls(FxCompilation *c)
{
    int n = 0;
    for (int i = 0; c->module && i < c->module->programs.len; i++) {
        FxProgram *p = c->module->programs.items[i];
        for (int k = 0; k < p->nodes.len; k++) {
            FxNode *node = p->nodes.items[k];
            n += node->kind == FXN_MATMUL && node->in_type == SC_INT8;
        }
    }
    return n;
}

/* One scheme compiled for one type and K, JIT'd, ready to run on any data. */
typedef struct Compiled {
    FxCompilation c;
    FxOptions o;
    RtHostModule *hm;
    FxPlan *plan;
    int matmuls;
} Compiled;

static bool compile_scheme(Compiled *cs, const Scheme *s, bool f32, int K, bool guard)
{
    const char *T = f32 ? "Float32" : "Float64";
    char src[512], path[128];
    if (s->arch)   /* a library GEMM whose M and N come at run time */
        snprintf(src, sizeof src,
                 "program g(A: Tensor[%s, M, %d], B: Tensor[%s, %d, N], C: Tensor[%s, M, N], M: Int32, N: Int32) "
                 "{\n    C = A @ B\n}\n", T, K, T, K, T);
    else
        snprintf(src, sizeof src,
                 "program g(A: Tensor[%s, %d, %d], B: Tensor[%s, %d, %d], C: Tensor[%s, %d, %d]) {\n    C = A @ B\n}\n",
                 T, M, K, T, K, N, T, M, N);
    snprintf(path, sizeof path, "/tmp/fxcc-accuracy-%d.fx", (int)getpid());
    FILE *f = fopen(path, "w");
    fputs(src, f);
    fclose(f);
    memset(cs, 0, sizeof *cs);
    opt_defaults(&cs->o);
    cs->o.input = path;
    cs->o.host = true;
    fxir_parse_precision(s->precision, &cs->o.precision);
    cs->o.direct_rescaling = s->direct;
    cs->o.guard_fallback = guard || s->adapt;
    cs->o.guard_adapt = s->adapt;
    if (s->arch) {   /* as fxrun --arch: the processor's lowering, its waves emulated */
        cs->o.arch = s->arch;
        cs->o.arch_given = true;
    }
    bool ok = opt_finish(&cs->o);
    pipe_init(&cs->c, &cs->o);
    char *err = NULL;
    ok = ok && pipe_parse(&cs->c) && pipe_lower(&cs->c);
    cs->hm = ok ? pipe_jit(&cs->c, &err) : NULL;
    cs->plan = pipe_plan(&cs->c, "g");
    cs->matmuls = count_int8_matmuls(&cs->c);
    remove(path);
    if (!cs->hm)
        fprintf(stderr, "accuracy: %s %s K=%d does not compile: %s\n", s->name, T, K, err ? err : "(see above)");
    free(err);
    return cs->hm && cs->plan;
}

static void release(Compiled *cs)
{
    rt_host_free(cs->hm);
    pipe_free(&cs->c);
}

typedef struct Run {
    double error;
    double seconds;
    char *note;             /* what the guard did, or NULL */
    int taken;              /* adapt: the Int8 matmuls that ran; -1: native */
} Run;

/* What an adaptive run's note says it ran: "(55 bits kept, 16 Int8
 * matmuls)", or "ran natively". */
static int matmuls_taken(const char *note)
{
    const char *at = note ? strstr(note, " bits kept, ") : NULL;
    return at ? atoi(at + strlen(" bits kept, ")) : -1;
}

static bool run_on(Compiled *cs, bool f32, int K, const double *A, const double *B, const double *Cref,
                   const double *den, Run *out)
{
    size_t eb = f32 ? 4 : 8;
    void *a = malloc((size_t)M * K * eb), *b = malloc((size_t)K * N * eb), *cc = calloc((size_t)M * N, eb);
    for (int i = 0; i < M * K; i++)
        f32 ? (void)(((float *)a)[i] = (float)A[i]) : (void)(((double *)a)[i] = A[i]);
    for (int i = 0; i < K * N; i++)
        f32 ? (void)(((float *)b)[i] = (float)B[i]) : (void)(((double *)b)[i] = B[i]);
    int32_t m = M, n = N;
    void *args[5] = { &a, &b, &cc, &m, &n };   /* M and N: the auto rows' run-time dimensions */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    RtRunReport report = { 0 };
    char *err = NULL;
    bool ok = rt_program_run_report(cs->hm, cs->plan, args, &report, &err) == 0;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    out->note = report.notes ? strdup(report.notes) : NULL;
    out->taken = matmuls_taken(out->note);
    rt_run_report_free(&report);
    if (!ok)
        fprintf(stderr, "accuracy: a run failed: %s\n", err ? err : "?");
    double e = 0;
    for (int i = 0; ok && i < M * N; i++) {
        double v = f32 ? ((float *)cc)[i] : ((double *)cc)[i];
        double r = fabs(v - Cref[i]) / den[i];
        if (!(r <= e))   /* NaN counts as the worst */
            e = isnan(r) ? INFINITY : r;
    }
    out->error = ok ? e : NAN;
    free(err);
    free(a);
    free(b);
    free(cc);
    return ok;
}

/* ---- the tables ---- */

typedef struct Data {
    double *A, *B, *Cref, *den;
} Data;

static void make_data(Data *d, int set, bool f32, int K, int seed)
{
    d->A = malloc(sizeof(double) * (size_t)M * K);
    d->B = malloc(sizeof(double) * (size_t)K * N);
    d->Cref = malloc(sizeof(double) * M * N);
    d->den = malloc(sizeof(double) * M * N);
    rng = 0x9E3779B97F4A7C15ull * (uint64_t)seed;
    fill(set, f32, K, d->A, d->B);
    reference(K, d->A, d->B, d->Cref, d->den);
}

static void free_data(Data *d)
{
    free(d->A);
    free(d->B);
    free(d->Cref);
    free(d->den);
}

static void key_of(const Scheme *s, char *key, size_t n)
{
    snprintf(key, n, "%s", s->name);
    for (char *ch = key; *ch; ch++)
        *ch = *ch == ' ' ? '_' : *ch;
}

int main(int argc, char **argv)
{
    bool quick = false, guard = false;
    const char *outdir = ".", *only_type = NULL, *only_scheme = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick"))
            quick = true;
        else if (!strcmp(argv[i], "--guard"))
            guard = true;
        else if (!strcmp(argv[i], "--type") && i + 1 < argc)
            only_type = argv[++i];
        else if (!strcmp(argv[i], "--scheme") && i + 1 < argc)
            only_scheme = argv[++i];
        else
            outdir = argv[i];
    }
    make_schemes(quick);
    if (only_scheme)
        keep_schemes(only_scheme);
    static const int Ks[] = { 256, 1024, 4096 };
    int nK = quick ? 1 : 3;
    char path[1024];
    snprintf(path, sizeof path, "%s/results%s%s.dat", outdir, only_type ? "-" : "", only_type ? only_type : "");
    FILE *dat = fopen(path, "w");
    snprintf(path, sizeof path, "%s/results%s%s.md", outdir, only_type ? "-" : "", only_type ? only_type : "");
    FILE *md = fopen(path, "w");
    if (!dat || !md) {
        fprintf(stderr, "accuracy: cannot write into %s\n", outdir);
        return 1;
    }
    fprintf(dat, "# type data K scheme family int8_matmuls error seconds guarded\n");
    for (int t = 0; t < 2; t++) {
        bool f32 = t == 0;
        const char *T = f32 ? "Float32" : "Float64";
        if (only_type && strcmp(only_type, T) != 0)
            continue;
        static double err[64][NDATA][3], mm[64], mmk[64][3];
        static int taken[64][NDATA][3];
        for (int s = 0; s < nschemes; s++)
            mm[s] = 0;
        for (int ki = 0; ki < nK; ki++) {
            int K = Ks[ki];
            Data data[NDATA];
            for (int d = 0; d < NDATA; d++)
                make_data(&data[d], d, f32, K, 1 + d + 10 * ki + 100 * t);
            for (int s = 0; s < nschemes; s++)
                for (int g = 0; applies(&schemes[s], f32) && g <= (guard && guardable(&schemes[s])); g++) {
                    Compiled cs;
                    bool ok = compile_scheme(&cs, &schemes[s], f32, K, g);
                    if (!g)
                        mm[s] = mmk[s][ki] = schemes[s].matmuls ? schemes[s].matmuls : cs.matmuls;
                    for (int d = 0; d < NDATA; d++) {
                        Run r = { NAN, 0, NULL, -1 };
                        ok = ok && run_on(&cs, f32, K, data[d].A, data[d].B, data[d].Cref, data[d].den, &r);
                        if (!g) {
                            err[s][d][ki] = r.error;
                            taken[s][d][ki] = r.taken;
                        }
                        if (schemes[s].adapt)
                            printf("%s %-10s K=%-4d %-15s error %.2e: %s", T, datasets[d], K, schemes[s].name, r.error,
                                   r.note ? r.note : "(no note)\n");
                        char key[32];
                        key_of(&schemes[s], key, sizeof key);
                        fprintf(dat, "%s %s %d %s %s %g %.3e %.3f %s\n", T, datasets[d], K, key, schemes[s].family,
                                mm[s], r.error, r.seconds, g ? "guarded" : "plain");
                        if (g)
                            printf("%s %-10s K=%-4d %-15s guarded error %.2e (unguarded %.2e)%s%s", T, datasets[d], K,
                                   schemes[s].name, r.error, err[s][d][ki], r.note ? "  " : "\n",
                                   r.note ? r.note : "");
                        free(r.note);
                    }
                    fflush(dat);
                    fflush(stdout);
                    release(&cs);
                }
            for (int d = 0; d < NDATA; d++)
                free_data(&data[d]);
            printf("%s K=%d done\n", T, K);
        }
        fprintf(md, "\n### %s, M = N = %d\n\n| scheme | Int8 matmuls |", T, M);
        for (int d = 0; d < NDATA; d++)
            for (int ki = 0; ki < nK; ki++)
                fprintf(md, " %s K=%d |", datasets[d], Ks[ki]);
        fputs("\n|---|---:|", md);
        for (int d = 0; d < NDATA * nK; d++)
            fputs("---:|", md);
        fputc('\n', md);
        for (int s = 0; s < nschemes; s++) {
            if (!applies(&schemes[s], f32))
                continue;
            if (schemes[s].adapt)   /* the count it ran is in each cell */
                fprintf(md, "| %s | at run time |", schemes[s].name);
            else if (!strcmp(schemes[s].family, "xf32"))
                fprintf(md, "| %s | 1 xf32 |", schemes[s].name);
            else if (schemes[s].arch)   /* what auto chose at each K: 0 is native */
                fprintf(md, "| %s | %g / %g / %g |", schemes[s].name, mmk[s][0], mmk[s][nK > 1 ? 1 : 0],
                        mmk[s][nK > 2 ? 2 : 0]);
            else
                fprintf(md, "| %s | %g%s |", schemes[s].name, mm[s], strcmp(schemes[s].family, "bf16") ? "" : " BFloat16");
            for (int d = 0; d < NDATA; d++)
                for (int ki = 0; ki < nK; ki++) {
                    fprintf(md, " %.2e", err[s][d][ki]);
                    if (schemes[s].adapt && taken[s][d][ki] >= 0)
                        fprintf(md, " (%d)", taken[s][d][ki]);
                    else if (schemes[s].adapt)
                        fputs(" (native)", md);
                    fputs(" |", md);
                }
            fputc('\n', md);
        }
    }
    fclose(dat);
    fclose(md);
    return 0;
}
