/* test_waves.c - the wave operations of docs/waves.md, lane by lane, against
 * an independent model written here in plain C (nothing of the compiler's
 * own code is reused: the model follows the table and the reduction tree of
 * docs/waves.md literally).
 *
 * Every kernel runs on the host three ways: the host's own FXIR (wave size
 * 1), gfx942's FXIR with its 64-lane waves emulated and gfx1100's with its
 * 32-lane waves (fxcc --target=host --offload-arch=GFX, as fxrun --arch).
 * Covered: fx.lane_id, fx.wave_size, fx.shuffle/_xor/_up/_down, readlane,
 * readfirstlane, ballot, any, all, wave_sum/max/min for every integer width
 * (Int8..Int128, Uint8..Uint128), Float16, BFloat16, Float32, Float64,
 * Boolean and vectors; full, partial and divergent waves (run-time masks,
 * if/else, early return, loops that lanes leave at different iterations, a
 * fn called from a kernel); source lanes inactive, out of range and negative;
 * readlane with a non-uniform index; 2-D and 3-D blocks (x fastest); the
 * AMDGPU instructions for gfx942 and gfx1100; and located errors. */
#include "fxtest.h"
#include "fxsource.h"
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif
#include "driver/pipeline.h"
#include "runtime/fxrt.h"

/* ------------------------------------------------------------------------
 * Random numbers: xorshift with a fixed seed, so every run is the same.
 * ------------------------------------------------------------------------ */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd64(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int rnd(int n)
{
    return (int)(rnd64() % (uint64_t)n);
}

/* ------------------------------------------------------------------------
 * Compiling and running on the host.
 * ------------------------------------------------------------------------ */

typedef struct Mode {
    const char *name;
    const char *arch;   /* NULL: the host's own FXIR */
    int W;              /* the wave size the model uses */
} Mode;

static const Mode modes[] = {
    { "host", NULL, 1 },
    { "host-as-gfx942", "gfx942", 64 },
    { "host-as-gfx1100", "gfx1100", 32 },
};
#define NMODES ((int)(sizeof modes / sizeof modes[0]))

typedef FxsModule Mod;   /* tests/lib/fxsource */

/* Compile for the host in `md` and JIT. */
static bool mod_open(Mod *m, const char *src, const Mode *md)
{
    return fxs_open_as(m, src, md->arch, NULL);
}

/* Runs kernel k with bounds checks (bytes[i]: the size of Ptr argument i). */
static bool launch(Mod *m, const char *k, const unsigned grid[3], const unsigned block[3], void **args,
                   const size_t *bytes)
{
    char *err = NULL;
    int rc = rt_host_launch_checked(m->hm, k, grid, block, args, bytes, &err);
    if (rc != 0)
        fprintf(stderr, "\n  launch of %s: %s", k, err ? err : "(no message)");
    free(err);
    return rc == 0;
}

/* `tmpl` with every "$T" replaced by `t` (malloc'd). */
static char *subst(const char *tmpl, const char *t)
{
    size_t n = 0;
    for (const char *p = tmpl; *p; p++)
        n += (p[0] == '$' && p[1] == 'T') ? strlen(t) : 1;
    char *s = malloc(n + 1), *q = s;
    for (const char *p = tmpl; *p; p++) {
        if (p[0] == '$' && p[1] == 'T') {
            strcpy(q, t);
            q += strlen(t);
            p++;
        } else {
            *q++ = *p;
        }
    }
    *q = 0;
    return s;
}

/* ------------------------------------------------------------------------
 * The model: element types.
 * ------------------------------------------------------------------------ */

/* K_RAW: a storage-only format (narrow floats): moved, never combined. */
typedef enum Kind { K_SINT, K_UINT, K_F16, K_BF16, K_F32, K_F64, K_BOOL, K_RAW } Kind;

typedef struct Ty {
    const char *name;
    Kind k;
    int es;     /* bytes of one scalar */
    int nl;     /* vector lanes (1: a scalar) */
    int bits;   /* the value's width when narrower than es bytes (Int4, Float4E2M1FN); 0: 8 * es */
} Ty;

#define TSIZE(t) ((t)->es * (t)->nl)

static const Ty types[] = {
    { "Int8", K_SINT, 1, 1, 0 },      { "Int16", K_SINT, 2, 1, 0 },       { "Int32", K_SINT, 4, 1, 0 },
    { "Int64", K_SINT, 8, 1, 0 },     { "Int128", K_SINT, 16, 1, 0 },     { "Uint8", K_UINT, 1, 1, 0 },
    { "Uint16", K_UINT, 2, 1, 0 },    { "Uint32", K_UINT, 4, 1, 0 },      { "Uint64", K_UINT, 8, 1, 0 },
    { "Uint128", K_UINT, 16, 1, 0 },  { "Float16", K_F16, 2, 1, 0 },      { "BFloat16", K_BF16, 2, 1, 0 },
    { "Float32", K_F32, 4, 1, 0 },    { "Float64", K_F64, 8, 1, 0 },      { "Boolean", K_BOOL, 1, 1, 0 },
    { "Float32x4", K_F32, 4, 4, 0 },  { "Float16x4", K_F16, 2, 4, 0 },    { "BFloat16x2", K_BF16, 2, 2, 0 },
    { "Float64x2", K_F64, 8, 2, 0 },  { "Int8x4", K_SINT, 1, 4, 0 },      { "Uint64x2", K_UINT, 8, 2, 0 },
    { "Int16x8", K_SINT, 2, 8, 0 },    { "Int4", K_SINT, 1, 1, 4 },     { "Float8E4M3FN", K_RAW, 1, 1, 0 },
    { "Float8E5M2", K_RAW, 1, 1, 0 }, { "Float4E2M1FN", K_RAW, 1, 1, 4 },
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

static const Ty ty_i32 = { "Int32", K_SINT, 4, 1, 0 };

static bool is_float(Kind k)
{
    return k == K_F16 || k == K_BF16 || k == K_F32 || k == K_F64;
}

/* -- small float formats: decode exactly, encode with round-to-nearest-even -- */

static double fdec(uint32_t bits, int mb, int eb)
{
    uint32_t sign = (bits >> (mb + eb)) & 1, e = (bits >> mb) & ((1u << eb) - 1), m = bits & ((1u << mb) - 1);
    int bias = (1 << (eb - 1)) - 1;
    double v;
    if (e == (1u << eb) - 1)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, 1 - bias - mb);
    else
        v = ldexp((double)(m + (1u << mb)), (int)e - bias - mb);
    return sign ? -v : v;
}

static uint32_t fenc(double x, int mb, int eb)
{
    int bias = (1 << (eb - 1)) - 1;
    uint32_t emask = (1u << eb) - 1;
    uint32_t sign = signbit(x) ? 1u << (mb + eb) : 0;
    if (isnan(x))
        return sign | emask << mb | 1u << (mb - 1);
    x = fabs(x);
    if (isinf(x))
        return sign | emask << mb;
    if (x == 0)
        return sign;
    int e;
    frexp(x, &e);
    int E = e - 1;          /* x = 1.f * 2^E */
    if (E < 1 - bias)
        E = 1 - bias;       /* subnormal: the quantum of the lowest binade */
    double r = nearbyint(ldexp(x, mb - E));   /* ulps of 2^(E - mb), ties to even */
    if (r >= ldexp(1.0, mb + 1)) {
        r /= 2;
        E++;
    }
    if (E > bias)
        return sign | emask << mb;            /* overflow: inf */
    uint32_t ri = (uint32_t)r;
    if (ri < (1u << mb))
        return sign | ri;                      /* subnormal (or zero) */
    return sign | (uint32_t)(E + bias) << mb | (ri - (1u << mb));
}

static uint16_t ld16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static void st16(uint8_t *p, uint16_t v)
{
    memcpy(p, &v, 2);
}

static double f_ld(Kind k, const uint8_t *p)
{
    switch (k) {
    case K_F16: return fdec(ld16(p), 10, 5);
    case K_BF16: return fdec(ld16(p), 7, 8);
    case K_F32: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    default: {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    }
}

/* Stores v rounded (to nearest even) into the format. */
static void f_st(Kind k, uint8_t *p, double v)
{
    switch (k) {
    case K_F16: st16(p, (uint16_t)fenc(v, 10, 5)); break;
    case K_BF16: st16(p, (uint16_t)fenc(v, 7, 8)); break;
    case K_F32: {
        float f = (float)v;
        memcpy(p, &f, 4);
        break;
    }
    default: memcpy(p, &v, 8); break;
    }
}

static bool f_isnan(Kind k, const uint8_t *p)
{
    return isnan(f_ld(k, p));
}

/* -- integers of 1..16 bytes, little-endian -- */

typedef unsigned __int128 u128;
typedef __int128 s128;

static int ibits(const Ty *t)
{
    return t->bits ? t->bits : 8 * t->es;
}

/* v wrapped to the type's width, then sign- (signed) or zero-extended: the
 * form in which the value is stored (Int4: one byte, sign-extended). */
static u128 canon(const Ty *t, u128 v)
{
    int b = ibits(t);
    if (b >= 128)
        return v;
    u128 m = ((u128)1 << b) - 1;
    v &= m;
    if (t->k == K_SINT && (v >> (b - 1)) & 1)
        v |= ~m;
    return v;
}

static u128 ld_u(const uint8_t *p, int n)
{
    u128 v = 0;
    memcpy(&v, p, (size_t)n);
    return v;
}

static s128 ld_s(const uint8_t *p, int n)
{
    int sh = 128 - 8 * n;
    return (s128)(ld_u(p, n) << sh) >> sh;
}

static void st_u(uint8_t *p, int n, u128 v)
{
    memcpy(p, &v, (size_t)n);
}

/* -- the reductions' identities and combine, on one scalar -- */

enum { R_SUM, R_MAX, R_MIN, NRED };
static const char *const red_names[NRED] = { "wave_sum", "wave_max", "wave_min" };

static void m_identity(const Ty *t, int op, uint8_t *p)
{
    int n = t->es;
    if (is_float(t->k)) {
        f_st(t->k, p, op == R_SUM ? -0.0 : op == R_MAX ? -INFINITY : INFINITY);
        return;
    }
    u128 ones = ~(u128)0;
    u128 v;
    int b = ibits(t);
    if (op == R_SUM)
        v = 0;
    else if (t->k == K_UINT)
        v = op == R_MAX ? 0 : ones;
    else    /* signed: MIN is the sign bit alone, MAX all the others */
        v = op == R_MAX ? (u128)1 << (b - 1) : ((u128)1 << (b - 1)) - 1;
    st_u(p, n, canon(t, v));
}

static double fmax_fx(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b)
        return signbit(a) ? b : a;  /* -0.0 < +0.0 */
    return a > b ? a : b;
}

static double fmin_fx(double a, double b)
{
    if (isnan(a) || isnan(b))
        return NAN;
    if (a == b)
        return signbit(a) ? a : b;
    return a < b ? a : b;
}

/* r = combine(a, b), a the lower lane's */
static void m_combine(const Ty *t, int op, const uint8_t *a, const uint8_t *b, uint8_t *r)
{
    int n = t->es;
    uint8_t out[16];
    if (t->k == K_F32 && op == R_SUM) {
        float x, y;
        memcpy(&x, a, 4);
        memcpy(&y, b, 4);
        float z = x + y;     /* one binary32 addition */
        memcpy(out, &z, 4);
    } else if (is_float(t->k)) {
        double x = f_ld(t->k, a), y = f_ld(t->k, b);
        /* Float16/BFloat16/Float64: the double sum is exact for two halves,
         * and rounding it once more to bfloat16 is innocuous (53 >= 2*8+2). */
        double z = op == R_SUM ? x + y : op == R_MAX ? fmax_fx(x, y) : fmin_fx(x, y);
        f_st(t->k, out, z);
    } else if (op == R_SUM) {
        st_u(out, n, canon(t, ld_u(a, n) + ld_u(b, n)));
    } else if (t->k == K_UINT) {
        u128 x = ld_u(a, n), y = ld_u(b, n);
        st_u(out, n, op == R_MAX ? (x > y ? x : y) : (x < y ? x : y));
    } else {
        s128 x = ld_s(a, n), y = ld_s(b, n);
        st_u(out, n, (u128)(op == R_MAX ? (x > y ? x : y) : (x < y ? x : y)));
    }
    memcpy(r, out, (size_t)n);
}

/* The tree of docs/waves.md over lanes 0..W-1 (vectors: per component).
 * val[l]: lane l's value (read only when act[l]). */
static void m_reduce(const Ty *t, int op, int W, const bool *act, const uint8_t *const *val, uint8_t *out)
{
    uint8_t tr[64][16];
    for (int c = 0; c < t->nl; c++) {
        for (int l = 0; l < W; l++) {
            if (act[l])
                memcpy(tr[l], val[l] + c * t->es, (size_t)t->es);
            else
                m_identity(t, op, tr[l]);
        }
        for (int s = 1; s < W; s *= 2)
            for (int i = 0; i + s < W; i += 2 * s)
                m_combine(t, op, tr[i], tr[i + s], tr[i]);
        memcpy(out + c * t->es, tr[0], (size_t)t->es);
    }
}

/* The sequential sum over the active lanes, in lane order (only to show that
 * the data makes the tree's order matter). */
static void m_seq_sum(const Ty *t, int W, const bool *act, const uint8_t *const *val, uint8_t *out)
{
    for (int c = 0; c < t->nl; c++) {
        uint8_t acc[16];
        m_identity(t, R_SUM, acc);
        for (int l = 0; l < W; l++)
            if (act[l])
                m_combine(t, R_SUM, acc, val[l] + c * t->es, acc);
        memcpy(out + c * t->es, acc, (size_t)t->es);
    }
}

/* Equal as results: byte for byte, except that any NaN equals any NaN. */
static bool same_value(const Ty *t, const uint8_t *a, const uint8_t *b)
{
    for (int c = 0; c < t->nl; c++) {
        const uint8_t *x = a + c * t->es, *y = b + c * t->es;
        if (is_float(t->k) && f_isnan(t->k, x) && f_isnan(t->k, y))
            continue;
        if (memcmp(x, y, (size_t)t->es) != 0)
            return false;
    }
    return true;
}

static void hex(char *buf, const uint8_t *p, int n)
{
    buf[0] = 0;
    for (int i = n - 1; i >= 0; i--)
        sprintf(buf + strlen(buf), "%02x", p[i]);
}

/* -- the lane-moving operations: which lane's value lane l gets -- */

enum { OP_SHUFFLE, OP_XOR, OP_UP, OP_DOWN, OP_READLANE, OP_READFIRST, NSHUF };
static const char *const shuf_names[NSHUF] = { "shuffle", "shuffle_xor", "shuffle_up", "shuffle_down",
                                                "readlane", "readfirstlane" };

static int m_first(int W, const bool *act)
{
    for (int l = 0; l < W; l++)
        if (act[l])
            return l;
    return -1;
}

static int floormod(int64_t a, int W)
{
    int64_t r = a % W;
    return (int)(r < 0 ? r + W : r);
}

static int m_src(int op, int W, const bool *act, const int32_t *arg, int l)
{
    int64_t j = 0;
    int first = m_first(W, act);
    switch (op) {
    case OP_SHUFFLE: j = floormod(arg[l], W); break;
    case OP_XOR: j = (int32_t)(l ^ arg[l]); break;
    case OP_UP: j = (int64_t)l - arg[l]; break;
    case OP_DOWN: j = (int32_t)((uint32_t)l + (uint32_t)arg[l]); break;   /* wraps as Int32 */
    case OP_READFIRST: return first;
    case OP_READLANE: {
        int s = floormod(arg[first], W);
        return act[s] ? s : first;
    }
    }
    return (j >= 0 && j < W && act[j]) ? (int)j : l;
}

static uint64_t m_ballot(int W, const bool *act, const bool *b)
{
    uint64_t r = 0;
    for (int l = 0; l < W; l++)
        if (act[l] && b[l])
            r |= 1ull << l;
    return r;
}

/* -- convenience for Int32 data -- */

static int32_t m_red_i32(int op, int W, const bool *act, const int32_t *v)
{
    const uint8_t *val[64];
    for (int l = 0; l < W; l++)
        val[l] = (const uint8_t *)&v[l];
    int32_t r;
    m_reduce(&ty_i32, op, W, act, val, (uint8_t *)&r);
    return r;
}

static int32_t wrap_mul(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a * (uint32_t)b);
}

