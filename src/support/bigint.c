/* bigint.c - fixed-width two's-complement big integers (see bigint.h).
 *
 * Everything works on the full 576-bit two's-complement value, so add, sub,
 * mul, neg and the bitwise operations are the same for signed and unsigned
 * views; only division, comparison, shifts right and printing look at the
 * sign.  Division goes through unsigned magnitudes. */
#include "support/bigint.h"

#include <math.h>
#include <string.h>

/* 64x64->128 products and 128/64 quotients; GCC and Clang both provide it. */
__extension__ typedef unsigned __int128 big_u128;

#define TOP (BIG_LIMBS - 1)

static BigInt big_zero(void)
{
    BigInt r;
    memset(&r, 0, sizeof r);
    return r;
}

BigInt big_from_u64(uint64_t v)
{
    BigInt r = big_zero();
    r.w[0] = v;
    return r;
}

BigInt big_from_i64(int64_t v)
{
    BigInt r;
    uint64_t fill = v < 0 ? ~(uint64_t)0 : 0;
    for (int i = 0; i < BIG_LIMBS; i++)
        r.w[i] = fill;
    r.w[0] = (uint64_t)v;
    return r;
}

bool big_is_zero(BigInt a)
{
    uint64_t any = 0;
    for (int i = 0; i < BIG_LIMBS; i++)
        any |= a.w[i];
    return any == 0;
}

int big_sign(BigInt a)
{
    if (a.w[TOP] >> 63)
        return -1;
    return big_is_zero(a) ? 0 : 1;
}

/* ---- ring operations (identical for every signedness) ---- */

BigInt big_add(BigInt a, BigInt b)
{
    BigInt r;
    uint64_t carry = 0;
    for (int i = 0; i < BIG_LIMBS; i++) {
        uint64_t s = a.w[i] + carry;
        carry = s < carry;
        r.w[i] = s + b.w[i];
        carry += r.w[i] < s;
    }
    return r;
}

BigInt big_not(BigInt a)
{
    for (int i = 0; i < BIG_LIMBS; i++)
        a.w[i] = ~a.w[i];
    return a;
}

BigInt big_neg(BigInt a)
{
    return big_add(big_not(a), big_from_u64(1));
}

BigInt big_sub(BigInt a, BigInt b)
{
    return big_add(a, big_neg(b));
}

