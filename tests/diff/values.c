/* values.c - operands of the differential test: edge sets per type (0, +-1,
 * MIN, MAX, NaNs, infinities, signed zeros, subnormals, the rounding ties of
 * every narrower format, integer boundaries), random operands, their exact
 * `.fx` spellings and their storage form. */
#include "diff.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void vals_push(Vals *s, u128 x)
{
    for (int i = 0; i < s->n; i++)
        if (s->v[i] == x)
            return;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = realloc(s->v, (size_t)s->cap * sizeof *s->v);
    }
    s->v[s->n++] = x;
}

void vals_free(Vals *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int sc_width(ScalarId s) { return type_info(s)->width; }
const FloatFormat *sc_fmt(ScalarId s) { return type_info(s)->fmt; }
const char *sc_name(ScalarId s) { return type_info(s)->name; }
bool sc_signed(ScalarId s) { return type_is_int(s) && type_info(s)->is_signed; }

u128 sc_mask(ScalarId s)
{
    int w = sc_width(s);
    return w >= 128 ? ~(u128)0 : (((u128)1 << w) - 1);
}

/* ---- integers ---- */

/* Integer edges are computed modulo 2^128 (unsigned, so that nothing
 * overflows) and wrapped to the type's width. */
static void push_int(Vals *out, ScalarId s, u128 v)
{
    vals_push(out, v & sc_mask(s));
}

static u128 neg(u128 v) { return (u128)0 - v; }
static u128 small(int v) { return v < 0 ? neg((u128)(unsigned)-v) : (u128)(unsigned)v; }

static void int_edges(ScalarId s, bool full, Vals *out)
{
    int w = sc_width(s);
    u128 m = sc_mask(s);
    u128 umax = sc_signed(s) ? m >> 1 : m;
    u128 umin = sc_signed(s) ? (m >> 1) + 1 : 0;
    static const int sm[] = { 0, 1, 2, 3, 7, 100, -1, -2, -3, -7, -100 };
    for (size_t k = 0; k < sizeof sm / sizeof *sm; k++)
        push_int(out, s, small(sm[k]));
    push_int(out, s, (u128)(w - 1));   /* shift counts around the width */
    push_int(out, s, (u128)w);
    push_int(out, s, (u128)(w + 1));
    vals_push(out, umin);
    vals_push(out, (umin + 1) & m);
    vals_push(out, umax);
    vals_push(out, (umax - 1) & m);
    vals_push(out, (u128)0x5555555555555555ull * (((u128)1 << 64) + 1) & m);
    vals_push(out, (u128)0xAAAAAAAAAAAAAAAAull * (((u128)1 << 64) + 1) & m);
    push_int(out, s, (u128)1 << (w / 2));
    push_int(out, s, ((u128)1 << (w / 2)) - 1);
    push_int(out, s, neg((u128)1 << (w / 2)));
    if (!full)
        return;
    static const int more[] = { 5, 10, 127, 128, 255, 256, -128, -129, -256, 1000, 65535, 65536, -32768, -32769 };
    for (size_t k = 0; k < sizeof more / sizeof *more; k++)
        push_int(out, s, small(more[k]));
    static const int pw[] = { 8, 11, 15, 16, 24, 31, 32, 53, 63, 64, 100, 127 };
    for (size_t k = 0; k < sizeof pw / sizeof *pw; k++) {
        u128 p = (u128)1 << pw[k];
        push_int(out, s, p);
        push_int(out, s, p - 1);
        push_int(out, s, p + 1);
        push_int(out, s, neg(p));
        push_int(out, s, neg(p) - 1);
    }
    /* integer -> float rounding ties and near-ties for 8/11/24/53-bit significands */
    static const int sig[] = { 8, 11, 24, 53 };
    for (size_t k = 0; k < sizeof sig / sizeof *sig; k++)
        for (int sh = 0; sh <= 64; sh += 16) {
            if (sig[k] + 2 + sh >= 127)
                continue;
            u128 base = (u128)1 << sig[k];
            push_int(out, s, (base + 1) << sh);          /* tie, rounds down (to even) */
            push_int(out, s, (base + 3) << sh);          /* tie, rounds up (to even) */
            push_int(out, s, ((base + 1) << sh) + 1);    /* just above a tie */
            push_int(out, s, neg((base + 3) << sh));
        }
    push_int(out, s, 65519);        /* Float16: below the overflow tie */
    push_int(out, s, 65520);        /* Float16: the overflow tie (-> inf) */
    push_int(out, s, neg(65520));
    /* Float32's overflow threshold for 128-bit integers: 2^128 - 2^103 */
    push_int(out, s, neg((u128)1 << 103));
    push_int(out, s, neg((u128)1 << 103) - 1);
    push_int(out, s, neg((u128)1 << 104));
}

/* ---- floats ---- */

static u128 enc(const FloatFormat *f, double d) { return ff_from_double(f, d, FF_RNE); }

static bool exact_in(const FloatFormat *f, double d)
{
    if (isnan(d))
        return false;
    u128 e = enc(f, d);
    double back = ff_to_double(f, (uint64_t)e);
    return back == d && signbit(back) == signbit(d);
}

static void push_exact(Vals *out, const FloatFormat *f, double d)
{
    if (exact_in(f, d))
        vals_push(out, enc(f, d));
}

/* Facts about a format (from its encodings, so every format works). */
typedef struct {
    double max, min_pos, min_norm, ulp_max;
} FmtFacts;

static FmtFacts facts(const FloatFormat *g)
{
    FmtFacts r = { 0 };
    if (g->width <= 8) {
        r.min_pos = INFINITY;
        for (uint64_t e = 0; e < (1u << g->width); e++) {
            if (ff_is_nan(g, e) || ff_is_inf(g, e))
                continue;
            double d = ff_to_double(g, e);
            if (d > r.max)
                r.max = d;
            if (d > 0 && d < r.min_pos)
                r.min_pos = d;
        }
    } else {
        int emax = (1 << g->exp_bits) - 2 - g->bias;
        r.max = ldexp(2.0 - ldexp(1.0, -g->man_bits), emax);
        r.min_pos = ldexp(1.0, 1 - g->bias - g->man_bits);
    }
    r.min_norm = g->man_bits ? ldexp(1.0, 1 - g->bias) : r.min_pos;
    int ex;
    frexp(r.max, &ex);
    r.ulp_max = ldexp(1.0, ex - 1 - g->man_bits);
    return r;
}

static const FloatFormat *const all_formats[] = {
    &ff_float16, &ff_bfloat16, &ff_float32, &ff_float64, &ff_f8e5m2, &ff_f8e4m3fn, &ff_f8e4m3fnuz,
    &ff_f8e4m3b11fnuz, &ff_f8e4m3, &ff_f6e2m3fn, &ff_f6e3m2fn, &ff_f8e8m0fnu, &ff_f4e2m1fn,
};

/* d, and the neighbouring encodings of f around it (when d is exact in f). */
static void push_around(Vals *out, const FloatFormat *f, double d)
{
    if (!exact_in(f, d))
        return;
    u128 e = enc(f, d), m = ((u128)1 << f->width) - 1;
    vals_push(out, e);
    u128 mag = e & ~((u128)1 << (f->width - 1));
    if (mag > 0)
        vals_push(out, e - 1);
    vals_push(out, (e + 1) & m);
}

static void float_edges(ScalarId s, bool full, Vals *out)
{
    const FloatFormat *f = sc_fmt(s);
    int M = f->man_bits, E = f->exp_bits;
    u128 sign = (u128)1 << (f->width - 1);
    u128 inf = (((u128)1 << E) - 1) << M;
    /* encodings */
    vals_push(out, 0);
    vals_push(out, sign);
    vals_push(out, 1);
    vals_push(out, sign | 1);
    vals_push(out, ((u128)1 << M) - 1);
    vals_push(out, sign | (((u128)1 << M) - 1));
    vals_push(out, (u128)1 << M);
    vals_push(out, sign | ((u128)1 << M));
    vals_push(out, inf - 1);                    /* max finite */
    vals_push(out, sign | (inf - 1));
    vals_push(out, inf);                        /* infinities */
    vals_push(out, sign | inf);
    vals_push(out, inf | ((u128)1 << (M - 1))); /* quiet NaN */
    vals_push(out, sign | inf | ((u128)1 << (M - 1)));
    vals_push(out, inf | ((u128)1 << (M - 1)) | 1); /* quiet NaN with a payload */
    vals_push(out, inf | 1);                    /* signalling NaN */
    static const double vals[] = { 1, -1, 0.5, -0.5, 1.5, 2, 2.5, -2.5, 3, 7, 10, 0.1, 1.0 / 3, 100, -1000, 1e4, 0.75 };
    for (size_t k = 0; k < sizeof vals / sizeof *vals; k++)
        vals_push(out, enc(f, vals[k]));
    vals_push(out, enc(f, 1.0) + 1);            /* 1 + ulp */
    vals_push(out, enc(f, 1.0) - 1);            /* largest below 1 */
    if (!full)
        return;
    /* rounding ties of every format (exact in this one only when it is wider) */
    for (size_t k = 0; k < sizeof all_formats / sizeof *all_formats; k++) {
        const FloatFormat *g = all_formats[k];
        FmtFacts t = facts(g);
        double ulp1 = ldexp(1.0, -g->man_bits);
        for (int sg = 1; sg >= -1; sg -= 2) {
            push_around(out, f, sg * (1 + ulp1 / 2));        /* tie: rounds to even (down) */
            push_around(out, f, sg * (1 + 3 * ulp1 / 2));    /* tie: rounds to even (up) */
            push_around(out, f, sg * (t.max + t.ulp_max / 2)); /* overflow tie */
            push_around(out, f, sg * t.max);
            push_around(out, f, sg * (t.max + t.ulp_max));
            push_around(out, f, sg * t.min_pos / 2);          /* tie between 0 and min subnormal */
            push_around(out, f, sg * t.min_pos * 1.5);        /* tie between 1 and 2 min subnormals */
            push_around(out, f, sg * t.min_pos * 2.5);
            push_around(out, f, sg * t.min_pos / 4);
            push_around(out, f, sg * (t.min_norm - t.min_pos / 2)); /* between max subnormal and min normal */
            push_around(out, f, sg * t.min_norm);
        }
    }
    /* integer boundaries: truncation and saturation of float -> int */
    static const int pw[] = { 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128 };
    for (size_t k = 0; k < sizeof pw / sizeof *pw; k++) {
        double p = ldexp(1.0, pw[k]);
        push_around(out, f, p);
        push_around(out, f, -p);
        push_exact(out, f, p - 1);
        push_exact(out, f, p - 0.5);
        push_exact(out, f, -p - 1);
        push_exact(out, f, -p - 0.5);
        push_exact(out, f, -p + 0.5);
    }
    static const double more[] = { 0.25, -0.75, 1.25, 1.75, 255.5, -128.5, -129, 3.5, -3.5, 4.5 };
    for (size_t k = 0; k < sizeof more / sizeof *more; k++)
        push_exact(out, f, more[k]);
}

void edges(ScalarId s, bool full, Vals *out)
{
    if (s == SC_BOOLEAN) {
        vals_push(out, 0);
        vals_push(out, 1);
    } else if (type_is_int(s)) {
        int_edges(s, full, out);
    } else if (sc_width(s) <= 8) {
        for (u128 e = 0; e < ((u128)1 << sc_width(s)); e++)
            vals_push(out, e);
    } else {
        float_edges(s, full, out);
    }
}

u128 random_operand(ScalarId s, uint64_t *rng)
{
    uint64_t r = rng_next(rng);
    u128 bits = ((u128)rng_next(rng) << 64) | rng_next(rng);
    if (s == SC_BOOLEAN)
        return r & 1;
    if (type_is_int(s)) {
        switch (r & 3) {
        case 0:
        case 1: return bits & sc_mask(s);
        case 2: return (u128)((__int128)(int)(r >> 8) % 300) & sc_mask(s);
        default: {
            int len = (int)((r >> 8) % (unsigned)sc_width(s)) + 1;
            u128 m = len >= 128 ? ~(u128)0 : (((u128)1 << len) - 1);
            return (bits & m) & sc_mask(s);
        }
        }
    }
    const FloatFormat *f = sc_fmt(s);
    if (r & 1)
        return bits & sc_mask(s);
    /* an ordinary value: random 53-bit significand, exponent within the format's range */
    FmtFacts t = facts(f);
    int lo, hi;
    frexp(t.min_pos, &lo);
    frexp(t.max, &hi);
    int ex = lo - 1 + (int)((r >> 8) % (unsigned)(hi - lo + 3));
    double d = ldexp((double)(rng_next(rng) >> 11) * 0x1p-53 + 0.5, ex);
    if (r & 2)
        d = -d;
    return enc(f, d);
}

/* ---- spelling and storage ---- */

void hex128(u128 v, char *buf, size_t cap)
{
    uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
    if (hi)
        snprintf(buf, cap, "0x%llx%016llx", (unsigned long long)hi, (unsigned long long)lo);
    else
        snprintf(buf, cap, "0x%llx", (unsigned long long)lo);
}

void hexbits(ScalarId s, u128 x, char *buf, size_t cap)
{
    hex128(x & sc_mask(s), buf, cap);
}

void spell(ScalarId s, u128 x, char *buf, size_t cap)
{
    char h[64];
    x &= sc_mask(s);
    if (s == SC_BOOLEAN) {
        snprintf(buf, cap, "Boolean(%s)", x ? "True" : "False");
    } else if (type_is_int(s)) {
        int w = sc_width(s);
        if (sc_signed(s) && ((x >> (w - 1)) & 1)) {
            hex128((~x + 1) & sc_mask(s), h, sizeof h); /* MIN: 2^(w-1), its own pattern */
            snprintf(buf, cap, "%s(-%s)", sc_name(s), h);
        } else {
            hex128(x, h, sizeof h);
            snprintf(buf, cap, "%s(%s)", sc_name(s), h);
        }
    } else if (sc_width(s) >= 8) {
        hex128(x, h, sizeof h);
        snprintf(buf, cap, "Uint%d(%s).bitcast(%s)", sc_width(s), h, sc_name(s));
    } else {
        /* FP6 and FP4: no integer type of that width; the exact value instead
         * (both have neither NaN nor infinity) */
        snprintf(buf, cap, "%s(%a)", sc_name(s), ff_to_double(sc_fmt(s), (uint64_t)x));
    }
}

int lane_bytes(ScalarId s)
{
    return type_storage_bits(type_scalar(s)) / 8;
}

/* A vector's bytes in memory: its lanes packed, 3 lanes taking 3 elements
 * (docs/decisions.md, as HIP's float3). */
int elem_bytes(const Type *t)
{
    if (t->kind != TY_VECTOR)
        return lane_bytes(t->scalar);
    return lane_bytes(t->scalar) * t->lanes;
}

u128 storage_of(ScalarId s, u128 x)
{
    x &= sc_mask(s);
    if (s == SC_INT4 && (x & 8))
        return x | 0xF0;  /* one sign-extended byte */
    return x;
}

void put_lane(unsigned char *p, ScalarId s, u128 x)
{
    u128 v = storage_of(s, x);
    for (int k = 0; k < lane_bytes(s); k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

u128 get_lane(const unsigned char *p, ScalarId s)
{
    u128 v = 0;
    for (int k = 0; k < lane_bytes(s); k++)
        v |= (u128)p[k] << (8 * k);
    return v;
}
