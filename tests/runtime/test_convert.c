/* test_convert.c - every conversion between the thirteen float formats
 * (Float16, BFloat16, Float32, Float64 and the nine narrow storage floats),
 * in all five rounding modes, and between the narrow formats and the
 * integers, compiled for the host, JIT'd and run; every result must equal the
 * constant folder's (support/floatfmt.c) bit for bit, NaNs included (a NaN
 * converts to the target's canonical NaN).
 *
 * Inputs: every encoding of every format of at most 16 bits; for Float32 and
 * Float64 sources, every value of the target format (when it has at most 16
 * bits), the midpoints between neighbours and their neighbours one source ulp
 * away (which catches any double rounding and every tie), the overflow
 * thresholds, edge values and 10^5 random bit patterns. */
#include "fxtest.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/codegen.h"
#include "runtime/fxrt.h"
#include "host_jit.h"

typedef unsigned __int128 u128;
typedef __int128 i128;

static Kb g_kb;
static RtHostModule *g_rt;

static const ScalarId fmts[] = {
    SC_FLOAT16, SC_BFLOAT16, SC_FLOAT32, SC_FLOAT64,
    SC_F8E5M2, SC_F8E4M3FN, SC_F8E4M3FNUZ, SC_F8E4M3B11FNUZ, SC_F8E4M3,
    SC_F6E2M3FN, SC_F6E3M2FN, SC_F8E8M0FNU, SC_F4E2M1FN, SC_F8E5M2FNUZ,
};
enum { NFMT = sizeof fmts / sizeof fmts[0], NNARROW = 10 };
static const ScalarId *narrows = fmts + 4;
static const ScalarId ints[] = { SC_INT4, SC_INT8, SC_INT16, SC_INT32, SC_INT64, SC_INT128,
                                 SC_UINT8, SC_UINT16, SC_UINT32, SC_UINT64, SC_UINT128, SC_INDEX };
enum { NINT = sizeof ints / sizeof ints[0] };
static const char *const mode_names[] = { "rne", "down", "up", "rtz", "rna" };

static const FloatFormat *F(ScalarId s) { return type_info(s)->fmt; }
static const char *tn(ScalarId s) { return type_info(s)->name; }
static int bytes_of(ScalarId s) { return type_storage_bits(type_scalar(s)) / 8; }

/* ---- kernels ---- */

/* kernel NAME(a: const Ptr[from], out: Ptr[to], n: Int32):
 *   let i = block_idx.x * block_dim.x + thread_idx.x
 *   if i < n { out[i] = a[i].to(to, rounding_mode=rm) }      (twice for a round trip) */
static void conv_kernel(const char *name, const Type *from, const Type *mid, const Type *to, FfRound rm)
{
    Kb *k = &g_kb;
    const Type *i32 = type_scalar(SC_INT32);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 3, NULL);
    fxk_param_decl(k, 0, "a", type_ptr(k->a, from, true));
    fxk_param_decl(k, 1, "out", type_ptr(k->a, to, false));
    fxk_param_decl(k, 2, "n", i32);
    FxInst *a = fxk_param(k, 0), *out = fxk_param(k, 1), *n = fxk_param(k, 2);
    FxInst *bi = fxk_special(k, FXS_BLOCK_IDX, 0), *bd = fxk_special(k, FXS_BLOCK_DIM, 0);
    FxInst *i = fxk_op(k, FX_BINOP, FXB_ADD, i32, 2, fxk_op(k, FX_BINOP, FXB_MUL, i32, 2, bi, bd),
                       fxk_special(k, FXS_THREAD_IDX, 0));
    FxInst *ifi = fxb_if(&k->b, fxk_op(k, FX_CMP, FXC_LT, type_scalar(SC_BOOLEAN), 2, i, n));
    fxb_at_end(&k->b, &ifi->blocks[0]);
    FxInst *x = fxk_op(k, FX_LOAD, 0, from, 2, a, i);
    if (mid) {
        x = fxk_op(k, FX_CAST, 0, mid, 1, x);
        x->rounding = rm;
    }
    FxInst *r = fxk_op(k, FX_CAST, 0, to, 1, x);
    r->rounding = rm;
    fxk_op(k, FX_STORE, 0, NULL, 3, out, r, i);
    fxb_at_end(&k->b, &f->body);
}

