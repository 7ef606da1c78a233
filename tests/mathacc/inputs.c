/* inputs.c - the functions and types of tests/mathacc, the inputs they are
 * tried on and the folded value (the implementation under test). */
#include "mathacc.h"
#include "fxir/fold.h"
#include "fxir/fxmath.h"
#include "support/floatfmt.h"
#include <math.h>
#include <stdlib.h>

const MaFn ma_fns[] = {
    { "erf", FXM_ERF, false },       { "erfc", FXM_ERFC, false },
    { "log1p", FXM_LOG1P, false },   { "expm1", FXM_EXPM1, false },
    { "cbrt", FXM_CBRT, false },     { "sigmoid", FXM_SIGMOID, false },
    { "copysign", FXM_COPYSIGN, true }, { "hypot", FXM_HYPOT, true },
    { "atan2", FXM_ATAN2, true },    { "pow", -1, true },
};
const int ma_nfns = (int)(sizeof ma_fns / sizeof ma_fns[0]);

const MaType ma_types[] = {
    { "Float16", SC_FLOAT16, 16 }, { "BFloat16", SC_BFLOAT16, 16 },
    { "Float32", SC_FLOAT32, 32 }, { "Float64", SC_FLOAT64, 64 },
};
const int ma_ntypes = (int)(sizeof ma_types / sizeof ma_types[0]);

/* GCC says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer) */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MA_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MA_ASAN 1
#endif

long ma_scaled(long n)
{
#ifdef MA_ASAN
    return n / 5;
#else
    return n;
#endif
}

static const FloatFormat *fmt(const MaType *t) { return type_info(t->s)->fmt; }

double ma_value(const MaType *t, uint64_t bits) { return ff_to_double(fmt(t), bits); }
bool ma_is_nan(const MaType *t, uint64_t bits) { return ff_is_nan(fmt(t), bits); }

static uint64_t enc(const MaType *t, double d) { return ff_from_double(fmt(t), d, FF_RNE); }

uint64_t ma_fold(const MaFn *f, const MaType *t, uint64_t x, uint64_t y)
{
    if (f->fn < 0) {   /* pow is `**`: the FXIR folder's */
        FxConst r, a = { .lo = x, .hi = 0 }, b = { .lo = y, .hi = 0 };
        fxf_binop(FXB_POW, t->s, a, b, &r);
        return r.lo;
    }
    return enc(t, fxm_eval(f->fn, t->s, ma_value(t, x), ma_value(t, y)));
}

/* xorshift64*: the same inputs on every run */
static uint64_t next(uint64_t *st)
{
    *st ^= *st >> 12, *st ^= *st << 25, *st ^= *st >> 27;
    return *st * 0x2545F4914F6CDD1DULL;
}

static const double specials[] = {
    0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, 8.0, -8.0, 10.0, 0.1, 1e-3, -1e-3, 1e-300, 88.7, -88.7,
    -103.9, 709.7, -745.0, 1e10, -1e10, 27.0, 1e-8, -0.9999999, -0.99, 0.75, -0.25, 6.0, 30.0, -30.0,
    INFINITY, -INFINITY, NAN,
};
#define NSPECIAL ((int)(sizeof specials / sizeof specials[0]))

/* A random encoding: half uniform over all bit patterns (every binade),
 * half uniform in [-12, 12) where these functions bend. */
static uint64_t random_input(const MaType *t, uint64_t *st)
{
    uint64_t r = next(st);
    if (r & 1) {
        uint64_t mask = t->bits == 64 ? ~0ULL : (1ULL << t->bits) - 1;
        return next(st) & mask;
    }
    return enc(t, ((double)(next(st) >> 11) / 9007199254740992.0) * 24.0 - 12.0);
}

void ma_inputs(const MaFn *f, const MaType *t, uint64_t **px, uint64_t **py, long *pn)
{
    bool exhaustive = t->bits == 16 && !f->binary;
    long n = exhaustive ? 65536 : NSPECIAL * NSPECIAL + ma_scaled(f->binary ? 30000 : 60000);
    uint64_t *x = malloc(sizeof *x * (size_t)n), *y = malloc(sizeof *y * (size_t)n);
    uint64_t st = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(f - ma_fns) * 1315423911ULL ^ (uint64_t)t->bits;
    long k = 0;
    if (exhaustive) {
        for (; k < n; k++)
            x[k] = (uint64_t)k, y[k] = 0;
    } else {
        for (int i = 0; i < NSPECIAL; i++)
            for (int j = 0; j < NSPECIAL; j++, k++)
                x[k] = enc(t, specials[i]), y[k] = enc(t, specials[j]);
        for (; k < n; k++)
            x[k] = random_input(t, &st), y[k] = random_input(t, &st);
    }
    *px = x, *py = y, *pn = n;
}
