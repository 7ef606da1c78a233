/* fold.c - constant folding on FXIR opcodes (cproc's eval.c in spirit: a
 * table-like switch per operation). Every result here equals, bit for bit,
 * what codegen's instructions compute at run time for the same operands;
 * the differential tests hold the two against each other.
 *
 * Operations that the language rejects when their operands are static (an
 * integer // 0, a negative shift count or exponent, ceildiv(MIN, -1)) still
 * produce the run-time result in *out and report the condition in the
 * status: sema turns it into an error, a pass may use the value. */
#include "fxir/fold.h"
#include <math.h>
#include <string.h>

/* ---- values ---- */

static const ScalarInfo *info(ScalarId s) { return type_info(s); }
static bool is_float(ScalarId s) { return info(s)->fmt != NULL; }

BigInt fxf_to_big(ScalarId s, FxConst c)
{
    BigInt b = big_from_u64(0);
    b.w[0] = c.lo;
    b.w[1] = c.hi;
    if (s == SC_BOOLEAN)
        return big_from_i64((c.lo & 1) != 0);
    return big_wrap(b, info(s)->width, info(s)->is_signed);
}

FxConst fxf_from_value(ScalarId s, BigInt v)
{
    if (s == SC_BOOLEAN)
        v = big_from_i64(!big_is_zero(v));
    else
        v = big_wrap(v, info(s)->width, info(s)->is_signed);
    BigInt w = big_wrap(v, 128, false);   /* FxConst: 128-bit two's complement */
    FxConst c = { w.w[0], w.w[1] };
    return c;
}

static FxConst float_const(uint64_t bits)
{
    FxConst c = { bits, 0 };
    return c;
}

static double bits_to_double(ScalarId s, uint64_t bits) { return ff_to_double(info(s)->fmt, bits); }
static uint64_t double_to_bits(ScalarId s, double d, FfRound rm) { return ff_from_double(info(s)->fmt, d, rm); }

static double big_to_double(BigInt v)
{
    return ff_to_double(&ff_float64, ff_from_big(&ff_float64, v, FF_RNE));
}

double fxf_to_double(ScalarId s, FxConst c)
{
    return is_float(s) ? bits_to_double(s, c.lo) : big_to_double(fxf_to_big(s, c));
}

bool fxf_truthy(ScalarId s, FxConst c)
{
    if (!is_float(s))
        return !big_is_zero(fxf_to_big(s, c));
    double d = fxf_to_double(s, c);
    return d != 0 || isnan(d);
}

unsigned __int128 fxf_bits(ScalarId s, FxConst c)
{
    if (is_float(s))
        return c.lo & (info(s)->width == 64 ? ~UINT64_C(0) : (UINT64_C(1) << info(s)->width) - 1);
    BigInt raw = big_wrap(fxf_to_big(s, c), info(s)->width, false);
    return ((unsigned __int128)raw.w[1] << 64) | raw.w[0];
}

/* ---- conversions ---- */

/* Float to integer: truncate toward zero, saturate at the type's range, NaN -> 0
 * (llvm.fptosi.sat / fptoui.sat). */
static BigInt float_to_int(double d, ScalarId to)
{
    const ScalarInfo *ti = info(to);
    if (isnan(d))
        return big_from_i64(0);
    BigInt one = big_from_i64(1), lo, hi;
    if (ti->is_signed) {
        hi = big_sub(big_shl(one, (unsigned)ti->width - 1), one);
        lo = big_neg(big_shl(one, (unsigned)ti->width - 1));
    } else {
        hi = big_sub(big_shl(one, (unsigned)ti->width), one);
        lo = big_from_i64(0);
    }
    /* Beyond every integer width the value saturates without being
     * truncated (big_from_double_trunc is exact only below 2^575). */
    if (isinf(d) || fabs(d) >= 0x1p200)
        return d > 0 ? hi : lo;
    BigInt t = big_from_double_trunc(d);
    return big_cmp(t, hi) > 0 ? hi : big_cmp(t, lo) < 0 ? lo : t;
}