static char *cname(ScalarId from, ScalarId to, int rm)
{
    return arena_printf(g_kb.a, "cv_%s_%s_%s", tn(from), tn(to), mode_names[rm]);
}

static int suite_init(void)
{
    g_kb = fxk_begin("convert_test.fx");
    Kb *k = &g_kb;
    for (int a = 0; a < NFMT; a++)
        for (int b = 0; b < NFMT; b++)
            if (a != b)
                for (int rm = 0; rm < 5; rm++)
                    conv_kernel(cname(fmts[a], fmts[b], rm), type_scalar(fmts[a]), NULL,
                                type_scalar(fmts[b]), (FfRound)rm);
    for (int t = 0; t < NINT; t++)
        for (int f = 0; f < NFMT; f++) {
            if (fmts[f] == SC_FLOAT32 || fmts[f] == SC_FLOAT64)
                continue; /* the instructions themselves; test_runtime covers them */
            conv_kernel(cname(ints[t], fmts[f], 0), type_scalar(ints[t]), NULL, type_scalar(fmts[f]), FF_RNE);
            conv_kernel(cname(fmts[f], ints[t], 0), type_scalar(fmts[f]), NULL, type_scalar(ints[t]), FF_RNE);
        }
    for (int f = 0; f < NNARROW; f++) {
        conv_kernel(cname(SC_BOOLEAN, narrows[f], 0), type_scalar(SC_BOOLEAN), NULL, type_scalar(narrows[f]), FF_RNE);
        conv_kernel(cname(narrows[f], SC_BOOLEAN, 0), type_scalar(narrows[f]), NULL, type_scalar(SC_BOOLEAN), FF_RNE);
        conv_kernel(arena_printf(k->a, "rt_%s", tn(narrows[f])), type_scalar(narrows[f]),
                    type_scalar(SC_FLOAT32), type_scalar(narrows[f]), FF_RNE);
    }
    /* vectors */
    conv_kernel("v_f32_e4m3fn", type_vector(SC_FLOAT32, 4), NULL, type_vector(SC_F8E4M3FN, 4), FF_RNE);
    conv_kernel("v_e5m2_f16", type_vector(SC_F8E5M2, 8), NULL, type_vector(SC_FLOAT16, 8), FF_RNE);
    conv_kernel("v_f64_f16_up", type_vector(SC_FLOAT64, 2), NULL, type_vector(SC_FLOAT16, 2), FF_UP);
    conv_kernel("v_f32_fp4_rtz", type_vector(SC_FLOAT32, 8), NULL, type_vector(SC_F4E2M1FN, 8), FF_TOWARD_ZERO);
    conv_kernel("v_i32_e8m0", type_vector(SC_INT32, 4), NULL, type_vector(SC_F8E8M0FNU, 4), FF_RNE);

    g_rt = host_jit(k->m, 1);
    return g_rt ? 0 : 1;
}

static int suite_clean(void)
{
    rt_host_free(g_rt);
    fxk_end(&g_kb);
    return 0;
}

static int run(const char *name, const void *in, void *out, int n)
{
    unsigned grid[3] = { (unsigned)(n + 255) / 256, 1, 1 }, block[3] = { 256, 1, 1 };
    void *ip = (void *)in, *op = out;
    void *args[3] = { &ip, &op, &n };
    char *err = NULL;
    int rc = rt_host_launch(g_rt, name, grid, block, args, &err);
    if (rc) {
        fprintf(stderr, "launch %s: %s\n", name, err);
        free(err);
    }
    return rc;
}

