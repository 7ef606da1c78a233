/* floatfmt.c - bit-exact rounding into every floating-point format.
 *
 * One rounding core (ff_round) takes an exact value mag * 2^e2 and produces
 * the encoding; doubles and big integers both feed it, so there is never a
 * second rounding.  Rounding itself is the usual IEEE 754 one for all five
 * modes.  What differs per format is what happens at the edges, and that
 * follows LLVM APFloat (llvm/lib/Support/APFloat.cpp: fltSemantics table,
 * IEEEFloat::handleOverflow, IEEEFloat::normalize, IEEEFloat::convert,
 * makeNaN, convertIEEEFloatToAPInt), checked against the installed LLVM 19
 * library for every format it has:
 *
 * format         APFloat behaviour   overflow (finite |x| > max)          +-inf input    NaN input
 * -------------  ------------------  -----------------------------------  -------------  ------------
 * Float16        IEEE754             RNE/away and the directed mode that  +-inf          0x7E00
 * BFloat16       IEEE754               rounds away from zero: +-inf;       +-inf          0x7FC0
 * Float32        IEEE754               the directed modes that round      +-inf          0x7FC00000
 * Float64        IEEE754               toward zero: +-largest finite      +-inf          0x7FF8...
 * Float8E5M2     IEEE754             (same)                               +-inf          0x7E
 * Float8E4M3     IEEE754 (bias 7)    (same)                               +-inf          0x7C
 * Float8E4M3FN   NanOnly, AllOnes    RNE/away/away-directed: NaN with the NaN 0x7F/0xFF  0x7F
 *                                    sign (0x7F / 0xFF); toward-zero
 *                                    directed: +-448 (0x7E / 0xFE)
 * Float8E4M3FNUZ NanOnly, NegZero    as E4M3FN but the NaN is 0x80;       NaN 0x80       0x80
 * Float8E5M2FNUZ   (bias 16)
 * Float8E4M3B11FNUZ                    toward zero: +-max (0x7F / 0xFF)
 * Float6E2M3FN   FiniteOnly          +-largest finite in EVERY mode       +-max (*)      +0 (*)
 * Float6E3M2FN   FiniteOnly            (handleOverflow never makes inf    +-max (*)      +0 (*)
 * Float4E2M1FN   FiniteOnly            for FiniteOnly)                    +-max (*)      +0 (*)
 * Float8E8M0FNU  NanOnly, AllOnes,   upward/nearest: NaN 0xFF; toward     NaN 0xFF       0xFF
 *                no zero, unsigned   zero/down: 2^127 (0xFE)  (**)
 *
 * Notes.
 * - "Overflow" means the value rounded with unbounded exponent exceeds the
 *   largest finite value; for E4M3FN and E8M0FNU the all-ones pattern is NaN,
 *   so e.g. 464 < x < 480 rounds (RNE) to the NaN (464 itself is a tie and goes to the even 448), as APFloat's normalize()
 *   treats "exponent == max && significand all ones" as overflow.
 * - NaN input: the brief asks for the canonical NaN, so the input's sign and
 *   payload are dropped.  (APFloat's convert keeps the sign, e.g. -NaN ->
 *   E4M3FN 0xFF, and truncates IEEE payloads; LLVM constant folding of a
 *   literal NaN starts from the positive quiet NaN anyway.)
 * - +-inf into a NanOnly format is NaN in every rounding mode (APFloat
 *   convert(): fcInfinity + NanOnly -> makeNaN(sign)), even where a finite
 *   overflow would saturate.
 * - Zero results: FNUZ formats have no -0, so -0.0 and negative values that
 *   round to zero give +0 (APFloat normalize/convert clear the sign).
 * - Subnormals are produced exactly in every format that has them.
 * - (*) FiniteOnly (FP6, FP4): APFloat has no rule for NaN or infinity inputs
 *   (makeNaN and convertIEEEFloatToAPInt hit llvm_unreachable("... does not
 *   support NaN / inf")).  The LLVM 19 release library, measured, returns a
 *   zero with the input's sign for both.  We keep that for NaN but drop the
 *   sign (+0, consistent with canonical-NaN handling above) and treat +-inf as
 *   an overflowing value, i.e. +-largest finite, which is FiniteOnly's own
 *   overflow rule; returning 0 for infinity would be an artifact, not a rule.
 * - (**) Float8E8M0FNU does not exist in LLVM 19.  We follow its definition in
 *   later APFloat: fltSemantics {127, -127, precision 1, NanOnly, AllOnes,
 *   hasZero=false, hasSignedRepr=false}, bias 127, encoding k is 2^(k-127),
 *   0xFF is NaN.  With one bit of precision RNE ties round UP (the kept LSB is
 *   the always-set integer bit), as APFloat's roundAwayFromZero does.  No zero:
 *   zero and everything below 2^-127 gives 0x00 (normalize's
 *   makeSmallestNormalized).  No sign: later APFloat has no defined result for
 *   negative inputs (its bitcast ORs the sign into the exponent), so any
 *   negative nonzero value gives the NaN 0xFF; -0.0 gives 0x00 like +0.0. */