FxConst fxf_from_int(ScalarId to, BigInt v, FfRound rm)
{
    if (is_float(to))
        return float_const(ff_from_big(info(to)->fmt, v, rm));
    return fxf_from_value(to, v);
}

FxConst fxf_from_double(ScalarId to, double d, FfRound rm)
{
    if (to == SC_BOOLEAN)
        return fxf_from_value(to, big_from_i64(d != 0 || isnan(d)));
    if (!is_float(to))
        return fxf_from_value(to, float_to_int(d, to));
    return float_const(double_to_bits(to, d, rm));
}

FxConst fxf_convert(ScalarId from, FxConst x, ScalarId to, FfRound rm)
{
    if (to == SC_BOOLEAN)
        return fxf_from_value(to, big_from_i64(fxf_truthy(from, x)));
    if (!is_float(from))
        return fxf_from_int(to, fxf_to_big(from, x), rm);
    if (from == to)
        return x;
    return fxf_from_double(to, fxf_to_double(from, x), rm);
}

FxConst fxf_bitcast(ScalarId from, FxConst x, ScalarId to)
{
    unsigned __int128 raw = fxf_bits(from, x);
    if (is_float(to))
        return float_const((uint64_t)raw);
    BigInt b = big_from_u64((uint64_t)raw);
    b.w[1] = (uint64_t)(raw >> 64);
    return fxf_from_value(to, b);
}

/* ---- integers (width 0: an untyped literal, exact) ---- */

typedef struct IntKind {
    int width;          /* 0: unbounded */
    bool is_signed;
} IntKind;

static BigInt wrap(BigInt v, IntKind k)
{
    return k.width ? big_wrap(v, k.width, k.is_signed) : v;
}

/* Integer power by squaring; typed results wrap after every step. A
 * negative exponent gives 0 at run time unless the base is +-1. */
static FxFoldStatus int_pow(BigInt base, BigInt e, IntKind k, BigInt *out)
{
    if (big_sign(e) < 0) {
        bool one = big_cmp(base, big_from_i64(1)) == 0, minus = big_cmp(base, big_from_i64(-1)) == 0;
        bool odd = (big_to_u64(e) & 1) != 0;
        *out = one ? base : minus ? (odd ? base : big_from_i64(1)) : big_from_i64(0);
        return FXF_NEG_POW;
    }
    BigInt r = big_from_i64(1);
    while (!big_is_zero(e)) {
        if (big_to_u64(e) & 1) {
            r = wrap(big_mul(r, base), k);
            if (!k.width && !big_in_range(r))
                return FXF_TOO_LARGE;
        }
        e = big_shr(e, 1);
        if (big_is_zero(e))
            break;
        base = wrap(big_mul(base, base), k);
        if (!k.width && !big_in_range(base))
            return FXF_TOO_LARGE;
    }
    *out = r;
    return FXF_OK;
}

/* A count >= the width (or negative, at run time) gives 0 or the sign fill. */
static FxFoldStatus int_shift(FxBinop op, BigInt x, BigInt count, IntKind k, BigInt *out)
{
    bool neg = big_sign(count) < 0;
    if (!k.width) { /* untyped literal: exact */
        if (neg)
            return FXF_NEG_SHIFT;
        if (big_cmp(count, big_from_i64(BIG_BITS)) >= 0) {
            if (op == FXB_SHL && !big_is_zero(x))
                return FXF_TOO_LARGE;
            *out = op == FXB_SHL ? big_from_i64(0) : big_from_i64(big_sign(x) < 0 ? -1 : 0);
            return FXF_OK;
        }
        unsigned n = (unsigned)big_to_u64(count);
        *out = op == FXB_SHL ? big_shl(x, n) : big_shr(x, n);
        if (op == FXB_SHL && (!big_in_range(*out) || big_cmp(big_shr(*out, n), x) != 0))
            return FXF_TOO_LARGE;
        return FXF_OK;
    }
    if (neg || big_cmp(count, big_from_i64(k.width)) >= 0) {
        bool fill = op == FXB_SHR && k.is_signed && big_sign(x) < 0;
        *out = big_from_i64(fill ? -1 : 0);
        return neg ? FXF_NEG_SHIFT : FXF_OK;
    }
    unsigned n = (unsigned)big_to_u64(count);
    *out = op == FXB_SHL ? big_shl(x, n) : big_shr(x, n);
    return FXF_OK;
}