/* ---- inputs ---- */

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 11;
}

static uint64_t rnd64(uint64_t *s)
{
    return lcg(s) << 42 ^ lcg(s) << 21 ^ lcg(s);
}

typedef struct Vec {
    uint64_t *v;
    size_t n, cap;
} Vec;

static void push(Vec *a, uint64_t x)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 4096;
        a->v = realloc(a->v, a->cap * sizeof *a->v);
    }
    a->v[a->n++] = x;
}

static uint64_t dbits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* the encoding of d in a source format that holds it exactly (f32/f64) */
static void push_src(Vec *a, ScalarId from, double d)
{
    if (from == SC_FLOAT64) {
        push(a, dbits(d));
        push(a, dbits(nextafter(d, INFINITY)));
        push(a, dbits(nextafter(d, -INFINITY)));
    } else {
        float f = (float)d;
        if ((double)f != d && !isnan(d))
            return;
        push(a, fbits(f));
        push(a, fbits(nextafterf(f, INFINITY)));
        push(a, fbits(nextafterf(f, -INFINITY)));
    }
}

/* Inputs of format `from` for conversions to `to`. */
static Vec inputs(ScalarId from, ScalarId to)
{
    Vec a = { 0 };
    const FloatFormat *ff = F(from), *tf = F(to);
    if (ff->width <= 16) {
        for (uint64_t e = 0; e < (UINT64_C(1) << ff->width); e++)
            push(&a, e);
        return a;
    }
    static const double edges[] = {
        0.0, 1.0, 0.1, 1.0 / 3.0, 65504.0, 65519.99, 65520.0, 65536.0, 448.0, 464.0, 480.0,
        57344.0, 61440.0, 7.5, 28.0, 6.0, 0x1p127, 0x1p-127, 0x1p-128, 0x1.8p-128, 0x1p-126, 0x1p-149,
        0x1p-150, 0x1.8p-149, 3.4028234663852886e38, 3.4028235677973366e38, 1e39, 1e300, 0x1p-1022,
        0x1p-1074, 1e-40, 1e-300, 1.0 + 0x1p-24, 1.0 + 0x1p-11 + 0x1p-40, INFINITY };
    for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++) {
        push_src(&a, from, edges[k]);
        push_src(&a, from, -edges[k]);
    }
    if (from == SC_FLOAT64) {
        push(&a, UINT64_C(0x7FF8000000000000));
        push(&a, UINT64_C(0xFFF8000000000001));
        push(&a, UINT64_C(0x7FF0000000000001));
    } else {
        push(&a, 0x7FC00000);
        push(&a, 0xFFC00001);
        push(&a, 0x7F800001);
    }
    if (tf->width <= 16) {
        /* every target value, the midpoints to its successor, and their neighbours */
        for (uint64_t t = 0; t < (UINT64_C(1) << tf->width); t++) {
            double x = ff_to_double(tf, t);
            if (isnan(x) || isinf(x))
                continue;
            double x2 = ff_to_double(tf, t + 1 < (UINT64_C(1) << tf->width) ? t + 1 : t);
            if (isnan(x2) || isinf(x2) || signbit(x2) != signbit(x) || fabs(x2) <= fabs(x)) {
                /* the largest magnitude: its successor is one ulp further out */
                double prev = t > 0 ? ff_to_double(tf, t - 1) : x;
                x2 = x + (x - prev);
            }
            push_src(&a, from, x);
            push_src(&a, from, (x + x2) / 2);
            push_src(&a, from, x2 + (x2 - x)); /* past the overflow threshold, too */
        }
    } else if (from == SC_FLOAT64 && to == SC_FLOAT32) {
        uint64_t s = 7;
        for (int k = 0; k < 50000; k++) {
            uint32_t fb = (uint32_t)rnd64(&s);
            float f, g;
            memcpy(&f, &fb, 4);
            if (isnan(f) || isinf(f))
                continue;
            g = nextafterf(f, INFINITY);
            push_src(&a, from, (double)f);
            if (!isinf(g))
                push_src(&a, from, ((double)f + (double)g) / 2);
        }
    }
    uint64_t s = 12345 + (uint64_t)from * 31 + (uint64_t)to;
    for (int k = 0; k < 100000; k++) {
        uint64_t r = rnd64(&s);
        if (from == SC_FLOAT64 && (k & 1)) {
            /* exponents near the target's range */
            int e = (int)(lcg(&s) % 300) - 170;
            double d = ldexp(1.0 + (double)(r >> 12) * 0x1p-52, e);
            push(&a, dbits((r & 1) ? -d : d));
        } else {
            push(&a, from == SC_FLOAT64 ? r : (uint32_t)r);
        }
    }
    return a;
}