#include "support/floatfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*                                 name  width exp man bias sign  inf   nan          -0     zero */
const FloatFormat ff_float16       = {"Float16", 16, 5, 10, 15, true, true, FF_NAN_IEEE, true, true};
const FloatFormat ff_bfloat16      = {"BFloat16", 16, 8, 7, 127, true, true, FF_NAN_IEEE, true, true};
const FloatFormat ff_float32       = {"Float32", 32, 8, 23, 127, true, true, FF_NAN_IEEE, true, true};
const FloatFormat ff_float64       = {"Float64", 64, 11, 52, 1023, true, true, FF_NAN_IEEE, true, true};
const FloatFormat ff_f8e5m2        = {"Float8E5M2", 8, 5, 2, 15, true, true, FF_NAN_IEEE, true, true};
const FloatFormat ff_f8e4m3fn      = {"Float8E4M3FN", 8, 4, 3, 7, true, false, FF_NAN_FN, true, true};
const FloatFormat ff_f8e4m3fnuz    = {"Float8E4M3FNUZ", 8, 4, 3, 8, true, false, FF_NAN_FNUZ, false, true};
const FloatFormat ff_f8e5m2fnuz    = {"Float8E5M2FNUZ", 8, 5, 2, 16, true, false, FF_NAN_FNUZ, false, true};
const FloatFormat ff_f8e4m3b11fnuz = {"Float8E4M3B11FNUZ", 8, 4, 3, 11, true, false, FF_NAN_FNUZ, false, true};
const FloatFormat ff_f8e4m3        = {"Float8E4M3", 8, 4, 3, 7, true, true, FF_NAN_IEEE, true, true};
const FloatFormat ff_f6e2m3fn      = {"Float6E2M3FN", 6, 2, 3, 1, true, false, FF_NAN_NONE, true, true};
const FloatFormat ff_f6e3m2fn      = {"Float6E3M2FN", 6, 3, 2, 3, true, false, FF_NAN_NONE, true, true};
const FloatFormat ff_f8e8m0fnu     = {"Float8E8M0FNU", 8, 8, 0, 127, false, false, FF_NAN_FN, false, false};
const FloatFormat ff_f4e2m1fn      = {"Float4E2M1FN", 4, 2, 1, 1, true, false, FF_NAN_NONE, true, true};

/* ---- encoding helpers ---- */

static uint64_t ff_low_bits(int n)
{
    return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
}

static uint64_t ff_sign_bit(const FloatFormat *f, bool neg)
{
    return (f->has_sign && neg) ? (uint64_t)1 << (f->width - 1) : 0;
}

static uint64_t ff_exp_all_ones(const FloatFormat *f)
{
    return ff_low_bits(f->exp_bits) << f->man_bits;
}

/* Largest finite magnitude as an encoding (encodings of one sign are ordered
 * like their values, which the overflow test relies on). */
