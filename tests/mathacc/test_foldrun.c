/* test_foldrun.c - a folded call equals the host's run-time call bit for bit
 * (NaNs: both NaN, as conversions canonicalize them):
 *   - the JIT'd host kernel against fxm_eval / the `**` folder on every
 *     input of the accuracy test (up to a cap; all 65536 for 16-bit unary);
 *   - calls on literal operands, which sema folds, against the same calls on
 *     loaded operands, in one kernel. */
#include "fxtest.h"
#include "fxsource.h"
#include "mathacc.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NSTATIC 24

static char *call_text(const MaFn *f, const char *x, const char *y)
{
    char *s = malloc(256);
    if (f->binary)
        snprintf(s, 256, "fx.%s(%s, %s)", f->name, x, y);
    else
        snprintf(s, 256, "fx.%s(%s)", f->name, x);
    return s;
}

/* A literal for value v of type t: T(<hex float>), exact. */
static void literal(const MaType *t, double v, char *buf, size_t n)
{
    if (v == 0.0)
        snprintf(buf, n, "%s(%s0.0)", t->name, signbit(v) ? "-" : "");
    else
        snprintf(buf, n, "%s(%a)", t->name, v);
}

/* Kernels `dyn` (o[i] = f(x[i], y[i]) for i < n) and `sta` (o[j] = f on
 * the literals of the first NSTATIC finite inputs). */
static char *source(const MaFn *f, const MaType *t, const uint64_t *x, const uint64_t *y, int *nsta,
                    uint64_t *sx, uint64_t *sy, const uint64_t *all_x, const uint64_t *all_y, long n)
{
    (void)x, (void)y;
    size_t cap = 65536, len = 0;
    char *s = malloc(cap);
    char *c = call_text(f, "x[i]", "y[i]");
    len += (size_t)snprintf(s + len, cap - len,
                            "kernel dyn(x: const Ptr[%s], y: const Ptr[%s], o: Ptr[%s], n: Int32) {\n"
                            "    for i in range(n) { o[i] = %s }\n}\n"
                            "kernel sta(o: Ptr[%s]) {\n", t->name, t->name, t->name, c, t->name);
    free(c);
    int j = 0;
    for (long k = 0; k < n && j < NSTATIC; k += 97) {
        double vx = ma_value(t, all_x[k]), vy = ma_value(t, all_y[k]);
        if (!isfinite(vx) || !isfinite(vy))
            continue;
        char lx[64], ly[64];
        literal(t, vx, lx, sizeof lx), literal(t, vy, ly, sizeof ly);
        c = call_text(f, lx, ly);
        len += (size_t)snprintf(s + len, cap - len, "    o[%d] = %s\n", j, c);
        free(c);
        sx[j] = all_x[k], sy[j] = all_y[k], j++;
    }
    snprintf(s + len, cap - len, "}\n");
    *nsta = j;
    return s;
}

static void *pack(const MaType *t, const uint64_t *v, long n)
{
    size_t b = (size_t)t->bits / 8;
    unsigned char *p = calloc((size_t)n + 1, b);
    for (long k = 0; k < n; k++)
        memcpy(p + (size_t)k * b, &v[k], b);   /* little-endian host */
    return p;
}

static uint64_t unpack(const MaType *t, const void *p, long k)
{
    uint64_t v = 0;
    memcpy(&v, (const unsigned char *)p + (size_t)k * (size_t)(t->bits / 8), (size_t)t->bits / 8);
    return v;
}

static bool same(const MaType *t, uint64_t a, uint64_t b)
{
    return a == b || (ma_is_nan(t, a) && ma_is_nan(t, b));
}

static int run_dyn(FxsModule *m, const MaType *t, const uint64_t *x, const uint64_t *y, long n, void *out)
{
    void *px = pack(t, x, n), *py = pack(t, y, n);
    int32_t nn = (int32_t)n;
    size_t b = (size_t)n * (size_t)(t->bits / 8);
    void *args[] = { &px, &py, &out, &nn };
    const size_t bytes[] = { b, b, b, 0 };
    bool ok = fxs_launch(m, "dyn", 1, 1, args, bytes);
    free(px), free(py);
    return ok;
}

static void check_pair(const MaFn *f, const MaType *t)
{
    uint64_t *x, *y;
    long n;
    ma_inputs(f, t, &x, &y, &n);
    if (n > ma_scaled(70000))
        n = ma_scaled(70000);
    uint64_t sx[NSTATIC], sy[NSTATIC];
    int nsta;
    char *src = source(f, t, x, y, &nsta, sx, sy, x, y, n);
    FxsModule m;
    bool opened = fxs_open(&m, src);
    CU_ASSERT_FATAL(opened);
    void *out = calloc((size_t)n + 1, 8), *sout = calloc(NSTATIC, 8), *dout = calloc(NSTATIC, 8);
    long bad = 0;
    if (run_dyn(&m, t, x, y, n, out)) {
        for (long k = 0; k < n; k++)
            if (!same(t, unpack(t, out, k), ma_fold(f, t, x[k], y[k])) && bad++ < 3)
                fprintf(stderr, "\n  fx.%s %s(%a, %a): run %a, fold %a", f->name, t->name, ma_value(t, x[k]),
                        ma_value(t, y[k]), ma_value(t, unpack(t, out, k)), ma_value(t, ma_fold(f, t, x[k], y[k])));
    } else {
        bad++;
    }
    void *args[] = { &sout };
    const size_t bytes[] = { NSTATIC * 8 };
    CU_ASSERT(fxs_launch(&m, "sta", 1, 1, args, bytes));
    CU_ASSERT(run_dyn(&m, t, sx, sy, nsta, dout));
    for (int j = 0; j < nsta; j++)
        if (!same(t, unpack(t, sout, j), unpack(t, dout, j)) && bad++ < 6)
            fprintf(stderr, "\n  fx.%s %s literal %d: folded %a, run %a", f->name, t->name, j,
                    ma_value(t, unpack(t, sout, j)), ma_value(t, unpack(t, dout, j)));
    CU_ASSERT(nsta >= NSTATIC / 2);
    CU_ASSERT_EQUAL(bad, 0);
    fxs_close(&m);
    free(src), free(out), free(sout), free(dout), free(x), free(y);
}

static void check_type(int ti)
{
    for (int fi = 0; fi < ma_nfns; fi++)
        check_pair(&ma_fns[fi], &ma_types[ti]);
}

static void test_f16(void) { check_type(0); }
static void test_bf16(void) { check_type(1); }
static void test_f32(void) { check_type(2); }
static void test_f64(void) { check_type(3); }

const FxtTest foldrun_tests[] = {
    { "Float16", test_f16 }, { "BFloat16", test_bf16 }, { "Float32", test_f32 }, { "Float64", test_f64 },
    { NULL, NULL },
};