/* ---- checks ---- */

static uint64_t get(const unsigned char *buf, size_t i, int bytes)
{
    uint64_t v = 0;
    memcpy(&v, buf + i * (size_t)bytes, (size_t)bytes);
    return v;
}

static void put(unsigned char *buf, size_t i, int bytes, uint64_t v)
{
    memcpy(buf + i * (size_t)bytes, &v, (size_t)bytes);
}

static long g_checked;

static void check_pair(ScalarId from, ScalarId to)
{
    Vec in = inputs(from, to);
    int fb = bytes_of(from), tb = bytes_of(to);
    unsigned char *ib = calloc(in.n, (size_t)fb), *ob = calloc(in.n, (size_t)tb);
    for (size_t i = 0; i < in.n; i++)
        put(ib, i, fb, in.v[i]);
    for (int rm = 0; rm < 5; rm++) {
        const char *name = cname(from, to, rm);
        memset(ob, 0xAA, in.n * (size_t)tb);
        CU_ASSERT_EQUAL_FATAL(run(name, ib, ob, (int)in.n), 0);
        int bad = 0;
        for (size_t i = 0; i < in.n; i++) {
            uint64_t want = ff_from_double(F(to), ff_to_double(F(from), in.v[i]), (FfRound)rm);
            uint64_t got = get(ob, i, tb);
            if (want != got && bad++ < 4)
                fprintf(stderr, "\n  %s: 0x%llx (%a) -> want 0x%llx got 0x%llx", name,
                        (unsigned long long)in.v[i], ff_to_double(F(from), in.v[i]),
                        (unsigned long long)want, (unsigned long long)got);
        }
        g_checked += (long)in.n;
        CU_ASSERT_EQUAL(bad, 0);
    }
    free(ib);
    free(ob);
    free(in.v);
}

/* Narrowing between the standard formats, every mode. */
static void test_standard_pairs(void)
{
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            if (a != b)
                check_pair(fmts[a], fmts[b]);
}

static void test_to_narrow(void)
{
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < NNARROW; b++)
            check_pair(fmts[a], narrows[b]);
}

static void test_from_narrow(void)
{
    for (int a = 0; a < NNARROW; a++)
        for (int b = 0; b < NFMT; b++)
            if (narrows[a] != fmts[b])
                check_pair(narrows[a], fmts[b]);
}

/* narrow -> Float32 -> narrow gives the encoding back (NaNs: the canonical one) */
static void test_round_trip(void)
{
    for (int a = 0; a < NNARROW; a++) {
        const FloatFormat *f = F(narrows[a]);
        int n = 1 << f->width, bad = 0, same = 0;
        unsigned char in[256], out[256];
        for (int e = 0; e < n; e++)
            in[e] = (unsigned char)e;
        char *name = arena_printf(g_kb.a, "rt_%s", tn(narrows[a]));
        CU_ASSERT_EQUAL_FATAL(run(name, in, out, n), 0);
        for (int e = 0; e < n; e++) {
            uint64_t want = ff_is_nan(f, (uint64_t)e) ? ff_from_double(f, NAN, FF_RNE) : (uint64_t)e;
            same += out[e] == e;
            if (out[e] != want && bad++ < 4)
                fprintf(stderr, "\n  %s: 0x%02x -> 0x%02x", name, e, out[e]);
        }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT(same >= n - 127); /* only NaN encodings may change */
    }
}