static uint64_t ff_max_finite(const FloatFormat *f)
{
    switch (f->nan) {
    case FF_NAN_IEEE: return ff_exp_all_ones(f) - 1;
    case FF_NAN_FN: return ff_low_bits(f->exp_bits + f->man_bits) - 1;
    default: return ff_low_bits(f->exp_bits + f->man_bits);
    }
}

/* The NaN an operation produces; FN keeps the sign as APFloat's makeNaN does. */
static uint64_t ff_nan_bits(const FloatFormat *f, bool neg)
{
    switch (f->nan) {
    case FF_NAN_IEEE: return ff_exp_all_ones(f) | ((uint64_t)1 << (f->man_bits - 1));
    case FF_NAN_FN: return ff_sign_bit(f, neg) | ff_low_bits(f->exp_bits + f->man_bits);
    case FF_NAN_FNUZ: return (uint64_t)1 << (f->width - 1);
    default: return 0; /* no NaN: see the table above */
    }
}

static uint64_t ff_zero_bits(const FloatFormat *f, bool neg)
{
    if (!f->has_zero)
        return 0; /* E8M0: the all-zero pattern, 2^-127, stands in for zero */
    return f->has_neg_zero ? ff_sign_bit(f, neg) : 0;
}

/* Result of a value too large for the format in mode rm. */
static uint64_t ff_overflow(const FloatFormat *f, bool neg, FfRound rm)
{
    bool toward_zero = rm == FF_TOWARD_ZERO || (rm == FF_DOWN && !neg) || (rm == FF_UP && neg);
    if (toward_zero || f->nan == FF_NAN_NONE)
        return ff_sign_bit(f, neg) | ff_max_finite(f);
    if (f->has_inf)
        return ff_sign_bit(f, neg) | ff_exp_all_ones(f);
    return ff_nan_bits(f, neg);
}

/* ---- the rounding core ---- */

static int ff_bitlen(const BigInt *a)
{
    for (int i = BIG_LIMBS - 1; i >= 0; i--)
        if (a->w[i])
            return i * 64 + 64 - __builtin_clzll(a->w[i]);
    return 0;
}

static bool ff_bit(const BigInt *a, int i)
{
    return i >= 0 && i < BIG_BITS && ((a->w[i / 64] >> (i % 64)) & 1);
}

/* Bits [lo, lo+n) of a, n <= 63. */
static uint64_t ff_bits(const BigInt *a, int lo, int n)
{
    uint64_t r = 0;
    for (int i = n - 1; i >= 0; i--)
        r = (r << 1) | ff_bit(a, lo + i);
    return r;
}

/* Whether any bit below position n is set. */
static bool ff_any_below(const BigInt *a, int n)
{
    for (int i = 0; i < BIG_LIMBS && i * 64 < n; i++) {
        uint64_t m = n - i * 64 >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << (n - i * 64)) - 1;
        if (a->w[i] & m)
            return true;
    }
    return false;
}

static bool ff_round_up(FfRound rm, bool neg, bool odd, bool half, bool sticky)
{
    switch (rm) {
    case FF_RNE: return half && (sticky || odd);
    case FF_NEAREST_AWAY: return half;
    case FF_UP: return !neg && (half || sticky);
    case FF_DOWN: return neg && (half || sticky);
    default: return false;
    }
}

