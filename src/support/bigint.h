/* bigint.h - fixed-width two's-complement big integers for constant folding.
 *
 * The language folds integer literals exactly with at least 512 bits of
 * magnitude (spec §3.3) and wraps typed integers modulo 2**width for widths up
 * to 128.  A fixed 576-bit value covers both: every literal that is in range
 * (|v| < 2**512) plus the carry of one more operation fits without loss, so
 * "too large" can be diagnosed after the fact with big_in_range().  Values
 * are passed by value; no allocation anywhere. */
#ifndef FX_BIGINT_H
#define FX_BIGINT_H
#include <stdbool.h>
#include <stdint.h>

#define BIG_BITS 576 /* storage; the language guarantees 512 bits of magnitude */
#define BIG_LIMBS (BIG_BITS / 64)

/* Two's complement, little-endian 64-bit limbs: w[0] is least significant. */
typedef struct {
    uint64_t w[BIG_LIMBS];
} BigInt;

BigInt big_from_i64(int64_t v);
BigInt big_from_u64(uint64_t v);

/* Parses an integer literal: decimal, 0x / 0o / 0b (either letter case), with
 * '_' separators as Python allows them: one '_' between two digits, or right
 * after the base prefix ("0x_ff").  No sign.  A nonzero decimal literal may
 * not start with '0' (Python's rule; "007" would read as octal in C).
 * Returns false (and leaves *out unspecified) if malformed or if
 * |value| >= 2^512. */
bool big_parse(const char *text, BigInt *out);

/* -2^512 < a < 2^512: results outside are "too large" errors for literals. */
bool big_in_range(BigInt a);

BigInt big_add(BigInt a, BigInt b);
BigInt big_sub(BigInt a, BigInt b);
BigInt big_mul(BigInt a, BigInt b); /* modulo 2^576 */
BigInt big_neg(BigInt a);

/* Floored division (Python semantics: q = floor(a/b), r = a - q*b has the
 * sign of b).  b != 0 required. */
void big_divmod_floor(BigInt a, BigInt b, BigInt *q, BigInt *r);
/* Truncating division (C semantics: r has the sign of a).  b != 0. */
void big_divmod_trunc(BigInt a, BigInt b, BigInt *q, BigInt *r);

int big_cmp(BigInt a, BigInt b); /* signed compare: -1, 0, 1 */
int big_sign(BigInt a);          /* -1, 0, 1 */
bool big_is_zero(BigInt a);

BigInt big_and(BigInt a, BigInt b);
BigInt big_or(BigInt a, BigInt b);
BigInt big_xor(BigInt a, BigInt b);
BigInt big_not(BigInt a);
BigInt big_shl(BigInt a, unsigned n); /* n >= BIG_BITS gives 0 */
BigInt big_shr(BigInt a, unsigned n); /* arithmetic; n >= BIG_BITS gives 0 or -1 */

/* Reduce modulo 2^width and sign-extend (is_signed) or zero-extend: exactly a
 * C cast to a width-bit integer.  width in 1..512 (up to BIG_BITS works).
 * width 1 signed is NOT special-cased (Boolean is handled by the caller). */
BigInt big_wrap(BigInt a, int width, bool is_signed);
/* Whether a is unchanged by big_wrap(a, width, is_signed). */
bool big_fits(BigInt a, int width, bool is_signed);

int64_t big_to_i64(BigInt a);  /* low 64 bits as signed */
uint64_t big_to_u64(BigInt a); /* low 64 bits */

/* Decimal text with leading '-' if negative.  buf must hold BIG_DEC_MAX
 * bytes (2^575 has 174 digits).  Returns buf. */
#define BIG_DEC_MAX 200
char *big_to_dec(BigInt a, char *buf);

/* Truncate a finite double toward zero to an integer (exact; |d| < 2^575
 * assumed by the caller, larger magnitudes wrap modulo 2^576). */
BigInt big_from_double_trunc(double d);
/* Number of significant bits of a non-negative value (0 for 0). */
int big_bitlen(BigInt a);

#endif