/* ---- integers ---- */

typedef struct IT {
    int w;
    bool sgn;
} IT;

static IT it_of(ScalarId s) { return (IT){ type_info(s)->width, type_info(s)->is_signed }; }

static u128 mask_w(int w) { return w >= 128 ? ~(u128)0 : (((u128)1 << w) - 1); }

static i128 sval(u128 v, IT t)
{
    v &= mask_w(t.w);
    if (t.sgn && t.w < 128 && (v >> (t.w - 1)) & 1)
        v |= ~mask_w(t.w);
    return (i128)v;
}

static BigInt big_of(u128 v, IT t)
{
    bool neg = t.sgn && sval(v, t) < 0;
    u128 mag = neg ? (u128)0 - (u128)sval(v, t) : (v & mask_w(t.w));
    BigInt b = big_add(big_shl(big_from_u64((uint64_t)(mag >> 64)), 64), big_from_u64((uint64_t)mag));
    return neg ? big_neg(b) : b;
}

static void put128(unsigned char *buf, size_t i, int bytes, u128 v)
{
    memcpy(buf + i * (size_t)bytes, &v, (size_t)bytes);
}

static u128 get128(const unsigned char *buf, size_t i, int bytes, IT t)
{
    u128 v = 0;
    memcpy(&v, buf + i * (size_t)bytes, (size_t)bytes);
    return (u128)sval(v, t) & mask_w(t.w);
}

/* integers around every power of two, the midpoints that decide ties, extremes, random */
static size_t int_inputs(IT t, u128 *out, size_t max)
{
    size_t n = 0;
    for (int p = 0; p < t.w && n + 16 < max; p++) {
        u128 b = (u128)1 << p;
        u128 c[] = { b, b - 1, b + 1, b + (b >> 1), b + (b >> 1) + 1, b + (b >> 1) - 1, b + (b >> 4),
                     b + (b >> 3) + (b >> 4), b + (b >> 2) + (b >> 3) };
        for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
            out[n++] = c[k] & mask_w(t.w);
            out[n++] = ((u128)0 - c[k]) & mask_w(t.w);
        }
    }
    uint64_t s = (uint64_t)t.w * 77 + t.sgn;
    while (n < max) {
        u128 r = ((u128)rnd64(&s) << 64) | rnd64(&s);
        r >>= lcg(&s) % 128;
        out[n++] = r & mask_w(t.w);
    }
    return n;
}

static void test_int_to_float(void)
{
    enum { N = 6000 };
    static u128 vals[N];
    static unsigned char ib[N * 16], ob[N * 8];
    for (int ti = 0; ti < NINT; ti++) {
        IT t = it_of(ints[ti]);
        int fb = bytes_of(ints[ti]);
        size_t n = int_inputs(t, vals, N);
        for (size_t i = 0; i < n; i++)
            put128(ib, i, fb, (u128)sval(vals[i], t));
        for (int f = 0; f < NFMT; f++) {
            ScalarId to = fmts[f];
            if (to == SC_FLOAT32 || to == SC_FLOAT64)
                continue;
            const char *name = cname(ints[ti], to, 0);
            CU_ASSERT_EQUAL_FATAL(run(name, ib, ob, (int)n), 0);
            int bad = 0;
            for (size_t i = 0; i < n; i++) {
                uint64_t want = ff_from_big(F(to), big_of(vals[i], t), FF_RNE);
                uint64_t got = get(ob, i, bytes_of(to));
                if (want != got && bad++ < 4) {
                    char buf[200];
                    fprintf(stderr, "\n  %s: %s -> want 0x%llx got 0x%llx", name,
                            big_to_dec(big_of(vals[i], t), buf), (unsigned long long)want,
                            (unsigned long long)got);
                }
            }
            g_checked += (long)n;
            CU_ASSERT_EQUAL(bad, 0);
        }
    }
}