BigInt big_mul(BigInt a, BigInt b)
{
    /* Schoolbook, keeping only the limbs below 2^576: that is the product
     * modulo 2^576, which is also the correct two's-complement product. */
    BigInt r = big_zero();
    for (int i = 0; i < BIG_LIMBS; i++) {
        uint64_t carry = 0;
        if (a.w[i] == 0)
            continue;
        for (int j = 0; i + j < BIG_LIMBS; j++) {
            big_u128 t = (big_u128)a.w[i] * b.w[j] + r.w[i + j] + carry;
            r.w[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
    }
    return r;
}

BigInt big_and(BigInt a, BigInt b)
{
    for (int i = 0; i < BIG_LIMBS; i++)
        a.w[i] &= b.w[i];
    return a;
}

BigInt big_or(BigInt a, BigInt b)
{
    for (int i = 0; i < BIG_LIMBS; i++)
        a.w[i] |= b.w[i];
    return a;
}

BigInt big_xor(BigInt a, BigInt b)
{
    for (int i = 0; i < BIG_LIMBS; i++)
        a.w[i] ^= b.w[i];
    return a;
}

/* ---- comparison ---- */

/* Compares the limbs as one unsigned number. */
static int big_ucmp(const BigInt *a, const BigInt *b)
{
    for (int i = TOP; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

int big_cmp(BigInt a, BigInt b)
{
    bool na = a.w[TOP] >> 63, nb = b.w[TOP] >> 63;
    if (na != nb)
        return na ? -1 : 1;
    /* Same sign: two's complement order equals unsigned order. */
    return big_ucmp(&a, &b);
}

/* ---- shifts ---- */

/* Shifts left by n < BIG_BITS bits, discarding what leaves the top. */
BigInt big_shl(BigInt a, unsigned n)
{
    if (n >= BIG_BITS)
        return big_zero();
    BigInt r = big_zero();
    unsigned limbs = n / 64, bits = n % 64;
    for (int i = TOP; i >= (int)limbs; i--) {
        uint64_t hi = a.w[i - limbs] << bits;
        uint64_t lo = (bits && i - (int)limbs - 1 >= 0) ? a.w[i - limbs - 1] >> (64 - bits) : 0;
        r.w[i] = hi | lo;
    }
    return r;
}

BigInt big_shr(BigInt a, unsigned n)
{
    uint64_t fill = (a.w[TOP] >> 63) ? ~(uint64_t)0 : 0;
    BigInt r;
    if (n >= BIG_BITS)
        return big_from_i64(fill ? -1 : 0);
    unsigned limbs = n / 64, bits = n % 64;
    for (int i = 0; i < BIG_LIMBS; i++) {
        int s = i + (int)limbs;
        uint64_t lo = s <= TOP ? a.w[s] : fill;
        uint64_t hi = s + 1 <= TOP ? a.w[s + 1] : fill;
        r.w[i] = bits ? (lo >> bits) | (hi << (64 - bits)) : lo;
    }
    return r;
}

/* ---- width reduction ---- */

BigInt big_wrap(BigInt a, int width, bool is_signed)
{
    if (width <= 0 || width >= BIG_BITS)
        return a;
    int limb = width / 64, bits = width % 64;
    /* Bit width-1 decides the fill for signed results. */
    bool neg = is_signed && ((a.w[(width - 1) / 64] >> ((width - 1) % 64)) & 1);
    uint64_t fill = neg ? ~(uint64_t)0 : 0;
    if (bits) {
        uint64_t mask = ((uint64_t)1 << bits) - 1;
        a.w[limb] = (a.w[limb] & mask) | (fill & ~mask);
        limb++;
    }
    for (int i = limb; i < BIG_LIMBS; i++)
        a.w[i] = fill;
    return a;
}

bool big_fits(BigInt a, int width, bool is_signed)
{
    BigInt w = big_wrap(a, width, is_signed);
    return big_ucmp(&w, &a) == 0;
}

bool big_in_range(BigInt a)
{
    /* 2^512 needs bit 512, i.e. limb 8: in range iff limb 8 is pure sign
     * extension, excluding -2^512 itself (limb 8 all ones, the rest zero). */
    if (a.w[8] == 0)
        return true;
    if (a.w[8] != ~(uint64_t)0)
        return false;
    for (int i = 0; i < 8; i++)
        if (a.w[i])
            return true;
    return false;
}

int64_t big_to_i64(BigInt a)
{
    return (int64_t)a.w[0];
}

uint64_t big_to_u64(BigInt a)
{
    return a.w[0];
}

/* ---- division ---- */

/* Unsigned magnitude of a (|MIN| = 2^575 is representable unsigned). */
static BigInt big_abs_u(BigInt a)
{
    return (a.w[TOP] >> 63) ? big_neg(a) : a;
}

static int big_ubitlen(const BigInt *a)
{
    for (int i = TOP; i >= 0; i--)
        if (a->w[i])
            return i * 64 + 64 - __builtin_clzll(a->w[i]);
    return 0;
}

/* Divides the unsigned number *a by d in place; returns the remainder.
 * Used for printing, where the divisor always fits a limb. */
static uint64_t big_udiv_small(BigInt *a, uint64_t d)
{
    big_u128 rem = 0;
    for (int i = TOP; i >= 0; i--) {
        big_u128 cur = (rem << 64) | a->w[i];
        a->w[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return (uint64_t)rem;
}

/* Unsigned long division by shift and subtract: at most 576 steps over 9
 * limbs, which is cheap for constant folding and obviously correct. */
static void big_udivmod(BigInt n, BigInt d, BigInt *q, BigInt *r)
{
    BigInt quo = big_zero(), rem = big_zero();
    for (int bit = big_ubitlen(&n) - 1; bit >= 0; bit--) {
        /* rem < d <= 2^576-1, so rem << 1 can carry out only when the top
         * bit of rem is set, and then rem >= d certainly holds. */
        bool carry = rem.w[TOP] >> 63;
        rem = big_shl(rem, 1);
        rem.w[0] |= (n.w[bit / 64] >> (bit % 64)) & 1;
        if (carry || big_ucmp(&rem, &d) >= 0) {
            rem = big_sub(rem, d);
            quo.w[bit / 64] |= (uint64_t)1 << (bit % 64);
        }
    }
    *q = quo;
    *r = rem;
}

void big_divmod_trunc(BigInt a, BigInt b, BigInt *q, BigInt *r)
{
    bool na = a.w[TOP] >> 63, nb = b.w[TOP] >> 63;
    BigInt uq, ur;
    big_udivmod(big_abs_u(a), big_abs_u(b), &uq, &ur);
    /* Quotient sign is the product of the signs; remainder follows a. */
    *q = na != nb ? big_neg(uq) : uq;
    *r = na ? big_neg(ur) : ur;
}

void big_divmod_floor(BigInt a, BigInt b, BigInt *q, BigInt *r)
{
    BigInt tq, tr;
    big_divmod_trunc(a, b, &tq, &tr);
    /* Truncation rounded toward zero; when the exact quotient was negative
     * and inexact (remainder's sign differs from b's), step down once. */
    if (!big_is_zero(tr) && (big_sign(tr) < 0) != (big_sign(b) < 0)) {
        tq = big_sub(tq, big_from_u64(1));
        tr = big_add(tr, b);
    }
    *q = tq;
    *r = tr;
}

/* ---- text ---- */

char *big_to_dec(BigInt a, char *buf)
{
    char tmp[BIG_DEC_MAX];
    int n = 0;
    bool neg = a.w[TOP] >> 63;
    BigInt mag = big_abs_u(a);
    /* Peel 19 decimal digits per division to keep printing cheap. */
    const uint64_t chunk = 10000000000000000000ull;
    do {
        uint64_t part = big_udiv_small(&mag, chunk);
        bool last = big_is_zero(mag);
        for (int k = 0; k < 19 && (!last || part); k++) {
            tmp[n++] = (char)('0' + part % 10);
            part /= 10;
        }
    } while (!big_is_zero(mag));
    if (n == 0)
        tmp[n++] = '0';
    char *p = buf;
    if (neg)
        *p++ = '-';
    while (n > 0)
        *p++ = tmp[--n];
    *p = '\0';
    return buf;
}

static int big_digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return 99;
}

/* Reads the base prefix, if any; returns the base and advances *p. */
static unsigned big_parse_prefix(const char **p)
{
    const char *s = *p;
    if (s[0] == '0') {
        switch (s[1]) {
        case 'x': case 'X': *p = s + 2; return 16;
        case 'o': case 'O': *p = s + 2; return 8;
        case 'b': case 'B': *p = s + 2; return 2;
        default: break;
        }
    }
    return 10;
}

bool big_parse(const char *text, BigInt *out)
{
    if (!text)
        return false;
    const char *p = text;
    unsigned base = big_parse_prefix(&p);
    /* After a prefix one '_' may precede the first digit ("0x_ff"). */
    bool prev_digit = base != 10;
    int ndigits = 0;
    bool leading_zero = false, nonzero = false;
    BigInt v = big_zero();
    BigInt bb = big_from_u64(base);
    for (; *p; p++) {
        if (*p == '_') {
            if (!prev_digit)
                return false; /* doubled or leading separator */
            prev_digit = false;
            continue;
        }
        unsigned d = (unsigned)big_digit_value(*p);
        if (d >= base)
            return false;
        if (ndigits == 0 && d == 0)
            leading_zero = true;
        nonzero |= d != 0;
        ndigits++;
        prev_digit = true;
        v = big_add(big_mul(v, bb), big_from_u64(d));
        /* Values only grow, so stop as soon as 2^512 is reached; checking
         * every digit also keeps v * base far below 2^576. */
        if (v.w[8] != 0)
            return false;
    }
    if (ndigits == 0 || !prev_digit)
        return false; /* empty, bare prefix, or trailing '_' */
    if (base == 10 && leading_zero && nonzero)
        return false;
    *out = v;
    return true;
}

/* ---- doubles ---- */

BigInt big_from_double_trunc(double d)
{
    if (!isfinite(d) || fabs(d) < 1.0)
        return big_zero();
    int e;
    double f = frexp(fabs(trunc(d)), &e); /* |d| = f * 2^e, f in [0.5, 1) */
    uint64_t mant = (uint64_t)ldexp(f, 53); /* exact: 53 significant bits */
    int shift = e - 53;
    BigInt r = big_from_u64(mant);
    if (shift >= 0)
        r = big_shl(r, (unsigned)shift);
    else
        r = big_from_u64(mant >> -shift); /* trunc() made the dropped bits 0 */
    return d < 0 ? big_neg(r) : r;
}

int big_bitlen(BigInt a)
{
    for (int i = BIG_LIMBS - 1; i >= 0; i--)
        if (a.w[i])
            return i * 64 + 64 - __builtin_clzll(a.w[i]);
    return 0;
}