/* Rounds the nonzero value (neg ? -1 : 1) * mag * 2^e2 to format f. */
static uint64_t ff_round(const FloatFormat *f, bool neg, const BigInt *mag, int e2, FfRound rm)
{
    if (neg && !f->has_sign)
        return ff_nan_bits(f, false);
    int p = f->man_bits + 1;
    /* Smallest normal exponent; without a zero encoding (E8M0) the all-zero
     * exponent field is itself a normal number. */
    int emin = f->has_zero ? 1 - f->bias : -f->bias;
    int top = ff_bitlen(mag) - 1 + e2;              /* exponent of the leading bit */
    int q = (top > emin ? top : emin) - (p - 1);    /* exponent of the result's ulp */
    int shift = q - e2;
    uint64_t kept;
    bool half = false, sticky = false;
    if (shift <= 0) {
        kept = mag->w[0] << -shift; /* exact: the value has at most p bits */
    } else {
        kept = ff_bits(mag, shift, p);
        half = ff_bit(mag, shift - 1);
        sticky = ff_any_below(mag, shift - 1);
    }
    if (ff_round_up(rm, neg, kept & 1, half, sticky)) {
        kept++;
        if (kept >> p) { /* carried into a new binade */
            kept >>= 1;
            q++;
        }
    }
    if (kept == 0)
        return ff_zero_bits(f, neg);
    uint64_t hidden = (uint64_t)1 << (p - 1), enc;
    if (kept >= hidden) {
        int64_t biased = (int64_t)q + p - 1 + f->bias;
        if (biased >= ((int64_t)1 << f->exp_bits))
            return ff_overflow(f, neg, rm);
        enc = ((uint64_t)biased << f->man_bits) | (kept - hidden);
    } else {
        enc = kept; /* subnormal: exponent field 0 */
    }
    if (enc > ff_max_finite(f))
        return ff_overflow(f, neg, rm);
    return ff_sign_bit(f, neg) | enc;
}

/* ---- public conversions ---- */

uint64_t ff_from_double(const FloatFormat *f, double d, FfRound rm)
{
    bool neg = signbit(d);
    if (isnan(d))
        return ff_nan_bits(f, false);
    if (isinf(d)) {
        if (f->has_inf)
            return ff_sign_bit(f, neg) | ff_exp_all_ones(f);
        if (f->nan == FF_NAN_NONE)
            return ff_sign_bit(f, neg) | ff_max_finite(f);
        return ff_nan_bits(f, neg);
    }
    if (d == 0)
        return ff_zero_bits(f, neg);
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    int bexp = (int)((u >> 52) & 0x7FF);
    uint64_t man = u & ff_low_bits(52);
    BigInt mag = big_from_u64(bexp ? man | ((uint64_t)1 << 52) : man);
    return ff_round(f, neg, &mag, (bexp ? bexp : 1) - 1075, rm);
}

uint64_t ff_from_big(const FloatFormat *f, BigInt v, FfRound rm)
{
    bool neg = big_sign(v) < 0;
    if (big_is_zero(v))
        return ff_zero_bits(f, false);
    /* The magnitude read as unsigned: even |-2^575| fits. */
    BigInt mag = neg ? big_neg(v) : v;
    return ff_round(f, neg, &mag, 0, rm);
}

bool ff_is_nan(const FloatFormat *f, uint64_t bits)
{
    bits &= ff_low_bits(f->width);
    uint64_t mag = bits & ff_low_bits(f->exp_bits + f->man_bits);
    switch (f->nan) {
    case FF_NAN_IEEE:
        return (mag & ff_exp_all_ones(f)) == ff_exp_all_ones(f) && (mag & ff_low_bits(f->man_bits));
    case FF_NAN_FN: return mag == ff_low_bits(f->exp_bits + f->man_bits);
    case FF_NAN_FNUZ: return bits == (uint64_t)1 << (f->width - 1);
    default: return false;
    }
}

bool ff_is_inf(const FloatFormat *f, uint64_t bits)
{
    uint64_t mag = bits & ff_low_bits(f->exp_bits + f->man_bits);
    return f->has_inf && mag == ff_exp_all_ones(f);
}

double ff_to_double(const FloatFormat *f, uint64_t bits)
{
    bits &= ff_low_bits(f->width);
    if (f->width == 64) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return d;
    }
    bool neg = f->has_sign && (bits >> (f->width - 1));
    double sign = neg ? -1.0 : 1.0;
    if (ff_is_nan(f, bits))
        return copysign(NAN, sign);
    if (ff_is_inf(f, bits))
        return sign * INFINITY;
    int bexp = (int)((bits >> f->man_bits) & ff_low_bits(f->exp_bits));
    uint64_t man = bits & ff_low_bits(f->man_bits);
    if (!f->has_zero) /* E8M0: a pure exponent, no subnormals */
        return ldexp(1.0, bexp - f->bias);
    if (bexp == 0)
        return sign * ldexp((double)man, 1 - f->bias - f->man_bits);
    return sign * ldexp((double)(man | ((uint64_t)1 << f->man_bits)), bexp - f->bias - f->man_bits);
}