/* float -> integer: truncate, saturate, NaN -> 0 */
static u128 ref_to_int(double d, IT t)
{
    if (isnan(d))
        return 0;
    long double lo = t.sgn ? -ldexpl(1.0L, t.w - 1) : 0.0L;
    long double hi = t.sgn ? ldexpl(1.0L, t.w - 1) : ldexpl(1.0L, t.w);
    long double x = truncl((long double)d);
    if (x <= lo)
        return (u128)(i128)lo & mask_w(t.w);
    if (x >= hi)
        return (t.sgn ? mask_w(t.w - 1) : mask_w(t.w));
    if (x < 0)
        return (u128)(-(i128)(-x)) & mask_w(t.w);
    u128 r = 0;
    /* exact: every narrow/16-bit value is an integer times a power of two < 2^128 */
    long double y = x;
    for (int b = 127; b >= 0; b--) {
        long double p = ldexpl(1.0L, b);
        if (y >= p) {
            y -= p;
            r |= (u128)1 << b;
        }
    }
    return r & mask_w(t.w);
}

static void test_float_to_int(void)
{
    static unsigned char ib[65536 * 2], ob[65536 * 16];
    for (int f = 0; f < NFMT; f++) {
        ScalarId from = fmts[f];
        if (from == SC_FLOAT32 || from == SC_FLOAT64)
            continue;
        int n = 1 << F(from)->width;
        for (int e = 0; e < n; e++)
            put(ib, (size_t)e, bytes_of(from), (uint64_t)e);
        for (int ti = 0; ti < NINT; ti++) {
            IT t = it_of(ints[ti]);
            const char *name = cname(from, ints[ti], 0);
            CU_ASSERT_EQUAL_FATAL(run(name, ib, ob, n), 0);
            int bad = 0;
            for (int e = 0; e < n; e++) {
                u128 want = ref_to_int(ff_to_double(F(from), (uint64_t)e), t);
                u128 got = get128(ob, (size_t)e, bytes_of(ints[ti]), t);
                if (want != got && bad++ < 4)
                    fprintf(stderr, "\n  %s: 0x%x (%g) -> want 0x%llx got 0x%llx", name, e,
                            ff_to_double(F(from), (uint64_t)e), (unsigned long long)want,
                            (unsigned long long)got);
            }
            g_checked += n;
            CU_ASSERT_EQUAL(bad, 0);
        }
    }
}

static void test_boolean(void)
{
    for (int f = 0; f < NNARROW; f++) {
        const FloatFormat *ff = F(narrows[f]);
        unsigned char in[256], out[256];
        int n = 1 << ff->width;
        for (int e = 0; e < n; e++)
            in[e] = (unsigned char)e;
        CU_ASSERT_EQUAL_FATAL(run(cname(narrows[f], SC_BOOLEAN, 0), in, out, n), 0);
        int bad = 0;
        for (int e = 0; e < n; e++) {
            double d = ff_to_double(ff, (uint64_t)e);
            bad += out[e] != (d != 0 || isnan(d));
        }
        CU_ASSERT_EQUAL(bad, 0);
        unsigned char b[2] = { 0, 1 };
        CU_ASSERT_EQUAL_FATAL(run(cname(SC_BOOLEAN, narrows[f], 0), b, out, 2), 0);
        CU_ASSERT_EQUAL(out[0], ff_from_double(ff, 0.0, FF_RNE));
        CU_ASSERT_EQUAL(out[1], ff_from_double(ff, 1.0, FF_RNE));
    }
}