static int32_t wrap_add(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a + (uint32_t)b);
}

/* ------------------------------------------------------------------------
 * Generating data.
 * ------------------------------------------------------------------------ */

static int prec(Kind k)
{
    return k == K_F16 ? 11 : k == K_BF16 ? 8 : k == K_F32 ? 24 : 53;
}

static int emax(Kind k)
{
    return k == K_F16 ? 15 : k == K_F64 ? 1023 : 127;
}

/* One float: mixed magnitudes (big values that absorb 1, values a few
 * binades apart), zeros of both signs; with specials also inf, NaN (with a
 * payload), the largest finite value and the smallest subnormal. */
static void gen_float(Kind k, uint8_t *p, bool specials)
{
    int pr = prec(k), mb = pr - 1, em = emax(k);
    double sign = rnd(2) ? -1.0 : 1.0;
    int r = rnd(100);
    if (specials && r < 10) {
        switch (rnd(7)) {
        case 0: f_st(k, p, sign * INFINITY); return;
        case 1: {   /* a quiet NaN with a random payload and sign */
            if (k == K_F16)
                st16(p, (uint16_t)(0x7e00 | rnd(0x200) | (rnd(2) << 15)));
            else if (k == K_BF16)
                st16(p, (uint16_t)(0x7fc0 | rnd(0x40) | (rnd(2) << 15)));
            else if (k == K_F32) {
                uint32_t u = 0x7fc00000u | (uint32_t)rnd(0x400000) | (uint32_t)rnd(2) << 31;
                memcpy(p, &u, 4);
            } else {
                uint64_t u = 0x7ff8000000000000ull | (rnd64() & 0x7ffffffffffffull) | (uint64_t)rnd(2) << 63;
                memcpy(p, &u, 8);
            }
            return;
        }
        case 2: f_st(k, p, sign * ldexp(2.0 - ldexp(1.0, -mb), em)); return;    /* largest finite */
        case 3: f_st(k, p, sign * ldexp(1.0, 1 - (em) - mb)); return;           /* smallest subnormal */
        default: f_st(k, p, sign * 0.0); return;
        }
    }
    if (r < 15) {
        f_st(k, p, sign * 0.0);
    } else if (r < 45) {
        /* the 1e8, 1, -1e8 pattern: big values that swallow small ones */
        f_st(k, p, rnd(3) ? sign * ldexp(1.0 + rnd(4), mb) : sign);
    } else {
        double m = 1.0 + ldexp((double)(rnd64() >> (64 - mb)), -mb);
        int hi = pr + 2 < em - 8 ? pr + 2 : em - 8;
        int e = -(pr + 2) + rnd(hi + pr + 3);
        f_st(k, p, sign * ldexp(m, e));
    }
}

static void gen_int(const Ty *t, uint8_t *p)
{
    int n = t->es;
    int r = rnd(10);
    u128 v;
    if (r < 3) {
        v = (u128)(s128)(rnd(9) - 4);
    } else if (r < 5) {
        u128 top = (u128)1 << (8 * n - 1);
        switch (rnd(4)) {
        case 0: v = top; break;          /* signed MIN */
        case 1: v = top - 1; break;      /* signed MAX */
        case 2: v = ~(u128)0; break;     /* -1, unsigned MAX */
        default: v = top + 1; break;
        }
    } else {
        v = (u128)rnd64() << 64 | rnd64();
    }
    if (ibits(t) < 8 * n && r >= 3 && r < 5)   /* Int4: its own extremes */
        v = (u128)(s128)(rnd(2) ? -8 : 7);
    st_u(p, n, canon(t, v));
}

static void gen_value(const Ty *t, uint8_t *p, bool specials)
{
    for (int c = 0; c < t->nl; c++) {
        uint8_t *q = p + c * t->es;
        if (t->k == K_BOOL)
            q[0] = (uint8_t)rnd(2);
        else if (t->k == K_RAW)   /* any encoding, in the low `bits` bits */
            q[0] = (uint8_t)(rnd(256) & ((1 << ibits(t)) - 1));
        else if (is_float(t->k))
            gen_float(t->k, q, specials);
        else
            gen_int(t, q);
    }
}

/* A lane argument: in and around the wave, negative, extreme. */
static int32_t gen_lane_arg(int W)
{
    if (W < 32)
        W = 64;
    switch (rnd(10)) {
    case 0: case 1: case 2: case 3: return -W - 2 + rnd(3 * W + 5);
    case 4: case 5: return rnd(W);
    case 6: return rnd(7) - 3;
    case 7: {
        static const int32_t ext[] = { INT32_MIN, INT32_MAX, -1, INT32_MIN + 1, INT32_MAX - 1 };
        return ext[rnd(5)];
    }
    case 8: return rnd(2) ? W : -W;
    default: return (int32_t)(uint32_t)rnd64();
    }
}

/* Which work-items take part: the launch's active mask. */
enum { MASK_ALL, MASK_HALF, MASK_SPARSE, MASK_ONE, NMASKS };

static void gen_mask(int32_t *c, int nblocks, int B, int W, int kind)
{
    for (int b = 0; b < nblocks; b++) {
        for (int t = 0; t < B; t++) {
            int32_t *p = &c[b * B + t];
            switch (kind) {
            case MASK_ALL: *p = 1; break;
            case MASK_HALF: *p = rnd(100) < 60; break;
            case MASK_SPARSE: *p = rnd(100) < 8; break;
            default: *p = 0; break;
            }
        }
        if (kind == MASK_ONE)   /* one random lane per wave */
            for (int w = 0; w * W < B; w++) {
                int n = B - w * W < W ? B - w * W : W;
                c[b * B + w * W + rnd(n)] = 1;
            }
    }
}

/* ------------------------------------------------------------------------
 * Every type through every operation, against the model.
 * ------------------------------------------------------------------------ */

static const char *const shuffle_src =
    "kernel sh(x: Ptr[$T], s: Ptr[Int32], c: Ptr[Int32], o: Ptr[$T]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let v = x[g]\n"
    "    let a = s[g]\n"
    "    if c[g] != 0 {\n"
    "        o[6 * g] = fx.shuffle(v, a)\n"
    "        o[6 * g + 1] = fx.shuffle_xor(v, a)\n"
    "        o[6 * g + 2] = fx.shuffle_up(v, a)\n"
    "        o[6 * g + 3] = fx.shuffle_down(v, a)\n"
    "        o[6 * g + 4] = fx.readlane(v, a)\n"
    "        o[6 * g + 5] = fx.readfirstlane(v)\n"
    "    }\n"
    "}\n";

static const char *const reduce_src =
    "kernel rd(x: Ptr[$T], c: Ptr[Int32], o: Ptr[$T]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let v = x[g]\n"
    "    if c[g] != 0 {\n"
    "        o[3 * g] = fx.wave_sum(v)\n"
    "        o[3 * g + 1] = fx.wave_max(v)\n"
    "        o[3 * g + 2] = fx.wave_min(v)\n"
    "    }\n"
    "}\n"
    /* the same without a branch around the operations */
    "kernel rdfull(x: Ptr[$T], o: Ptr[$T]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    o[3 * g] = fx.wave_sum(x[g])\n"
    "    o[3 * g + 1] = fx.wave_max(x[g])\n"
    "    o[3 * g + 2] = fx.wave_min(x[g])\n"
    "}\n";

static const char *const bool_src =
    "kernel bl(b: Ptr[Boolean], c: Ptr[Int32], o: Ptr[Uint64], q: Ptr[Boolean], n: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    if c[g] != 0 {\n"
    "        o[g] = fx.ballot(b[g])\n"
    "        q[2 * g] = fx.any(b[g])\n"
    "        q[2 * g + 1] = fx.all(b[g])\n"
    "        n[3 * g] = fx.wave_sum(b[g])\n"
    "        n[3 * g + 1] = fx.wave_max(b[g])\n"
    "        n[3 * g + 2] = fx.wave_min(b[g])\n"
    "    }\n"
    "}\n";

typedef struct Cfg {
    unsigned grid, block;
} Cfg;

static const Cfg cfgs[] = { { 2, 100 }, { 1, 64 }, { 3, 40 }, { 1, 7 } };
#define NCFGS ((int)(sizeof cfgs / sizeof cfgs[0]))

#define SENTINEL 0xA5

/* Failures are counted and the first few printed. */
static int bad_count;
static int report_base;         /* bad_count when the current test began: each test prints its first few */
static int order_sensitive;     /* waves where the float tree differs from the sequential sum */

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
    if (bad_count++ - report_base < 8) {
        va_list ap;
        va_start(ap, fmt);
        fputs("\n  ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
}

/* The lanes of wave w of block b: act[l], and the work-item of lane l. */
static int wave_lanes(int b, int B, int W, int w, const int32_t *c, bool *act, int *gid)
{
    int n = 0;
    for (int l = 0; l < W; l++) {
        int t = w * W + l;
        act[l] = false;
        gid[l] = -1;
        if (t < B) {
            gid[l] = b * B + t;
            act[l] = c ? c[gid[l]] != 0 : true;
            n++;
        }
    }
    return n;
}

static bool untouched(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != SENTINEL)
            return false;
    return true;
}

static void check_shuffles(const Ty *t, const Mode *md, const Cfg *cf, int mask, const uint8_t *x,
                           const int32_t *s, const int32_t *c, const uint8_t *o)
{
    int W = md->W, B = (int)cf->block, sz = TSIZE(t);
    for (int b = 0; b < (int)cf->grid; b++)
        for (int w = 0; w * W < B; w++) {
            bool act[64];
            int gid[64];
            int32_t arg[64];
            wave_lanes(b, B, W, w, c, act, gid);
            for (int l = 0; l < W; l++)
                arg[l] = gid[l] >= 0 ? s[gid[l]] : 0;
            for (int l = 0; l < W; l++) {
                int g = gid[l];
                if (g < 0)
                    continue;
                if (!act[l]) {
                    if (!untouched(o + (size_t)6 * g * sz, (size_t)6 * sz))
                        report("%s %s: inactive work-item %d wrote", t->name, md->name, g);
                    continue;
                }
                for (int op = 0; op < NSHUF; op++) {
                    int src = m_src(op, W, act, arg, l);
                    const uint8_t *want = x + (size_t)gid[src] * sz, *got = o + ((size_t)6 * g + op) * sz;
                    if (memcmp(want, got, (size_t)sz) != 0) {
                        char hw[80], hg[80];
                        hex(hw, want, sz);
                        hex(hg, got, sz);
                        report("%s %s grid %u block %u mask %d: fx.%s(v, %d) in work-item %d (lane %d): "
                               "want lane %d's %s, got %s",
                               t->name, md->name, cf->grid, cf->block, mask, shuf_names[op], arg[l], g, l, src,
                               hw, hg);
                    }
                }
            }
        }
}