static FxFoldStatus int_binop(FxBinop op, BigInt x, BigInt y, IntKind k, BigInt *out)
{
    BigInt r;
    FxFoldStatus st = FXF_OK;
    switch (op) {
    case FXB_ADD: *out = big_add(x, y); break;
    case FXB_SUB: *out = big_sub(x, y); break;
    case FXB_MUL: *out = big_mul(x, y); break;
    case FXB_DIV:        /* not FXIR on integers (the verifier rejects it); floored like // */
    case FXB_FLOORDIV:
    case FXB_MOD:
        if (big_is_zero(y)) {
            *out = big_from_i64(0);   /* x // 0 == x % 0 == 0 at run time */
            return FXF_DIV_ZERO;
        }
        big_divmod_floor(x, y, op == FXB_MOD ? &r : out, op == FXB_MOD ? out : &r);
        break;
    case FXB_POW: st = int_pow(x, y, k, out); break;
    case FXB_AND: *out = big_and(x, y); break;
    case FXB_OR: *out = big_or(x, y); break;
    case FXB_XOR: *out = big_xor(x, y); break;
    case FXB_SHL:
    case FXB_SHR: st = int_shift(op, x, y, k, out); break;
    default: *out = big_from_i64(0); break;
    }
    if (st == FXF_OK || st == FXF_NEG_SHIFT || st == FXF_NEG_POW)
        *out = wrap(*out, k);
    if (st == FXF_OK && !k.width && !big_in_range(*out))
        return FXF_TOO_LARGE;
    return st;
}

FxFoldStatus fxf_lit_int_binop(FxBinop op, BigInt x, BigInt y, BigInt *out)
{
    IntKind k = { 0, true };
    return int_binop(op, x, y, k, out);
}

/* a / b rounded once to binary64 (Python's int true division): the quotient
 * is computed with at least 55 significant bits plus a sticky bit, so the
 * single rounding in ff_from_big is the correct one. */
double fxf_lit_int_quotient(BigInt a, BigInt b)
{
    bool neg = (big_sign(a) < 0) != (big_sign(b) < 0);
    if (big_sign(a) < 0)
        a = big_neg(a);
    if (big_sign(b) < 0)
        b = big_neg(b);
    int k = 55 - (big_bitlen(a) - big_bitlen(b));
    if (k < 0)
        k = 0;
    BigInt q, r;
    big_divmod_floor(big_shl(a, (unsigned)k), b, &q, &r);
    if (!big_is_zero(r))
        q = big_or(q, big_from_i64(1));
    double d = ldexp(big_to_double(q), -k);
    return neg ? -d : d;
}

/* ---- comparisons ---- */

/* c: -1, 0, 1, or 2 for unordered (NaN) */
static bool compare_result(FxCmp op, int c)
{
    if (c == 2)
        return op == FXC_NE;
    switch (op) {
    case FXC_LT: return c < 0;
    case FXC_LE: return c <= 0;
    case FXC_GT: return c > 0;
    case FXC_GE: return c >= 0;
    case FXC_EQ: return c == 0;
    default: return c != 0;
    }
}

bool fxf_lit_cmp_ints(FxCmp op, BigInt x, BigInt y) { return compare_result(op, big_cmp(x, y)); }