/* vector elements are aligned to their size (spec §5): so are these buffers */
static void test_vectors(void)
{
    enum { N = 64 };
    uint64_t s = 99;
    {
        _Alignas(64) float in[N * 4];
        _Alignas(64) unsigned char out[N * 4];
        for (int i = 0; i < N * 4; i++)
            in[i] = (float)((double)(int64_t)rnd64(&s) * 0x1p-55);
        in[0] = 464.0f;
        in[1] = -INFINITY;
        in[2] = NAN;
        CU_ASSERT_EQUAL_FATAL(run("v_f32_e4m3fn", in, out, N), 0);
        int bad = 0;
        for (int i = 0; i < N * 4; i++)
            bad += out[i] != ff_from_double(&ff_f8e4m3fn, in[i], FF_RNE);
        CU_ASSERT_EQUAL(bad, 0);
    }
    {
        _Alignas(64) unsigned char in[N * 8];
        _Alignas(64) uint16_t out[N * 8];
        for (int i = 0; i < N * 8; i++)
            in[i] = (unsigned char)(i * 7 + 3);
        CU_ASSERT_EQUAL_FATAL(run("v_e5m2_f16", in, out, N), 0);
        int bad = 0;
        for (int i = 0; i < N * 8; i++)
            bad += out[i] != ff_from_double(&ff_float16, ff_to_double(&ff_f8e5m2, in[i]), FF_RNE);
        CU_ASSERT_EQUAL(bad, 0);
    }
    {
        _Alignas(64) double in[N * 2];
        _Alignas(64) uint16_t out[N * 2];
        for (int i = 0; i < N * 2; i++)
            in[i] = (double)(int64_t)rnd64(&s) * 0x1p-50;
        CU_ASSERT_EQUAL_FATAL(run("v_f64_f16_up", in, out, N), 0);
        int bad = 0;
        for (int i = 0; i < N * 2; i++)
            bad += out[i] != ff_from_double(&ff_float16, in[i], FF_UP);
        CU_ASSERT_EQUAL(bad, 0);
    }
    {
        _Alignas(64) float in[N * 8];
        _Alignas(64) unsigned char out[N * 8];
        for (int i = 0; i < N * 8; i++)
            in[i] = (float)((double)(int64_t)rnd64(&s) * 0x1p-60);
        CU_ASSERT_EQUAL_FATAL(run("v_f32_fp4_rtz", in, out, N), 0);
        int bad = 0;
        for (int i = 0; i < N * 8; i++)
            bad += out[i] != ff_from_double(&ff_f4e2m1fn, in[i], FF_TOWARD_ZERO);
        CU_ASSERT_EQUAL(bad, 0);
    }
    {
        _Alignas(64) int32_t in[N * 4];
        _Alignas(64) unsigned char out[N * 4];
        for (int i = 0; i < N * 4; i++)
            in[i] = (int32_t)(rnd64(&s) >> (lcg(&s) % 64));
        CU_ASSERT_EQUAL_FATAL(run("v_i32_e8m0", in, out, N), 0);
        int bad = 0;
        for (int i = 0; i < N * 4; i++)
            bad += out[i] != ff_from_big(&ff_f8e8m0fnu, big_from_i64(in[i]), FF_RNE);
        CU_ASSERT_EQUAL(bad, 0);
    }
}