static void check_reductions(const Ty *t, const Mode *md, const Cfg *cf, int mask, const uint8_t *x,
                             const int32_t *c, const uint8_t *o, bool count_order)
{
    int W = md->W, B = (int)cf->block, sz = TSIZE(t);
    for (int b = 0; b < (int)cf->grid; b++)
        for (int w = 0; w * W < B; w++) {
            bool act[64];
            int gid[64];
            const uint8_t *val[64];
            wave_lanes(b, B, W, w, c, act, gid);
            for (int l = 0; l < W; l++)
                val[l] = gid[l] >= 0 ? x + (size_t)gid[l] * sz : NULL;
            if (m_first(W, act) < 0)
                continue;
            uint8_t want[NRED][64];
            for (int op = 0; op < NRED; op++)
                m_reduce(t, op, W, act, val, want[op]);
            if (count_order && is_float(t->k)) {
                uint8_t seq[64];
                m_seq_sum(t, W, act, val, seq);
                order_sensitive += !same_value(t, seq, want[R_SUM]);
            }
            for (int l = 0; l < W; l++) {
                int g = gid[l];
                if (g < 0)
                    continue;
                if (!act[l]) {
                    if (!untouched(o + (size_t)3 * g * sz, (size_t)3 * sz))
                        report("%s %s: inactive work-item %d wrote", t->name, md->name, g);
                    continue;
                }
                for (int op = 0; op < NRED; op++) {
                    const uint8_t *got = o + ((size_t)3 * g + op) * sz;
                    if (!same_value(t, want[op], got)) {
                        char hw[80], hg[80];
                        hex(hw, want[op], sz);
                        hex(hg, got, sz);
                        report("%s %s grid %u block %u mask %d: fx.%s in work-item %d (lane %d of wave %d of "
                               "block %d): want %s, got %s",
                               t->name, md->name, cf->grid, cf->block, mask, red_names[op], g, l, w, b, hw, hg);
                    }
                }
            }
        }
}

static void check_booleans(const Mode *md, const Cfg *cf, int mask, const uint8_t *bv, const int32_t *c,
                           const uint64_t *o, const uint8_t *q, const int32_t *n)
{
    int W = md->W, B = (int)cf->block;
    for (int b = 0; b < (int)cf->grid; b++)
        for (int w = 0; w * W < B; w++) {
            bool act[64], val[64];
            int gid[64];
            int32_t iv[64];
            wave_lanes(b, B, W, w, c, act, gid);
            for (int l = 0; l < W; l++) {
                val[l] = gid[l] >= 0 && bv[gid[l]];
                iv[l] = val[l];
            }
            uint64_t ballot = m_ballot(W, act, val);
            bool any = false, all = true;
            for (int l = 0; l < W; l++)
                if (act[l]) {
                    any |= val[l];
                    all &= val[l];
                }
            int32_t red[NRED];
            for (int op = 0; op < NRED; op++)
                red[op] = m_red_i32(op, W, act, iv);
            for (int l = 0; l < W; l++) {
                int g = gid[l];
                if (g < 0 || !act[l])
                    continue;
                if (o[g] != ballot)
                    report("Boolean %s grid %u block %u mask %d: fx.ballot in work-item %d: want %#llx, got %#llx",
                           md->name, cf->grid, cf->block, mask, g, (unsigned long long)ballot,
                           (unsigned long long)o[g]);
                if (q[2 * g] != any || q[2 * g + 1] != all)
                    report("Boolean %s mask %d: fx.any/fx.all in work-item %d: want %d/%d, got %d/%d", md->name, mask,
                           g, any, all, q[2 * g], q[2 * g + 1]);
                for (int op = 0; op < NRED; op++)
                    if (n[3 * g + op] != red[op])
                        report("Boolean %s mask %d: fx.%s in work-item %d: want %d, got %d", md->name, mask,
                               red_names[op], g, red[op], n[3 * g + op]);
            }
        }
}

static void run_type(const Ty *t)
{
    bool boolean = t->k == K_BOOL, raw = t->k == K_RAW;
    char *s1 = subst(shuffle_src, t->name), *s2 = subst(boolean ? bool_src : raw ? "" : reduce_src, t->name);
    char *src = malloc(strlen(s1) + strlen(s2) + 2);
    sprintf(src, "%s\n%s", s1, s2);
    free(s1);
    free(s2);
    int sz = TSIZE(t);
    int before = report_base = bad_count;
    order_sensitive = 0;
    for (int mi = 0; mi < NMODES; mi++) {
        const Mode *md = &modes[mi];
        Mod m;
        bool ok = mod_open(&m, src, md);
        CU_ASSERT(ok);
        if (!ok) {
            fprintf(stderr, "\n  %s: the kernels of %s do not compile", md->name, t->name);
            fxs_close(&m);
            continue;
        }
        for (int ci = 0; ci < NCFGS; ci++) {
            const Cfg *cf = &cfgs[ci];
            int N = (int)(cf->grid * cf->block);
            unsigned grid[3] = { cf->grid, 1, 1 }, block[3] = { cf->block, 1, 1 };
            uint8_t *x = malloc((size_t)N * sz), *o = malloc((size_t)6 * N * sz);
            int32_t *s = malloc((size_t)N * 4), *c = malloc((size_t)N * 4);
            for (int mask = 0; mask < NMASKS; mask++)
                for (int data = 0; data < 2; data++) {
                    bool specials = data == 1;
                    gen_mask(c, (int)cf->grid, (int)cf->block, md->W, mask);
                    for (int i = 0; i < N; i++)
                        gen_value(t, x + (size_t)i * sz, specials);
                    /* lane arguments: per lane, or one for the whole launch */
                    int32_t uni = gen_lane_arg(md->W);
                    for (int i = 0; i < N; i++)
                        s[i] = data == 0 ? gen_lane_arg(md->W) : uni;
                    /* shuffles */
                    memset(o, SENTINEL, (size_t)6 * N * sz);
                    void *px = x, *ps = s, *pc = c, *po = o;
                    void *a1[] = { &px, &ps, &pc, &po };
                    size_t b1[] = { (size_t)N * sz, (size_t)N * 4, (size_t)N * 4, (size_t)6 * N * sz };
                    if (launch(&m, "sh", grid, block, a1, b1))
                        check_shuffles(t, md, cf, mask, x, s, c, o);
                    else
                        report("%s %s: sh did not run", t->name, md->name);
                    if (boolean) {
                        /* ballot, any, all, and the reductions of a Boolean (as Int32) */
                        for (int i = 0; i < N; i++)   /* densities: all true, all false, mixed */
                            x[i] = (uint8_t)(mask == 0 ? data == 0 : mask == 1 ? (data == 0 ? 0 : rnd(2))
                                                                               : rnd(100) < (data ? 90 : 10));
                        uint64_t *ob = malloc((size_t)N * 8);
                        uint8_t *q = malloc((size_t)2 * N);
                        int32_t *n = malloc((size_t)3 * N * 4);
                        memset(ob, SENTINEL, (size_t)N * 8);
                        memset(q, SENTINEL, (size_t)2 * N);
                        memset(n, SENTINEL, (size_t)3 * N * 4);
                        void *pob = ob, *pq = q, *pn = n;
                        void *a3[] = { &px, &pc, &pob, &pq, &pn };
                        size_t b3[] = { (size_t)N, (size_t)N * 4, (size_t)N * 8, (size_t)2 * N, (size_t)3 * N * 4 };
                        if (launch(&m, "bl", grid, block, a3, b3))
                            check_booleans(md, cf, mask, x, c, ob, q, n);
                        else
                            report("Boolean %s: bl did not run", md->name);
                        free(ob);
                        free(q);
                        free(n);
                        continue;
                    }
                    if (raw)
                        continue;
                    /* reductions, under the mask */
                    memset(o, SENTINEL, (size_t)3 * N * sz);
                    void *a2[] = { &px, &pc, &po };
                    size_t b2[] = { (size_t)N * sz, (size_t)N * 4, (size_t)3 * N * sz };
                    if (launch(&m, "rd", grid, block, a2, b2))
                        check_reductions(t, md, cf, mask, x, c, o, !specials);
                    else
                        report("%s %s: rd did not run", t->name, md->name);
                    /* and without a branch */
                    if (mask == MASK_ALL) {
                        memset(o, SENTINEL, (size_t)3 * N * sz);
                        void *a4[] = { &px, &po };
                        size_t b4[] = { (size_t)N * sz, (size_t)3 * N * sz };
                        if (launch(&m, "rdfull", grid, block, a4, b4))
                            check_reductions(t, md, cf, mask, x, NULL, o, false);
                        else
                            report("%s %s: rdfull did not run", t->name, md->name);
                    }
                }
            free(x);
            free(o);
            free(s);
            free(c);
        }
        fxs_close(&m);
    }
    free(src);
    CU_ASSERT_EQUAL(bad_count - before, 0);
    /* the float data must be such that the tree's order shows */
    if (is_float(t->k)) {
        CU_ASSERT(order_sensitive > 0);
        if (order_sensitive == 0)
            fprintf(stderr, "\n  %s: no wave where the tree and the sequential sum differ", t->name);
    }
}

#define TYPE_TEST(i) \
    static void test_type_##i(void) { run_type(&types[i]); }
TYPE_TEST(0) TYPE_TEST(1) TYPE_TEST(2) TYPE_TEST(3) TYPE_TEST(4) TYPE_TEST(5) TYPE_TEST(6) TYPE_TEST(7)
TYPE_TEST(8) TYPE_TEST(9) TYPE_TEST(10) TYPE_TEST(11) TYPE_TEST(12) TYPE_TEST(13) TYPE_TEST(14)
TYPE_TEST(15) TYPE_TEST(16) TYPE_TEST(17) TYPE_TEST(18) TYPE_TEST(19) TYPE_TEST(20) TYPE_TEST(21)
TYPE_TEST(22) TYPE_TEST(23) TYPE_TEST(24) TYPE_TEST(25)

/* ------------------------------------------------------------------------
 * Hand-computed examples: the tree's order, identities, wrapping (these
 * also check the model itself, which must agree with the hand values).
 * ------------------------------------------------------------------------ */

typedef struct Example {
    const Ty *t;
    int n;                  /* active lanes: 0..n-1 of one wave (block n) */
    double in[4];           /* for ints: the integer value */
    int op;
    double want;            /* W >= 4; W == 1 gives each lane its own value */
    bool want_neg_zero;
} Example;

static void put_num(const Ty *t, uint8_t *p, double v)
{
    if (is_float(t->k))
        f_st(t->k, p, v);
    else
        st_u(p, t->es, (u128)(s128)(int64_t)v);
}

/* One module per type and mode, compiled when first needed. */
static struct {
    const Ty *t;
    Mod *m[NMODES];
} exmods[8];
static int nexmods;

static Mod *example_module(const Ty *t, int mi)
{
    int i = 0;
    while (i < nexmods && exmods[i].t != t)
        i++;
    if (i == nexmods) {
        exmods[i].t = t;
        memset(exmods[i].m, 0, sizeof exmods[i].m);
        nexmods++;
    }
    if (!exmods[i].m[mi]) {
        char *src = subst(reduce_src, t->name);
        Mod *m = calloc(1, sizeof *m);
        if (!mod_open(m, src, &modes[mi])) {
            fxs_close(m);
            free(m);
            m = NULL;
        }
        free(src);
        exmods[i].m[mi] = m;
    }
    return exmods[i].m[mi];
}