bool fxf_lit_cmp_doubles(FxCmp op, double x, double y)
{
    return compare_result(op, x != x || y != y ? 2 : x < y ? -1 : x > y ? 1 : 0);
}

/* Exact comparison of an integer with a binary64 value (Python's int/float
 * comparison). */
bool fxf_lit_cmp_int_double(FxCmp op, BigInt x, double d)
{
    int c;
    if (isnan(d)) {
        c = 2;
    } else if (isinf(d) || fabs(d) >= 0x1p560) {
        c = d > 0 ? -1 : 1;
    } else {
        double t = trunc(d);
        c = big_cmp(x, big_from_double_trunc(t));
        if (c == 0 && t != d)
            c = d > t ? -1 : 1;   /* equal integer parts: the fraction decides */
    }
    return compare_result(op, c);
}

bool fxf_cmp(FxCmp op, ScalarId s, FxConst x, FxConst y)
{
    if (!is_float(s))
        return fxf_lit_cmp_ints(op, fxf_to_big(s, x), fxf_to_big(s, y));
    return fxf_lit_cmp_doubles(op, fxf_to_double(s, x), fxf_to_double(s, y));
}

/* ---- floats: computed in binary64, rounded once to the format ----
 * binary64 holds more than 2p+2 bits of every narrower format here, so
 * + - * / computed in double and rounded once equal the correctly rounded
 * operation in the narrow format. */

static double round_to_format(double d, ScalarId s)
{
    if (s == SC_FLOAT64)
        return d;
    return bits_to_double(s, double_to_bits(s, d, FF_RNE));
}

static double python_mod(double x, double y, ScalarId s)
{
    double r = fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0)))
        r = round_to_format(r + y, s);
    if (r == 0)
        r = copysign(0.0, y);
    return r;
}

static double float_pow(double x, double y, ScalarId s)
{
    /* Transcendental: folded with the host's libm (spec §3.3), in the
     * precision of the type. */
    if (s == SC_FLOAT64)
        return pow(x, y);
    return (double)powf((float)x, (float)y);
}

static double float_binop(FxBinop op, double x, double y, ScalarId s)
{
    switch (op) {
    case FXB_ADD: return x + y;
    case FXB_SUB: return x - y;
    case FXB_MUL: return x * y;
    case FXB_DIV: return x / y;
    case FXB_FLOORDIV: return floor(round_to_format(x / y, s));
    case FXB_MOD: return python_mod(x, y, s);
    case FXB_POW: return float_pow(x, y, s);
    default: return NAN;
    }
}

double fxf_lit_float_binop(FxBinop op, double x, double y)
{
    return float_binop(op, x, y, SC_FLOAT64);
}

FxFoldStatus fxf_binop(FxBinop op, ScalarId s, FxConst x, FxConst y, FxConst *out)
{
    if (is_float(s)) {
        double r = float_binop(op, fxf_to_double(s, x), fxf_to_double(s, y), s);
        *out = float_const(double_to_bits(s, r, FF_RNE));
        return FXF_OK;
    }
    IntKind k = { info(s)->width, info(s)->is_signed && s != SC_BOOLEAN };
    BigInt r;
    FxFoldStatus st = int_binop(op, fxf_to_big(s, x), fxf_to_big(s, y), k, &r);
    *out = fxf_from_value(s, r);
    return st;
}

/* ---- unary ---- */

static uint64_t sign_mask(ScalarId s) { return UINT64_C(1) << (info(s)->width - 1); }