/* a few hand-checked values, independent of floatfmt.c */
static void test_known_values(void)
{
    float in[9] = { 464.0f, 448.0f, 1e6f, -0.0f, 0x1p-10f, 240.0f, 6.5f, -7.0f, 465.0f };
    unsigned char out[9];
    CU_ASSERT_EQUAL_FATAL(run(cname(SC_FLOAT32, SC_F8E4M3FN, 0), in, out, 9), 0);
    CU_ASSERT_EQUAL(out[0], 0x7E);  /* 464 is a tie between 448 and (480): to even, 448 */
    CU_ASSERT_EQUAL(out[8], 0x7F);  /* above it: the NaN pattern */
    CU_ASSERT_EQUAL(out[1], 0x7E);  /* 448, the maximum */
    CU_ASSERT_EQUAL(out[2], 0x7F);
    CU_ASSERT_EQUAL(out[3], 0x80);  /* -0 */
    CU_ASSERT_EQUAL(out[4], 0x00);  /* 2^-10 is half the smallest subnormal 2^-9: tie to even 0 */
    CU_ASSERT_EQUAL_FATAL(run(cname(SC_FLOAT32, SC_F8E4M3FNUZ, 3), in, out, 8), 0);
    CU_ASSERT_EQUAL(out[2], 0x7F);  /* toward zero saturates at 240 */
    CU_ASSERT_EQUAL(out[3], 0x00);  /* no -0 */
    CU_ASSERT_EQUAL(out[5], 0x7F);
    CU_ASSERT_EQUAL_FATAL(run(cname(SC_FLOAT32, SC_F4E2M1FN, 0), in, out, 8), 0);
    CU_ASSERT_EQUAL(out[2], 0x7);   /* saturates at 6.0 */
    CU_ASSERT_EQUAL(out[6], 0x7);   /* 6.5 -> 6 */
    CU_ASSERT_EQUAL(out[7], 0xF);   /* -7 -> -6 */
    float big[2] = { 0x1p127f, 3e38f };
    CU_ASSERT_EQUAL_FATAL(run(cname(SC_FLOAT32, SC_F8E8M0FNU, 2), big, out, 2), 0);
    CU_ASSERT_EQUAL(out[0], 0xFE);
    CU_ASSERT_EQUAL(out[1], 0xFF);  /* above 2^127 upward: NaN */
    uint16_t h[3];
    float hx[3] = { 1.0f + 0x1p-11f, -(1.0f + 0x1p-11f), 65520.0f };
    CU_ASSERT_EQUAL_FATAL(run(cname(SC_FLOAT32, SC_FLOAT16, 2), hx, h, 3), 0);
    CU_ASSERT_EQUAL(h[0], 0x3C01);
    CU_ASSERT_EQUAL(h[1], 0xBC00);
    CU_ASSERT_EQUAL(h[2], 0x7C00);
    CU_ASSERT_EQUAL_FATAL(run(cname(SC_FLOAT32, SC_FLOAT16, 4), hx, h, 3), 0);
    CU_ASSERT_EQUAL(h[0], 0x3C01);  /* exactly halfway: away from zero */
    CU_ASSERT_EQUAL(h[1], 0xBC01);
    CU_ASSERT_EQUAL_FATAL(run(cname(SC_FLOAT32, SC_FLOAT16, 0), hx, h, 3), 0);
    CU_ASSERT_EQUAL(h[0], 0x3C00);  /* halfway: to even */
}

static void test_summary(void)
{
    fprintf(stderr, "\n  %ld conversions checked bit for bit ", g_checked);
    CU_ASSERT(g_checked > 10000000);
}

/* Runs last: fxk_end verified every module the tests built. */
static void test_modules_verified(void)
{
    CU_ASSERT_EQUAL(fxk_unverified, 0);
}

static const FxtTest tests[] = {
    { "hand-checked values", test_known_values },
    { "Float16/BFloat16/Float32/Float64 narrowing, five modes", test_standard_pairs },
    { "to every narrow format, five modes", test_to_narrow },
    { "every narrow encoding to every format, five modes", test_from_narrow },
    { "narrow -> Float32 -> narrow round trip", test_round_trip },
    { "integers to 16-bit and narrow floats round once", test_int_to_float },
    { "16-bit and narrow floats to integers", test_float_to_int },
    { "Boolean <-> narrow", test_boolean },
    { "vector conversions", test_vectors },
    { "coverage", test_summary },
    { "every hand-built module verifies", test_modules_verified },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    cg_install_fatal_handler();
    static const FxtSuite suites[] = { { "conversions on the host", tests, suite_init, suite_clean },
                                       { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