static void test_examples(void)
{
    static const Ty f32 = { "Float32", K_F32, 4, 1, 0 }, f16 = { "Float16", K_F16, 2, 1, 0 },
                    bf16 = { "BFloat16", K_BF16, 2, 1, 0 }, i8 = { "Int8", K_SINT, 1, 1, 0 },
                    u16 = { "Uint16", K_UINT, 2, 1, 0 }, f64 = { "Float64", K_F64, 8, 1, 0 };
    const Example ex[] = {
        /* (1e8 + 1) + (-1e8 + 1) = 1e8 - 1e8 = 0; the sequential sum is 1 */
        { &f32, 4, { 1e8, 1, -1e8, 1 }, R_SUM, 0.0, false },
        /* 2048 + 1 is a tie in Float16 and stays 2048; 1 + 1 = 2; 2048 + 2 = 2050 (sequentially: 2048) */
        { &f16, 4, { 2048, 1, 1, 1 }, R_SUM, 2050, false },
        { &bf16, 4, { 256, 1, 1, 1 }, R_SUM, 258, false },
        /* (2^53 + 1) + (1 + 1) = 2^53 + 2 (sequentially: 2^53) */
        { &f64, 4, { 0x1p53, 1, 1, 1 }, R_SUM, 0x1p53 + 2, false },
        /* the identity -0.0 keeps a sum of -0.0s negative */
        { &f32, 3, { -0.0, -0.0, -0.0, 0 }, R_SUM, -0.0, true },
        { &f16, 2, { -0.0, 0.0, 0, 0 }, R_SUM, 0.0, false },
        /* NaN propagates through max and min; -0.0 < +0.0 */
        { &f32, 4, { 1, NAN, 3, 2 }, R_MAX, NAN, false },
        { &f16, 4, { 1, -INFINITY, NAN, 2 }, R_MIN, NAN, false },
        { &f32, 2, { -0.0, 0.0, 0, 0 }, R_MAX, 0.0, false },
        { &f32, 2, { 0.0, -0.0, 0, 0 }, R_MIN, -0.0, true },
        { &f64, 2, { INFINITY, -INFINITY, 0, 0 }, R_SUM, NAN, false },
        /* integers wrap: 100 + 100 = -56, 100 + -128 = -28, -56 + -28 = -84 */
        { &i8, 4, { 100, 100, 100, -128 }, R_SUM, -84, false },
        { &u16, 3, { 65535, 2, 65535, 0 }, R_SUM, 0xFFFF + 2 + 0xFFFF - 0x20000, false },
        { &i8, 3, { -128, -1, -127, 0 }, R_MAX, -1, false },
    };
    int bad = 0;
    for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
        const Example *x = &ex[e];
        const Ty *t = x->t;
        int sz = t->es;
        uint8_t want[16];
        put_num(t, want, x->want);
        if (x->want_neg_zero)
            f_st(t->k, want, -0.0);
        /* the model agrees with the hand value */
        bool act[64] = { false };
        const uint8_t *val[64];
        uint8_t in[4][16];
        for (int l = 0; l < 64; l++)
            val[l] = in[0];
        for (int l = 0; l < x->n; l++) {
            put_num(t, in[l], x->in[l]);
            act[l] = true;
            val[l] = in[l];
        }
        for (int W = 32; W <= 64; W += 32) {
            uint8_t got[16];
            m_reduce(t, x->op, W, act, val, got);
            if (!same_value(t, want, got)) {
                fprintf(stderr, "\n  model: example %zu (%s) is wrong for W = %d", e, t->name, W);
                bad++;
            }
        }
        /* and so does every mode */
        for (int mi = 0; mi < NMODES; mi++) {
            Mod *mp = example_module(t, mi);
            if (!mp) {
                CU_FAIL("does not compile");
                continue;
            }
            Mod *m = mp;
            uint8_t xin[4 * 16], o[3 * 4 * 16];
            for (int l = 0; l < x->n; l++)
                memcpy(xin + l * sz, in[l], (size_t)sz);
            memset(o, SENTINEL, sizeof o);
            void *px = xin, *po = o;
            void *args[] = { &px, &po };
            size_t bytes[] = { (size_t)x->n * sz, (size_t)3 * x->n * sz };
            unsigned grid[3] = { 1, 1, 1 }, block[3] = { (unsigned)x->n, 1, 1 };
            if (!launch(m, "rdfull", grid, block, args, bytes)) {
                bad++;
            } else {
                for (int l = 0; l < x->n; l++) {
                    const uint8_t *w = modes[mi].W == 1 ? in[l] : want;
                    const uint8_t *g = o + (3 * l + x->op) * sz;
                    if (!same_value(t, w, g)) {
                        char hw[40], hg[40];
                        hex(hw, w, sz);
                        hex(hg, g, sz);
                        fprintf(stderr, "\n  %s: example %zu: fx.%s over %d %s lanes, lane %d: want %s, got %s",
                                modes[mi].name, e, red_names[x->op], x->n, t->name, l, hw, hg);
                        bad++;
                    }
                }
            }
        }
    }
    for (int i = 0; i < nexmods; i++)
        for (int mi = 0; mi < NMODES; mi++)
            if (exmods[i].m[mi]) {
                fxs_close(exmods[i].m[mi]);
                free(exmods[i].m[mi]);
            }
    nexmods = 0;
    CU_ASSERT_EQUAL(bad, 0);
}

/* The model's float encoder against known values. */
static void test_model_formats(void)
{
    CU_ASSERT_EQUAL(fenc(1.0, 10, 5), 0x3c00);
    CU_ASSERT_EQUAL(fenc(1.0 + 0x1p-11, 10, 5), 0x3c00);             /* tie to even */
    CU_ASSERT_EQUAL(fenc(1.0 + 3 * 0x1p-11, 10, 5), 0x3c02);         /* tie to even, up */
    CU_ASSERT_EQUAL(fenc(65504.0, 10, 5), 0x7bff);
    CU_ASSERT_EQUAL(fenc(65519.0, 10, 5), 0x7bff);
    CU_ASSERT_EQUAL(fenc(65520.0, 10, 5), 0x7c00);                   /* rounds to inf */
    CU_ASSERT_EQUAL(fenc(0x1p-24, 10, 5), 0x0001);                   /* smallest subnormal */
    CU_ASSERT_EQUAL(fenc(0x1p-25, 10, 5), 0x0000);                   /* tie to even: 0 */
    CU_ASSERT_EQUAL(fenc(3 * 0x1p-25, 10, 5), 0x0002);
    CU_ASSERT_EQUAL(fenc(0x1p-14 - 0x1p-25, 10, 5), 0x0400);         /* rounds up into the normals */
    CU_ASSERT_EQUAL(fenc(-0.0, 10, 5), 0x8000);
    CU_ASSERT_EQUAL(fenc(1.0, 7, 8), 0x3f80);
    CU_ASSERT_EQUAL(fenc(1.0 + 0x1p-8, 7, 8), 0x3f80);
    CU_ASSERT_EQUAL(fenc(1.0 + 3 * 0x1p-8, 7, 8), 0x3f82);
    CU_ASSERT_EQUAL(fenc(0x1p-133, 7, 8), 0x0001);
    CU_ASSERT_EQUAL(fenc(0x1.ffp127, 7, 8), 0x7f80);                 /* past the largest: inf */
    CU_ASSERT(fdec(0x7bff, 10, 5) == 65504.0);
    CU_ASSERT(fdec(0x0001, 10, 5) == 0x1p-24);
    CU_ASSERT(fdec(0xfc00, 10, 5) == -INFINITY);
    CU_ASSERT(fdec(0x4049, 7, 8) == 3.140625);
    int bad = 0;
    for (uint32_t b = 0; b < 0x10000; b++) {   /* every half and bfloat16 but the NaNs round-trips */
        if ((b & 0x7c00) != 0x7c00 || !(b & 0x3ff))
            bad += fenc(fdec(b, 10, 5), 10, 5) != b;
        if ((b & 0x7f80) != 0x7f80 || !(b & 0x7f))
            bad += fenc(fdec(b, 7, 8), 7, 8) != b;
    }
    CU_ASSERT_EQUAL(bad, 0);
}

/* ------------------------------------------------------------------------
 * Lane ids, wave size, and divergence written in the kernel.
 * ------------------------------------------------------------------------ */

static const char *const control_src =
    "fn wsum(v: Int32) -> Int32 {\n"
    "    return fx.wave_sum(v)\n"
    "}\n"
    "\n"
    "kernel ids(o: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    o[2 * g] = fx.lane_id()\n"
    "    o[2 * g + 1] = fx.wave_size()\n"
    "}\n"
    "\n"
    "kernel branch(x: Ptr[Int32], o: Ptr[Int32], b: Ptr[Uint64]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let l = fx.lane_id()\n"
    "    let v = x[g]\n"
    "    if l % 3 == 0 {\n"
    "        o[10 * g] = fx.wave_sum(v)\n"
    "        o[10 * g + 1] = fx.shuffle(v, l + 1)\n"
    "        o[10 * g + 2] = fx.shuffle_down(v, 3)\n"
    "        b[2 * g] = fx.ballot(v % 2 == 0)\n"
    "    } else {\n"
    "        o[10 * g] = fx.wave_max(v)\n"
    "        o[10 * g + 1] = fx.readfirstlane(v)\n"
    "        o[10 * g + 2] = fx.shuffle_up(v, 1)\n"
    "        b[2 * g] = fx.ballot(True)\n"
    "    }\n"
    "    if l < 5 {\n"
    "        o[10 * g + 3] = fx.readlane(v, 7 - l)\n"
    "        o[10 * g + 4] = fx.readlane(v, l + 1)\n"
    "        o[10 * g + 5] = wsum(v)\n"
    "    }\n"
    "    if l >= 2 {\n"
    "        if v % 2 == 0 {\n"
    "            o[10 * g + 6] = fx.wave_min(v)\n"
    "        }\n"
    "        o[10 * g + 7] = fx.wave_sum(1)\n"
    "    }\n"
    "    o[10 * g + 8] = fx.wave_sum(1)\n"
    "    o[10 * g + 9] = fx.any(l == 7).select(1, 0)\n"
    "    b[2 * g + 1] = fx.ballot(l >= 5)\n"
    "}\n"
    "\n"
    "kernel ret(x: Ptr[Int32], o: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let l = fx.lane_id()\n"
    "    let v = x[g]\n"
    "    if l % 4 == 1 {\n"
    "        return\n"
    "    }\n"
    "    o[2 * g] = fx.wave_sum(v)\n"
    "    if v > 0 {\n"
    "        return\n"
    "    }\n"
    "    o[2 * g + 1] = fx.wave_min(v)\n"
    "}\n"
    "\n"
    "kernel loops(x: Ptr[Int32], t: Ptr[Int32], o: Ptr[Int32], p: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let n = t[g]\n"
    "    var k = 0\n"
    "    while k < n {\n"
    "        o[8 * g + k] = fx.wave_sum(x[g] + k)\n"
    "        k += 1\n"
    "    }\n"
    "    p[4 * g] = fx.wave_sum(k)\n"
    "    var acc = 0\n"
    "    for i in range(8) {\n"
    "        if i == n {\n"
    "            break\n"
    "        }\n"
    "        acc += fx.wave_max(x[g] * (i + 1))\n"
    "    }\n"
    "    p[4 * g + 1] = acc\n"
    "    p[4 * g + 2] = fx.readfirstlane(n)\n"
    "    p[4 * g + 3] = fx.wave_sum(1)\n"
    "}\n"
    "\n"
    /* a while (with its own trip counts) in a for, an operation after it */
    "kernel nested(x: Ptr[Int32], t: Ptr[Int32], o: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    var acc = 0\n"
    "    for j in range(3) {\n"
    "        var k = 0\n"
    "        while k < t[g] + j - 1 {\n"
    "            acc += fx.wave_sum(x[g] + k)\n"
    "            k += 1\n"
    "        }\n"
    "        o[4 * g + j] = fx.wave_max(acc)\n"
    "    }\n"
    "    o[4 * g + 3] = acc\n"
    "}\n"
    "\n"
    /* lanes returning from inside a loop */
    "kernel loopret(t: Ptr[Int32], o: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    for i in range(8) {\n"
    "        if i == t[g] {\n"
    "            return\n"
    "        }\n"
    "        o[8 * g + i] = fx.wave_sum(t[g])\n"
    "    }\n"
    "}\n"
    "\n"
    /* an operation under an if in a loop: each iteration's lanes alone */
    "kernel skip_if(x: Ptr[Int32], o: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let v = x[g]\n"
    "    for i in range(4) {\n"
    "        if ((v >> i) & 1) == 1 {\n"
    "            o[6 * g + i] = fx.wave_sum(v)\n"
    "        }\n"
    "    }\n"
    "}\n"
    "kernel skip_continue(x: Ptr[Int32], o: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let v = x[g]\n"
    "    for i in range(4) {\n"
    "        if ((v >> i) & 1) == 0 {\n"
    "            continue\n"
    "        }\n"
    "        o[6 * g + i] = fx.wave_sum(v)\n"
    "    }\n"
    "}\n"
    /* every lane reaches the first operation in every iteration */
    "kernel skip_mixed(x: Ptr[Int32], o: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let v = x[g]\n"
    "    for i in range(3) {\n"
    "        o[6 * g + 2 * i] = fx.wave_sum(v)\n"
    "        if ((v >> i) & 1) == 1 {\n"
    "            o[6 * g + 2 * i + 1] = fx.wave_max(v)\n"
    "        }\n"
    "    }\n"
    "}\n";

static const Cfg ctl_cfgs[] = { { 2, 100 }, { 1, 64 }, { 2, 40 }, { 1, 13 }, { 1, 1000 } };
#define NCTL ((int)(sizeof ctl_cfgs / sizeof ctl_cfgs[0]))

/* Sets over one wave. */
typedef struct Lanes {
    int W, n;           /* lanes 0..n-1 exist */
    int gid[64];
} Lanes;

static void lanes_of(Lanes *L, int W, int b, int B, int w)
{
    bool act[64];
    L->W = W;
    L->n = wave_lanes(b, B, W, w, NULL, act, L->gid);
}

static int32_t *alloc_i32(size_t n, int fill)
{
    int32_t *p = malloc(n * 4);
    memset(p, fill, n * 4);
    return p;
}

static void expect_i32(const char *mode, const char *what, int g, int32_t want, int32_t got)
{
    if (want != got)
        report("%s: %s in work-item %d: want %d, got %d", mode, what, g, want, got);
}

static const int32_t SENT32 = (int32_t)0xA5A5A5A5;