/* ---- shortest round-trip printing ---- */

/* A decimal candidate: digits * 10^exp10. */
typedef struct {
    uint64_t digits;
    int exp10;
} FfDec;

static bool ff_dec_roundtrips(const FloatFormat *f, uint64_t bits, bool neg, FfDec c)
{
    char text[48];
    if (c.digits == 0)
        return false;
    snprintf(text, sizeof text, "%llue%d", (unsigned long long)c.digits, c.exp10);
    double x = strtod(text, NULL);
    return ff_from_double(f, neg ? -x : x, FF_RNE) == bits;
}

/* Finds the shortest decimal that round-trips.  For each length n the
 * correctly rounded n-digit decimal (printf is exact in glibc) is the nearest
 * one; if it misses the rounding interval only its neighbour on the other
 * side can hit it (the interval is asymmetric at binade edges), and any
 * further candidate would have a hitting neighbour nearer to the value. */
static FfDec ff_shortest(const FloatFormat *f, uint64_t bits, double mag, bool neg)
{
    FfDec best = {0, 0};
    for (int n = 1; n <= 17; n++) {
        char text[48], *e;
        snprintf(text, sizeof text, "%.*e", n - 1, mag);
        uint64_t digits = 0;
        for (e = text; *e != 'e'; e++)
            if (*e != '.')
                digits = digits * 10 + (uint64_t)(*e - '0');
        FfDec c = {digits, atoi(e + 1) - (n - 1)};
        if (ff_dec_roundtrips(f, bits, neg, c))
            return c;
        FfDec lo = {digits - 1, c.exp10}, hi = {digits + 1, c.exp10};
        if (ff_dec_roundtrips(f, bits, neg, lo))
            return lo;
        if (ff_dec_roundtrips(f, bits, neg, hi))
            return hi;
        best = c; /* 17 digits always round-trip a binary64; keep a fallback */
    }
    return best;
}

/* Lays out digit string ds (no trailing zeros) with scientific exponent e10
 * the way Python's float repr does. */
static void ff_layout(char *out, bool neg, const char *ds, int e10)
{
    int nd = (int)strlen(ds);
    char *p = out;
    if (neg)
        *p++ = '-';
    if (e10 < -4 || e10 >= 16) {
        *p++ = ds[0];
        if (nd > 1) {
            *p++ = '.';
            memcpy(p, ds + 1, (size_t)nd - 1);
            p += nd - 1;
        }
        sprintf(p, "e%c%02d", e10 < 0 ? '-' : '+', e10 < 0 ? -e10 : e10);
    } else if (e10 < 0) {
        p += sprintf(p, "0.");
        for (int i = 0; i < -e10 - 1; i++)
            *p++ = '0';
        strcpy(p, ds);
    } else {
        for (int i = 0; i <= e10; i++) /* integer part, zero-padded */
            *p++ = i < nd ? ds[i] : '0';
        *p++ = '.';
        if (nd > e10 + 1) {
            strcpy(p, ds + e10 + 1);
        } else {
            strcpy(p, "0");
        }
    }
}

char *ff_repr(const FloatFormat *f, uint64_t bits, char *buf)
{
    bits &= ff_low_bits(f->width);
    double v = ff_to_double(f, bits);
    if (isnan(v))
        return strcpy(buf, "nan");
    if (isinf(v))
        return strcpy(buf, v < 0 ? "-inf" : "inf");
    if (v == 0)
        return strcpy(buf, signbit(v) ? "-0.0" : "0.0");
    bool neg = v < 0;
    FfDec d = ff_shortest(f, bits, fabs(v), neg);
    while (d.digits % 10 == 0) {
        d.digits /= 10;
        d.exp10++;
    }
    char ds[24];
    int nd = snprintf(ds, sizeof ds, "%llu", (unsigned long long)d.digits);
    ff_layout(buf, neg, ds, d.exp10 + nd - 1);
    return buf;
}
