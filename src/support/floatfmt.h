/* floatfmt.h - every floating-point format of the language, bit-exact.
 *
 * Folding must give the same bits as LLVM's constant folder and the run-time
 * conversions, so rounding into each format follows LLVM APFloat's rules
 * (the per-format table is at the top of floatfmt.c).  Encodings are carried
 * as uint64_t holding the format's bit pattern in the low `width` bits. */
#ifndef FX_FLOATFMT_H
#define FX_FLOATFMT_H
#include <stdbool.h>
#include <stdint.h>

#include "support/bigint.h"

typedef enum {
    FF_NAN_IEEE, /* all-ones exponent, nonzero mantissa; infinities when has_inf */
    FF_NAN_FN,   /* only S.1111.111 (all ones exp+mantissa) is NaN; no infinities
                    (E4M3FN, and E8M0FNU's 0xFF) */
    FF_NAN_FNUZ, /* only 0x80 (sign bit alone) is NaN; no infinities, no -0 */
    FF_NAN_NONE  /* no NaN, no infinity (FP6, FP4) */
} FfNanStyle;

typedef struct FloatFormat {
    const char *name; /* "Float16", "Float8E4M3FNUZ", ... */
    int width;        /* total bits */
    int exp_bits, man_bits, bias;
    bool has_sign;    /* false only for E8M0FNU */
    bool has_inf;
    FfNanStyle nan;
    bool has_neg_zero;
    bool has_zero;    /* false only for E8M0FNU (encoding 0 is 2^-127) */
} FloatFormat;

extern const FloatFormat ff_float16, ff_bfloat16, ff_float32, ff_float64,
    ff_f8e5m2, ff_f8e4m3fn, ff_f8e4m3fnuz, ff_f8e4m3b11fnuz, ff_f8e4m3,
    ff_f6e2m3fn, ff_f6e3m2fn, ff_f8e8m0fnu, ff_f4e2m1fn, ff_f8e5m2fnuz;

/* The language's five modes (fx.RoundingMode): to_nearest_even, downward,
 * upward, toward_zero, to_nearest_away. */
typedef enum { FF_RNE, FF_DOWN, FF_UP, FF_TOWARD_ZERO, FF_NEAREST_AWAY } FfRound;

/* Exact value of an encoding as a double (every format here is exactly
 * representable in binary64).  NaN encodings give a quiet NaN carrying the
 * encoding's sign bit (Float64 encodings are returned bit for bit). */
double ff_to_double(const FloatFormat *f, uint64_t bits);

/* Rounds a double to the format with one rounding in mode rm; returns the
 * encoding.  Overflow, NaN and infinity handling per format: see the table at
 * the top of floatfmt.c.  NaN input gives the format's canonical NaN (positive
 * quiet NaN for IEEE formats).  Subnormals are produced exactly. */
uint64_t ff_from_double(const FloatFormat *f, double d, FfRound rm);

/* Rounds an exact integer to the format with ONE rounding (no double rounding
 * through binary64). */
uint64_t ff_from_big(const FloatFormat *f, BigInt v, FfRound rm);

bool ff_is_nan(const FloatFormat *f, uint64_t bits);
bool ff_is_inf(const FloatFormat *f, uint64_t bits);

/* Shortest decimal text that round-trips (strtod of the text, then
 * ff_from_double(RNE), gives back the same encoding), laid out like Python's
 * float repr: "2.0", "0.1", "1e+20", "1.5e-07", "1e+16", "0.0001",
 * "1234567890123456.0"; scientific when the decimal exponent is < -4 or
 * >= 16; "inf", "-inf", "nan" (any NaN), "-0.0".  Among equally short
 * candidates the one nearest the exact value wins (exact ties: even last
 * digit).  Returns buf, which must hold FF_REPR_MAX bytes. */
#define FF_REPR_MAX 40
char *ff_repr(const FloatFormat *f, uint64_t bits, char *buf);

#endif