static void test_lane_ids(void)
{
    int before = report_base = bad_count;
    for (int mi = 0; mi < NMODES; mi++) {
        const Mode *md = &modes[mi];
        Mod m;
        if (!mod_open(&m, control_src, md)) {
            CU_FAIL("does not compile");
            fxs_close(&m);
            continue;
        }
        for (int ci = 0; ci < NCTL; ci++) {
            const Cfg *cf = &ctl_cfgs[ci];
            int N = (int)(cf->grid * cf->block);
            int32_t *o = alloc_i32((size_t)2 * N, SENTINEL);
            void *po = o;
            void *args[] = { &po };
            size_t bytes[] = { (size_t)2 * N * 4 };
            unsigned grid[3] = { cf->grid, 1, 1 }, block[3] = { cf->block, 1, 1 };
            if (launch(&m, "ids", grid, block, args, bytes))
                for (int g = 0; g < N; g++) {
                    int t = g % (int)cf->block;
                    expect_i32(md->name, "fx.lane_id()", g, t % md->W, o[2 * g]);
                    expect_i32(md->name, "fx.wave_size()", g, md->W, o[2 * g + 1]);
                }
            free(o);
        }
        fxs_close(&m);
    }
    CU_ASSERT_EQUAL(bad_count - before, 0);
}

static void gen_i32(int32_t *x, int n)
{
    for (int i = 0; i < n; i++) {
        int r = rnd(4);
        x[i] = r == 0 ? (int32_t)(uint32_t)rnd64() : r == 1 ? INT32_MAX - rnd(3) : rnd(2001) - 1000;
    }
}

/* if/else with operations on both sides, nested ifs, a fn, reconvergence. */
static void test_branches(void)
{
    int before = report_base = bad_count;
    for (int mi = 0; mi < NMODES; mi++) {
        const Mode *md = &modes[mi];
        int W = md->W;
        Mod m;
        if (!mod_open(&m, control_src, md)) {
            CU_FAIL("does not compile");
            fxs_close(&m);
            continue;
        }
        for (int ci = 0; ci < NCTL; ci++) {
            const Cfg *cf = &ctl_cfgs[ci];
            int N = (int)(cf->grid * cf->block), B = (int)cf->block;
            int32_t *x = alloc_i32((size_t)N, 0), *o = alloc_i32((size_t)10 * N, SENTINEL);
            uint64_t *bo = malloc((size_t)2 * N * 8);
            memset(bo, SENTINEL, (size_t)2 * N * 8);
            gen_i32(x, N);
            void *px = x, *po = o, *pb = bo;
            void *args[] = { &px, &po, &pb };
            size_t bytes[] = { (size_t)N * 4, (size_t)10 * N * 4, (size_t)2 * N * 8 };
            unsigned grid[3] = { cf->grid, 1, 1 }, block[3] = { cf->block, 1, 1 };
            if (!launch(&m, "branch", grid, block, args, bytes)) {
                report("branch did not run");
            } else {
                for (int b = 0; b < (int)cf->grid; b++)
                    for (int w = 0; w * W < B; w++) {
                        Lanes L;
                        lanes_of(&L, W, b, B, w);
                        int32_t v[64] = { 0 }, arg[64];
                        bool T[64] = { false }, E[64] = { false }, L5[64] = { false }, G2[64] = { false },
                             I[64] = { false }, all[64] = { false }, even[64] = { false }, ge5[64] = { false };
                        for (int l = 0; l < L.n; l++) {
                            v[l] = x[L.gid[l]];
                            T[l] = l % 3 == 0;
                            E[l] = !T[l];
                            L5[l] = l < 5;
                            G2[l] = l >= 2;
                            even[l] = v[l] % 2 == 0;
                            I[l] = G2[l] && even[l];
                            all[l] = true;
                            ge5[l] = l >= 5;
                        }
                        for (int l = 0; l < L.n; l++) {
                            int g = L.gid[l];
                            int32_t *r = o + 10 * g;
                            uint64_t *rb = bo + 2 * g;
                            if (T[l]) {
                                expect_i32(md->name, "fx.wave_sum (then)", g, m_red_i32(R_SUM, W, T, v), r[0]);
                                for (int j = 0; j < W; j++)
                                    arg[j] = j + 1;
                                expect_i32(md->name, "fx.shuffle(v, l + 1) (then)", g, v[m_src(OP_SHUFFLE, W, T, arg, l)],
                                           r[1]);
                                for (int j = 0; j < W; j++)
                                    arg[j] = 3;
                                expect_i32(md->name, "fx.shuffle_down(v, 3) (then)", g, v[m_src(OP_DOWN, W, T, arg, l)],
                                           r[2]);
                                if (rb[0] != m_ballot(W, T, even))
                                    report("%s: fx.ballot (then) in %d: want %#llx, got %#llx", md->name, g,
                                           (unsigned long long)m_ballot(W, T, even), (unsigned long long)rb[0]);
                            } else {
                                expect_i32(md->name, "fx.wave_max (else)", g, m_red_i32(R_MAX, W, E, v), r[0]);
                                expect_i32(md->name, "fx.readfirstlane (else)", g, v[m_src(OP_READFIRST, W, E, arg, l)],
                                           r[1]);
                                for (int j = 0; j < W; j++)
                                    arg[j] = 1;
                                expect_i32(md->name, "fx.shuffle_up(v, 1) (else)", g, v[m_src(OP_UP, W, E, arg, l)], r[2]);
                                if (rb[0] != m_ballot(W, E, all))
                                    report("%s: fx.ballot(True) (else) in %d: want %#llx, got %#llx", md->name, g,
                                           (unsigned long long)m_ballot(W, E, all), (unsigned long long)rb[0]);
                            }
                            if (L5[l]) {
                                for (int j = 0; j < W; j++)
                                    arg[j] = 7 - j;
                                expect_i32(md->name, "fx.readlane(v, 7 - l)", g, v[m_src(OP_READLANE, W, L5, arg, l)],
                                           r[3]);
                                for (int j = 0; j < W; j++)
                                    arg[j] = j + 1;
                                expect_i32(md->name, "fx.readlane(v, l + 1)", g, v[m_src(OP_READLANE, W, L5, arg, l)],
                                           r[4]);
                                expect_i32(md->name, "fx.wave_sum in a fn", g, m_red_i32(R_SUM, W, L5, v), r[5]);
                            } else {
                                expect_i32(md->name, "untouched slot 3", g, SENT32, r[3]);
                                expect_i32(md->name, "untouched slot 5", g, SENT32, r[5]);
                            }
                            if (I[l])
                                expect_i32(md->name, "fx.wave_min in a nested if", g, m_red_i32(R_MIN, W, I, v), r[6]);
                            else
                                expect_i32(md->name, "untouched slot 6", g, SENT32, r[6]);
                            int32_t ones[64];
                            for (int j = 0; j < 64; j++)
                                ones[j] = 1;
                            if (G2[l])
                                expect_i32(md->name, "fx.wave_sum(1) after a nested if", g,
                                           m_red_i32(R_SUM, W, G2, ones), r[7]);
                            else
                                expect_i32(md->name, "untouched slot 7", g, SENT32, r[7]);
                            expect_i32(md->name, "fx.wave_sum(1) after reconverging", g, L.n, r[8]);
                            expect_i32(md->name, "fx.any(l == 7)", g, L.n > 7, r[9]);
                            if (rb[1] != m_ballot(W, all, ge5))
                                report("%s: fx.ballot(l >= 5) in %d: want %#llx, got %#llx", md->name, g,
                                       (unsigned long long)m_ballot(W, all, ge5), (unsigned long long)rb[1]);
                        }
                    }
            }
            /* early returns */
            memset(o, SENTINEL, (size_t)10 * N * 4);
            void *args2[] = { &px, &po };
            size_t bytes2[] = { (size_t)N * 4, (size_t)10 * N * 4 };
            if (!launch(&m, "ret", grid, block, args2, bytes2)) {
                report("ret did not run");
            } else {
                for (int b = 0; b < (int)cf->grid; b++)
                    for (int w = 0; w * W < B; w++) {
                        Lanes L;
                        lanes_of(&L, W, b, B, w);
                        int32_t v[64] = { 0 };
                        bool R1[64] = { false }, R2[64] = { false };
                        for (int l = 0; l < L.n; l++) {
                            v[l] = x[L.gid[l]];
                            R1[l] = l % 4 != 1;
                            R2[l] = R1[l] && v[l] <= 0;
                        }
                        for (int l = 0; l < L.n; l++) {
                            int g = L.gid[l];
                            expect_i32(md->name, "fx.wave_sum after a return", g,
                                       R1[l] ? m_red_i32(R_SUM, W, R1, v) : SENT32, o[2 * g]);
                            expect_i32(md->name, "fx.wave_min after two returns", g,
                                       R2[l] ? m_red_i32(R_MIN, W, R2, v) : SENT32, o[2 * g + 1]);
                        }
                    }
            }
            free(x);
            free(o);
            free(bo);
        }
        fxs_close(&m);
    }
    CU_ASSERT_EQUAL(bad_count - before, 0);
}

/* while/for loops that lanes leave at different iterations (trip counts from
 * memory, a break), and the operations after the loop. */
static void test_loops(void)
{
    int before = report_base = bad_count;
    for (int mi = 0; mi < NMODES; mi++) {
        const Mode *md = &modes[mi];
        int W = md->W;
        Mod m;
        if (!mod_open(&m, control_src, md)) {
            CU_FAIL("does not compile");
            fxs_close(&m);
            continue;
        }
        for (int ci = 0; ci < NCTL; ci++) {
            const Cfg *cf = &ctl_cfgs[ci];
            int N = (int)(cf->grid * cf->block), B = (int)cf->block;
            int32_t *x = alloc_i32((size_t)N, 0), *t = alloc_i32((size_t)N, 0);
            int32_t *o = alloc_i32((size_t)8 * N, SENTINEL), *p = alloc_i32((size_t)4 * N, SENTINEL);
            gen_i32(x, N);
            for (int i = 0; i < N; i++)
                t[i] = rnd(9);
            void *px = x, *pt = t, *po = o, *pp = p;
            void *args[] = { &px, &pt, &po, &pp };
            size_t bytes[] = { (size_t)N * 4, (size_t)N * 4, (size_t)8 * N * 4, (size_t)4 * N * 4 };
            unsigned grid[3] = { cf->grid, 1, 1 }, block[3] = { cf->block, 1, 1 };
            if (!launch(&m, "loops", grid, block, args, bytes)) {
                report("loops did not run");
            } else {
                for (int b = 0; b < (int)cf->grid; b++)
                    for (int w = 0; w * W < B; w++) {
                        Lanes L;
                        lanes_of(&L, W, b, B, w);
                        int32_t v[64] = { 0 }, n[64] = { 0 }, all[64];
                        bool ex[64] = { false };
                        for (int l = 0; l < L.n; l++) {
                            v[l] = x[L.gid[l]];
                            n[l] = t[L.gid[l]];
                            ex[l] = true;
                        }
                        int32_t accw[64] = { 0 };
                        for (int k = 0; k < 8; k++) {
                            bool A[64] = { false };
                            int32_t vk[64] = { 0 }, vm[64] = { 0 };
                            for (int l = 0; l < L.n; l++) {
                                A[l] = n[l] > k;
                                vk[l] = wrap_add(v[l], k);
                                vm[l] = wrap_mul(v[l], k + 1);
                            }
                            int32_t sk = m_red_i32(R_SUM, W, A, vk), mk = m_red_i32(R_MAX, W, A, vm);
                            for (int l = 0; l < L.n; l++) {
                                int g = L.gid[l];
                                char what[64];
                                snprintf(what, sizeof what, "fx.wave_sum in while iteration %d", k);
                                expect_i32(md->name, what, g, A[l] ? sk : SENT32, o[8 * g + k]);
                                if (A[l])
                                    accw[l] = wrap_add(accw[l], mk);
                            }
                        }
                        for (int l = 0; l < L.n; l++)
                            all[l] = 1;
                        for (int l = 0; l < L.n; l++) {
                            int g = L.gid[l];
                            expect_i32(md->name, "fx.wave_sum(k) after the while", g, m_red_i32(R_SUM, W, ex, n),
                                       p[4 * g]);
                            expect_i32(md->name, "the sum of fx.wave_max over a for with break", g, accw[l],
                                       p[4 * g + 1]);
                            expect_i32(md->name, "fx.readfirstlane(n) after the loops", g, n[0], p[4 * g + 2]);
                            expect_i32(md->name, "fx.wave_sum(1) after the loops", g, m_red_i32(R_SUM, W, ex, all),
                                       p[4 * g + 3]);
                        }
                    }
            }
            /* nested loops */
            memset(o, SENTINEL, (size_t)8 * N * 4);
            void *args2[] = { &px, &pt, &po };
            size_t bytes2[] = { (size_t)N * 4, (size_t)N * 4, (size_t)8 * N * 4 };
            if (!launch(&m, "nested", grid, block, args2, bytes2)) {
                report("nested did not run");
            } else {
                for (int b = 0; b < (int)cf->grid; b++)
                    for (int w = 0; w * W < B; w++) {
                        Lanes L;
                        lanes_of(&L, W, b, B, w);
                        int32_t acc[64] = { 0 };
                        bool all[64] = { false };
                        for (int l = 0; l < L.n; l++)
                            all[l] = true;
                        for (int j = 0; j < 3; j++) {
                            for (int k = 0; k < 16; k++) {
                                bool A[64] = { false };
                                int32_t vk[64] = { 0 };
                                for (int l = 0; l < L.n; l++) {
                                    A[l] = t[L.gid[l]] + j - 1 > k;
                                    vk[l] = wrap_add(x[L.gid[l]], k);
                                }
                                if (m_first(W, A) < 0)
                                    break;
                                int32_t sk = m_red_i32(R_SUM, W, A, vk);
                                for (int l = 0; l < L.n; l++)
                                    if (A[l])
                                        acc[l] = wrap_add(acc[l], sk);
                            }
                            int32_t mx = m_red_i32(R_MAX, W, all, acc);
                            for (int l = 0; l < L.n; l++)
                                expect_i32(md->name, "fx.wave_max after a while in a for", L.gid[l], mx,
                                           o[4 * L.gid[l] + j]);
                        }
                        for (int l = 0; l < L.n; l++)
                            expect_i32(md->name, "sums of fx.wave_sum in a while in a for", L.gid[l], acc[l],
                                       o[4 * L.gid[l] + 3]);
                    }
            }
            /* returns inside a loop */
            memset(o, SENTINEL, (size_t)8 * N * 4);
            void *args3[] = { &pt, &po };
            size_t bytes3[] = { (size_t)N * 4, (size_t)8 * N * 4 };
            if (!launch(&m, "loopret", grid, block, args3, bytes3)) {
                report("loopret did not run");
            } else {
                for (int b = 0; b < (int)cf->grid; b++)
                    for (int w = 0; w * W < B; w++) {
                        Lanes L;
                        lanes_of(&L, W, b, B, w);
                        int32_t n[64] = { 0 };
                        for (int l = 0; l < L.n; l++)
                            n[l] = t[L.gid[l]];
                        for (int i = 0; i < 8; i++) {
                            bool A[64] = { false };
                            for (int l = 0; l < L.n; l++)
                                A[l] = n[l] > i;
                            for (int l = 0; l < L.n; l++)
                                expect_i32(md->name, "fx.wave_sum in a loop that lanes return from", L.gid[l],
                                           A[l] ? m_red_i32(R_SUM, W, A, n) : SENT32, o[8 * L.gid[l] + i]);
                        }
                    }
            }
            free(x);
            free(t);
            free(o);
            free(p);
        }
        fxs_close(&m);
    }
    CU_ASSERT_EQUAL(bad_count - before, 0);
}