FxConst fxf_unop(FxUnop op, ScalarId s, FxConst x)
{
    if (is_float(s)) {
        /* Negation flips the sign bit only, as LLVM's fneg does (NaN too);
         * abs clears it. */
        if (op == FXU_NEG)
            return float_const(x.lo ^ sign_mask(s));
        return float_const(op == FXU_ABS ? x.lo & ~sign_mask(s) : x.lo);
    }
    BigInt v = fxf_to_big(s, x);
    if (s == SC_BOOLEAN)
        return fxf_from_value(s, big_from_i64(op == FXU_INVERT ? big_is_zero(v) : !big_is_zero(v)));
    switch (op) {
    case FXU_NEG: return fxf_from_value(s, big_neg(v));
    case FXU_INVERT: return fxf_from_value(s, big_not(v));
    default: return fxf_from_value(s, big_sign(v) < 0 ? big_neg(v) : v);   /* wraps: abs(MIN) == MIN */
    }
}

/* ---- fx.max / fx.min / maxnumf / minnumf / ceildiv ---- */

/* IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0. */
static bool float_less(double x, double y)
{
    if (x == 0 && y == 0)
        return signbit(x) && !signbit(y);
    return x < y;
}

int fxf_lit_minmax_pick(FxMinMax which, bool ints, BigInt xi, BigInt yi, double xd, double yd)
{
    bool want_max = which == FXMM_MAX || which == FXMM_MAXNUM;
    if (ints) {
        int c = big_cmp(xi, yi);
        return (want_max ? c >= 0 : c <= 0) ? 0 : 1;
    }
    bool num = which == FXMM_MAXNUM || which == FXMM_MINNUM;
    if (isnan(xd) || isnan(yd)) {
        if (num && !(isnan(xd) && isnan(yd)))
            return isnan(xd) ? 1 : 0;
        return -1;
    }
    bool x_less = float_less(xd, yd);
    return want_max ? (x_less ? 1 : 0) : (x_less ? 0 : 1);
}

FxConst fxf_minmax(FxMinMax which, ScalarId s, FxConst x, FxConst y)
{
    bool ints = !is_float(s);
    int pick = ints ? fxf_lit_minmax_pick(which, true, fxf_to_big(s, x), fxf_to_big(s, y), 0, 0)
                    : fxf_lit_minmax_pick(which, false, big_from_i64(0), big_from_i64(0), fxf_to_double(s, x),
                                          fxf_to_double(s, y));
    if (pick < 0)   /* the canonical quiet NaN, as LLVM folds it */
        return float_const(double_to_bits(s, NAN, FF_RNE));
    return pick == 0 ? x : y;
}

/* ceil(x / y) == -floor(-x / y), computed exactly. */
FxFoldStatus fxf_lit_ceildiv(BigInt x, BigInt y, BigInt *out)
{
    if (big_is_zero(y)) {
        *out = big_from_i64(0);
        return FXF_DIV_ZERO;
    }
    BigInt q, r;
    big_divmod_floor(big_neg(x), y, &q, &r);
    *out = big_neg(q);
    return FXF_OK;
}

FxFoldStatus fxf_ceildiv(ScalarId s, FxConst x, FxConst y, FxConst *out)
{
    BigInt xv = fxf_to_big(s, x), yv = fxf_to_big(s, y), q;
    if (info(s)->is_signed && s != SC_BOOLEAN) {
        BigInt min = big_neg(big_shl(big_from_i64(1), (unsigned)info(s)->width - 1));
        if (big_cmp(xv, min) == 0 && big_cmp(yv, big_from_i64(-1)) == 0) {
            *out = x;   /* MIN at run time */
            return FXF_CEILDIV_OVERFLOW;
        }
    }
    FxFoldStatus st = fxf_lit_ceildiv(xv, yv, &q);
    *out = fxf_from_value(s, q);
    return st;
}

/* ---- text ---- */

char *fxf_format(ScalarId s, FxConst c, char *buf)
{
    if (s == SC_BOOLEAN)
        return strcpy(buf, c.lo & 1 ? "True" : "False");
    if (is_float(s))
        return ff_repr(info(s)->fmt, fxf_bits(s, c), buf);
    return big_to_dec(fxf_to_big(s, c), buf);
}