/* An operation under an if (or after a continue) in a loop: in iteration i
 * only the lanes that take the branch in iteration i are active ("lanes that
 * took the other side of an if ... are inactive"), even though the lanes that
 * skipped it reach the same operation again in iteration i + 1; and an
 * operation that every lane reaches in every iteration has them all. */
enum { SKIP_IF, SKIP_CONTINUE, SKIP_MIXED };

static void loop_branches(int pattern)
{
    static const char *const kernels[] = { "skip_if", "skip_continue", "skip_mixed" };
    int before = report_base = bad_count;
    for (int mi = 0; mi < NMODES; mi++) {
        const Mode *md = &modes[mi];
        int W = md->W;
        int mode_before = bad_count;
        Mod m;
        if (!mod_open(&m, control_src, md)) {
            CU_FAIL("does not compile");
            fxs_close(&m);
            continue;
        }
        for (int ci = 0; ci < NCTL; ci++) {
            const Cfg *cf = &ctl_cfgs[ci];
            int N = (int)(cf->grid * cf->block), B = (int)cf->block;
            int32_t *x = alloc_i32((size_t)N, 0), *o = alloc_i32((size_t)6 * N, SENTINEL);
            for (int i = 0; i < N; i++)
                x[i] = rnd(32) + 32 * (rnd(2001) - 1000);
            void *px = x, *po = o;
            void *args[] = { &px, &po };
            size_t bytes[] = { (size_t)N * 4, (size_t)6 * N * 4 };
            unsigned grid[3] = { cf->grid, 1, 1 }, block[3] = { cf->block, 1, 1 };
            if (!launch(&m, kernels[pattern], grid, block, args, bytes)) {
                report("%s did not run", kernels[pattern]);
            } else {
                for (int b = 0; b < (int)cf->grid; b++)
                    for (int w = 0; w * W < B; w++) {
                        Lanes L;
                        lanes_of(&L, W, b, B, w);
                        int32_t v[64] = { 0 };
                        for (int l = 0; l < L.n; l++)
                            v[l] = x[L.gid[l]];
                        for (int i = 0; i < (pattern == SKIP_MIXED ? 3 : 4); i++) {
                            bool all[64] = { false }, A[64] = { false };
                            for (int l = 0; l < L.n; l++) {
                                all[l] = true;
                                A[l] = ((v[l] >> i) & 1) == 1;
                            }
                            for (int l = 0; l < L.n; l++) {
                                int g = L.gid[l];
                                char what[96];
                                if (pattern != SKIP_MIXED) {
                                    snprintf(what, sizeof what, "fx.wave_sum %s in iteration %d",
                                             pattern == SKIP_IF ? "under an if" : "after a continue", i);
                                    expect_i32(md->name, what, g, A[l] ? m_red_i32(R_SUM, W, A, v) : SENT32,
                                               o[6 * g + i]);
                                    continue;
                                }
                                snprintf(what, sizeof what, "fx.wave_sum by every lane in iteration %d", i);
                                expect_i32(md->name, what, g, m_red_i32(R_SUM, W, all, v), o[6 * g + 2 * i]);
                                snprintf(what, sizeof what, "fx.wave_max under an if in iteration %d", i);
                                expect_i32(md->name, what, g, A[l] ? m_red_i32(R_MAX, W, A, v) : SENT32,
                                           o[6 * g + 2 * i + 1]);
                            }
                        }
                    }
            }
            free(x);
            free(o);
        }
        if (bad_count != mode_before)
            fprintf(stderr, "\n  %s: %d mismatches", md->name, bad_count - mode_before);
        fxs_close(&m);
    }
    CU_ASSERT_EQUAL(bad_count - before, 0);
}

static void test_loop_if(void)
{
    loop_branches(SKIP_IF);
}

static void test_loop_continue(void)
{
    loop_branches(SKIP_CONTINUE);
}

static void test_loop_mixed(void)
{
    loop_branches(SKIP_MIXED);
}

/* Wave operations around fx.barrier(): per-wave results through shared
 * memory, read back by other waves, then reduced again. */
static const char *const barrier_src =
    "kernel bar(x: Ptr[Int32], o: Ptr[Int32]) {\n"
    "    shared s: Array[Int32, 1024]\n"
    "    let t = thread_idx.x\n"
    "    let g = block_idx.x * block_dim.x + t\n"
    "    let l = fx.lane_id()\n"
    "    var a = 0\n"
    "    if l < 3 {\n"
    "        a = fx.wave_sum(x[g])\n"
    "    }\n"
    "    s[t] = fx.wave_max(x[g]) + a\n"
    "    fx.barrier()\n"
    "    let u = s[(t + 37) % block_dim.x]\n"
    "    fx.barrier()\n"
    "    o[2 * g] = u\n"
    "    o[2 * g + 1] = fx.wave_sum(u)\n"
    "}\n";

static void test_barrier(void)
{
    int before = report_base = bad_count;
    for (int mi = 0; mi < NMODES; mi++) {
        const Mode *md = &modes[mi];
        int W = md->W;
        Mod m;
        if (!mod_open(&m, barrier_src, md)) {
            CU_FAIL("does not compile");
            fxs_close(&m);
            continue;
        }
        for (int ci = 0; ci < NCTL; ci++) {
            const Cfg *cf = &ctl_cfgs[ci];
            int N = (int)(cf->grid * cf->block), B = (int)cf->block;
            int32_t *x = alloc_i32((size_t)N, 0), *o = alloc_i32((size_t)2 * N, SENTINEL);
            int32_t *sh = alloc_i32((size_t)B, 0);
            gen_i32(x, N);
            void *px = x, *po = o;
            void *args[] = { &px, &po };
            size_t bytes[] = { (size_t)N * 4, (size_t)2 * N * 4 };
            unsigned grid[3] = { cf->grid, 1, 1 }, block[3] = { cf->block, 1, 1 };
            if (!launch(&m, "bar", grid, block, args, bytes)) {
                report("bar did not run");
            } else {
                for (int b = 0; b < (int)cf->grid; b++) {
                    /* before the barrier: each wave's shared values */
                    for (int w = 0; w * W < B; w++) {
                        Lanes L;
                        lanes_of(&L, W, b, B, w);
                        int32_t v[64] = { 0 };
                        bool all[64] = { false }, A3[64] = { false };
                        for (int l = 0; l < L.n; l++) {
                            v[l] = x[L.gid[l]];
                            all[l] = true;
                            A3[l] = l < 3;
                        }
                        int32_t mx = m_red_i32(R_MAX, W, all, v), s3 = m_red_i32(R_SUM, W, A3, v);
                        for (int l = 0; l < L.n; l++)
                            sh[w * W + l] = wrap_add(mx, A3[l] ? s3 : 0);
                    }
                    /* after it */
                    for (int w = 0; w * W < B; w++) {
                        Lanes L;
                        lanes_of(&L, W, b, B, w);
                        int32_t u[64] = { 0 };
                        bool all[64] = { false };
                        for (int l = 0; l < L.n; l++) {
                            u[l] = sh[(w * W + l + 37) % B];
                            all[l] = true;
                        }
                        int32_t su = m_red_i32(R_SUM, W, all, u);
                        for (int l = 0; l < L.n; l++) {
                            int g = L.gid[l];
                            expect_i32(md->name, "a wave's value through shared memory", g, u[l], o[2 * g]);
                            expect_i32(md->name, "fx.wave_sum after the barriers", g, su, o[2 * g + 1]);
                        }
                    }
                }
            }
            free(x);
            free(o);
            free(sh);
        }
        fxs_close(&m);
    }
    CU_ASSERT_EQUAL(bad_count - before, 0);
}

/* ------------------------------------------------------------------------
 * 2-D and 3-D blocks: lanes in linear order, x fastest.
 * ------------------------------------------------------------------------ */

static const char *const md_src =
    "kernel md(x: Ptr[Int32], o: Ptr[Int32], b: Ptr[Uint64]) {\n"
    "    let nb = block_dim.x * block_dim.y * block_dim.z\n"
    "    let t = thread_idx.x + block_dim.x * (thread_idx.y + block_dim.y * thread_idx.z)\n"
    "    let g = (block_idx.x + grid_dim.x * block_idx.y) * nb + t\n"
    "    let v = x[g]\n"
    "    o[6 * g] = fx.lane_id()\n"
    "    o[6 * g + 1] = fx.shuffle(v, fx.lane_id() + 1)\n"
    "    o[6 * g + 2] = fx.wave_sum(v)\n"
    "    o[6 * g + 3] = fx.shuffle_xor(v, 5)\n"
    "    o[6 * g + 4] = fx.readlane(v, 9)\n"
    "    if thread_idx.y == 1 {\n"
    "        o[6 * g + 5] = fx.wave_sum(v)\n"
    "    }\n"
    "    b[g] = fx.ballot(thread_idx.y % 2 == 0)\n"
    "}\n";

static void test_multidim(void)
{
    static const unsigned shapes[][5] = {   /* block x, y, z; grid x, y */
        { 8, 8, 1, 2, 1 }, { 4, 4, 4, 1, 2 }, { 5, 3, 3, 2, 2 }, { 3, 5, 2, 1, 1 },
        { 16, 2, 2, 1, 1 }, { 7, 7, 1, 1, 1 }, { 2, 8, 4, 1, 1 }, { 1, 40, 1, 1, 1 },
    };
    int before = report_base = bad_count;
    for (int mi = 0; mi < NMODES; mi++) {
        const Mode *md = &modes[mi];
        int W = md->W;
        Mod m;
        if (!mod_open(&m, md_src, md)) {
            CU_FAIL("does not compile");
            fxs_close(&m);
            continue;
        }
        for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++) {
            const unsigned *sh = shapes[si];
            int B = (int)(sh[0] * sh[1] * sh[2]), nblk = (int)(sh[3] * sh[4]), N = B * nblk;
            int32_t *x = alloc_i32((size_t)N, 0), *o = alloc_i32((size_t)6 * N, SENTINEL);
            uint64_t *bo = malloc((size_t)N * 8);
            gen_i32(x, N);
            void *px = x, *po = o, *pb = bo;
            void *args[] = { &px, &po, &pb };
            size_t bytes[] = { (size_t)N * 4, (size_t)6 * N * 4, (size_t)N * 8 };
            unsigned grid[3] = { sh[3], sh[4], 1 }, block[3] = { sh[0], sh[1], sh[2] };
            char name[64];
            snprintf(name, sizeof name, "%s block %ux%ux%u", md->name, sh[0], sh[1], sh[2]);
            if (!launch(&m, "md", grid, block, args, bytes)) {
                report("%s: md did not run", name);
            } else {
                for (int blk = 0; blk < nblk; blk++)
                    for (int w = 0; w * W < B; w++) {
                        Lanes L;
                        lanes_of(&L, W, blk, B, w);
                        int32_t v[64] = { 0 }, arg[64];
                        bool all[64] = { false }, y1[64] = { false }, yeven[64] = { false };
                        for (int l = 0; l < L.n; l++) {
                            int t = w * W + l;
                            int ty = (t / (int)sh[0]) % (int)sh[1];
                            v[l] = x[L.gid[l]];
                            all[l] = true;
                            y1[l] = ty == 1;
                            yeven[l] = ty % 2 == 0;
                        }
                        for (int l = 0; l < L.n; l++) {
                            int g = L.gid[l];
                            int32_t *r = o + 6 * g;
                            expect_i32(name, "fx.lane_id()", g, l, r[0]);
                            for (int j = 0; j < W; j++)
                                arg[j] = j + 1;
                            expect_i32(name, "fx.shuffle(v, lane + 1)", g, v[m_src(OP_SHUFFLE, W, all, arg, l)], r[1]);
                            expect_i32(name, "fx.wave_sum", g, m_red_i32(R_SUM, W, all, v), r[2]);
                            for (int j = 0; j < W; j++)
                                arg[j] = 5;
                            expect_i32(name, "fx.shuffle_xor(v, 5)", g, v[m_src(OP_XOR, W, all, arg, l)], r[3]);
                            for (int j = 0; j < W; j++)
                                arg[j] = 9;
                            expect_i32(name, "fx.readlane(v, 9)", g, v[m_src(OP_READLANE, W, all, arg, l)], r[4]);
                            expect_i32(name, "fx.wave_sum where thread_idx.y == 1", g,
                                       y1[l] ? m_red_i32(R_SUM, W, y1, v) : SENT32, r[5]);
                            if (bo[g] != m_ballot(W, all, yeven))
                                report("%s: fx.ballot(thread_idx.y %% 2 == 0) in %d: want %#llx, got %#llx", name, g,
                                       (unsigned long long)m_ballot(W, all, yeven), (unsigned long long)bo[g]);
                        }
                    }
            }
            free(x);
            free(o);
            free(bo);
        }
        fxs_close(&m);
    }
    CU_ASSERT_EQUAL(bad_count - before, 0);
}

/* ------------------------------------------------------------------------
 * fx.wave_size() is static: static_assert and an Array dim accept it.
 * ------------------------------------------------------------------------ */

static void test_wave_size_static(void)
{
    for (int mi = 0; mi < NMODES; mi++) {
        for (int guess = 0; guess < NMODES; guess++) {
            char src[512];
            snprintf(src, sizeof src,
                     "kernel k(o: Ptr[Int32]) {\n"
                     "    static_assert(fx.wave_size().is_static())\n"
                     "    static_assert(fx.wave_size() == %d)\n"
                     "    var a: Array[Int32, fx.wave_size()]\n"
                     "    a[fx.wave_size() - 1] = 7\n"
                     "    o[thread_idx.x] = a[fx.wave_size() - 1] + fx.wave_size()\n"
                     "}\n",
                     modes[guess].W);
            Mod m;
            fxt_capture_begin();
            bool ok = mod_open(&m, src, &modes[mi]);
            free(fxt_capture_end());
            CU_ASSERT_EQUAL(ok, mi == guess);
            if (ok && mi == guess) {
                int32_t o[3] = { 0, 0, 0 };
                void *po = o;
                void *args[] = { &po };
                size_t bytes[] = { sizeof o };
                unsigned grid[3] = { 1, 1, 1 }, block[3] = { 3, 1, 1 };
                CU_ASSERT(launch(&m, "k", grid, block, args, bytes));
                for (int i = 0; i < 3; i++)
                    CU_ASSERT_EQUAL(o[i], 7 + modes[mi].W);
            }
            fxs_close(&m);
        }
    }
    /* the GPUs' own: 64 on gfx942 (and gfx90a), 32 on gfx1100 and gfx1201 */
    static const struct { const char *arch; int W; } gpus[] = {
        { "gfx942", 64 }, { "gfx90a", 64 }, { "gfx1100", 32 }, { "gfx1201", 32 },
    };
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        char src[256];
        snprintf(src, sizeof src, "kernel k(o: Ptr[Int32]) {\n    static_assert(fx.wave_size() == %d)\n"
                                  "    o[0] = fx.wave_size()\n}\n", gpus[i].W);
        Mod m;
        bool ok = fxs_lower(&m, src, gpus[i].arch, false);
        CU_ASSERT(ok);
        if (!ok)
            fprintf(stderr, "\n  %s: fx.wave_size() is not %d", gpus[i].arch, gpus[i].W);
        fxs_close(&m);
    }
}

/* ------------------------------------------------------------------------
 * AMDGPU: the instructions docs/waves.md names, on gfx942 (wave64) and
 * gfx1100 (wave32).
 * ------------------------------------------------------------------------ */

/* AMDGPU assembly of `src` for `arch` (malloc'd; "" when it does not compile). */
static char *gpu_asm(const char *src, const char *arch)
{
    Mod m;
    char *text = NULL;
    if (fxs_lower(&m, src, arch, false)) {
        CgModule *cm = pipe_codegen(&m.c);
        text = cm ? cg_assembly(cm) : NULL;
        cg_free(cm);
    }
    fxs_close(&m);
    return text ? text : calloc(1, 1);
}

/* The body of kernel `name` in `text`: from its label to its s_endpgm (malloc'd). */
static char *kernel_body(const char *text, const char *name)
{
    char label[96];
    snprintf(label, sizeof label, "\n%s:", name);
    const char *p = strstr(text, label);
    if (!p)
        return calloc(1, 1);
    const char *e = strstr(p, "s_endpgm");
    size_t n = e ? (size_t)(e - p) : strlen(p);
    char *s = malloc(n + 1);
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

#include <regex.h>
static bool matches(const char *text, const char *re)
{
    regex_t r;
    if (regcomp(&r, re, REG_EXTENDED | REG_NEWLINE) != 0)
        return false;
    bool m = regexec(&r, text, 0, NULL, 0) == 0;
    regfree(&r);
    return m;
}

static const char *const isa_src =
    "kernel ksh(x: Ptr[Int32], s: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.shuffle(x[i], s[i])\n}\n"
    "kernel kxor(x: Ptr[Float32], s: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.shuffle_xor(x[i], s[i])\n}\n"
    "kernel kup(x: Ptr[Int16], s: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.shuffle_up(x[i], s[i])\n}\n"
    "kernel kdown(x: Ptr[Uint8], s: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.shuffle_down(x[i], s[i])\n}\n"
    "kernel ksh64(x: Ptr[Float64], s: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.shuffle(x[i], s[i])\n}\n"
    "kernel ksh128(x: Ptr[Int128], s: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.shuffle(x[i], s[i])\n}\n"
    "kernel kshv(x: Ptr[Float32x4], s: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.shuffle(x[i], s[i])\n}\n"
    "kernel krl(x: Ptr[Int32], s: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.readlane(x[i], s[i])\n}\n"
    "kernel krl64(x: Ptr[Uint64], s: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.readlane(x[i], s[i])\n}\n"
    "kernel krf(x: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.readfirstlane(x[i])\n}\n"
    "kernel kbal(x: Ptr[Int32], o: Ptr[Uint64]) {\n    let i = thread_idx.x\n    o[i] = fx.ballot(x[i] > 5)\n}\n"
    "kernel kany(x: Ptr[Int32], o: Ptr[Boolean]) {\n    let i = thread_idx.x\n    o[i] = fx.any(x[i] > 5)\n}\n"
    "kernel kall(x: Ptr[Int32], o: Ptr[Boolean]) {\n    let i = thread_idx.x\n    o[i] = fx.all(x[i] > 5)\n}\n"
    "kernel ksum(x: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_sum(x[i])\n}\n"
    "kernel ksumd(x: Ptr[Float64]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_sum(x[i])\n}\n"
    "kernel kmaxh(x: Ptr[Float16]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_max(x[i])\n}\n"
    "kernel kminv(x: Ptr[Float32x4]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_min(x[i])\n}\n"
    "kernel klane(x: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.lane_id()\n}\n"
    "kernel ksumf(x: Ptr[Float32]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_sum(x[i])\n}\n"
    "kernel kmaxf(x: Ptr[Float32]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_max(x[i])\n}\n"
    "kernel kminf(x: Ptr[Float32]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_min(x[i])\n}\n"
    "kernel ksumh(x: Ptr[Float16]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_sum(x[i])\n}\n"
    "kernel kmaxi(x: Ptr[Int32]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_max(x[i])\n}\n"
    "kernel kminu(x: Ptr[Uint32]) {\n    let i = thread_idx.x\n    x[i] = fx.wave_min(x[i])\n}\n";

/* The line after the first line of `body` containing `what` (malloc'd; "" if none). */
static char *line_after(const char *body, const char *what)
{
    const char *p = strstr(body, what);
    const char *nl = p ? strchr(p, '\n') : NULL;
    if (!nl)
        return calloc(1, 1);
    const char *e = strchr(nl + 1, '\n');
    size_t n = e ? (size_t)(e - nl - 1) : strlen(nl + 1);
    char *s = malloc(n + 1);
    memcpy(s, nl + 1, n);
    s[n] = 0;
    return s;
}

static void isa_expect(const char *arch, const char *text, const char *kernel, bool ok, const char *what)
{
    CU_ASSERT(ok);
    if (!ok) {
        char *b = kernel_body(text, kernel);
        fprintf(stderr, "\n  %s %s: expected %s in:\n%s", arch, kernel, what, b);
        free(b);
    }
}

static void test_isa(void)
{
    static const struct { const char *arch; int W, log2w; } gpus[] = { { "gfx942", 64, 6 }, { "gfx1100", 32, 5 } };
    for (int a = 0; a < 2; a++) {
        const char *arch = gpus[a].arch;
        bool w64 = gpus[a].W == 64;
        char *text = gpu_asm(isa_src, arch);
        CU_ASSERT(text[0] != 0);
        /* shuffles: ds_bpermute_b32, one per 32-bit word of the value */
        static const struct { const char *k; int words; } sh[] = {
            { "ksh", 1 }, { "kxor", 1 }, { "kup", 1 }, { "kdown", 1 }, { "ksh64", 2 }, { "ksh128", 4 }, { "kshv", 4 },
        };
        for (size_t i = 0; i < sizeof sh / sizeof sh[0]; i++) {
            char *b = kernel_body(text, sh[i].k);
            char what[64];
            snprintf(what, sizeof what, "%d ds_bpermute_b32", sh[i].words);
            isa_expect(arch, text, sh[i].k, count(b, "ds_bpermute_b32") >= sh[i].words, what);
            /* the fallback tests whether the source lane is active: the exec mask */
            isa_expect(arch, text, sh[i].k, strstr(b, w64 ? "exec" : "exec_lo") != NULL, "a use of exec");
            free(b);
        }
        /* readlane: v_readlane_b32 with an index made uniform by v_readfirstlane_b32 */
        char *b = kernel_body(text, "krl");
        isa_expect(arch, text, "krl", strstr(b, "v_readlane_b32") && strstr(b, "v_readfirstlane_b32"),
                   "v_readlane_b32 and v_readfirstlane_b32");
        isa_expect(arch, text, "krl", strstr(b, "ds_bpermute") == NULL, "no ds_bpermute");
        free(b);
        b = kernel_body(text, "krl64");
        isa_expect(arch, text, "krl64", count(b, "v_readlane_b32") >= 2, "two v_readlane_b32");
        free(b);
        b = kernel_body(text, "krf");
        isa_expect(arch, text, "krf", strstr(b, "v_readfirstlane_b32") != NULL, "v_readfirstlane_b32");
        free(b);
        /* ballot: a compare whose lane mask lands in an SGPR pair (wave64) or one SGPR (wave32) */
        const char *mask64 = "v_cmp_[a-z0-9_]+ (vcc|s\\[[0-9]+:[0-9]+\\]),";
        const char *mask32 = "v_cmp_[a-z0-9_]+ (vcc_lo|s[0-9]+),";
        b = kernel_body(text, "kbal");
        isa_expect(arch, text, "kbal", matches(b, w64 ? mask64 : mask32),
                   w64 ? "v_cmp into an SGPR pair" : "v_cmp into one SGPR");
        free(b);
        /* any / all: the mask compared as a scalar of the wave's width */
        const char *k2[] = { "kany", "kall" };
        for (int i = 0; i < 2; i++) {
            b = kernel_body(text, k2[i]);
            isa_expect(arch, text, k2[i], matches(b, w64 ? mask64 : mask32), "v_cmp into the lane mask");
            isa_expect(arch, text, k2[i], matches(b, w64 ? "s_cmp_[a-z]+_u64" : "s_cmp_[a-z]+_u32"),
                       w64 ? "a 64-bit scalar compare" : "a 32-bit scalar compare");
            free(b);
        }
        /* reductions: whole-wave mode, two ds_swizzle_b32 for each of the five steps within 32 lanes
         * per word, and on wave64 the halves joined by two v_readlane_b32 per word */
        static const struct { const char *k; int words; const char *op; } rd[] = {
            { "ksum", 1, "v_add_" }, { "ksumd", 2, "v_add_f64" }, { "kmaxh", 1, "_f16" }, { "kminv", 4, "_f32" },
        };
        for (size_t i = 0; i < sizeof rd / sizeof rd[0]; i++) {
            b = kernel_body(text, rd[i].k);
            char what[64];
            snprintf(what, sizeof what, "%d ds_swizzle_b32", rd[i].words * 10);
            isa_expect(arch, text, rd[i].k, count(b, "ds_swizzle_b32") >= rd[i].words * 10, what);
            isa_expect(arch, text, rd[i].k, !w64 || count(b, "v_readlane_b32") >= 2 * rd[i].words,
                       "v_readlane_b32 of lanes 0 and 32 per word");
            isa_expect(arch, text, rd[i].k, strstr(b, "ds_bpermute") == NULL && strstr(b, "v_mbcnt") == NULL,
                       "no lane address (ds_bpermute, v_mbcnt) in a reduction");
            isa_expect(arch, text, rd[i].k,
                       matches(b, w64 ? "s_or_saveexec_b64 s\\[[0-9]+:[0-9]+\\], -1" : "s_or_saveexec_b32 s[0-9]+, -1"),
                       "whole-wave mode (s_or_saveexec with -1)");
            isa_expect(arch, text, rd[i].k, strstr(b, rd[i].op) != NULL, rd[i].op);
            free(b);
        }
        /* the identity inactive lanes enter with (llvm.amdgcn.set.inactive: a move with exec inverted) */
        static const struct { const char *k, *re; } ident[] = {
            { "ksum", ", 0$" },
            { "ksumf", "(v_bfrev_b32_e32 v[0-9]+, 1$|, 0x80000000$)" },   /* -0.0 */
            { "kmaxf", ", 0xff800000$" },                                 /* -inf */
            { "kminf", ", 0x7f800000$" },                                 /* +inf */
            { "ksumh", ", 0x8000$" },                                     /* Float16 -0.0 */
            { "kmaxi", "(v_bfrev_b32_e32 v[0-9]+, 1$|, 0x80000000$)" },   /* Int32 MIN */
            { "kminu", ", (-1|0xffffffff)$" },                            /* Uint32 MAX */
        };
        for (size_t i = 0; i < sizeof ident / sizeof ident[0]; i++) {
            b = kernel_body(text, ident[i].k);
            char *l = line_after(b, w64 ? "s_not_b64 exec, exec" : "s_not_b32 exec_lo, exec_lo");
            char what[96];
            snprintf(what, sizeof what, "the identity (/%s/) after the first s_not of exec", ident[i].re);
            isa_expect(arch, text, ident[i].k, matches(l, ident[i].re), what);
            free(l);
            free(b);
        }
        /* lane_id: mbcnt (or the work-item id masked by W - 1) */
        b = kernel_body(text, "klane");
        isa_expect(arch, text, "klane",
                   strstr(b, "v_mbcnt_lo_u32_b32") || matches(b, w64 ? "v_and_b32[a-z0-9_]* v[0-9]+, 63," : "v_and_b32[a-z0-9_]* v[0-9]+, 31,"),
                   "v_mbcnt or an and with W - 1");
        free(b);
        free(text);
    }
}

/* Every type's kernels compile for both GPUs. */
static void test_isa_types(void)
{
    const char *arches[] = { "gfx942", "gfx1100" };
    for (int a = 0; a < 2; a++)
        for (int i = 0; i < NTYPES; i++) {
            const Ty *t = &types[i];
            char *s1 = subst(shuffle_src, t->name),
                 *s2 = subst(t->k == K_BOOL ? bool_src : t->k == K_RAW ? "" : reduce_src, t->name);
            char *src = malloc(strlen(s1) + strlen(s2) + 2);
            sprintf(src, "%s\n%s", s1, s2);
            char *text = gpu_asm(src, arches[a]);
            char *b = kernel_body(text, "sh");
            bool ok = count(b, "ds_bpermute_b32") >= 1 && strstr(b, "v_readlane_b32") &&
                      strstr(b, "v_readfirstlane_b32");
            CU_ASSERT(ok);
            if (!ok)
                fprintf(stderr, "\n  %s: %s: the shuffles do not compile to ds_bpermute/readlane", arches[a], t->name);
            free(b);
            if (t->k != K_BOOL && t->k != K_RAW) {
                b = kernel_body(text, "rd");
                ok = strstr(b, "ds_swizzle_b32") != NULL;
                CU_ASSERT(ok);
                if (!ok)
                    fprintf(stderr, "\n  %s: %s: the reductions do not compile to ds_swizzle", arches[a], t->name);
                free(b);
            }
            free(text);
            free(src);
            free(s1);
            free(s2);
        }
}

/* ------------------------------------------------------------------------
 * Invalid uses: located errors with a sensible message.
 * ------------------------------------------------------------------------ */

/* Compiles for gfx942; the diagnostics printed (malloc'd), *ok whether it compiled. */
static char *diagnostics(const char *src, bool *ok)
{
    Mod m;
    fxt_capture_begin();
    *ok = fxs_lower(&m, src, "gfx942", false);
    char *d = fxt_capture_end();
    fxs_close(&m);
    return d ? d : calloc(1, 1);
}

static void expect_error(const char *src, const char *where, const char *msg)
{
    bool ok;
    char *d = diagnostics(src, &ok);
    CU_ASSERT(!ok);
    bool found = false;
    for (const char *p = strstr(d, where); p && !found; p = strstr(p + 1, where)) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(n < 511 ? n : 511), p);
        found = strstr(line, "error") && strstr(line, msg);
    }
    CU_ASSERT(found);
    if (!found || ok)
        fprintf(stderr, "\n  want an error at %s containing \"%s\"; got (%s):\n%s", where, msg,
                ok ? "compiled" : "failed", d);
    free(d);
}

static void test_errors(void)
{
#define K(body) "kernel k(x: Ptr[Int32], f: Ptr[Float32], h: Ptr[Float8E5M2]) {\n    let i = thread_idx.x\n    " body "\n}\n"
    expect_error(K("x[i] = fx.shuffle(x[i])"), ":3:12:", "fx.shuffle() takes 2 arguments, got 1");
    expect_error(K("x[i] = fx.shuffle_xor(x[i], 1, 2)"), ":3:12:", "fx.shuffle_xor() takes 2 arguments, got 3");
    expect_error(K("x[i] = fx.readfirstlane(x[i], 1)"), ":3:12:", "takes 1 argument, got 2");
    expect_error(K("x[i] = fx.wave_sum()"), ":3:12:", "fx.wave_sum() takes 1 argument, got 0");
    expect_error(K("x[i] = fx.lane_id(1)"), ":3:12:", "fx.lane_id() takes 0 arguments, got 1");
    /* a Boolean argument that is not a Boolean */
    expect_error(K("let b = fx.ballot(f[i])"), ":3:23:", "Float32 to Boolean");
    expect_error(K("let b = fx.any(x[i])"), ":3:20:", "Int32 to Boolean");
    expect_error(K("let b = fx.all(x)"), ":3:20:", "Ptr[Int32]");
    /* lane arguments are Int32 */
    expect_error(K("x[i] = fx.shuffle(x[i], 1.5)"), ":3:29:", "not representable in Int32");
    expect_error(K("x[i] = fx.shuffle_down(x[i], Int64(i))"), ":3:34:", "Int64 to Int32");
    expect_error(K("x[i] = fx.readlane(x[i], f[i])"), ":3:30:", "Float32 to Int32");
    /* what the operations take */
    expect_error(K("let p = fx.shuffle(x, 1)"), ":3:24:", "Ptr[Int32]");
    expect_error(K("let s = fx.wave_sum(Index(i))"), ":3:25:", "Index");
    expect_error(K("let s = fx.wave_max(h[i])"), ":3:25:", "Float8E5M2");
    /* outside kernels and fns */
    expect_error("const L = fx.lane_id()\nkernel k(x: Ptr[Int32]) {\n    x[0] = L\n}\n", ":1:11:",
                 "only available inside a kernel or fn");
    expect_error("const S = fx.wave_sum(3)\nkernel k(x: Ptr[Int32]) {\n    x[0] = S\n}\n", ":1:11:",
                 "only available inside a kernel or fn");
    expect_error("static_assert(fx.any(True))\n", ":1:15:", "only available inside a kernel or fn");
#undef K
}

/* A program body is not a kernel: wave operations there are errors (their
 * result would depend on how the program is cut into kernels, i.e. on the
 * target). */
static void test_errors_in_programs(void)
{
    expect_error("program p(A: Tensor[Float32, 64], B: Tensor[Float32, 64]) {\n    B = fx.wave_sum(A)\n}\n", ":2:",
                 "fx.wave_sum");
    expect_error("program p(A: Tensor[Float32, 64], B: Tensor[Float32, 64]) {\n    B = A + Float32(fx.lane_id())\n}\n",
                 ":2:", "fx.lane_id");
}

/* ------------------------------------------------------------------------ */

static const FxtTest model_tests[] = {
    { "the model's Float16/BFloat16 rounding", test_model_formats },
    { "hand-computed reductions (tree order, -0.0 identity, NaN, wrap)", test_examples },
    { NULL, NULL },
};

static void (*const type_fns[])(void) = {
    test_type_0, test_type_1, test_type_2, test_type_3, test_type_4, test_type_5, test_type_6,
    test_type_7, test_type_8, test_type_9, test_type_10, test_type_11, test_type_12, test_type_13,
    test_type_14, test_type_15, test_type_16, test_type_17, test_type_18, test_type_19, test_type_20,
    test_type_21, test_type_22, test_type_23, test_type_24, test_type_25,
};
_Static_assert(sizeof type_fns / sizeof type_fns[0] == sizeof types / sizeof types[0], "one test per type");
static FxtTest type_tests[NTYPES + 1];   /* named in main */
static char type_test_names[NTYPES][128];

#if defined(__SANITIZE_ADDRESS__)
/* A work-item's fiber ends inside the frames that switched back to the
 * scheduler, and AddressSanitizer keeps their redzones poisoned after the
 * stacks are unmapped unless the runtime clears them: the next mapping of
 * those addresses (a JIT's code segment, once) then faults on its first
 * write. Mapping the same size again right after a launch gets the same
 * addresses (first fit from the top), which must read as clean memory. */
static void test_fiber_stacks_unpoisoned(void)
{
    static const char *src = "kernel half_sum(o: Ptr[Int32]) {\n"
                             "    let t = thread_idx.x\n"
                             "    if t % 2 == 0 {\n"
                             "        o[t] = fx.wave_sum(t)\n"
                             "    }\n"
                             "}\n";
    enum { B = 64 };
    Mod m;
    CU_ASSERT_FATAL(mod_open(&m, src, &modes[1]));
    int32_t o[B] = { 0 };
    void *po = o;
    void *args[] = { &po };
    size_t bytes[] = { sizeof o };
    unsigned grid[3] = { 1, 1, 1 }, block[3] = { B, 1, 1 };
    CU_ASSERT(launch(&m, "half_sum", grid, block, args, bytes));
    CU_ASSERT_EQUAL(o[0], 31 * 32);
    size_t total = B * (size_t)(640 * 1024);   /* rt_launch.c: a stack and its guard */
    char *again = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CU_ASSERT_FATAL(again != MAP_FAILED);
    char *poisoned = __asan_region_is_poisoned(again, total);
    if (poisoned)
        fprintf(stderr, "\n  poison at byte %td of a fresh mapping of %zu bytes", poisoned - again, total);
    CU_ASSERT_PTR_NULL(poisoned);
    munmap(again, total);
    fxs_close(&m);
}
#endif

static const FxtTest control_tests[] = {
    { "fx.lane_id() and fx.wave_size() per work-item", test_lane_ids },
    { "fx.wave_size() is static", test_wave_size_static },
    { "if/else, nested ifs, a fn, early returns, reconvergence", test_branches },
    { "loops left at different iterations (while, for with break, nested, return)", test_loops },
    { "loop: an operation under an if sees only that iteration's lanes", test_loop_if },
    { "loop: an operation after a continue sees only that iteration's lanes", test_loop_continue },
    { "loop: an operation every lane reaches, then one under an if", test_loop_mixed },
    { "2-D and 3-D blocks: linear lane order, x fastest", test_multidim },
    { "wave operations around fx.barrier() and shared memory", test_barrier },
#if defined(__SANITIZE_ADDRESS__)
    { "fiber stacks leave no AddressSanitizer poison behind", test_fiber_stacks_unpoisoned },
#endif
    { NULL, NULL },
};

static const FxtTest isa_tests[] = {
    { "gfx942 / gfx1100: ds_bpermute, readlane, readfirstlane, ballot, whole-wave reductions by ds_swizzle", test_isa },
    { "every type's wave kernels compile for gfx942 and gfx1100", test_isa_types },
    { NULL, NULL },
};

static const FxtTest error_tests[] = {
    { "invalid uses in kernels and at the top level", test_errors },
    { "wave operations in a program body", test_errors_in_programs },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    for (int i = 0; i < NTYPES; i++) {
        const Ty *t = &types[i];
        snprintf(type_test_names[i], sizeof type_test_names[i], "%s: %s, against the model", t->name,
                 t->k == K_BOOL  ? "shuffles, readlane, readfirstlane, ballot, any, all, sum/max/min as Int32"
                 : t->k == K_RAW ? "shuffles, readlane, readfirstlane (a storage type: moved whole)"
                                 : "shuffles, readlane, readfirstlane, wave_sum/max/min");
        type_tests[i] = (FxtTest){ type_test_names[i], type_fns[i] };
    }
    static const FxtSuite suites[] = {
        { "model", model_tests, NULL, NULL },
        { "types", type_tests, NULL, NULL },
        { "control", control_tests, NULL, NULL },
        { "isa", isa_tests, NULL, NULL },
        { "errors", error_tests, NULL, NULL },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
