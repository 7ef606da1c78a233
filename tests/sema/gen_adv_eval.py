#!/usr/bin/env python3
"""Adversarial `fxcc --eval` cases: writes eval/adv_*.txt (and the cases that
currently expose implementation bugs to eval/adv_bugs.txt).

Every expected answer is derived here from the spec, seed 000 and
docs/decisions.md, independently of the C implementation: exact rational
arithmetic (fractions.Fraction) rounded to each float format with
round-to-nearest-even, Python integers reduced modulo 2**width.
Run from anywhere: ./gen_adv_eval.py"""
import math, os
from fractions import Fraction as Fr

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'eval')

# --------------------------------------------------------------------------
# integers
INTS = {'Int4': (4, True), 'Int8': (8, True), 'Int16': (16, True), 'Int32': (32, True),
        'Int64': (64, True), 'Int128': (128, True), 'Uint8': (8, False), 'Uint16': (16, False),
        'Uint32': (32, False), 'Uint64': (64, False), 'Uint128': (128, False),
        'Index': (64, True)}


def wrap(v, t):
    w, s = INTS[t]
    v &= (1 << w) - 1
    if s and v >= 1 << (w - 1):
        v -= 1 << w
    return v


def I(t, v):
    return '%s(%d)' % (t, wrap(v, t))


def tmin(t):
    w, s = INTS[t]
    return -(1 << (w - 1)) if s else 0


def tmax(t):
    w, s = INTS[t]
    return (1 << (w - 1)) - 1 if s else (1 << w) - 1


# --------------------------------------------------------------------------
# float formats: (mantissa bits, exponent bits, bias, kind)
#   ieee: inf + NaN, signed zero; fn: NaN only (all-ones), overflow -> NaN;
#   fnuz: NaN = 0x80, no -0, overflow -> NaN; sat: no inf/NaN, overflow -> max
FMTS = {
    'Float16': (10, 5, 15, 'ieee'), 'BFloat16': (7, 8, 127, 'ieee'),
    'Float32': (23, 8, 127, 'ieee'), 'Float64': (52, 11, 1023, 'ieee'),
    'Float8E5M2': (2, 5, 15, 'ieee'), 'Float8E4M3': (3, 4, 7, 'ieee'),
    'Float8E4M3FN': (3, 4, 7, 'fn'), 'Float8E4M3FNUZ': (3, 4, 8, 'fnuz'),
    'Float8E4M3B11FNUZ': (3, 4, 11, 'fnuz'), 'Float6E2M3FN': (3, 2, 1, 'sat'),
    'Float6E3M2FN': (2, 3, 3, 'sat'), 'Float4E2M1FN': (1, 2, 1, 'sat'),
}
INF = math.inf
NAN = math.nan


def fmt_params(t):
    m, e, bias, kind = FMTS[t]
    emin = 1 - bias
    if kind == 'ieee':
        emax = (1 << e) - 2 - bias
        mx = Fr(2) ** emax * (2 - Fr(1, 1 << m))
    elif kind == 'fn':
        emax = (1 << e) - 1 - bias
        mx = Fr(2) ** emax * (2 - Fr(2, 1 << m))
    else:
        emax = (1 << e) - 1 - bias
        mx = Fr(2) ** emax * (2 - Fr(1, 1 << m))
    return m, emin, mx, kind


def rhe(q):
    """round a Fraction half to even -> int"""
    f = math.floor(q)
    d = q - f
    if d > Fr(1, 2) or (d == Fr(1, 2) and f % 2 == 1):
        f += 1
    return f


def ilog2(a):
    """floor(log2(a)) for a positive Fraction"""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    while Fr(2) ** e > a:
        e -= 1
    while Fr(2) ** (e + 1) <= a:
        e += 1
    return e


def R(t, x):
    """Round x (int, float or Fraction, possibly inf/nan) to format t; returns a Python float."""
    if t == 'Float8E8M0FNU':
        return e8m0(x)
    m, emin, mx, kind = fmt_params(t)
    if isinstance(x, float) and math.isnan(x):
        return NAN if kind != 'sat' else 0.0
    if isinstance(x, float) and math.isinf(x):
        if kind == 'ieee':
            return x
        if kind == 'sat':
            return float(math.copysign(mx, x))
        return NAN
    neg = (x < 0) or (isinstance(x, float) and x == 0 and math.copysign(1, x) < 0)
    a = abs(Fr(x))
    if a == 0:
        r = Fr(0)
    else:
        e = ilog2(a)
        q = Fr(2) ** (max(e, emin) - m)
        r = rhe(a / q) * q
    if r > mx:
        if kind == 'ieee':
            return -INF if neg else INF
        if kind == 'sat':
            return float(-mx if neg else mx)
        return math.copysign(NAN, -1.0) if (neg and kind == 'fn') else NAN
    v = float(r)
    if neg and not (kind == 'fnuz' and r == 0):
        v = -v
    return v


def e8m0(x):
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return NAN
    if x < 0:
        return NAN
    a = Fr(x)
    if a == 0:
        return 2.0 ** -127
    e = ilog2(a)
    if a >= Fr(3, 2) * Fr(2) ** e:
        e += 1
    if e > 127:
        return NAN
    if e < -127:
        e = -127
    return 2.0 ** e


def encode(t, v):
    """bit pattern of the (already representable) value v in format t"""
    if t == 'Float8E8M0FNU':
        return 0xFF if math.isnan(v) else int(math.log2(v)) + 127
    m, e, bias, kind = FMTS[t]
    w = 1 + m + e
    if math.isnan(v):
        if kind == 'fnuz':
            return 0x80
        if kind == 'fn':
            return (1 << (w - 1)) - 1 | (1 << (w - 1) if math.copysign(1, v) < 0 else 0)
        return ((1 << e) - 1) << m | (1 << (m - 1))
    s = 1 if math.copysign(1, v) < 0 else 0
    a = abs(v)
    if math.isinf(a):
        return s << (w - 1) | ((1 << e) - 1) << m
    if a == 0:
        return s << (w - 1)
    a = Fr(a)
    ex = ilog2(a)
    if ex < 1 - bias:
        return s << (w - 1) | int(a / Fr(2) ** (1 - bias - m))
    man = int((a / Fr(2) ** ex - 1) * (1 << m))
    return s << (w - 1) | (ex + bias) << m | man


def decode(t, bits):
    m, e, bias, kind = FMTS[t]
    w = 1 + m + e
    s = bits >> (w - 1) & 1
    ex = bits >> m & ((1 << e) - 1)
    man = bits & ((1 << m) - 1)
    if kind == 'fnuz' and bits == 0x80:
        return NAN
    if kind == 'ieee' and ex == (1 << e) - 1:
        return NAN if man else (-INF if s else INF)
    if kind == 'fn' and ex == (1 << e) - 1 and man == (1 << m) - 1:
        return NAN
    if ex == 0:
        a = Fr(man) * Fr(2) ** (1 - bias - m)
    else:
        a = (1 + Fr(man, 1 << m)) * Fr(2) ** (ex - bias)
    v = float(a)
    return -v if s else v


def shortest(t, v):
    """--eval layout: shortest decimal converting back to the same value in t, laid out like repr()."""
    if math.isnan(v):
        return 'nan'
    if math.isinf(v):
        return 'inf' if v > 0 else '-inf'
    if t == 'Float64':
        return repr(v)
    if v == 0:
        return '-0.0' if math.copysign(1, v) < 0 else '0.0'
    sign = '-' if v < 0 else ''
    fa = Fr(abs(v))
    k = 0                       # 10**k <= fa < 10**(k+1)
    while Fr(10) ** k > fa:
        k -= 1
    while Fr(10) ** (k + 1) <= fa:
        k += 1
    for p in range(1, 18):
        unit = Fr(10) ** (k - p + 1)
        lo = math.floor(fa / unit) * unit
        good = [d for d in (lo, lo + unit) if d > 0 and R(t, d) == float(fa)]
        if good:
            # nearest; an exact tie between the two goes to the even last digit (as printf rounds)
            best = min(good, key=lambda d: (abs(d - fa), (d / unit) % 2))
            return sign + repr(float(best))
    return sign + repr(float(fa))


def F(t, x):
    """expected printed value of x rounded to t"""
    return '%s(%s)' % (t, shortest(t, R(t, x)))


def Fexact(t, v):
    """print an already-representable value"""
    assert (math.isnan(v) and math.isnan(R(t, v))) or R(t, v) == v or (v == 0), (t, v)
    return '%s(%s)' % (t, shortest(t, v))


def lit(v):
    """an exact binary64 float literal spelled so the lexer reads exactly v"""
    if math.isinf(v):
        return 'fx.inf' if v > 0 else '-fx.inf'
    if math.isnan(v):
        return 'fx.nan'
    return repr(v)


# --------------------------------------------------------------------------
# promotion, restated from seed 000 + decisions.md
FLW = {'Float16': 16, 'BFloat16': 16, 'Float32': 32, 'Float64': 64}
RANK = {'Float16': 1, 'BFloat16': 1, 'Float32': 2, 'Float64': 3}


def common(a, b):
    if a == b:
        return a
    if a in INTS and b in INTS:
        (wa, sa), (wb, sb) = INTS[a], INTS[b]
        if 'Index' in (a, b) and {a, b} <= {'Index', 'Int64'}:
            return 'Index'
        if sa == sb:
            if wa == wb:
                return 'Index' if 'Index' in (a, b) else a
            return a if wa > wb else b
        u, s = (a, b) if not sa else (b, a)
        return u if INTS[u][0] >= INTS[s][0] else s
    if a in INTS or b in INTS:
        f, i = (b, a) if a in INTS else (a, b)
        if FLW[f] >= INTS[i][0]:
            return f
        return 'Float32' if INTS[i][0] <= 32 else 'Float64'
    if RANK[a] != RANK[b]:
        return a if RANK[a] > RANK[b] else b
    return 'Float32'


def divtype(c):
    if c in FLW:
        return c
    return 'Float32' if INTS[c][0] <= 32 else 'Float64'


def littype(v):
    if isinstance(v, bool):
        return 'Boolean'
    if isinstance(v, float):
        return 'Float32'
    if -2**31 <= v < 2**31:
        return 'Int32'
    if -2**63 <= v < 2**63:
        return 'Int64'
    return None


def conv(t, v):
    """the value v (int/float/Fraction) converted into type t, as the constructor does"""
    if t in INTS:
        if isinstance(v, float):
            if math.isnan(v):
                return 0
            if math.isinf(v):
                return tmax(t) if v > 0 else tmin(t)
            iv = math.trunc(Fr(v))
            return max(tmin(t), min(tmax(t), iv))
        return wrap(int(v), t)
    return R(t, v)


# float arithmetic on representable values, rounded once to t
def fop(t, op, a, b):
    if any(math.isnan(x) or math.isinf(x) for x in (a, b)):
        raise ValueError('specials by hand')
    A, B = Fr(a), Fr(b)
    if op == '+':
        r = A + B
        if r == 0:
            return R(t, (-0.0 if (math.copysign(1, a) < 0 and math.copysign(1, b) < 0) else 0.0))
    elif op == '-':
        r = A - B
        if r == 0:
            return R(t, (-0.0 if (math.copysign(1, a) < 0 and math.copysign(1, b) > 0) else 0.0))
    elif op == '*':
        r = A * B
        if r == 0:
            neg = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)
            return -0.0 if neg else 0.0
    elif op == '/':
        r = A / B
        if r == 0:
            neg = (math.copysign(1, a) < 0) != (math.copysign(1, b) < 0)
            return -0.0 if neg else 0.0
    return R(t, r)


def ffloordiv(t, a, b):
    q = fop(t, '/', a, b)
    if math.isinf(q) or math.isnan(q):
        return q
    f = float(math.floor(Fr(q)))
    if f == 0 and (math.copysign(1, q) < 0):
        return -0.0
    return f


def fmod_(t, a, b):
    A, B = Fr(a), Fr(b)
    r = A - B * math.trunc(A / B)
    if r == 0:
        return math.copysign(0.0, b)
    rv = float(r)
    if (rv < 0) != (b < 0):
        rv = R(t, Fr(rv) + B)
        if rv == 0:
            return math.copysign(0.0, b)
    return rv


# --------------------------------------------------------------------------
CASES = {}   # file -> list of lines
BUGS = []    # (comment, line)


def add(f, expr, want):
    CASES.setdefault(f, []).append('%s  =>  %s' % (expr, want))


def bug(why, expr, want):
    BUGS.append((why, '%s  =>  %s' % (expr, want)))


def comment(f, text):
    CASES.setdefault(f, []).append('# ' + text)


SIGNED = ['Int4', 'Int8', 'Int16', 'Int32', 'Int64', 'Int128']
UNSIGNED = ['Uint8', 'Uint16', 'Uint32', 'Uint64', 'Uint128']
ALLINT = SIGNED + UNSIGNED
STDF = ['Float16', 'BFloat16', 'Float32', 'Float64']
NARROW = ['Float8E5M2', 'Float8E4M3FN', 'Float8E4M3FNUZ', 'Float8E4M3B11FNUZ', 'Float8E4M3',
          'Float6E2M3FN', 'Float6E3M2FN', 'Float8E8M0FNU', 'Float4E2M1FN']
WIDTH = dict({k: v[0] for k, v in INTS.items()}, Float16=16, BFloat16=16, Float32=32, Float64=64,
             Float8E5M2=8, Float8E4M3FN=8, Float8E4M3FNUZ=8, Float8E4M3B11FNUZ=8, Float8E4M3=8,
             Float6E2M3FN=6, Float6E3M2FN=6, Float8E8M0FNU=8, Float4E2M1FN=4, Boolean=1)


def Bool(b):
    return 'Boolean(%s)' % ('True' if b else 'False')


# ==========================================================================
def gen_literals():
    f = 'adv_literals.txt'
    comment(f, 'literal normalization: Int32 / Int64 / error by value, exact conversion into the common type')
    for v in [2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**63 - 1, -2**63, 0x7FFFFFFF, 0x80000000]:
        add(f, '(%d).dtype' % v, 'Type(%s)' % littype(v))
    add(f, '(9223372036854775808).dtype', 'error')
    add(f, '(-9223372036854775809).dtype', 'error')
    add(f, '(-(2**63)).dtype', 'Type(Int64)')
    add(f, '(2**31).dtype', 'Type(Int64)')
    add(f, '(-(2**31)).dtype', 'Type(Int32)')
    add(f, '(1e300).dtype', 'Type(Float32)')
    add(f, '(0.0).dtype', 'Type(Float32)')
    add(f, '(True).dtype', 'Type(Boolean)')
    add(f, '(fx.pi).dtype', 'Type(Float32)')
    # an int literal meeting every integer width
    for t in ALLINT:
        for lv in [5, -1, 2**31 - 1, -2**31, 2**31, -2**31 - 1, 2**40 + 3, -2**63, 2**63 - 1]:
            lt = littype(lv)
            c = common(t, lt)
            x = 3
            add(f, '%s(%d) + %d' % (t, x, lv), I(c, wrap(x, t) + wrap(lv, c) if c in INTS else 0))
    for t in ALLINT:
        add(f, '%s(1) + 9223372036854775808' % t, 'error: Int64')
        add(f, '%s(1) - -9223372036854775809' % t, 'error: Int64')
    # the Int64 literal edge wrapping after normalization
    add(f, 'Int32(0) + -(2**63) - 1', I('Int64', -2**63 - 1))
    add(f, 'Int64(2**63 - 1) + 1', I('Int64', 2**63))
    add(f, 'Int16(32767) + 1', I('Int32', 32768))
    add(f, 'Int16(32767) + Int16(1)', I('Int16', 32768))
    add(f, 'Uint32(1) - 2147483648', I('Int64', 1 - 2147483648))
    add(f, 'Uint32(1) + -2147483648', I('Uint32', 1 - 2147483648))
    add(f, 'Uint8(200) + 100', I('Int32', 300))
    add(f, 'Uint8(200) + Uint8(100)', I('Uint8', 300))
    add(f, 'Int8(3) * 100', I('Int32', 300))
    add(f, 'Uint64(0) - 1', I('Uint64', -1))
    add(f, 'Uint128(0) - 1', I('Uint128', -1))
    add(f, 'Int128(2**100) + 1', I('Int128', 2**100 + 1))
    add(f, 'Int128(1) + 2**100', 'error: Int64')
    add(f, 'Uint128(1) + 2**64', 'error: Int64')
    add(f, '2**100 + 7 - 2**100 + Int8(1)', I('Int32', 8))
    add(f, '(2**100 - 2**100 + 5).dtype', 'Type(Int32)')
    add(f, '(2**40 - 2**40 + 5).dtype', 'Type(Int32)')
    add(f, '(2**100 // 2**70).dtype', 'Type(Int32)')
    add(f, '(2**100 // 2**60).dtype', 'Type(Int64)')
    # a float literal meeting every integer width: Float32 up to 32 bits, Float64 above
    for t in ALLINT:
        c = common(t, 'Float32')
        add(f, '(%s(1) + 0.5).dtype' % t, 'Type(%s)' % c)
        add(f, '%s(1) + 0.1' % t, F(c, fop(c, '+', 1.0, R(c, 0.1))))
        add(f, '%s(3) * 0.1' % t, F(c, fop(c, '*', 3.0, R(c, 0.1))))
        add(f, '%s(2) - 1e39' % t, F(c, fop(c, '-', 2.0, R(c, 1e39)) if c == 'Float64' else -INF))
    # a float literal meeting every float type
    for t in STDF:
        c = common(t, 'Float32')
        add(f, '(%s(1.0) + 0.1).dtype' % t, 'Type(%s)' % c)
        add(f, '%s(1.0) + 0.1' % t, F(c, fop(c, '+', 1.0, R(c, 0.1))))
        add(f, '%s(0.1) + 0.0' % t, F(c, R(t, 0.1)))
    # int literal meeting floats; an Int64-range literal widens Float32 to Float64
    for t in STDF:
        c = common(t, 'Int32')
        add(f, '(%s(1.0) + 1).dtype' % t, 'Type(%s)' % c)
        c64 = common(t, 'Int64')
        add(f, '(%s(1.0) + 5000000000).dtype' % t, 'Type(%s)' % c64)
        add(f, '%s(1.0) + 5000000000' % t, F(c64, 5000000001))
    add(f, 'Float32(0.5) + 16777217', F('Float32', fop('Float32', '+', 0.5, R('Float32', 16777217))))
    add(f, 'Float32(1.0) + 1e39', 'Float32(inf)')
    add(f, 'Float64(1.0) + 1e39', 'Float64(1e+39)')
    add(f, 'Float32(3.4e38) * 2 > 1e300', Bool(False))
    add(f, 'Float64(3.4e38) * 2 > 1e300', Bool(False))
    add(f, 'Float32(1.0) == 1.0000000001', Bool(True))
    add(f, 'Float64(1.0) == 1.0000000001', Bool(False))
    add(f, 'Float32(0.1) == 0.1', Bool(True))
    add(f, 'Float64(0.1) == Float32(0.1)', Bool(False))
    add(f, 'Float64(0.1) == 0.1', Bool(True))
    add(f, 'Float16(0.1) == 0.1', Bool(False))
    add(f, 'Float16(0.5) == 0.5', Bool(True))
    add(f, 'Int32(16777217) == 16777216.0', Bool(True))
    add(f, 'Int32(16777217) > 16777216.0', Bool(False))
    add(f, 'Int64(16777217) > 16777216.0', Bool(True))
    add(f, 'Float32(16777217) == 16777217', Bool(True))
    add(f, 'Float64(0.1) + 0.2 == 0.30000000000000004', Bool(True))
    add(f, 'Float32(0.1) + 0.2 == 0.3', Bool(fop('Float32', '+', R('Float32', 0.1), R('Float32', 0.2)) == R('Float32', 0.3)))
    add(f, 'Int64(2**62) < 2**62 + 0.5', Bool(False))
    add(f, 'Int32(1) < 1.5', Bool(True))
    add(f, 'Int32(0) < 5000000000', Bool(True))
    add(f, 'Uint32(0) < 5000000000', Bool(True))
    add(f, 'Uint64(5) > -1', Bool(False))
    add(f, 'Uint8(5) > -1', Bool(True))
    add(f, 'Uint32(4294967295) == -1', Bool(True))
    add(f, 'Uint64(18446744073709551615) == -1', Bool(True))
    add(f, 'Uint8(255) == -1', Bool(False))
    add(f, 'Uint16(65535) == -1', Bool(False))
    # exact literal arithmetic
    comment(f, 'literal-only arithmetic is exact (unbounded ints, binary64 floats)')
    LITDIV = 'decisions.md: literal / of two integer literals is Python true division (correctly rounded from the exact quotient); the fold converts both to binary64 first and double-rounds'
    bug(LITDIV, '(2**53 + 1) / 3', repr((2**53 + 1) / 3))
    bug(LITDIV, '(2**80 + 1) / (2**27 + 1)', repr((2**80 + 1) / (2**27 + 1)))
    bug(LITDIV, '(2**53 + 1) / 3 == 3002399751580331', Bool(True))
    add(f, '1 / 3', repr(1 / 3))
    add(f, '2**100 / 3', repr(2**100 / 3))
    add(f, '2**100 // 7', str(2**100 // 7))
    add(f, '-(2**100) // 7', str(-(2**100) // 7))
    add(f, '-(2**100) % 7', str(-(2**100) % 7))
    add(f, '(2**100) % -7', str((2**100) % -7))
    add(f, 'divmod(-(2**100), 7)', '(%d, %d)' % divmod(-(2**100), 7))
    add(f, '7 // -2', '-4')
    add(f, '-7 % -2', '-1')
    add(f, '7 % -2', '-1')
    add(f, '-2 ** 2', '-4')
    add(f, '(-2) ** 3', '-8')
    add(f, '2 ** 3 ** 2', '512')
    add(f, '2 ** -2', '0.25')
    add(f, '10 ** 100', str(10**100))
    add(f, '0 ** 0', '1')
    add(f, '3 ** 400', 'error')
    add(f, '1 // 0', 'error')
    add(f, '1 % 0', 'error')
    add(f, '1 / 0', 'error')
    add(f, 'divmod(1, 0)', 'error')
    add(f, '0.1 * 3', repr(0.1 * 3))
    add(f, '1e308 * 10', 'inf')
    add(f, '0.0 * -1', '-0.0')
    add(f, '1 == 1.0', Bool(True))
    LITCMP = ('seed 000 "Python literals": literals that meet only literals are plain Python, and Python compares an int '
              'with a float exactly; the fold converts the int to binary64 first (2**60 + 1 becomes 2**60)')
    bug(LITCMP, '2**60 + 1 == 2.0**60', Bool(False))
    bug(LITCMP, '2**60 + 1 > 2.0**60', Bool(True))
    bug(LITCMP, '(2**60 + 1) != 2.0**60', Bool(True))
    bug(LITCMP, '2**53 + 1 == 9007199254740992.0', Bool(False))
    bug(LITCMP, '2**511 + 1 > 2.0**511', Bool(True))
    bug(LITCMP, '-(2**63) - 1 < -9223372036854775808.0', Bool(True))
    add(f, '2**511 == 2.0**511', Bool(True))
    add(f, '1e300 < 2**511', Bool(False))
    add(f, '2**63 < 9223372036854775808.0', Bool(False))
    add(f, '2**60 == 2.0**60', Bool(True))
    add(f, '0.1 + 0.2 == 0.3', Bool(False))
    add(f, '2**100 > 2**99', Bool(True))
    add(f, '1e16', '1e+16')
    add(f, '1.5e-5', '1.5e-05')
    add(f, '0.0001', '0.0001')
    add(f, '123456789.0', '123456789.0')
    add(f, '2**64', str(2**64))
    add(f, '-0x10', '-16')
    add(f, '0x1p-1074', '5e-324')
    add(f, '0x1.fffffffffffffp1023', '1.7976931348623157e+308')
    add(f, '~0', '-1')
    add(f, '~(2**100)', str(~(2**100)))
    add(f, '(2**100) >> 99', '2')
    add(f, '-(2**100) >> 200', '-1')
    add(f, '(2**100) & (2**100 + 5)', str((2**100) & (2**100 + 5)))
    add(f, '(2**100) | 1', str(2**100 | 1))
    add(f, '(2**100) ^ (2**100)', '0')
    add(f, '1 << -1', 'error')


def gen_div():
    f = 'adv_div.txt'
    comment(f, '/ result type: C if float; Float32 for integers up to 32 bits, else Float64; operands in C first')
    for t in ALLINT + ['Index']:
        d = divtype(t)
        add(f, '%s(7) / %s(2)' % (t, t), F(d, 3.5))
        add(f, '(%s(7) / 2).dtype' % t, 'Type(%s)' % divtype(common(t, 'Int32')))
        add(f, '(%s(7) / 2.0).dtype' % t, 'Type(%s)' % common(t, 'Float32'))
        if t in SIGNED:
            add(f, '%s(-1) / %s(2)' % (t, t), F(d, -0.5))
            mn = tmin(t)
            add(f, '%s(%d) / %s(-1)' % (t, mn, t), F(d, -mn))
        else:
            mx = tmax(t)
            add(f, '%s(%d) / %s(2)' % (t, mx, t), F(d, fop(d, '/', R(d, mx), 2.0)))
        add(f, '%s(5) / %s(0)' % (t, t), 'error')
        add(f, '%s(0) / %s(0)' % (t, t), 'error')
    for a in STDF:
        for b in ALLINT:
            c = common(a, b)
            add(f, '(%s(1.0) / %s(3)).dtype' % (a, b), 'Type(%s)' % c)
    DIVWHY = ('seed 000 "Type interoperability": both operands are first converted to the common type C, '
              'which is the unsigned type here, so -1 becomes its maximum; the fold divides the signed value')
    bug(DIVWHY, 'Int8(-1) / Uint8(2)', F('Float32', 127.5))
    bug(DIVWHY, 'Int8(-1) / Uint16(2)', F('Float32', 32767.5))
    bug(DIVWHY, 'Int32(-1) / Uint32(1)', F('Float32', 4294967295))
    bug(DIVWHY, 'Int32(-1) / Uint32(2)', F('Float32', fop('Float32', '/', R('Float32', 4294967295), 2.0)))
    bug(DIVWHY, 'Int64(-1) / Uint64(2)', F('Float64', fop('Float64', '/', R('Float64', 2**64 - 1), 2.0)))
    bug(DIVWHY, 'Index(-1) / Uint64(2)', F('Float64', fop('Float64', '/', R('Float64', 2**64 - 1), 2.0)))
    bug(DIVWHY, 'Int4(-8) / Uint8(2)', F('Float32', 124.0))
    bug(DIVWHY, 'Int32(-6) / Uint32(2) == Int32(-6) // Uint32(2)', Bool(True))
    bug(DIVWHY, 'Uint8(1) / Int8(-1)', F('Float32', fop('Float32', '/', 1.0, 255.0)))
    add(f, 'Int16(-1) / Uint8(2)', F('Float32', -0.5))
    add(f, 'Int4(-8) / Int4(3)', F('Float32', fop('Float32', '/', -8.0, 3.0)))
    add(f, 'Uint128(2**128 - 1) / Uint128(1)', F('Float64', 2**128 - 1))
    bug(DIVWHY, 'Int128(-1) / Uint128(2)', F('Float64', fop('Float64', '/', R('Float64', 2**128 - 1), 2.0)))
    add(f, 'BFloat16(1.0) / Int16(3)', F('BFloat16', Fr(1, 3)))
    add(f, 'Float16(1.0) / Int8(3)', F('Float16', Fr(1, 3)))
    add(f, 'Float16(1.0) / Float16(3.0)', F('Float16', Fr(1, 3)))
    add(f, 'BFloat16(1.0) / BFloat16(3.0)', F('BFloat16', Fr(1, 3)))
    add(f, 'Float16(1.0) / BFloat16(3.0)', F('Float32', Fr(1, 3)))
    add(f, 'Int32(7) / 0.0', 'Float32(inf)')
    add(f, 'Int32(-7) / 0.0', 'Float32(-inf)')
    add(f, 'Int32(0) / 0.0', 'Float32(nan)')
    add(f, 'Int64(7) / -0.0', 'Float64(-inf)')
    add(f, 'Int32(7) / 0', 'error')
    add(f, '7 / Int32(0)', 'error')
    add(f, 'Int32(7) // 0', 'error')
    add(f, '7 % Int8(0)', 'error')
    add(f, 'Boolean(True) / Boolean(False)', 'error')
    add(f, 'Boolean(False) // Boolean(False)', 'error')
    add(f, '(Int32x4(1) // 0).dtype', 'error')
    add(f, '(Int32x4(1) % Int32(0)).dtype', 'error')
    add(f, '(Int32x4(1) / 0).dtype', 'error')
    add(f, '(Float32x4(1.0) / 0).dtype', 'Type(Float32)')
    add(f, '(Int32x4(1) / 0.0).dtype', 'Type(Float32)')
    add(f, '(Int64x2(1) / Int64(2)).dtype', 'Type(Float64)')
    add(f, '(Uint8x16(1) / 2).dtype', 'Type(Float32)')
    comment(f, 'integer // and % after conversion to the common type')
    add(f, 'Uint8(7) // Int8(-2)', I('Uint8', 0))
    add(f, 'Uint8(7) % Int8(-2)', I('Uint8', 7))
    add(f, 'Int8(-7) // Uint8(2)', I('Uint8', 249 // 2))
    add(f, 'Int8(-7) % Uint8(2)', I('Uint8', 249 % 2))
    add(f, 'Int8(-7) // 2', I('Int32', -4))
    add(f, 'Uint32(7) // -2', I('Uint32', 7 // (2**32 - 2)))
    add(f, 'Uint32(7) % -2', I('Uint32', 7))
    add(f, 'Int128(-7) // Uint128(2)', I('Uint128', (2**128 - 7) // 2))
    add(f, 'Int128(-7) % Uint128(2)', I('Uint128', (2**128 - 7) % 2))
    add(f, 'Int16(-7) // Uint8(2)', I('Int16', -4))
    for a, b in [(-8, 3), (7, -8), (-8, -8), (-8, 7), (7, 7), (-1, -8), (5, -3)]:
        add(f, 'Int4(%d) // Int4(%d)' % (a, b), I('Int4', a // b))
        add(f, 'Int4(%d) %% Int4(%d)' % (a, b), I('Int4', a % b))
        add(f, 'divmod(Int4(%d), Int4(%d))' % (a, b), '(%s, %s)' % (I('Int4', a // b), I('Int4', a % b)))
    add(f, 'Int4(-8) // Int4(-1)', I('Int4', -8))
    add(f, 'Int4(-8) % Int4(-1)', I('Int4', 0))
    mn = -2**127
    add(f, 'Int128(%d) // Int128(3)' % mn, I('Int128', mn // 3))
    add(f, 'Int128(%d) %% Int128(3)' % mn, I('Int128', mn % 3))
    add(f, 'Int128(%d) %% Int128(-3)' % (mn + 1), I('Int128', (mn + 1) % -3))
    add(f, 'Uint128(2**128 - 1) // Uint128(2**127)', I('Uint128', 1))
    add(f, 'Uint128(2**128 - 1) % Uint128(2**127)', I('Uint128', 2**127 - 1))
    add(f, 'Uint64(2**64 - 1) % Uint64(10)', I('Uint64', (2**64 - 1) % 10))
    add(f, 'Int64(-2**63) // Int64(-1)', I('Int64', -2**63))
    add(f, 'Int64(-2**63) // -1', I('Int64', -2**63))
    add(f, 'Int8(-128) // -1', I('Int32', 128))
    add(f, 'Int8(-128) % -1', I('Int32', 0))
    add(f, 'Index(-7) // Index(2)', I('Index', -4))
    add(f, 'Index(-7) % Index(2)', I('Index', 1))
    add(f, 'divmod(Int8(-128), Int8(-1))', '(Int8(-128), Int8(0))')
    add(f, 'divmod(Uint8(200), Int8(-1))', '(Uint8(0), Uint8(200))')
    add(f, 'divmod(Int32(7), 0)', 'error')
    add(f, 'divmod(Int16(-7), Uint16(3))', '(%s, %s)' % (I('Uint16', (2**16 - 7) // 3), I('Uint16', (2**16 - 7) % 3)))
    comment(f, 'float //, % and divmod: floor of the rounded quotient; Python float modulo')
    fl = [('Float32', 7.0, 2.0), ('Float32', -7.0, 2.0), ('Float64', 5.5, -2.0), ('Float64', -5.5, -2.0),
          ('Float16', 7.5, 2.0), ('BFloat16', -7.5, 2.0), ('Float64', 1.0, 0.1), ('Float32', 1.0, 0.1),
          ('Float64', 0.3, 0.1), ('Float32', -6.0, -2.0), ('Float32', -0.0, 5.0), ('Float64', 1e300, 1e-300),
          ('Float16', 65504.0, 0.5), ('Float64', -1.0, 3.0), ('Float32', 1e-45, 3e-45)]
    for t, a, b in fl:
        A, B = R(t, a), R(t, b)
        q = ffloordiv(t, A, B)
        r = fmod_(t, A, B)
        add(f, '%s(%s) // %s(%s)' % (t, lit(a), t, lit(b)), Fexact(t, q) if not math.isinf(q) else '%s(%s)' % (t, shortest(t, q)))
        add(f, '%s(%s) %% %s(%s)' % (t, lit(a), t, lit(b)), Fexact(t, r))
        add(f, 'divmod(%s(%s), %s(%s))' % (t, lit(a), t, lit(b)), '(%s, %s)' % ('%s(%s)' % (t, shortest(t, q)), Fexact(t, r)))
    add(f, 'Float32(1.0) // Float32(0.0)', 'Float32(inf)')
    add(f, 'Float32(-1.0) // Float32(0.0)', 'Float32(-inf)')
    add(f, 'Float32(1.0) // Float32(-0.0)', 'Float32(-inf)')
    add(f, 'Float32(0.0) // Float32(0.0)', 'Float32(nan)')
    add(f, 'Float32(1.0) % Float32(0.0)', 'Float32(nan)')
    add(f, 'divmod(Float32(1.0), Float32(0.0))', '(Float32(inf), Float32(nan))')
    add(f, 'Float32(5.0) // Float32(fx.inf)', 'Float32(0.0)')
    add(f, 'Float32(-5.0) // Float32(fx.inf)', 'Float32(-0.0)')
    add(f, 'Float32(5.0) % Float32(fx.inf)', 'Float32(5.0)')
    add(f, 'Float32(-5.0) % Float32(fx.inf)', 'Float32(inf)')
    add(f, 'Float32(fx.inf) % Float32(2.0)', 'Float32(nan)')
    add(f, 'Float64(fx.inf) // Float64(2.0)', 'Float64(inf)')
    add(f, 'Int32(7) // Float32(2.0)', 'Float32(3.0)')
    add(f, 'Float16(7.0) // Int8(2)', 'Float16(3.0)')
    add(f, 'Float16(-7.0) % Int8(3)', 'Float16(2.0)')
    add(f, 'divmod(Float16(7.5), 2)', '(Float32(3.0), Float32(1.5))')
    add(f, 'divmod(Int32(7), 2.0)', '(Float32(3.0), Float32(1.0))')
    add(f, 'divmod(Int64(-7), 2.0)', '(Float64(-4.0), Float64(1.0))')
    add(f, 'divmod(7.5, 2)', '(3.0, 1.5)')
    add(f, 'divmod(-7, 2)', '(-4, 1)')
    add(f, 'Int32(1) // 0.0', 'Float32(inf)')
    add(f, '(Float16x4(1.0) // 2).dtype', 'Type(Float32)')


def gen_shift_pow():
    f = 'adv_shift_pow.txt'
    comment(f, 'shifts: result type is the common type; counts >= width give 0 / sign fill')
    for t in ['Int4', 'Int128', 'Uint128', 'Int8', 'Uint8', 'Int64', 'Uint64']:
        w, s = INTS[t]
        for n in [w - 2, w - 1, w, w + 1, 2 * w]:
            if wrap(n, t) != n:
                continue
            for x in [1, -1, 3, tmin(t) if s else tmax(t)]:
                xv = wrap(x, t)
                shl = wrap(xv << n, t) if n < w else 0
                shr = (xv >> n) if n < w else ((-1 if xv < 0 else 0))
                add(f, '%s(%d) << %s(%d)' % (t, x, t, n), I(t, shl))
                add(f, '%s(%d) >> %s(%d)' % (t, x, t, n), I(t, shr))
    # mixed-type counts: shift in the common type
    for t, x, op, ct, n in [('Int4', 1, '<<', None, 3), ('Uint8', 1, '<<', None, 8), ('Int8', -128, '>>', None, 7),
                            ('Int8', -128, '>>', 'Uint8', 7), ('Int16', -1, '>>', 'Uint16', 15),
                            ('Int32', 1, '<<', 'Int64', 40), ('Int64', 1, '<<', 'Uint32', 63),
                            ('Uint32', 1, '<<', 'Int64', 32), ('Int128', 1, '<<', None, 127),
                            ('Uint128', 1, '<<', None, 127), ('Uint128', 1, '<<', None, 128),
                            ('Int128', -1, '>>', None, 200), ('Int128', 3, '<<', None, 126),
                            ('Int128', 1, '<<', 'Int8', 127), ('Uint128', 2**128 - 1, '>>', 'Uint8', 127),
                            ('Int4', -8, '>>', 'Uint8', 3), ('Int4', 7, '<<', 'Int8', 4),
                            ('Uint16', 1, '<<', 'Int8', 15), ('Int8', 1, '<<', 'Uint16', 15)]:
        cty = ct or 'Int32'
        c = common(t, cty)
        xv = wrap(wrap(x, t), c)
        w = INTS[c][0]
        if op == '<<':
            r = wrap(xv << n, c) if n < w else 0
        else:
            r = xv >> n if n < w else (-1 if xv < 0 else 0)
        rhs = '%s(%d)' % (ct, n) if ct else str(n)
        add(f, '%s(%d) %s %s' % (t, x, op, rhs), I(c, r))
    add(f, 'Uint32(1) << Uint32(-1)', I('Uint32', 0))
    add(f, 'Uint128(5) >> Uint128(-1)', I('Uint128', 0))
    add(f, 'Int128(1) >> -1', 'error')
    add(f, 'Int64(1) << -1', 'error')
    add(f, 'Int8(1) << -1', 'error')
    add(f, 'Int4(1) << Int4(-8)', 'error')
    add(f, '1 << Int128(100)', I('Int128', 2**100))
    add(f, '-1 >> Uint8(1)', I('Int32', -1))
    add(f, '-1 >> Uint32(1)', I('Uint32', (2**32 - 1) >> 1))
    add(f, '-1 >> Uint64(63)', I('Uint64', 1))
    add(f, 'Int32(1) << True', I('Int32', 2))
    add(f, 'Int8(3) << Boolean(True)', I('Int8', 6))
    add(f, 'Boolean(True) << Int8(3)', I('Int8', 8))
    add(f, 'Int32(16) >> Boolean(True)', I('Int32', 8))
    add(f, 'Index(1) << 63', I('Index', -2**63))
    add(f, 'Index(-1) >> 64', I('Index', -1))
    add(f, '(Int32x4(1) << -1).dtype', 'error')
    add(f, '(Int8x16(1) << 1).dtype', 'Type(Int32)')
    add(f, '(Int8x16(1) << Int8(1)).dtype', 'Type(Int8)')
    add(f, 'Float32(1.0) << 1', 'error')
    add(f, '1 << Float32(1.0)', 'error')
    add(f, 'Int32(1) >> 1.5', 'error')
    add(f, '(Float32x4(1.0) >> 1).dtype', 'error')
    comment(f, '** wraps like the run-time op; negative static exponents are errors')
    pw = [('Int4', 3, 2), ('Int4', 2, 3), ('Int4', -2, 3), ('Int4', -1, 7), ('Int4', 3, 7), ('Int4', 7, 7),
          ('Int4', -8, 1), ('Int4', -8, 2), ('Int4', 0, 0), ('Int4', 5, 4),
          ('Uint8', 3, 5), ('Uint8', 3, 6), ('Uint8', 2, 255), ('Uint8', 255, 255), ('Uint8', 255, 254),
          ('Uint8', 7, 200), ('Uint8', 0, 0), ('Uint8', 16, 2),
          ('Int128', 3, 100), ('Int128', 2, 127), ('Int128', -2, 127), ('Int128', 2, 128), ('Int128', -1, 2**127 - 1),
          ('Int128', 3, 2**126), ('Int128', 7, 2**100 + 1), ('Int128', 10, 38), ('Int128', 10, 39),
          ('Uint128', 3, 200), ('Uint128', 2**128 - 1, 2**128 - 1), ('Uint128', 5, 2**128 - 2),
          ('Uint64', 3, 2**64 - 1), ('Int64', 10, 19), ('Int64', 10, 18), ('Int64', 2, 64), ('Int64', -3, 41),
          ('Int16', 3, 10), ('Uint16', 255, 3)]
    for t, b, e in pw:
        add(f, '%s(%d) ** %s(%d)' % (t, b, t, e), I(t, pow(wrap(b, t), e, 1 << INTS[t][0])))
    add(f, 'Int8(2) ** 7', I('Int32', 128))
    add(f, 'Uint8(2) ** 8', I('Int32', 256))
    add(f, '2 ** Int8(7)', I('Int32', 128))
    add(f, 'Uint8(3) ** 5', I('Int32', 243))
    add(f, 'Int8(2) ** Uint8(7)', I('Uint8', 128))
    add(f, 'Int8(-2) ** Uint8(7)', I('Uint8', pow(254, 7, 256)))
    add(f, 'Int16(3) ** Int8(10)', I('Int16', 3**10))
    add(f, 'Int4(2) ** Int4(-1)', 'error')
    add(f, 'Int4(2) ** Int4(15)', 'error')
    add(f, 'Int32(1) ** Int32(-1)', 'error')
    add(f, 'Int32(-1) ** -3', 'error')
    add(f, 'Int32(2) ** -1', 'error')
    add(f, 'Int64(2) ** -1', 'error')
    add(f, 'Int128(2) ** Int128(-5)', 'error')
    add(f, 'Uint8(2) ** Uint8(-1)', I('Uint8', pow(2, 255, 256)))
    add(f, '-Int32(2) ** Int32(2)', I('Int32', -4))
    add(f, '(-Int32(2)) ** Int32(3)', I('Int32', -8))
    add(f, 'Int32(2) ** Int32(3) ** Int32(2)', I('Int32', 2**9))
    add(f, 'Int32(2) ** 0.5', 'Float32(1.4142135)')
    add(f, 'Float32(2.0) ** 3', 'Float32(8.0)')
    add(f, 'Float16(2.0) ** Int8(3)', 'Float16(8.0)')
    add(f, 'Float16(2.0) ** Int16(-2)', 'Float16(0.25)')
    add(f, 'Float64(2.0) ** 0.5', 'Float64(1.4142135623730951)')
    add(f, '(Int32(2) ** 0.5).dtype', 'Type(Float32)')
    add(f, '(Int64(2) ** 0.5).dtype', 'Type(Float64)')
    add(f, '(Int32x4(2) ** -1).dtype', 'error')
    add(f, '(Int8x4(2) ** 2).dtype', 'Type(Int32)')
    add(f, '(Int8x4(2) ** Int8(2)).dtype', 'Type(Int8)')


def gen_bool():
    f = 'adv_boolean.txt'
    comment(f, 'Boolean: Int32 in arithmetic, itself in comparisons and bitwise; value 0/1 (seed 000)')
    for t in ALLINT + STDF:
        c = common('Int32', t)
        if t in INTS:
            add(f, 'Boolean(True) + %s(1)' % t, I(c, 1 + wrap(1, c)))
            add(f, 'Boolean(True) - %s(2)' % t, I(c, 1 - 2))
            add(f, 'Boolean(True) * %s(5)' % t, I(c, 5))
            add(f, 'Boolean(True) // %s(2)' % t, I(c, 0))
            add(f, 'Boolean(True) %% %s(2)' % t, I(c, 1))
        else:
            add(f, 'Boolean(True) + %s(0.5)' % t, F(c, 1.5))
            add(f, '(Boolean(True) * %s(2.0)).dtype' % t, 'Type(%s)' % c)
        add(f, '(Boolean(True) / %s(2)).dtype' % t, 'Type(%s)' % divtype(c))
    add(f, 'Boolean(True) / Int64(2)', 'Float64(0.5)')
    add(f, 'Boolean(True) / Boolean(True)', 'Float32(1.0)')
    add(f, 'Boolean(True) // Boolean(True)', 'Int32(1)')
    add(f, 'Boolean(True) % Boolean(True)', 'Int32(0)')
    add(f, 'Boolean(True) * Boolean(True)', 'Int32(1)')
    add(f, 'Boolean(False) - Boolean(True)', 'Int32(-1)')
    add(f, 'Int8(1) + True', 'Int32(2)')
    add(f, 'Int64(1) + True', 'Int64(2)')
    add(f, 'Uint64(0) - True', I('Uint64', -1))
    add(f, 'Uint8(1) + True', 'Int32(2)')
    add(f, 'Float16(1.0) + True', 'Float32(2.0)')
    add(f, 'Float64(0.5) + Boolean(True)', 'Float64(1.5)')
    add(f, '(Boolean(True) + Float16x4(1.0)).dtype', 'Type(Float32)')
    add(f, '(Boolean(True) + Int8x4(1)).dtype', 'Type(Int32)')
    comment(f, 'bitwise and shifts: Boolean with Boolean stays Boolean; with integers a signed 1-bit integer (decisions.md)')
    for a in [True, False]:
        for b in [True, False]:
            A, B = 'Boolean(%s)' % a, 'Boolean(%s)' % b
            add(f, '%s & %s' % (A, B), Bool(a and b))
            add(f, '%s | %s' % (A, B), Bool(a or b))
            add(f, '%s ^ %s' % (A, B), Bool(a != b))
            add(f, '%s == %s' % (A, B), Bool(a == b))
            add(f, '%s != %s' % (A, B), Bool(a != b))
            add(f, '%s < %s' % (A, B), Bool(a < b))
            add(f, '%s >= %s' % (A, B), Bool(a >= b))
    add(f, 'Boolean(True) << Boolean(False)', Bool(True))
    add(f, 'Boolean(False) << Boolean(True)', Bool(False))
    add(f, 'Boolean(True) >> Boolean(False)', Bool(True))
    add(f, '(Boolean(True) << Boolean(False)).dtype', 'Type(Boolean)')
    add(f, '(Boolean(True) ^ Boolean(True)).dtype', 'Type(Boolean)')
    add(f, 'True & True', Bool(True))
    add(f, 'True | False', Bool(True))
    add(f, 'Boolean(True) & Int8(3)', I('Int8', 1))
    add(f, 'Int8(-1) & Boolean(True)', I('Int8', 1))
    add(f, 'Boolean(True) | Uint8(2)', I('Uint8', 3))
    add(f, 'Uint8(255) & Boolean(True)', I('Uint8', 1))
    add(f, 'Boolean(True) ^ Int4(-1)', I('Int4', -2))
    add(f, 'Boolean(True) & Uint128(2**128 - 1)', I('Uint128', 1))
    add(f, '(Boolean(True) & Int16(1)).dtype', 'Type(Int16)')
    add(f, '(Boolean(True) | Uint64(1)).dtype', 'Type(Uint64)')
    add(f, 'Boolean(True) & 1', 'Int32(1)')
    add(f, 'Boolean(True) & Float32(1.0)', 'error')
    add(f, 'Boolean(True) | 1.0', 'error')
    comment(f, 'comparisons: compared directly, value 1 for True')
    add(f, 'Boolean(True) == Int32(1)', Bool(True))
    add(f, 'Boolean(True) == 1', Bool(True))
    add(f, 'Boolean(True) == Int32(-1)', Bool(False))
    add(f, 'Boolean(True) > Int8(0)', Bool(True))
    add(f, 'Boolean(True) < Int8(-1)', Bool(False))
    add(f, 'Boolean(False) > Int8(-1)', Bool(True))
    add(f, 'Boolean(True) == Uint8(1)', Bool(True))
    add(f, 'Boolean(True) == Uint8(255)', Bool(False))
    add(f, 'Boolean(True) < 2', Bool(True))
    add(f, '(Boolean(True) == Int64(1)).dtype', 'Type(Boolean)')
    add(f, '(Int32(1) == Int32(1)) == Boolean(True)', Bool(True))
    add(f, 'Int32(1) == Int32(1) == Boolean(True)', 'error')
    comment(f, 'unary operators')
    add(f, '-Boolean(False)', 'Int32(0)')
    add(f, '+Boolean(True)', 'Int32(1)')
    add(f, '~Boolean(False)', Bool(True))
    add(f, '(~Boolean(True)).dtype', 'Type(Boolean)')
    add(f, 'abs(Boolean(False))', 'error')
    add(f, 'abs(True)', 'error')
    comment(f, 'conversions from / to Boolean (truthiness into Boolean, 0/1 out of it)')
    for t in ALLINT:
        add(f, '%s(Boolean(True))' % t, I(t, 1))
        add(f, 'Boolean(True).to(%s)' % t, I(t, 1))
        add(f, 'Boolean(%s(%d))' % (t, 2 if wrap(2, t) == 2 else 0), Bool(wrap(2, t) == 2))
    for t in STDF:
        add(f, '%s(Boolean(True))' % t, F(t, 1.0))
        add(f, 'Boolean(True).to(%s)' % t, F(t, 1.0))
        add(f, 'Boolean(False).to(%s)' % t, F(t, 0.0))
    add(f, 'Int32(4).to(Boolean)', Bool(True))
    add(f, 'Int32(0).to(Boolean)', Bool(False))
    add(f, 'Int8(-128).to(Boolean)', Bool(True))
    add(f, 'Uint128(2**127).to(Boolean)', Bool(True))
    add(f, 'Int4(16).to(Boolean)', Bool(False))
    add(f, 'Boolean(0.5)', Bool(True))
    add(f, 'Boolean(Float32(0.25))', Bool(True))
    add(f, 'Float32(0.25).to(Boolean)', Bool(True))
    add(f, 'Boolean(Float32(-0.0))', Bool(False))
    add(f, 'Boolean(Float32(fx.nan))', Bool(True))
    add(f, 'Boolean(Float16(6e-08))', Bool(True))
    add(f, 'Boolean(True).to(Float8E4M3FN)', 'Float8E4M3FN(1.0)')
    add(f, 'Boolean(Boolean(True))', Bool(True))
    comment(f, 'static and / or / not: Booleans only; short-circuit on static values')
    add(f, 'True and True', Bool(True))
    add(f, 'True and False', Bool(False))
    add(f, 'False or False', Bool(False))
    add(f, 'False or True', Bool(True))
    add(f, 'not True', Bool(False))
    add(f, 'not not True', Bool(True))
    add(f, 'not Int32(1) < Int32(2)', Bool(False))
    add(f, 'True or False and False', Bool(True))
    add(f, '(True or False) and False', Bool(False))
    add(f, 'not True or True', Bool(True))
    add(f, 'not (True or True)', Bool(False))
    add(f, '(Int32(1) < Int32(2)) and (Float32(1.0) < Float32(fx.nan))', Bool(False))
    add(f, '(True and True).dtype', 'Type(Boolean)')
    add(f, 'True and Int32(1)', 'error')
    add(f, 'Int32(0) or True', 'error')
    add(f, 'True and 1.0', 'error')
    add(f, 'not Float32(0.0)', 'error')
    add(f, 'not Int8(0)', 'error')
    add(f, 'False and (Int32(1) // Int32(0) == Int32(0))', Bool(False))
    add(f, 'True or (Int32(1) // Int32(0) == Int32(0))', Bool(True))
    add(f, 'True or (1 // 0 == 0)', Bool(True))
    add(f, 'True and (Int32(1) // Int32(0) == Int32(0))', 'error')
    add(f, 'False or (1 // 0 == 0)', 'error')
    add(f, '(Int32(1) > Int32(2)) and (Int8(5) % Int8(0) == Int8(0))', Bool(False))


def gen_cmp():
    f = 'adv_compare.txt'
    comment(f, 'comparisons across signedness and widths: operands compared in the common type')
    for a, av, b, bv in [('Int8', -1, 'Uint8', 255), ('Int16', -1, 'Uint8', 255), ('Int64', -1, 'Uint64', 2**64 - 1),
                         ('Int128', -1, 'Uint64', 2**64 - 1), ('Uint128', 2**128 - 1, 'Int128', -1),
                         ('Int4', -1, 'Uint8', 255), ('Int4', -1, 'Uint8', 15), ('Int32', -1, 'Uint16', 65535),
                         ('Int32', -1, 'Uint32', 2**32 - 1), ('Int64', -1, 'Uint32', 2**32 - 1),
                         ('Int8', -128, 'Uint8', 128), ('Int16', -32768, 'Uint16', 32768),
                         ('Index', -1, 'Uint64', 2**64 - 1), ('Index', -1, 'Uint32', 2**32 - 1)]:
        c = common(a, b)
        x, y = wrap(wrap(av, a), c), wrap(wrap(bv, b), c)
        add(f, '%s(%d) == %s(%d)' % (a, av, b, bv), Bool(x == y))
        add(f, '%s(%d) < %s(%d)' % (a, av, b, bv), Bool(x < y))
        add(f, '%s(%d) > %s(0)' % (a, av, b), Bool(x > 0))
    for a in ALLINT:
        for b in ALLINT:
            if INTS[a][1] and not INTS[b][1]:
                c = common(a, b)
                x = wrap(-1, c)
                add(f, '%s(-1) < %s(1)' % (a, b), Bool(x < 1))
    comment(f, 'integer vs float: the integer converts (with rounding) into the float common type')
    add(f, 'Int32(16777217) == Float32(16777216.0)', Bool(True))
    add(f, 'Int64(16777217) == Float32(16777216.0)', Bool(False))
    add(f, 'Int32(2147483647) == Float32(2147483648.0)', Bool(True))
    add(f, 'Uint32(4294967295) == Float32(4294967296.0)', Bool(True))
    add(f, 'Int64(2**53 + 1) == Float64(2.0**53)', Bool(True))
    add(f, 'Int128(2**53 + 1) == Float64(2.0**53)', Bool(True))
    add(f, 'Int16(2049) == Float16(2048.0)', Bool(True))
    add(f, 'Int16(2049) > Float16(2048.0)', Bool(False))
    add(f, 'Uint16(65535) == Float16(fx.inf)', Bool(True))
    add(f, 'Int8(-128) == Float16(-128.0)', Bool(True))
    add(f, 'Int16(257) == BFloat16(256.0)', Bool(True))
    add(f, 'Int32(257) == BFloat16(256.0)', Bool(False))
    add(f, 'Float16(0.1) == Float32(0.1)', Bool(False))
    add(f, 'Float16(0.5) == BFloat16(0.5)', Bool(True))
    add(f, 'Float16(0.1) == BFloat16(0.1)', Bool(R('Float16', 0.1) == R('BFloat16', 0.1)))
    add(f, 'Float32(fx.inf) > Float64(1e308)', Bool(True))
    add(f, 'Float32(-0.0) < Float32(0.0)', Bool(False))
    add(f, 'Float32(-0.0) <= Float32(0.0)', Bool(True))
    add(f, 'Float16(-0.0) == BFloat16(0.0)', Bool(True))
    for op in ['<', '<=', '>', '>=', '==']:
        add(f, 'Float32(fx.nan) %s 1' % op, Bool(False))
        add(f, 'Float64(fx.nan) %s Float64(fx.nan)' % op, Bool(False))
        add(f, 'Float16(fx.nan) %s Int8(0)' % op, Bool(False))
    add(f, 'Float32(fx.nan) != 1', Bool(True))
    add(f, 'BFloat16(fx.nan) != BFloat16(fx.nan)', Bool(True))
    add(f, '(Float32(1.0) < Int64(2)).dtype', 'Type(Boolean)')
    add(f, 'Float8E4M3FN(1.0) == Float8E4M3FN(1.0)', 'error: Float32')
    add(f, 'Float32(1.0) < Float4E2M1FN(1.0)', 'error')
    add(f, 'Int32(1) < Int32(2) < Int32(3)', 'error')
    add(f, 'Int32(1) == Int32(1) != Boolean(False)', 'error')
    comment(f, 'types are static values')
    add(f, 'Int32 == Int32', Bool(True))
    add(f, 'Int32 == Uint32', Bool(False))
    add(f, 'Int32 != Uint32', Bool(True))
    add(f, 'Int32 != Int32', Bool(False))
    add(f, 'Index == Int64', Bool(False))
    add(f, 'Float16 == BFloat16', Bool(False))
    add(f, 'Float32x4 == Float32x8', Bool(False))
    add(f, 'Float32x4 == Float32', Bool(False))
    add(f, 'Int8x16 == Int8x16', Bool(True))
    add(f, 'Float32x4(1.0).dtype == Float32', Bool(True))
    add(f, '(Int8(1) + Uint8(1)).dtype == Uint8', Bool(True))
    add(f, '(Int32(1) / Int32(1)).dtype == Float32', Bool(True))
    add(f, '(Float32 == Float32).dtype', 'Type(Boolean)')
    add(f, 'Int32x4(0).dtype', 'Type(Int32)')
    add(f, 'Int32(0).dtype.width', '32')
    add(f, 'Int8x16(0).dtype.width', '8')
    add(f, 'Float32 < Float64', 'error')
    add(f, 'Int32 + 1', 'error')
    add(f, 'Int32.width + Int8(1)', 'Int32(33)')
    add(f, 'Int32.width * 2', '64')
    add(f, '(Int32.width).dtype', 'Type(Int32)')
    for t, w in sorted(WIDTH.items()):
        add(f, '%s.width' % t, str(w))
        add(f, '%s.log_width' % t, str((w - 1).bit_length()))


def gen_builtins():
    f = 'adv_builtins.txt'
    comment(f, 'fx.max / fx.min: one common type for all operands (nested lists/tuples flattened)')
    add(f, 'fx.max(Int8(-1), Uint8(0), Int16(0))', I('Int16', 0))
    add(f, 'fx.min(Int32(-1), Uint32(5), Int64(3))', I('Int64', -1))
    add(f, 'fx.max([Int8(-1), Uint8(0)], (Int16(0),))', I('Int16', 0))
    add(f, 'fx.max(Int8(-1), Uint8(0))', I('Uint8', 255))
    add(f, 'fx.min(Int8(-1), Uint8(0))', I('Uint8', 0))
    add(f, 'fx.max(Int8(1), [Uint8(200), (Int16(-5),)])', I('Int16', 200))
    add(f, 'fx.max(1, 2)', 'Int32(2)')
    add(f, 'fx.min(1, 2)', 'Int32(1)')
    add(f, 'fx.max(5000000000, 1)', 'Int64(5000000000)')
    add(f, 'fx.max(2**63, 1)', 'error')
    add(f, 'fx.max(Int8(1), 300)', 'Int32(300)')
    add(f, 'fx.max(Uint64(1), -1)', I('Uint64', -1))
    add(f, 'fx.min(Uint8(5), -1)', 'Int32(-1)')
    add(f, 'fx.min(Uint32(5), -1)', I('Uint32', 5))
    add(f, 'fx.max(Float16(1.0), Int8(2))', 'Float16(2.0)')
    add(f, 'fx.max(Float16(1.0), BFloat16(2.0))', 'Float32(2.0)')
    add(f, 'fx.max(Float16(1.0), Int32(2))', 'Float32(2.0)')
    add(f, 'fx.max(Float32(1.0), Int64(2))', 'Float64(2.0)')
    add(f, 'fx.max(Int64(2**53 + 1), Float32(0.0))', 'Float64(9007199254740992.0)')
    add(f, 'fx.max(True, False)', 'Int32(1)')
    add(f, 'fx.max(Boolean(True))', 'Int32(1)')
    add(f, 'fx.max(Boolean(True), Uint32(0))', 'Uint32(1)')
    add(f, 'fx.max(Boolean(False), Int64(-1))', 'Int64(0)')
    add(f, 'fx.min(Boolean(True), Int8(-1))', 'Int32(-1)')
    add(f, 'fx.max(Boolean(True), Float16(0.5))', 'Float32(1.0)')
    add(f, 'fx.max(Int32(3))', 'Int32(3)')
    add(f, 'fx.max([Int32(3)])', 'Int32(3)')
    add(f, 'fx.max([[[Int32(3)], Int32(7)]], ((Int32(5),),))', 'Int32(7)')
    add(f, 'fx.min(Int4(7), Int4(-8), Int4(0))', 'Int4(-8)')
    add(f, 'fx.max(Int128(-2**127), Int128(2**127 - 1))', I('Int128', 2**127 - 1))
    add(f, 'fx.max(Uint128(2**128 - 1), Uint128(0))', I('Uint128', 2**128 - 1))
    add(f, 'fx.max(Int128(-1), Uint128(0))', I('Uint128', 2**128 - 1))
    add(f, 'fx.max(Int128(-1), Uint64(0))', I('Int128', 0))
    add(f, 'fx.max(Float64(1.0), Float64(fx.nan), Float64(3.0))', 'Float64(nan)')
    add(f, 'fx.min(Float16(fx.nan), Float16(1.0))', 'Float16(nan)')
    add(f, 'fx.min(Float32(-0.0), Float32(0.0), Float32(-0.0))', 'Float32(-0.0)')
    add(f, 'fx.max(Float32(0.0), Float32(-0.0), Float32(0.0))', 'Float32(0.0)')
    add(f, 'fx.max(Float16(-0.0), Float16(0.0))', 'Float16(0.0)')
    add(f, 'fx.min(BFloat16(0.0), BFloat16(-0.0))', 'BFloat16(-0.0)')
    add(f, 'fx.max(Float64(-0.0), Float64(0.0))', 'Float64(0.0)')
    add(f, 'fx.max(-0.0, 0)', 'Float32(0.0)')
    add(f, 'fx.min(0, -0.0)', 'Float32(-0.0)')
    add(f, 'fx.max(Float64(-fx.inf), Float64(-1e308))', 'Float64(-1e+308)')
    add(f, 'fx.min(Float32(fx.inf), 3)', 'Float32(3.0)')
    add(f, 'fx.max(Float32(1.0), 0.1).dtype', 'Type(Float32)')
    add(f, 'fx.max(Float64(0.1), 0.1)', 'Float64(0.1)')
    add(f, 'fx.max(Float64(0.0), 0.1)', 'Float64(0.1)')
    add(f, 'fx.max(Float32x4(1.0), 2.0).dtype', 'Type(Float32)')
    add(f, 'len(fx.max(Float32x4(1.0), 2.0))', '4')
    add(f, 'fx.max(Float16x4(1.0), 2.0).dtype', 'Type(Float32)')
    add(f, 'fx.max(Float16x4(1.0), Float16(2.0)).dtype', 'Type(Float16)')
    add(f, 'fx.max(Int8x4(1), Int16(2)).dtype', 'Type(Int16)')
    add(f, 'len(fx.min(Int8x16(1), Int8(2), [Int8(3)]))', '16')
    add(f, 'fx.max(Float32x4(1.0), 2.0)', 'error')
    add(f, 'fx.max(Float32x4(1.0), Float32x8(1.0))', 'error')
    add(f, 'fx.max(Index(1), 2)', 'error: Index')
    add(f, 'fx.min(Int64(1), Index(1))', 'error: Index')
    add(f, 'fx.max(Uint32(1), [Index(2)])', 'error: Index')
    add(f, 'fx.min(Int32(1), (Int32(2), Index(3)))', 'error: Index')
    add(f, 'fx.max(Int64x2(1), Index(2))', 'error')
    for t in NARROW:
        add(f, 'fx.max(%s(1.0), Float32(2.0))' % t, 'error')
        add(f, 'fx.min(Float32(1.0), [%s(1.0)])' % t, 'error')
        add(f, 'fx.ceildiv(%s(1.0), Int32(1))' % t, 'error')
    add(f, 'fx.max(Float32(fx.inf), Float8E4M3FN(1.0).to(Float32))', 'Float32(inf)')
    add(f, 'fx.max(Int64(Index(5)), 3)', 'Int64(5)')
    add(f, 'fx.max([])', 'error')
    add(f, 'fx.min()', 'error')
    add(f, 'fx.max(Int32(1), Float32x4(1.0)).dtype', 'Type(Float32)')
    add(f, 'fx.minnumf(Float64(fx.nan), Float64(-3.0))', 'Float64(-3.0)')
    add(f, 'fx.maxnumf(Float32(fx.nan), Float32(fx.nan))', 'Float32(nan)')
    add(f, 'fx.minnumf(Float16(2.0), Float16(1.0))', 'Float16(1.0)')
    add(f, 'fx.maxnumf(Float32(fx.nan), Float32(fx.nan)).dtype', 'Type(Float32)')
    comment(f, 'fx.ceildiv: rounds toward +inf; sign table at 4/8/64/128 bits; rejections')
    import itertools
    for t in ['Int4', 'Int8', 'Int16', 'Int64', 'Int128', 'Index_skip']:
        if t not in INTS:
            continue
        pairs = [(7, 2), (7, -2), (-7, 2), (-7, -2), (0, 3), (0, -3), (6, 3), (-6, 3), (6, -3), (1, 7), (-1, 7), (1, -7), (-1, -7)]
        for a, b in pairs:
            if wrap(a, t) != a or wrap(b, t) != b:
                continue
            add(f, 'fx.ceildiv(%s(%d), %s(%d))' % (t, a, t, b), I(t, -((-a) // b)))
        mn, mx = tmin(t), tmax(t)
        add(f, 'fx.ceildiv(%s(%d), %s(-1))' % (t, mn, t), 'error')
        add(f, 'fx.ceildiv(%s(%d), %s(1))' % (t, mn, t), I(t, mn))
        add(f, 'fx.ceildiv(%s(%d), %s(2))' % (t, mn, t), I(t, -((-mn) // 2)))
        add(f, 'fx.ceildiv(%s(%d), %s(3))' % (t, mn, t), I(t, -((-mn) // 3)))
        add(f, 'fx.ceildiv(%s(%d), %s(-2))' % (t, mn, t), I(t, -((-mn) // -2)))
        add(f, 'fx.ceildiv(%s(%d), %s(2))' % (t, mx, t), I(t, -((-mx) // 2)))
        add(f, 'fx.ceildiv(%s(%d), %s(-1))' % (t, mx, t), I(t, -mx))
        add(f, 'fx.ceildiv(%s(%d), %s(%d))' % (t, mx, t, mn), I(t, -((-mx) // mn)))
        add(f, 'fx.ceildiv(%s(%d), %s(%d))' % (t, mn, t, mx), I(t, -((-mn) // mx)))
        add(f, 'fx.ceildiv(%s(1), %s(0))' % (t, t), 'error')
    for t in ['Uint8', 'Uint16', 'Uint64', 'Uint128']:
        mx = tmax(t)
        for a, b in [(7, 2), (0, 5), (mx, 2), (mx, mx), (mx - 1, mx), (1, mx), (mx, 1), (6, 3)]:
            add(f, 'fx.ceildiv(%s(%d), %s(%d))' % (t, a, t, b), I(t, -((-a) // b)))
        add(f, 'fx.ceildiv(%s(1), %s(0))' % (t, t), 'error')
    add(f, 'fx.ceildiv(Int8(-128), -1)', 'Int32(128)')
    add(f, 'fx.ceildiv(Uint8(7), -1)', 'Int32(-7)')
    add(f, 'fx.ceildiv(Uint32(7), -1)', 'Uint32(1)')
    add(f, 'fx.ceildiv(Int8(7), Uint8(2))', 'Uint8(4)')
    add(f, 'fx.ceildiv(Int8(-7), Uint8(2))', I('Uint8', -((-249) // 2)))
    add(f, 'fx.ceildiv(Int64(-7), Uint32(2))', 'Int64(-3)')
    add(f, 'fx.ceildiv(7, -2)', 'Int32(-3)')
    add(f, 'fx.ceildiv(-7, 2)', 'Int32(-3)')
    add(f, 'fx.ceildiv(5000000000, 2)', 'Int64(2500000000)')
    add(f, 'fx.ceildiv(-2147483648, -1)', 'error')
    add(f, 'fx.ceildiv(Int32(7), 2.0)', 'error')
    add(f, 'fx.ceildiv(Uint64(1), Float32(1.0))', 'error')
    for t in STDF:
        add(f, 'fx.ceildiv(%s(7.0), %s(2.0))' % (t, t), 'error')
    add(f, 'fx.ceildiv(Int32(1), True)', 'error')
    add(f, 'fx.ceildiv(Boolean(True), Boolean(True))', 'error')
    add(f, 'fx.ceildiv(Index(4), 2)', 'error: Index')
    add(f, 'fx.ceildiv(Int64(4), Index(2))', 'error: Index')
    add(f, 'fx.ceildiv(Int32(1))', 'error')
    add(f, 'fx.ceildiv(Int32(1), Int32(2), Int32(3))', 'error')
    add(f, 'fx.ceildiv(Int32x4(7), 2).dtype', 'Type(Int32)')
    add(f, 'len(fx.ceildiv(Int8x16(7), Int8(2)))', '16')
    add(f, 'fx.ceildiv(Float32x4(7.0), 2).dtype', 'error')
    add(f, 'fx.ceildiv(Int32(7), Int32(2)) == 4', Bool(True))
    comment(f, 'abs and unary minus')
    for t in ALLINT:
        mn = tmin(t)
        if INTS[t][1]:
            add(f, 'abs(%s(%d))' % (t, mn + 1), I(t, -(mn + 1)))
        else:
            add(f, 'abs(%s(%d))' % (t, tmax(t)), I(t, tmax(t)))
            add(f, '-%s(1)' % t, I(t, -1))
        add(f, '(abs(%s(1))).dtype' % t, 'Type(%s)' % t)
        add(f, '(-%s(1)).dtype' % t, 'Type(%s)' % t)
        add(f, '+%s(-1)' % t, I(t, -1))
    add(f, 'abs(Index(-5))', 'Index(5)')
    add(f, '-Index(1)', 'Index(-1)')
    add(f, 'abs(Index(-2**63))', I('Index', -2**63))
    add(f, '--Int8(-128)', 'Int8(-128)')
    add(f, '-(-Int128(-2**127))', I('Int128', -2**127))
    add(f, 'abs(-(2**100))', str(2**100))
    add(f, 'abs(-0.0)', '0.0')
    add(f, 'abs(Float16(-0.0))', 'Float16(0.0)')
    add(f, 'abs(Float64(-fx.inf))', 'Float64(inf)')
    add(f, 'abs(Float32(-fx.nan))', 'Float32(nan)')
    add(f, 'abs(BFloat16(-3.0))', 'BFloat16(3.0)')
    add(f, '-Float16(0.0)', 'Float16(-0.0)')
    add(f, '-BFloat16(-0.0)', 'BFloat16(0.0)')
    add(f, '~Int4(7)', 'Int4(-8)')
    add(f, '~Index(0)', 'Index(-1)')
    add(f, '~Uint128(2**128 - 1)', 'Uint128(0)')
    add(f, '~Float16(1.0)', 'error')
    add(f, '~Float64(1.0)', 'error')
    for t in NARROW:
        add(f, 'abs(%s(1.0))' % t, 'error')
    comment(f, 'math builtins fold exactly where the decisions say so; fastmath= does not change folding')
    add(f, 'fx.sqrt(Float32(2.0), fastmath="fast")', 'Float32(1.4142135)')
    add(f, 'fx.sqrt(Float32(4.0), fastmath=fx.FastMathFlags.afn)', 'Float32(2.0)')
    add(f, 'fx.exp(Float32(0.0), fastmath="nnan,ninf")', 'Float32(1.0)')
    add(f, 'fx.sqrt(Float32(4.0), fastmath="bogus")', 'error')
    add(f, 'fx.sqrt(Float32(4.0), fastmath=3)', 'error')
    add(f, 'fx.sqrt(Float32(4.0), rounding_mode=fx.RoundingMode.upward)', 'error')
    add(f, 'fx.sqrt(Float32(-1.0))', 'Float32(nan)')
    add(f, 'fx.sqrt(Float32(-0.0))', 'Float32(-0.0)')
    add(f, 'fx.sqrt(Float64(fx.inf))', 'Float64(inf)')
    add(f, 'fx.sqrt(Float16(2.0))', F('Float16', math.sqrt(2.0)))
    add(f, 'fx.sqrt(BFloat16(2.0))', F('BFloat16', 1.4142135623730951))
    add(f, 'fx.sqrt(Float32(16777215.0))', F('Float32', math.sqrt(16777215.0)))
    add(f, 'fx.sqrt(Float64(2.0)) * fx.sqrt(Float64(2.0))', 'Float64(2.0000000000000004)')
    add(f, 'fx.sqrt(Int32(4))', 'error')
    add(f, 'fx.sqrt(Float8E4M3FN(4.0))', 'error')
    add(f, 'fx.floor(Float16(-0.5))', 'Float16(-1.0)')
    add(f, 'fx.ceil(Float32(-0.5))', 'Float32(-0.0)')
    add(f, 'fx.trunc(Float64(-0.5))', 'Float64(-0.0)')
    add(f, 'fx.round(Float32(0.5))', 'Float32(1.0)')
    add(f, 'fx.round(Float32(-0.5))', 'Float32(-1.0)')
    add(f, 'fx.round(Float64(2.4999999999999996))', 'Float64(2.0)')
    add(f, 'fx.round(Float64(4503599627370497.0))', 'Float64(4503599627370497.0)')
    add(f, 'fx.floor(Float32(1e30))', 'Float32(1e+30)')
    add(f, 'fx.floor(Float32x4(1.5)).dtype', 'Type(Float32)')
    add(f, 'fx.exp(Float32x4(0.0)).dtype', 'Type(Float32)')
    add(f, 'fx.exp(Int32(1))', 'error')
    add(f, 'fx.sqrt(Int32x4(4)).dtype', 'error')
    # fma on Float16 must round once (round-to-odd through binary64): a naive binary32 fma double-rounds to 1.0
    a, b, c = 1.0009765625, 0.99951171875, 9 * 2.0 ** -24
    exact = Fr(a) * Fr(b) + Fr(c)
    add(f, 'fx.fma(Float16(%r), Float16(%r), Float16(%r))' % (a, b, c), F('Float16', exact))
    a, b, c = 1.0078125, 0.75, -2.0 ** -40
    exact = Fr(a) * Fr(b) + Fr(c)
    add(f, 'fx.fma(BFloat16(%r), BFloat16(%r), BFloat16(%r))' % (a, b, c), F('BFloat16', exact))
    add(f, 'fx.fma(Float16(2.0), Float16(3.0), 1)', 'error')
    add(f, 'fx.fma(Float64(1e308), Float64(10.0), Float64(-fx.inf))', 'Float64(-inf)')
    add(f, 'fx.fma(Float32(-0.0), Float32(1.0), Float32(0.0))', 'Float32(0.0)')
    add(f, 'fx.fma(Float32(-0.0), Float32(1.0), Float32(-0.0))', 'Float32(-0.0)')
    comment(f, 'fast-math specs and rounding modes as static values')
    add(f, 'fx.fastmath("ninf,nnan")', 'FastMathFlags(nnan|ninf)')
    add(f, 'fx.FastMathFlags.afn | fx.FastMathFlags.reassoc', 'FastMathFlags(reassoc|afn)')
    add(f, 'fx.fastmath("nnan,bogus")', 'error')
    add(f, 'fx.FastMathFlags.fast', 'FastMathFlags(fast)')
    add(f, 'fx.FastMathFlags.none', 'FastMathFlags(none)')
    add(f, 'fx.fastmath(fx.FastMathFlags.contract)', 'FastMathFlags(contract)')
    for m in ['to_nearest_even', 'downward', 'upward', 'toward_zero', 'to_nearest_away']:
        add(f, 'fx.RoundingMode.%s' % m, 'RoundingMode(%s)' % m)


SATWHY = ('spec 3.4: float -> integer truncates toward zero and saturates at the type range (only NaN gives 0); '
          'finite values with |x| >= 2**575 give 0 or the wrong-signed bound instead')


def gen_convert():
    f = 'adv_convert.txt'
    comment(f, '.to() and constructors between scalar kinds; float->int truncates and saturates; int->float rounds once')
    iv = [('Int128', 2**127 - 1), ('Int128', -2**127), ('Uint128', 2**128 - 1), ('Uint128', 2**128 - 2**103),
          ('Uint128', 2**128 - 2**103 - 1), ('Uint128', 2**128 - 2**104), ('Int64', -2**63), ('Uint64', 2**64 - 1),
          ('Int32', -2**31), ('Int32', 16777217), ('Int32', 16777219), ('Int64', 2**53 + 1), ('Int64', 2**53 + 3),
          ('Uint16', 65535), ('Uint16', 65519), ('Uint16', 65520), ('Int16', 2049), ('Int16', -32768), ('Int16', 257), ('Int16', 259),
          ('Int8', -128), ('Int4', -8), ('Uint8', 255), ('Int64', 2**60 + 1), ('Int128', 2**100 + 2**76)]
    for t, v in iv:
        for ft in STDF:
            add(f, '%s(%d).to(%s)' % (t, v, ft), F(ft, v))
        add(f, 'Float32(%s(%d))' % (t, v), F('Float32', v))
    fv = [1.5, -1.5, 2.75, -2.75, 0.999, -0.999, 127.9, 128.0, -128.9, -129.0, 255.9, 256.0, -0.5, 7.99, 8.0,
          -8.5, -9.0, 1e10, -1e10, 4294967295.9, 4294967296.0, -2147483648.9, -2147483649.0, 1e20, -1e20, 1e38, 1e39,
          1.8446744073709550e19, 9.3e18, -9.3e18]
    for x in fv:
        for t in ['Int4', 'Int8', 'Uint8', 'Int32', 'Uint32', 'Int64', 'Uint64', 'Int128', 'Uint128']:
            add(f, 'Float64(%r).to(%s)' % (x, t), I(t, conv(t, x)))
    for x in [fx for fx in [65504.0, -65504.0, 0.5, -0.75, 1000.5]]:
        for t in ['Int8', 'Int16', 'Uint16', 'Int32']:
            v = R('Float16', x)
            add(f, 'Float16(%r).to(%s)' % (x, t), I(t, conv(t, v)))
    for sv in ['fx.inf', '-fx.inf', 'fx.nan']:
        val = {'fx.inf': INF, '-fx.inf': -INF, 'fx.nan': NAN}[sv]
        for t in ['Int4', 'Uint8', 'Int16', 'Uint32', 'Int64', 'Uint128', 'Int128']:
            for ft in ['Float16', 'BFloat16', 'Float32']:
                add(f, '%s(%s).to(%s)' % (ft, sv, t), I(t, conv(t, val)))
    add(f, 'BFloat16(3e38).to(Int128)', I('Int128', 2**127 - 1))
    add(f, 'BFloat16(1e38).to(Int128)', I('Int128', int(Fr(R('BFloat16', 1e38)))))
    add(f, 'Float32(3.4e38).to(Uint128)', I('Uint128', int(Fr(R('Float32', 3.4e38)))))
    add(f, 'Float64(-1e38).to(Int128)', I('Int128', int(Fr(-1e38))))
    add(f, 'Float32(-0.9).to(Uint8)', 'Uint8(0)')
    for e, t, x in [('Int32(2.0**575)', 'Int32', 2.0**575), ('Int32(2.0**576)', 'Int32', 2.0**576),
                    ('Int8(-2.0**576)', 'Int8', -2.0**576), ('Int8(-1e300)', 'Int8', -1e300),
                    ('Float64(1e300).to(Uint8)', 'Uint8', 1e300), ('Float64(-1e300).to(Int32)', 'Int32', -1e300),
                    ('Uint64(Float64(1.7e308))', 'Uint64', 1.7e308), ('Int128(Float64(1e200))', 'Int128', 1e200),
                    ('Uint128(Float64(1.7976931348623157e308))', 'Uint128', 1.7976931348623157e308),
                    ('Index(Float64(1e300))', 'Index', 1e300), ('Int64(1e300)', 'Int64', 1e300),
                    ('Uint8(1e300)', 'Uint8', 1e300), ('Int4(-1e300)', 'Int4', -1e300),
                    ('Float64(2.0**1023).to(Uint16)', 'Uint16', 2.0**1023)]:
        bug(SATWHY, e, I(t, conv(t, x)))
    add(f, 'Int32(2.0**560)', I('Int32', 2**31 - 1))
    add(f, 'Int8(-2.0**560)', I('Int8', -128))
    add(f, 'Uint128(Float64(1e154))', I('Uint128', 2**128 - 1))
    add(f, 'Float32(-1.0).to(Uint32)', 'Uint32(0)')
    add(f, 'Index(Float32(2.5))', 'Index(2)')
    add(f, 'Index(Float64(1e30))', I('Index', 2**63 - 1))
    add(f, 'Float64(-1e30).to(Index)', I('Index', -2**63))
    add(f, 'Index(-1).to(Uint64)', I('Uint64', -1))
    add(f, 'Int32(5).to(Index)', 'Index(5)')
    add(f, 'Index(2**63 + 5).to(Int32)', I('Int32', wrap(2**63 + 5, 'Index')))
    add(f, 'Index(7).to(Float32)', 'Float32(7.0)')
    comment(f, 'float -> float: rounded once from the exact source value (no double rounding)')
    ff = [('Float64', 1 + 2.0**-11 + 2.0**-30, 'Float16'), ('Float64', 1 + 2.0**-8 + 2.0**-30, 'BFloat16'),
          ('Float32', 1 + 2.0**-11 + 2.0**-23, 'Float16'), ('Float32', 1 + 2.0**-8 + 2.0**-23, 'BFloat16'),
          ('Float64', 1e-46, 'Float32'), ('Float64', 1e-310, 'Float32'), ('Float64', -1e-310, 'Float16'),
          ('Float32', 1e-40, 'Float64'), ('Float16', 6e-08, 'Float32'), ('Float16', 6e-08, 'BFloat16'),
          ('BFloat16', 1e-40, 'Float16'), ('BFloat16', 3.38e38, 'Float16'), ('Float16', 65504.0, 'BFloat16'),
          ('Float16', 0.1, 'BFloat16'), ('BFloat16', 0.1, 'Float16'), ('Float32', 65519.99609375, 'Float16'),
          ('Float32', 65520.0, 'Float16'), ('Float32', 2.0**128 - 2.0**119, 'BFloat16'),
          ('Float32', 2.0**128 - 2.0**119 - 2.0**104, 'BFloat16'), ('Float64', 3.4028235677973366e38, 'Float32'),
          ('Float64', 3.4028235677973362e38, 'Float32'), ('Float64', 2.0**-149 * 0.5, 'Float32'),
          ('Float64', 2.0**-149 * 0.5000001, 'Float32'), ('Float64', 2.0**-14 - 2.0**-25, 'Float16'),
          ('Float64', 2.0**-24 * 1.5, 'Float16'), ('Float64', 2.0**-24 * 2.5, 'Float16'),
          ('Float64', 2.0**-133, 'BFloat16'), ('Float64', 2.0**-134, 'BFloat16'), ('Float64', 3 * 2.0**-135, 'BFloat16'),
          ('Float64', 2.0**-126 - 2.0**-134, 'BFloat16'), ('Float64', -(2.0**-134) * 1.0000001, 'BFloat16'),
          ('Float16', -0.0, 'BFloat16'), ('BFloat16', -0.0, 'Float64')]
    for st, x, dt in ff:
        sv = R(st, x)
        add(f, '%s(%s).to(%s)' % (st, lit(x), dt), F(dt, sv))
        add(f, '%s(%s(%s))' % (dt, st, lit(x)), F(dt, sv))
    for st, dt in [('Float32', 'Float16'), ('Float64', 'Float16'), ('Float32', 'BFloat16'), ('Float16', 'Float32'),
                   ('BFloat16', 'Float16')]:
        for sv, out in [('fx.inf', 'inf'), ('-fx.inf', '-inf'), ('fx.nan', 'nan'), ('-0.0', '-0.0')]:
            add(f, '%s(%s).to(%s)' % (st, sv, dt), '%s(%s)' % (dt, out))
    comment(f, 'a literal is converted exactly once by a constructor')
    for x, t in [(1 + 2.0**-11 + 2.0**-30, 'Float16'), (1 + 2.0**-8 + 2.0**-30, 'BFloat16'),
                 (1 + 2.0**-24 + 2.0**-50, 'Float32'), (1.0625 + 2.0**-40, 'Float8E4M3FN'),
                 (1.125 + 2.0**-40, 'Float8E5M2'), (2.5 + 2.0**-40, 'Float4E2M1FN'), (5.0 + 2.0**-40, 'Float4E2M1FN'),
                 (2.0**-25 + 2.0**-60, 'Float16'), (65519.99999999999, 'Float16'), (65520.0, 'Float16'),
                 (-(2.0**-25), 'Float16'), (3.3961775292304194e38, 'BFloat16')]:
        add(f, '%s(%s)' % (t, lit(x)), F(t, x))
        add(f, '%s(Float32(%s))' % (t, lit(x)), F(t, R('Float32', x)))
    add(f, 'Float16(2049)', 'Float16(2048.0)')
    add(f, 'BFloat16(257)', 'BFloat16(256.0)')
    add(f, 'BFloat16(259)', 'BFloat16(260.0)')
    add(f, 'Float32(2**128)', 'Float32(inf)')
    add(f, 'Float32(2**128 - 2**103)', 'Float32(inf)')
    add(f, 'Float32(2**128 - 2**103 - 1)', 'Float32(3.4028235e+38)')
    add(f, 'Float64(2**1024)', 'error')
    add(f, 'Float64(2**511)', 'Float64(%r)' % float(2**511))
    add(f, 'Float16(-(2**100))', 'Float16(-inf)')
    add(f, 'Float64(2**53 + 1)', 'Float64(9007199254740992.0)')
    add(f, 'Float64(2**53 + 3)', 'Float64(9007199254740996.0)')
    add(f, 'Float32(0.1).to(Float32)', 'Float32(0.1)')
    add(f, 'Int32(7).to(Int32)', 'Int32(7)')
    add(f, 'Int32(-1).to(Uint128)', I('Uint128', -1))
    add(f, 'Uint32(4294967295).to(Int64)', 'Int64(4294967295)')
    add(f, 'Int4(-1).to(Uint8)', 'Uint8(255)')
    add(f, 'Uint8(255).to(Int4)', 'Int4(-1)')
    add(f, 'Int128(2**100 + 5).to(Int4)', 'Int4(5)')
    comment(f, 'narrow floats in both directions (decisions.md table); values print as the shortest decimal')
    narrow_in = [0.3, 1.0625, 1.1875, 17.0, 19.0, 100.0, 240.0, 247.9, 248.0, 255.0, 300.0, 448.0, 464.0, 465.0,
                 1000.0, 57344.0, 61439.0, 61440.0, 1e6, 2.0**-9, 2.0**-10, 2.0**-17, 0.001, -3.0, -0.0, 5.0, 7.0,
                 7.75, 7.5, 28.0, 30.0, 31.0, 0.25, 0.2, 0.0625, 1e-6, 3.0, 6.0, 6.5, 0.75, -1000.0, -465.0, -7.75]
    for t in NARROW:
        if t == 'Float8E8M0FNU':
            continue
        for x in narrow_in:
            v = R(t, x)
            add(f, '%s(%s)' % (t, lit(x)), '%s(%s)' % (t, shortest(t, v)))
            if WIDTH[t] in (8, 4):
                it = 'Uint8' if WIDTH[t] == 8 else 'Int4'
                add(f, 'Float32(%s).to(%s).bitcast(%s)' % (lit(x), t, it), I(it, encode(t, R(t, R('Float32', x)))))
        for sv, val in [('fx.inf', INF), ('-fx.inf', -INF), ('fx.nan', NAN)]:
            v = R(t, val)
            if WIDTH[t] in (8, 4):
                if FMTS[t][3] == 'fn' and sv == '-fx.inf':
                    continue        # the NaN's sign for -inf is not specified
                it = 'Uint8' if WIDTH[t] == 8 else 'Int4'
                add(f, '%s(%s).bitcast(%s)' % (t, sv, it), I(it, encode(t, v)))
            else:
                add(f, '%s(%s)' % (t, sv), '%s(%s)' % (t, shortest(t, v)))
    for x, enc in [(1.0, 127), (3.0, 129), (2.9, 128), (1.5, 128), (1.4, 127), (0.75, 127), (2.0**127, 254),
                   (2.0**128, 255), (1.5 * 2**127, 255), (1.4 * 2**127, 254), (2.0**-127, 0), (2.0**-128, 0), (0.0, 0),
                   (-1.0, 255), (1e-300, 0)]:
        add(f, 'Float8E8M0FNU(%s).bitcast(Uint8)' % lit(x), 'Uint8(%d)' % enc)
    add(f, 'Float8E8M0FNU(fx.inf).bitcast(Uint8)', 'Uint8(255)')
    add(f, 'Float8E8M0FNU(fx.nan).bitcast(Uint8)', 'Uint8(255)')
    add(f, 'Float8E8M0FNU(1024.0)', 'Float8E8M0FNU(1000.0)')
    add(f, 'Float8E8M0FNU(2.0**20)', 'Float8E8M0FNU(1000000.0)')
    add(f, 'Float8E8M0FNU(0.5)', 'Float8E8M0FNU(0.5)')
    add(f, 'Float8E8M0FNU(4.0).to(Float32)', 'Float32(4.0)')
    for k in list(range(-126, 128, 17)) + [127, -126, -1, 1, 10]:
        add(f, 'Float8E8M0FNU(%s)' % lit(2.0 ** k), 'Float8E8M0FNU(%s)' % shortest('Float8E8M0FNU', 2.0 ** k))
    for it, v, enc in [('Int32', 3, 129), ('Int32', 0, 0), ('Int32', -1, 255), ('Uint128', 2**127, 254),
                       ('Uint128', 2**128 - 1, 255), ('Int64', 2**62 + 2**61, 127 + 63), ('Int8', 96, 134)]:
        add(f, '%s(%d).to(Float8E8M0FNU).bitcast(Uint8)' % (it, v), 'Uint8(%d)' % enc)
    add(f, 'Float16(6e-08).to(Float8E8M0FNU).bitcast(Uint8)', 'Uint8(%d)' % (127 - 24))
    add(f, 'Float8E8M0FNU(2.0**-127).to(Int32)', 'Int32(0)')
    add(f, 'Float8E8M0FNU(fx.nan).to(Int32)', 'Int32(0)')
    add(f, 'Float8E8M0FNU(2.0**-20).to(Float16)', Fexact('Float16', 2.0**-20))
    add(f, 'Float8E8M0FNU(2.0**-30).to(Float16)', 'Float16(0.0)')
    add(f, 'Float8E8M0FNU(2.0**-127).to(Float64)', 'Float64(%r)' % 2.0**-127)
    add(f, 'Float8E8M0FNU(2.0**127).to(Float32)', 'Float32(1.7014118e+38)')
    add(f, 'Float8E8M0FNU(2.0**127).to(BFloat16)', F('BFloat16', 2.0**127))
    add(f, 'Float8E8M0FNU(2.0**127).to(Float16)', 'Float16(inf)')
    # integers into narrow floats and back
    for t in ['Float8E4M3FN', 'Float8E5M2', 'Float4E2M1FN', 'Float6E3M2FN', 'Float8E4M3FNUZ']:
        for it, v in [('Int32', 3), ('Int32', 17), ('Int32', 19), ('Int32', 1000), ('Int32', -1000), ('Int32', 5),
                      ('Int32', 100000), ('Int8', -128), ('Uint8', 255), ('Int64', 2**40 + 1), ('Int32', 61440)]:
            add(f, '%s(%d).to(%s)' % (it, v, t), '%s(%s)' % (t, shortest(t, R(t, v))))
    for t, x, it in [('Float8E4M3FN', 448.0, 'Int8'), ('Float8E4M3FN', -448.0, 'Uint8'), ('Float8E4M3FN', -448.0, 'Int16'),
                     ('Float8E5M2', 57344.0, 'Int16'), ('Float8E5M2', 57344.0, 'Uint16'), ('Float4E2M1FN', -6.0, 'Int4'),
                     ('Float4E2M1FN', 1.5, 'Int32'), ('Float6E3M2FN', 28.0, 'Uint8'), ('Float8E4M3FNUZ', -240.0, 'Int8'),
                     ('Float8E8M0FNU', 2.0**100, 'Uint128'), ('Float8E8M0FNU', 2.0**100, 'Int64')]:
        v = R(t, x)
        add(f, '%s(%s).to(%s)' % (t, lit(x), it), I(it, conv(it, v)))
    add(f, 'Float8E5M2(fx.inf).to(Int32)', I('Int32', 2**31 - 1))
    add(f, 'Float8E4M3FN(fx.nan).to(Int32)', 'Int32(0)')
    add(f, 'Float8E4M3FNUZ(fx.nan).to(Uint8)', 'Uint8(0)')
    # narrow -> narrow / standard
    nn = [('Float8E5M2', 3.0, 'Float4E2M1FN'), ('Float8E4M3FN', 2.0**-9, 'Float8E5M2'), ('Float8E5M2', 57344.0, 'Float16'),
          ('Float8E5M2', 57344.0, 'Float8E4M3FN'), ('Float8E5M2', 57344.0, 'Float6E2M3FN'), ('Float8E4M3FN', 448.0, 'Float8E4M3FNUZ'),
          ('Float8E4M3FN', 448.0, 'Float8E4M3'), ('Float8E4M3FNUZ', 240.0, 'Float8E4M3B11FNUZ'),
          ('Float6E2M3FN', 7.5, 'Float4E2M1FN'), ('Float6E2M3FN', 0.125, 'Float4E2M1FN'), ('Float6E2M3FN', 0.375, 'Float4E2M1FN'),
          ('Float6E3M2FN', 0.0625, 'Float6E2M3FN'), ('Float8E4M3FN', -0.0, 'Float8E4M3FNUZ'),
          ('Float8E4M3FN', 1.125, 'BFloat16'), ('Float4E2M1FN', -0.5, 'Float8E8M0FNU'), ('Float4E2M1FN', 6.0, 'Float8E8M0FNU')]
    for st, x, dt in nn:
        v = R(st, x)
        add(f, '%s(%s).to(%s)' % (st, lit(x), dt), '%s(%s)' % (dt, shortest(dt, R(dt, v))))
    for st, dt in [('Float8E5M2', 'Float8E4M3FN'), ('Float8E5M2', 'Float6E2M3FN'), ('Float8E5M2', 'Float4E2M1FN'),
                   ('Float8E5M2', 'Float8E4M3FNUZ'), ('Float8E5M2', 'Float16')]:
        for sv, val in [('fx.inf', INF), ('-fx.inf', -INF), ('fx.nan', NAN)]:
            v = R(dt, R(st, val))
            add(f, '%s(%s).to(%s)' % (st, sv, dt), '%s(%s)' % (dt, shortest(dt, v)))
    add(f, 'Float32(-0.0).to(Float8E4M3FNUZ).bitcast(Uint8)', 'Uint8(0)')
    add(f, 'Float32(-0.0).to(Float4E2M1FN).bitcast(Int4)', 'Int4(-8)')
    add(f, 'Float32(-0.0).to(Float8E4M3B11FNUZ).bitcast(Uint8)', 'Uint8(0)')
    add(f, 'Float32(1.0625 + 2.0**-20).to(Float8E4M3FN)', 'Float8E4M3FN(1.1)')
    add(f, 'Float16(Float32(1.0625 + 2.0**-20)).to(Float8E4M3FN)', 'Float8E4M3FN(1.0)')
    add(f, 'Float8E4M3FN(1.0) + 1.0', 'error: Float32')
    add(f, 'Float8E4M3FN(1.0) * 2', 'error')
    add(f, 'Float4E2M1FN(1.0) + Float32(1.0)', 'error')
    add(f, 'Float6E2M3FN(1.0) < 2.0', 'error')
    add(f, 'Float8E8M0FNU(1.0) * Float8E8M0FNU(1.0)', 'error')
    add(f, 'Float8E4M3FN(1.0) & 1', 'error')
    add(f, '-Float8E8M0FNU(1.0)', 'error')
    add(f, 'Float8E4M3FN(1.0) // Float8E4M3FN(1.0)', 'error')
    add(f, 'divmod(Float8E5M2(1.0), Float8E5M2(1.0))', 'error')
    add(f, 'Float8E5M2(1.0) ** 2', 'error')
    comment(f, 'rounding modes: float-to-float only, run-time values only')
    modes = ['to_nearest_even', 'downward', 'upward', 'toward_zero', 'to_nearest_away']
    for m in modes:
        add(f, 'Float32(1.0).to(Float16, rounding_mode=fx.RoundingMode.%s)' % m, 'error: rounding_mode')
        add(f, 'Float16(1.0).to(Float32, rounding_mode=fx.RoundingMode.%s)' % m, 'error')
        add(f, 'Float32x4(1.0)[0].to(Float16, rounding_mode=fx.RoundingMode.%s).dtype' % m, 'Type(Float16)')
        add(f, 'Float32x4(1.0).to(BFloat16, rounding_mode=fx.RoundingMode.%s).dtype' % m, 'Type(BFloat16)')
        add(f, 'Int32x4(1)[0].to(Float32, rounding_mode=fx.RoundingMode.%s).dtype' % m, 'error')
        add(f, 'Float32x4(1.0)[0].to(Int32, rounding_mode=fx.RoundingMode.%s).dtype' % m, 'error')
        add(f, 'Int32(1).to(Float32, rounding_mode=fx.RoundingMode.%s)' % m, 'error')
    add(f, 'len(Float32x4(1.0).to(Float16, rounding_mode=fx.RoundingMode.downward))', '4')
    add(f, 'Float64x2(1.0).to(Float32, rounding_mode=fx.RoundingMode.upward).dtype', 'Type(Float32)')
    add(f, 'Float32x4(1.0).to(Float8E4M3FN, rounding_mode=fx.RoundingMode.toward_zero).dtype', 'Type(Float8E4M3FN)')
    add(f, 'Float8E4M3FN(1.0).to(Float32, rounding_mode=fx.RoundingMode.upward)', 'error')
    add(f, 'Float64(1.0).to(Float32, rounding_mode=fx.RoundingMode.to_nearest_away)', 'error')
    add(f, 'Uint8x16(1).to(Float16, rounding_mode=fx.RoundingMode.upward).dtype', 'error')
    add(f, 'Float32x4(1.0).to(Int8, rounding_mode=fx.RoundingMode.upward).dtype', 'error')
    add(f, 'Float32x4(1.0)[0].to(Float16, rounding_mode=fx.RoundingMode.sideways).dtype', 'error')
    add(f, 'Float32x4(1.0)[0].to(Float16, rounding_mode="upward").dtype', 'error')
    add(f, 'Float32x4(1.0)[0].to(Float16, fastmath="fast").dtype', 'error')


BOOLBC = ('seed 000: Boolean is a Numeric (the i1 type) and bitcast applies to any Numeric of equal width; '
          'Boolean -> Boolean (1 bit -> 1 bit) is rejected with "bitcast() does not apply to Boolean"')


def gen_bitcast():
    f = 'adv_bitcast.txt'
    comment(f, 'bitcast: equal width for scalars; vectors keep the total width and recompute the lane count')
    groups = {1: ['Boolean'], 4: ['Int4', 'Float4E2M1FN'], 6: ['Float6E2M3FN', 'Float6E3M2FN'],
              8: ['Int8', 'Uint8', 'Float8E5M2', 'Float8E4M3FN', 'Float8E4M3FNUZ', 'Float8E4M3B11FNUZ', 'Float8E4M3', 'Float8E8M0FNU'],
              16: ['Int16', 'Uint16', 'Float16', 'BFloat16'], 32: ['Int32', 'Uint32', 'Float32'],
              64: ['Int64', 'Uint64', 'Float64', 'Index'], 128: ['Int128', 'Uint128']}
    reps = {w: g[0] for w, g in groups.items()}
    ctor = lambda t: '%s(1)' % t if t in INTS else ('%s(True)' % t if t == 'Boolean' else '%s(1.0)' % t)
    # every width pair: equal -> the dtype, unequal -> error
    for wa, ga in groups.items():
        for wb, gb in groups.items():
            for a in ga:
                b = gb[len(a) % len(gb)]
                if wa == wb and a == 'Boolean':
                    continue
                if wa == wb:
                    add(f, '%s.bitcast(%s).dtype' % (ctor(a), b), 'Type(%s)' % b)
                else:
                    add(f, '%s.bitcast(%s)' % (ctor(a), b), 'error')
    # values
    vals = [('Int8(-1)', 'Uint8', 'Uint8(255)'), ('Uint16(15360)', 'Float16', 'Float16(1.0)'),
            ('Uint16(0x7C00)', 'Float16', 'Float16(inf)'), ('Uint16(0xFC00)', 'Float16', 'Float16(-inf)'),
            ('Uint16(0x7E00)', 'Float16', 'Float16(nan)'), ('Uint16(0x8000)', 'Float16', 'Float16(-0.0)'),
            ('Uint16(1)', 'Float16', Fexact('Float16', 2.0**-24)), ('Uint16(0x03FF)', 'Float16', Fexact('Float16', 2.0**-14 - 2.0**-24)),
            ('Uint16(0x0400)', 'Float16', Fexact('Float16', 2.0**-14)), ('Int16(0x3F80)', 'BFloat16', 'BFloat16(1.0)'),
            ('Uint16(0x7F80)', 'BFloat16', 'BFloat16(inf)'), ('Uint16(0x7F7F)', 'BFloat16', Fexact('BFloat16', decode('BFloat16', 0x7F7F))),
            ('Uint16(1)', 'BFloat16', Fexact('BFloat16', 2.0**-133)),
            ('Float16(1.0)', 'BFloat16', Fexact('BFloat16', decode('BFloat16', 0x3C00))),
            ('BFloat16(1.0)', 'Float16', Fexact('Float16', decode('Float16', 0x3F80))),
            ('Float16(-2.0)', 'Int16', I('Int16', 0xC000)), ('BFloat16(-2.0)', 'Uint16', 'Uint16(49152)'),
            ('Int32(-1)', 'Float32', 'Float32(nan)'), ('Uint32(0x7F800000)', 'Float32', 'Float32(inf)'),
            ('Uint32(1)', 'Float32', 'Float32(1e-45)'), ('Uint32(0x7F7FFFFF)', 'Float32', 'Float32(3.4028235e+38)'),
            ('Float32(-0.0)', 'Int32', I('Int32', -2**31)), ('Float32(-0.0)', 'Uint32', 'Uint32(2147483648)'),
            ('Float32(0.1)', 'Uint32', 'Uint32(1036831949)'), ('Int64(1)', 'Float64', 'Float64(5e-324)'),
            ('Uint64(0x7FF0000000000000)', 'Float64', 'Float64(inf)'), ('Float64(1.0)', 'Int64', 'Int64(4607182418800017408)'),
            ('Float64(-0.0)', 'Int64', I('Int64', -2**63)), ('Index(-1)', 'Uint64', I('Uint64', -1)),
            ('Float64(1.0)', 'Index', 'Index(4607182418800017408)'), ('Uint64(2**64 - 1)', 'Index', 'Index(-1)'),
            ('Int128(-1)', 'Uint128', I('Uint128', -1)), ('Uint128(2**127)', 'Int128', I('Int128', -2**127)),
            ('Int4(-1)', 'Float4E2M1FN', 'Float4E2M1FN(-6.0)'), ('Int4(7)', 'Float4E2M1FN', 'Float4E2M1FN(6.0)'),
            ('Int4(1)', 'Float4E2M1FN', 'Float4E2M1FN(0.5)'), ('Int4(-8)', 'Float4E2M1FN', 'Float4E2M1FN(-0.0)'),
            ('Float4E2M1FN(0.5)', 'Int4', 'Int4(1)'), ('Float4E2M1FN(-0.0)', 'Int4', 'Int4(-8)'),
            ('Float4E2M1FN(-1.5)', 'Int4', I('Int4', encode('Float4E2M1FN', -1.5))),
            ('Float6E2M3FN(1.0)', 'Float6E3M2FN', 'Float6E3M2FN(%s)' % shortest('Float6E3M2FN', decode('Float6E3M2FN', encode('Float6E2M3FN', 1.0)))),
            ('Float6E3M2FN(28.0)', 'Float6E2M3FN', 'Float6E2M3FN(%s)' % shortest('Float6E2M3FN', decode('Float6E2M3FN', encode('Float6E3M2FN', 28.0)))),
            ('Float8E4M3FN(1.0)', 'Float8E5M2', 'Float8E5M2(0.5)'), ('Uint8(0x7F)', 'Float8E4M3FN', 'Float8E4M3FN(nan)'),
            ('Uint8(0x7E)', 'Float8E4M3FN', 'Float8E4M3FN(450.0)'), ('Uint8(0x80)', 'Float8E4M3FNUZ', 'Float8E4M3FNUZ(nan)'),
            ('Uint8(0x80)', 'Float8E4M3FN', 'Float8E4M3FN(-0.0)'), ('Uint8(0x7F)', 'Float8E8M0FNU', 'Float8E8M0FNU(1.0)'),
            ('Uint8(0xFF)', 'Float8E8M0FNU', 'Float8E8M0FNU(nan)'), ('Uint8(0x7C)', 'Float8E5M2', 'Float8E5M2(inf)'),
            ('Uint8(0x7D)', 'Float8E5M2', 'Float8E5M2(nan)'), ('Uint8(0x78)', 'Float8E4M3', 'Float8E4M3(inf)'),
            ('Uint8(0x77)', 'Float8E4M3', 'Float8E4M3(240.0)'), ('Uint8(0x7F)', 'Float8E4M3FNUZ', 'Float8E4M3FNUZ(240.0)'),
            ('Uint8(0x7F)', 'Float8E4M3B11FNUZ', 'Float8E4M3B11FNUZ(30.0)'), ('Uint8(1)', 'Float8E4M3B11FNUZ', 'Float8E4M3B11FNUZ(%s)' % shortest('Float8E4M3B11FNUZ', 2.0**-13)),
            ('Float8E5M2(-57344.0)', 'Int8', I('Int8', 0xFB)), ('Float8E8M0FNU(1.0)', 'Int8', 'Int8(127)'),
            ]
    bug(BOOLBC, 'Boolean(True).bitcast(Boolean)', 'Boolean(True)')
    bug(BOOLBC, 'Boolean(False).bitcast(Boolean).dtype', 'Type(Boolean)')
    for src, t, want in vals:
        add(f, '%s.bitcast(%s)' % (src, t), want)
    # round trips through each float format
    for t in STDF:
        it = {16: 'Uint16', 32: 'Uint32', 64: 'Uint64'}[WIDTH[t]]
        for x in [1.0, -2.5, 0.1, 65504.0, 6e-08]:
            v = R(t, x)
            add(f, '%s(%s).bitcast(%s).bitcast(%s)' % (t, lit(x), it, t), '%s(%s)' % (t, shortest(t, v)))
    add(f, 'Float16(0.1).bitcast(Uint16)', 'Uint16(%d)' % encode('Float16', R('Float16', 0.1)))
    add(f, 'BFloat16(0.1).bitcast(Uint16)', 'Uint16(%d)' % encode('BFloat16', R('BFloat16', 0.1)))
    add(f, 'BFloat16(fx.nan).bitcast(Uint16)', 'Uint16(%d)' % encode('BFloat16', NAN))
    add(f, 'Float16(fx.nan).bitcast(Uint16)', 'Uint16(%d)' % encode('Float16', NAN))
    add(f, 'Float32(fx.nan).bitcast(Uint32)', 'Uint32(%d)' % 0x7FC00000)
    add(f, 'Float32(fx.inf).bitcast(Int32)', 'Int32(%d)' % 0x7F800000)
    add(f, 'Int32(5).bitcast(Int32)', 'Int32(5)')
    add(f, 'Int32(1).bitcast(Int32x4)', 'error')
    add(f, 'Int32(1).bitcast(5)', 'error')
    add(f, 'Int32(1).bitcast()', 'error')
    add(f, '(5).bitcast(Float32)', 'error')
    comment(f, 'vector bitcasts')
    vb = [('Int8x16(0)', 'Float16', 8), ('Float16x8(0.0)', 'Float64', 2), ('Float16x8(0.0)', 'Int128', 1),
          ('Int4x8(0)', 'Int32', 1), ('Int4x2(0)', 'Int8', 1), ('Int4x4(0)', 'Float16', 1), ('Int128x1(0)', 'Int8', 16),
          ('Float64x4(0.0)', 'Int4', 64), ('Float32x3(0.0)', 'Int32', 3), ('Float8E4M3FNx4(1.0)', 'Float32', 1),
          ('Float4E2M1FNx8(1.0)', 'Int32', 1), ('Float6E2M3FNx4(1.0)', 'Int8', 3), ('Int8x3(0)', 'Float6E3M2FN', 4),
          ('Uint32x2(0)', 'Index', 1), ('Int32x64(0)', 'Int64', 32), ('Int8x64(0)', 'Int128', 4), ('Int4x64(0)', 'Int128', 2),
          ('Float32x4(0.0)', 'Float32', 4), ('Int16x2(0)', 'Int4', 8), ('Int8x4(0)', 'Float8E8M0FNU', 4)]
    for src, t, n in vb:
        add(f, 'len(%s.bitcast(%s))' % (src, t), str(n))
        add(f, '%s.bitcast(%s).dtype' % (src, t), 'Type(%s)' % t)
    for src, t in [('Int4x3(0)', 'Int8'), ('Float32x2(0.0)', 'Int128'), ('Float16x3(0.0)', 'Float32'),
                   ('Int8x3(0)', 'Int16'), ('Float6E2M3FNx1(1.0)', 'Int8'), ('Int4x1(0)', 'Int8'), ('Float64x8(0.0)', 'Int4'),
                   ('Int8x64(0)', 'Int4'), ('Int32x4(0)', 'Boolean')]:
        add(f, '%s.bitcast(%s).dtype' % (src, t), 'error')
    add(f, 'Float32x4(0.0).bitcast(Int32)', 'error')


def gen_vector():
    f = 'adv_vector.txt'
    comment(f, 'vectors are run-time; their types are static (dtype, len)')
    vops = [('Float16x4(1.0) * 2.0', 'Float32', 4), ('Float16x4(1.0) * Float16(2.0)', 'Float16', 4),
            ('Int8x4(1) + 1', 'Int32', 4), ('Int8x4(1) + Int8(1)', 'Int8', 4), ('Int32x4(1) / 2', 'Float32', 4),
            ('Uint8x16(1) < 2', 'Boolean', 16), ('Int32x4(1) & Boolean(True)', 'Int32', 4),
            ('Int8x4(1) + Uint8x4(1)', 'Uint8', 4), ('Int8x4(1) + Int16x4(1)', 'Int16', 4), ('-Int8x4(1)', 'Int8', 4),
            ('abs(Int8x4(1))', 'Int8', 4), ('~Uint16x8(0)', 'Uint16', 8), ('Int32x4(1) << 1', 'Int32', 4),
            ('Int4x8(1) + Int4(1)', 'Int4', 8), ('Uint32x4(1) + Int64(1)', 'Int64', 4),
            ('BFloat16x8(1.0) + Float16(1.0)', 'Float32', 8), ('Float32x4(1.0) + Float64x4(1.0)', 'Float64', 4),
            ('Float32(1.0) + Float32x4(1.0)', 'Float32', 4), ('Int64(1) + Float32x4(1.0)', 'Float64', 4),
            ('Float32x4(1.0).to(Int8)', 'Int8', 4), ('Float32x4(1.0).to(Float8E4M3FN)', 'Float8E4M3FN', 4),
            ('Float8E4M3FNx16(1.0).to(BFloat16)', 'BFloat16', 16), ('Int32x4(1) + 5000000000', 'Int64', 4),
            ('Uint64x2(1) + 1', 'Uint64', 2), ('Uint32x4(1) + 1.0', 'Float32', 4), ('Int64x2(1) + 1.0', 'Float64', 2),
            ('Int128x1(1) * 1.0', 'Float64', 1), ('Float16x8(1.0) + Int8(1)', 'Float16', 8),
            ('Float16x8(1.0) + Int16x8(1)', 'Float16', 8), ('Float16x8(1.0) + Int32(1)', 'Float32', 8),
            ('Float32x4(1.0) == Float32x4(1.0)', 'Boolean', 4), ('Int8x4(1) == 1', 'Boolean', 4),
            ('(Float32x4(1.0) < 2.0).select(Float32x4(1.0), Float32x4(2.0))', 'Float32', 4),
            ('Boolean(True).select(Float32x4(1.0), Float32x4(2.0))', 'Float32', 4),
            ('Float32x4(1.0, 2.0, 3.0, 4.0)', 'Float32', 4), ('Int8x4(1, 2, 3, 300)', 'Int8', 4),
            ('Float32x4(Float32x4(1.0)[0])', 'Float32', 4), ('Int8x4(1) // Int8(2)', 'Int8', 4),
            ('Int8x4(1) % 2', 'Int32', 4), ('Float64x2(1.0) // 2', 'Float64', 2), ('Int8x4(1) ** Int8(2)', 'Int8', 4),
            ('Boolean(True) & Int8x4(1)', 'Int8', 4), ('Uint16x8(1) >> Uint16(1)', 'Uint16', 8),
            ('Int32x3(1) + 1', 'Int32', 3), ('Int8x64(0) + Int8(1)', 'Int8', 64), ('Float64x1(0.0) + 1', 'Float64', 1),
            ('Int4x64(0) | Int4(1)', 'Int4', 64), ('Float32x4(1.0).bitcast(Int32) & 1', 'Int32', 4)]
    for e, d, n in vops:
        add(f, '(%s).dtype' % e, 'Type(%s)' % d)
        add(f, 'len(%s)' % e, str(n))
    comment(f, 'Boolean vectors normalize per operation like Boolean scalars')
    for e, d in [('(Int32x4(1) < 2) & (Int32x4(1) > 0)', 'Boolean'), ('~(Int32x4(1) < 2)', 'Boolean'),
                 ('-(Int32x4(1) < 2)', 'Int32'), ('(Int32x4(1) < 2) + 1', 'Int32'), ('(Int32x4(1) < 2) + Int8(1)', 'Int32'),
                 ('(Int32x4(1) < 2) * Float16(1.0)', 'Float32'), ('(Int32x4(1) < 2) / (Int32x4(1) < 2)', 'Float32'),
                 ('(Int32x4(1) < 2) & Int8(1)', 'Int8'), ('(Int32x4(1) < 2) == Boolean(True)', 'Boolean'),
                 ('fx.max(Int32x4(1) < 2, Int8(0))', 'Int32'), ('(Int8x4(1) < 2) << Boolean(True)', 'Boolean'),
                 ('(Int32x4(1) < 2).to(Float32)', 'Float32'), ('(Int64x2(1) < 2) + Int64(1)', 'Int64'),
                 ('(Int32x4(1) < 2) + Uint32(1)', 'Uint32')]:
        add(f, '(%s).dtype' % e, 'Type(%s)' % d)
    add(f, 'abs(Int32x4(1) < 2).dtype', 'error')
    for e in ['Float32x4(1.0, 2.0, 3.0, 4.0)[1]', 'Float32x4(1.0)[0]', 'Int32x4(1) + 1', 'Float32x4(1.0) == Float32x4(1.0)',
              'Float32x4(1.0)[0] + 1.0', 'Int32x4(1)[0] * Int32(0)', 'Float32x4(1.0)[0] * Float32(0.0)', 'fx.max(Int32x4(1), 2)']:
        add(f, e, 'error')
    add(f, 'Float32x4(1.0)[0].dtype', 'Type(Float32)')
    add(f, 'Int8x16(0)[Int32x4(0)[0]].dtype', 'Type(Int8)')
    add(f, 'Float32x4(1.0)[0].is_static()', Bool(False))
    add(f, '(Float32x4(1.0)[0] + 1.0).is_static()', Bool(False))
    add(f, '(Int32(1) + Int32(2)).is_static()', Bool(True))
    add(f, 'Float32x4(1.0)[3].dtype', 'Type(Float32)')
    add(f, 'Float32x4(1.0)[4]', 'error')
    add(f, 'Float32x4(1.0)[4].dtype', 'error')
    add(f, 'Float32x4(1.0)[1.0].dtype', 'error')
    add(f, 'Float32x4(1.0).dtype == Float32', Bool(True))
    add(f, 'len(Float32x4(1.0)) == 4', Bool(True))
    add(f, 'len(Int32x4(1)) * Int8(2)', 'Int32(8)')
    for n in [0, 5, 6, 7, 128, 9]:
        add(f, 'Int32x%d(0)' % n, 'error')
        add(f, 'len(Int32x%d(0))' % n, 'error')
    add(f, 'Int8x4(1, 2, 3)', 'error')
    add(f, 'len(Int8x4(1, 2, 3))', 'error')
    add(f, 'len(Int8x4(1, 2, 3, 4, 5))', 'error')
    add(f, '(Int8x4(1) + Int8x8(1)).dtype', 'error')
    add(f, '(Float32x4(1.0) & 1).dtype', 'error')
    add(f, '(~Float32x4(1.0)).dtype', 'error')
    add(f, '(Float8E4M3FNx4(1.0) + 1.0).dtype', 'error')
    add(f, '(Float8E4M3FNx4(1.0) * 2).dtype', 'error')
    add(f, '(Float8E5M2x4(1.0) < Float8E5M2x4(1.0)).dtype', 'error')
    add(f, 'abs(Boolean(True) == Int32x4(1)).dtype', 'error')
    add(f, '(Int32x4(1) ** -1).dtype', 'error')
    add(f, 'Float32x4(1.0) == Float32x4', 'error')
    add(f, 'Float32x4', 'Type(Float32x4)')
    add(f, 'Int4x64', 'Type(Int4x64)')
    add(f, 'Float8E8M0FNUx2', 'Type(Float8E8M0FNUx2)')


def gen_select():
    f = 'adv_select.txt'
    comment(f, 'cond.select(a, b); non-Boolean conditions by truthiness (nonzero)')
    for cond, truth in [('Float32(0.5)', True), ('Float32(-0.0)', False), ('Float32(fx.nan)', True), ('Float16(6e-08)', True),
                        ('Uint128(2**100)', True), ('Int4(16)', False), ('Int8(256)', False), ('Int8(-128)', True),
                        ('Boolean(False)', False), ('Index(0)', False), ('BFloat16(-0.0)', False), ('Float64(5e-324)', True),
                        ('(Int32(3) & Int32(4))', False), ('(Float32(1e-30) * Float32(1e-30))', False)]:
        add(f, '%s.select(Int32(1), Int32(2))' % cond, 'Int32(%d)' % (1 if truth else 2))
    add(f, 'Boolean(True).select(Int8(-1), Int8(2))', 'Int8(-1)')
    add(f, 'Boolean(False).select(Uint64(1), Uint64(2**64 - 1))', I('Uint64', 2**64 - 1))
    add(f, 'Boolean(True).select(Float16(0.1), Float16(2.0))', F('Float16', 0.1))
    add(f, 'Boolean(True).select(Boolean(False), Boolean(True))', Bool(False))
    add(f, 'Boolean(True).select(Int32(1), Int32(2)).dtype', 'Type(Int32)')
    add(f, 'Boolean(True).select(Float32x4(1.0)[0], Float32(2.0)).dtype', 'Type(Float32)')
    add(f, 'Float32x4(1.0)[0].select(Int32(1), Int32(2)).dtype', 'Type(Int32)')
    add(f, 'Float32x4(1.0)[0].select(Int32(1), Int32(2))', 'error')
    add(f, 'Int32(1).select(Float32x4(1.0)[0], Float32(2.0))', 'error')
    comment(f, 'mixed operand types: the result is their common type')
    add(f, 'Boolean(True).select(Int8(1), Int16(2))', 'Int16(1)')
    add(f, 'Boolean(False).select(1, 2.5)', 'Float32(2.5)')
    add(f, 'Boolean(True).select(Uint8(1), Int8(-1))', 'Uint8(1)')
    add(f, 'Boolean(False).select(Uint8(1), Int8(-1))', 'Uint8(255)')
    add(f, 'Boolean(False).select(Int32(1), Float64(0.1))', 'Float64(0.1)')
    add(f, 'Boolean(True).select(Float16(1.0), BFloat16(2.0))', 'Float32(1.0)')
    add(f, 'Boolean(True).select(Int64(1), 2).dtype', 'Type(Int64)')
    add(f, 'Boolean(True).select(Int32(1))', 'error')
    add(f, 'Boolean(True).select(Int32(1), Int32(2), Int32(3))', 'error')


def gen_random():
    import random
    rnd = random.Random(20240607)
    f = 'adv_random.txt'
    comment(f, 'seeded random integer operations across all widths (common type, wrap-around, floor //, %)')
    pool = ALLINT + ['Index']

    def ival(t):
        mn, mx = tmin(t), tmax(t)
        return rnd.choice([0, 1, -1, 2, 3, 7, mn, mx, mn + 1, mx - 1, rnd.randint(mn, mx), rnd.randint(-100, 100),
                           rnd.randint(mn, mx)])

    ops = ['+', '-', '*', '//', '%', '&', '|', '^', '<<', '>>', '**', '<', '<=', '>', '>=', '==', '!=', '/']
    n = 0
    while n < 900:
        a, b = rnd.choice(pool), rnd.choice(pool)
        op = rnd.choice(ops)
        av, bv = wrap(ival(a), a), wrap(ival(b), b)
        if op in ('<<', '>>'):
            bv = wrap(rnd.choice([0, 1, 2, 5, INTS[b][0] - 1, INTS[b][0], INTS[b][0] + 1, 200, -1]), b)
        if op == '**':
            bv = wrap(rnd.choice([0, 1, 2, 3, 5, 7, 13, 64, 127, 255, -1, tmax(b)]), b)
        c = common(a, b)
        w = INTS[c][0]
        x, y = wrap(av, c), wrap(bv, c)
        if op in ('<<', '>>', '**') and bv < 0 and y >= 0:
            continue        # a negative count/exponent of a signed type meeting an unsigned C: unspecified
        e = '%s(%d) %s %s(%d)' % (a, av, op, b, bv)
        if op in ('+', '-', '*', '&', '|', '^'):
            r = {'+': x + y, '-': x - y, '*': x * y, '&': x & y, '|': x | y, '^': x ^ y}[op]
            want = I(c, r)
        elif op in ('//', '%'):
            want = 'error' if y == 0 else I(c, x // y if op == '//' else x % y)
        elif op in ('<<', '>>'):
            if y < 0:
                want = 'error'
            elif op == '<<':
                want = I(c, (x << y) if y < w else 0)
            else:
                want = I(c, (x >> y) if y < w else (-1 if x < 0 else 0))
        elif op == '**':
            want = 'error' if y < 0 else I(c, pow(x, y, 1 << w))
        elif op == '/':
            d = divtype(c)
            if y == 0:
                want = 'error'
            elif x != av or y != bv or R(d, x) != x or R(d, y) != y:
                continue            # keep to operands that are exact in the result format
            else:
                want = '%s(%s)' % (d, shortest(d, fop(d, '/', R(d, x), R(d, y))))
        else:
            want = Bool({'<': x < y, '<=': x <= y, '>': x > y, '>=': x >= y, '==': x == y, '!=': x != y}[op])
        add(f, e, want)
        n += 1
    comment(f, 'seeded random: a typed integer against an integer literal')
    n = 0
    while n < 250:
        a = rnd.choice(pool)
        op = rnd.choice(['+', '-', '*', '//', '%', '&', '|', '^', '<', '==', '>='])
        av = wrap(ival(a), a)
        lv = rnd.choice([0, 1, -1, 5, -7, 100, 255, 256, 2**31 - 1, -2**31, 2**31, 2**32 + 1, -2**40, 2**63 - 1, -2**63,
                         2**63, -2**63 - 1, 2**64])
        left = rnd.random() < 0.5
        lt = littype(lv)
        e = ('%s(%d) %s %d' % (a, av, op, lv)) if left else ('%d %s %s(%d)' % (lv, op, a, av))
        if lv < 0 and not left:
            e = '(%d) %s %s(%d)' % (lv, op, a, av)
        if lt is None:
            add(f, e, 'error')
            n += 1
            continue
        c = common(a, lt)
        x, y = wrap(av, c), wrap(lv, c)
        if not left:
            x, y = y, x
        if op in ('+', '-', '*', '&', '|', '^'):
            want = I(c, {'+': x + y, '-': x - y, '*': x * y, '&': x & y, '|': x | y, '^': x ^ y}[op])
        elif op in ('//', '%'):
            want = 'error' if y == 0 else I(c, x // y if op == '//' else x % y)
        else:
            want = Bool({'<': x < y, '==': x == y, '>=': x >= y}[op])
        add(f, e, want)
        n += 1
    comment(f, 'seeded random float arithmetic (exact rational result rounded once to the common type)')
    fpool = STDF

    def fval(t):
        m, emin, mx, kind = fmt_params(t)
        k = rnd.random()
        if k < 0.15:
            v = rnd.choice([0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 0.1, 1e-3])
        elif k < 0.3:          # subnormal
            v = float(rnd.randint(1, 1 << FMTS[t][0]) * Fr(2) ** (emin - FMTS[t][0]))
        elif k < 0.45:         # near the maximum
            v = float(mx) * rnd.choice([1, 0.75, 0.5, 0.99])
        else:
            v = math.ldexp(rnd.random() * 2 - 1, rnd.randint(-20, 20))
        return R(t, v)
    n = 0
    while n < 700:
        a, b = rnd.choice(fpool), rnd.choice(fpool + ALLINT if rnd.random() < 0.3 else fpool)
        op = rnd.choice(['+', '-', '*', '/', '//', '%', '<', '==', '>='])
        av = fval(a)
        if b in INTS:
            bi = wrap(ival(b), b)
            bv = float(bi)
            bs = '%s(%d)' % (b, bi)
        else:
            bv = fval(b)
            bs = '%s(%s)' % (b, lit(bv))
        if op in ('/', '//', '%') and bv == 0:
            continue
        c = common(a, b)
        x = R(c, av)
        y = R(c, bi) if b in INTS else R(c, bv)
        if math.isinf(y) or math.isinf(x):
            continue
        if op in ('/', '//', '%') and y == 0:
            continue
        e = '%s(%s) %s %s' % (a, lit(av), op, bs)
        if op in ('+', '-', '*', '/'):
            want = '%s(%s)' % (c, shortest(c, fop(c, op, x, y)))
        elif op == '//':
            want = '%s(%s)' % (c, shortest(c, ffloordiv(c, x, y)))
        elif op == '%':
            want = '%s(%s)' % (c, shortest(c, fmod_(c, x, y)))
        else:
            want = Bool({'<': x < y, '==': x == y, '>=': x >= y}[op])
        add(f, e, want)
        n += 1
    comment(f, 'seeded random fx.max / fx.min over mixed operands (one common type for all)')
    mpool = ALLINT + STDF + ['Boolean', 'lit']
    n = 0
    while n < 200:
        k = rnd.randint(1, 4)
        ops_ = []
        for _ in range(k):
            t = rnd.choice(mpool)
            if t == 'Boolean':
                v = rnd.random() < 0.5
                ops_.append(('Int32', int(v), 'Boolean(%s)' % v))
            elif t == 'lit':
                v = rnd.choice([0, 3, -5, 2**33, 0.5, -0.0, 2.5, 1e-3])
                lt = littype(v)
                ops_.append((lt, v, lit(v) if isinstance(v, float) else str(v)))
            elif t in INTS:
                v = wrap(ival(t), t)
                ops_.append((t, v, '%s(%d)' % (t, v)))
            else:
                v = fval(t)
                ops_.append((t, v, '%s(%s)' % (t, lit(v))))
        c = ops_[0][0]
        for t, _, _ in ops_[1:]:
            c = common(c, t)
        vals = [R(c, v) if c in FLW else wrap(int(v), c) for _, v, _ in ops_]
        fn = rnd.choice(['max', 'min'])
        if c in FLW:
            key = lambda v: (v, math.copysign(1, v))
        else:
            key = lambda v: v
        r = (max if fn == 'max' else min)(vals, key=key)
        args = [s_ for _, _, s_ in ops_]
        if k >= 3 and rnd.random() < 0.5:
            args = ['[' + ', '.join(args[:2]) + ']'] + ['(' + args[2] + ',)'] + args[3:]
        want = '%s(%s)' % (c, shortest(c, r)) if c in FLW else I(c, r)
        add(f, 'fx.%s(%s)' % (fn, ', '.join(args)), want)
        n += 1
    comment(f, 'seeded random fx.ceildiv')
    n = 0
    while n < 200:
        a, b = rnd.choice(ALLINT), rnd.choice(ALLINT)
        av, bv = wrap(ival(a), a), wrap(ival(b), b)
        c = common(a, b)
        x, y = wrap(av, c), wrap(bv, c)
        if y == 0 or (INTS[c][1] and x == tmin(c) and y == -1):
            want = 'error'
        else:
            want = I(c, -((-x) // y))
        add(f, 'fx.ceildiv(%s(%d), %s(%d))' % (a, av, b, bv), want)
        n += 1
    comment(f, 'seeded random conversions of binary64 literals into every float format')
    n = 0
    for t in STDF[:3] + [x for x in NARROW if x != 'Float8E8M0FNU']:
        m, emin, mx, kind = fmt_params(t)
        for _ in range(40):
            k = rnd.random()
            if k < 0.3:        # exact ties between neighbours
                q = Fr(2) ** (rnd.randint(emin, emin + 6) - m)
                v = float((rnd.randint(0, 1 << (m + 2)) * 2 + 1) * q / 2) * rnd.choice([1, -1])
            elif k < 0.6:
                v = math.ldexp(rnd.random(), rnd.randint(emin - m - 2, int(math.log2(mx)) + 2))
            else:
                v = float(mx) * rnd.uniform(0.0, 1.2) * rnd.choice([1, -1])
            r = R(t, v)
            add(f, '%s(%s)' % (t, lit(v)), '%s(%s)' % (t, shortest(t, r)))
            if WIDTH[t] in (4, 8, 16):
                it = {4: 'Int4', 8: 'Uint8', 16: 'Uint16'}[WIDTH[t]]
                add(f, '%s(%s).bitcast(%s)' % (t, lit(v), it), I(it, encode(t, r)))
    comment(f, 'seeded random .to() between every pair of float formats and to/from integers')
    allf = STDF + NARROW

    def any_val(t):
        if t == 'Float8E8M0FNU':
            return 2.0 ** rnd.randint(-127, 127)
        if t in FMTS and FMTS[t][0] + FMTS[t][1] <= 10:
            while True:
                v = decode(t, rnd.randrange(1 << (1 + FMTS[t][0] + FMTS[t][1])))
                if not math.isnan(v):
                    return v
        return fval(t)

    def spell(t, v):
        if math.isinf(v):
            return '%s(%s)' % (t, 'fx.inf' if v > 0 else '-fx.inf')
        return '%s(%s)' % (t, lit(v))
    for _ in range(500):
        st, dt = rnd.choice(allf), rnd.choice(allf + ALLINT)
        v = any_val(st)
        if R(st, v) != v:
            continue
        if dt in INTS and abs(v) >= 2.0 ** 575 and not math.isinf(v):
            bug(SATWHY, '%s.to(%s)' % (spell(st, v), dt), I(dt, conv(dt, v)))
        elif dt in INTS:
            add(f, '%s.to(%s)' % (spell(st, v), dt), I(dt, conv(dt, v)))
        else:
            add(f, '%s.to(%s)' % (spell(st, v), dt), '%s(%s)' % (dt, shortest(dt, R(dt, v))))
    for _ in range(150):
        it, dt = rnd.choice(ALLINT), rnd.choice(allf)
        v = wrap(ival(it), it)
        add(f, '%s(%d).to(%s)' % (it, v, dt), '%s(%s)' % (dt, shortest(dt, R(dt, v))))
    comment(f, 'float printing layout across magnitudes (shortest round-trip digits, repr layout)')
    for t in ['Float16', 'BFloat16', 'Float32']:
        m, emin, mx, kind = fmt_params(t)
        lo = emin - m
        for e10 in range(-46, 40, 1):
            v = rnd.choice([1.0, 1.5, 2.5, 3.14159265, 9.999, 7.0]) * 10.0 ** e10
            if v > float(mx) * 1.01 or v < 2.0 ** lo:
                continue
            add(f, '%s(%s)' % (t, lit(v)), '%s(%s)' % (t, shortest(t, R(t, v))))


def gen_misc():
    f = 'adv_misc.txt'
    comment(f, 'evaluation order: every operation rounds/wraps in its own result type')
    add(f, 'Int8(100) + Int8(100) + 100', I('Int32', wrap(200, 'Int8') + 100))
    add(f, 'Int8(100) + (Int8(100) + 100)', I('Int32', 300))
    add(f, 'Float16(65504.0) + Float16(65504.0) - Float16(65504.0)', 'Float16(inf)')
    add(f, 'Float16(1000.0) * Float16(1000.0) / Float16(1000.0)', 'Float16(inf)')
    add(f, 'Float16(1000.0) * (Float16(1000.0) / Float16(1000.0))', 'Float16(1000.0)')
    add(f, 'BFloat16(1.0) + BFloat16(2.0**-8) + BFloat16(2.0**-8)', 'BFloat16(1.0)')
    add(f, 'BFloat16(1.0) + (BFloat16(2.0**-8) + BFloat16(2.0**-8))', F('BFloat16', 1 + 2.0**-7))
    add(f, 'Float32(16777216.0) + 1 + 1', 'Float32(16777216.0)')
    add(f, 'Float32(16777216.0) + (1 + 1)', 'Float32(16777218.0)')
    x1 = fop('Float32', '+', 1.0, R('Float32', 0.1 + 0.2))
    add(f, 'Float32(1.0) + (0.1 + 0.2)', F('Float32', x1))
    x2 = fop('Float32', '+', fop('Float32', '+', 1.0, R('Float32', 0.1)), R('Float32', 0.2))
    add(f, 'Float32(1.0) + 0.1 + 0.2', F('Float32', x2))
    add(f, '(Int32(1) + 2**40 - 2**40).dtype', 'Type(Int64)')
    add(f, 'Int32(1) + (2**40 - 2**40)', 'Int32(1)')
    add(f, 'Int8(1) + (2**100 - 2**100 + 300)', 'Int32(301)')
    add(f, 'Int32(2147483647) + 1 + 2**40', I('Int64', -2**31 + 2**40))
    add(f, 'Int32(2147483647) + (1 + 2**40)', I('Int64', 2**31 - 1 + 1 + 2**40))
    add(f, 'Int32.width - 1', '31')
    add(f, '1 << Int32.width', str(1 << 32))
    add(f, 'Int32(1) << Int32.width - 1', I('Int32', -2**31))
    add(f, '(Int32(1) + Int64(1)).dtype.width', '64')
    add(f, 'len(Int4x8(0).bitcast(Int8)) * Int4(1)', 'Int32(4)')
    add(f, 'Uint64(2**64 - 1) == Uint64(2**64 - 1)', Bool(True))
    add(f, 'Uint64(2**64 - 1) == 2**64 - 1', 'error: Int64')
    add(f, 'Int64(0) + -(-2**63)', 'error: Int64')
    add(f, '-Int8(-128) == Int8(-128)', Bool(True))
    add(f, 'abs(Int64(-2**63)) + 0', I('Int64', -2**63))
    add(f, 'Float32(2**24 + 1) == Int32(2**24 + 1)', Bool(True))
    add(f, 'Float16(1.0) < 1e39', Bool(True))
    add(f, 'Float32(1e-46) == 0', Bool(True))
    add(f, 'Float32(1e-46) == 1e-46', Bool(True))
    add(f, 'Float64(1e-46) == 1e-46', Bool(True))
    add(f, 'Int32(0) == -0.0', Bool(True))
    comment(f, 'precedence (Python): ** over unary, & ^ | above comparisons, not above and/or')
    add(f, '-Int8(1) ** Int8(2)', 'Int8(-1)')
    add(f, '~Int8(1) ** Int8(2)', 'Int8(-2)')
    add(f, 'Int8(2) ** -Int8(1)', 'error')
    add(f, 'Int32(1) + Int32(2) * Int32(3) << Int32(1)', 'Int32(14)')
    add(f, 'Int32(6) & Int32(3) == Int32(2)', Bool(True))
    add(f, 'Int32(1) | Int32(2) ^ Int32(3) & Int32(1)', 'Int32(3)')
    add(f, 'Int32(-7) // Int32(2) * Int32(2)', 'Int32(-8)')
    add(f, 'Int32(2) * Int32(3) % Int32(4)', 'Int32(2)')
    add(f, '-Int32(7) % Int32(3)', 'Int32(2)')
    add(f, 'Int32(1) << Int32(2) + Int32(1)', 'Int32(8)')
    add(f, 'not Int32(1) == Int32(2)', Bool(True))
    add(f, 'Int32(1) < Int32(2) == Boolean(True)', 'error')
    add(f, '+Float16(-0.0)', 'Float16(-0.0)')
    add(f, '+Uint8(200)', 'Uint8(200)')
    add(f, '- - -Int8(1)', 'Int8(-1)')
    comment(f, 'literals: lexer rounding of decimal and hex floats (binary64, ties to even)')
    for s_ in ['9007199254740993.0', '9007199254740995.0', '2.2250738585072011e-308', '4.9406564584124654e-324',
               '2.4703282292062328e-324', '2.4703282292062327e-324', '1.7976931348623158e308',
               '1.00000000000000011102230246251565404236316680908203125',
               '1.00000000000000011102230246251565404236316680908203126', '0.1e1', '1.', '.5', '2.5E+4', '1e-3', '1E3']:
        add(f, s_, repr(float(s_)))
    for s_, v in [('0x1.8p3', 12.0), ('0x1.00000000000008p0', 1.0), ('0x1.00000000000018p0', 1 + 2.0**-51),
                  ('0x1.000000000000081p0', 1 + 2.0**-52), ('0x1p-1074', 5e-324), ('0x1p-1075', 0.0), ('0x1.8p-1075', 5e-324),
                  ('0X1P+2', 4.0), ('0x.8p1', 1.0), ('0xA.8p0', 10.5), ('0x1p1023', 2.0**1023)]:
        add(f, s_, repr(v))
    add(f, '0o777 + Int16(0)', 'Int32(511)')
    add(f, '0b1111_1111', '255')
    add(f, '0xFF_FF', '65535')
    add(f, '0o8', 'error')
    add(f, '0b2', 'error')
    add(f, '0x', 'error')
    add(f, '0xG', 'error')
    add(f, '1e', 'error')
    comment(f, 'constructors from float literals: truncate toward zero, saturate, NaN -> 0')
    for t in ['Int4', 'Int8', 'Uint8', 'Int32', 'Uint32', 'Int64', 'Uint64', 'Int128', 'Uint128', 'Index']:
        for x in [1.5, -1.5, 7.9, -8.9, 1e10, -1e10, 9.3e18, 9.2e18, 1.8446744073709552e19, 1e38, -1e38, 1e39, 0.999, -0.0]:
            add(f, '%s(%s)' % (t, lit(x)), I(t, conv(t, x)))
        add(f, '%s(fx.nan)' % t, I(t, 0))
        add(f, '%s(fx.inf)' % t, I(t, tmax(t)))
        add(f, '%s(-fx.inf)' % t, I(t, tmin(t)))
    add(f, 'Float32(True)', 'Float32(1.0)')
    add(f, 'Int8(False)', 'Int8(0)')
    add(f, 'Boolean(-1)', Bool(True))
    add(f, 'Boolean(Int4(-8))', Bool(True))
    add(f, 'Int32(1).to(5)', 'error')
    add(f, 'Int32(1).to()', 'error')
    add(f, 'Int32(1).to(Float32, Float16)', 'error')
    add(f, 'Int32()', 'error')
    comment(f, 'float ** folds through pow in the operand precision')
    add(f, 'Float32(2.0) ** Int64(3)', 'Float64(8.0)')
    add(f, 'Int32(2) ** Float16(2.0)', 'Float32(4.0)')
    add(f, 'Int8(2) ** Float16(3.0)', 'Float16(8.0)')
    add(f, 'Float16(3.0) ** Float16(0.5)', F('Float16', math.sqrt(3.0)))
    add(f, 'BFloat16(10.0) ** BFloat16(3.0)', 'BFloat16(1000.0)')
    add(f, 'Float32(10.0) ** Float32(-1.0)', 'Float32(0.1)')
    add(f, 'Float16(2.0) ** 16', 'Float32(65536.0)')
    add(f, 'Float16(2.0) ** Float16(16.0)', 'Float16(inf)')
    add(f, 'Float32(0.0) ** -1', 'Float32(inf)')
    add(f, 'Float16(-0.0) ** -1', 'Float32(-inf)')
    add(f, 'Float32(1.0) ** Float32(fx.nan)', 'Float32(1.0)')
    add(f, 'Float32(fx.nan) ** 0', 'Float32(1.0)')
    add(f, 'Float32(-2.0) ** 0.5', 'Float32(nan)')
    add(f, 'Float32(-2.0) ** 3', 'Float32(-8.0)')
    add(f, 'Float64(-8.0) ** Float64(1.0 / 3)', 'Float64(nan)')
    comment(f, 'math builtins on special values (C99 Annex F)')
    add(f, 'fx.exp(Float64(1.0))', 'Float64(2.718281828459045)')
    add(f, 'fx.exp(Float32(1.0))', 'Float32(2.7182817)')
    add(f, 'fx.exp(Float32(100.0))', 'Float32(inf)')
    add(f, 'fx.exp(Float32(-fx.inf))', 'Float32(0.0)')
    add(f, 'fx.exp2(Float32(10.0))', 'Float32(1024.0)')
    add(f, 'fx.exp2(Float16(16.0))', 'Float16(inf)')
    add(f, 'fx.log(Float32(1.0))', 'Float32(0.0)')
    add(f, 'fx.log(Float32(0.0))', 'Float32(-inf)')
    add(f, 'fx.log(Float32(-1.0))', 'Float32(nan)')
    add(f, 'fx.log2(Float64(8.0))', 'Float64(3.0)')
    add(f, 'fx.log2(Float64(0.5))', 'Float64(-1.0)')
    add(f, 'fx.sin(Float32(-0.0))', 'Float32(-0.0)')
    add(f, 'fx.sin(Float64(0.0))', 'Float64(0.0)')
    add(f, 'fx.cos(Float32(0.0))', 'Float32(1.0)')
    add(f, 'fx.tanh(Float32(fx.inf))', 'Float32(1.0)')
    add(f, 'fx.tanh(Float64(-fx.inf))', 'Float64(-1.0)')
    add(f, 'fx.tanh(Float32(-0.0))', 'Float32(-0.0)')
    add(f, 'fx.rsqrt(Float32(4.0))', 'Float32(0.5)')
    add(f, 'fx.rsqrt(Float32(0.0))', 'Float32(inf)')
    add(f, 'fx.rsqrt(Float64(0.25))', 'Float64(2.0)')
    add(f, 'fx.exp(1.0)', 'Float32(2.7182817)')
    add(f, 'fx.exp(Float32(0.0)).dtype', 'Type(Float32)')
    add(f, 'fx.exp(BFloat16(0.0))', 'BFloat16(1.0)')
    add(f, 'fx.log(Float8E4M3FN(1.0))', 'error')
    comment(f, 'big literals: exact integer work, no hang on huge exponents/counts')
    add(f, '1 << 512', 'error')
    add(f, '1 << 10000', 'error')
    add(f, '2 ** 10**9', 'error')
    add(f, '-1 >> 10**9', '-1')
    add(f, '1 >> 10**100', '0')
    add(f, '(-1) ** 10**9', '1')
    add(f, '0 ** 10**100', '0')
    add(f, '1 ** (2**500)', '1')
    add(f, '(-1) ** (2**500 + 1)', '-1')
    add(f, 'Int128(3) ** 2**100', 'error: Int64')
    add(f, 'Int128(3) ** Int128(2**100)', I('Int128', pow(3, 2**100, 2**128)))
    add(f, 'Uint128(1) << Uint128(2**127)', 'Uint128(0)')
    add(f, 'Int128(-1) >> Int128(2**126)', 'Int128(-1)')
    add(f, '2**53 + 1 + 0.0', repr(2**53 + 1 + 0.0))
    add(f, '(2**60 + 1) * 1.0', repr((2**60 + 1) * 1.0))
    add(f, '2**511 * 1.0', repr(2**511 * 1.0))
    add(f, '2 ** -1074', '5e-324')
    add(f, '2 ** -1075', '0.0')
    add(f, '(-2) ** -1', '-0.5')
    add(f, '10 ** -400', '0.0')
    add(f, 'Float64(2**100 + 2**47)', 'Float64(%r)' % float(2**100))
    add(f, 'Float64(2**100 + 2**47 + 1)', 'Float64(%r)' % float(2**100 + 2**48))
    add(f, 'Float64(Int128(2**100 + 2**47 + 1))', 'Float64(%r)' % float(2**100 + 2**48))
    add(f, 'Float64(2**100 + 3 * 2**47)', 'Float64(%r)' % float(2**100 + 2**49))
    add(f, 'Float32(Uint128(2**127 + 2**103))', F('Float32', 2**127))
    add(f, 'Float32(Uint128(2**127 + 2**103 + 1))', F('Float32', 2**127 + 2**104))
    add(f, 'Float16(Int64(2**11 + 1))', 'Float16(2048.0)')
    add(f, 'Float16(Int64(2**11 + 3))', 'Float16(2052.0)')
    add(f, 'Float32(2**511)', 'Float32(inf)')
    add(f, 'Float64(-(2**511))', 'Float64(%r)' % -float(2**511))
    add(f, 'Uint128(Float64(1.5 * 2.0**127))', I('Uint128', 3 * 2**126))
    add(f, 'Int128(Float64(-(2.0**127)))', I('Int128', -2**127))
    add(f, 'Int128(Float64(2.0**127))', I('Int128', 2**127 - 1))
    add(f, 'Int32(Float64(5e-324))', 'Int32(0)')
    add(f, 'Int32(Float64(-5e-324))', 'Int32(0)')
    add(f, 'Float32(1e-45) % Float32(-1.0)', 'Float32(-1.0)')
    add(f, 'Float64(-1e-300) % Float64(1e300)', 'Float64(1e+300)')
    add(f, 'Float16(-0.0001) % Float16(1000.0)', 'Float16(1000.0)')
    add(f, 'Float64(0.1) * 3 == 0.30000000000000004', Bool(True))
    comment(f, 'constants')
    add(f, 'Float16(fx.pi)', F('Float16', math.pi))
    add(f, 'BFloat16(fx.pi)', F('BFloat16', math.pi))
    add(f, 'Float64(fx.pi)', 'Float64(3.141592653589793)')
    add(f, 'fx.pi * Float16(1.0)', F('Float32', math.pi))
    add(f, 'fx.pi * Float64(1.0)', 'Float64(3.141592653589793)')
    add(f, 'fx.inf * 0', 'nan')
    add(f, '-fx.nan', 'nan')
    add(f, 'Float32(fx.inf) - Float32(fx.inf)', 'Float32(nan)')
    add(f, 'Float16(fx.inf) * Float16(0.0)', 'Float16(nan)')
    add(f, '(fx.inf).dtype', 'Type(Float32)')
    add(f, 'fx.wave_size() + Int8(1)', 'Int32(65)')
    add(f, 'thread_idx.x.dtype', 'error')
    add(f, 'fx.lane_id()', 'error')
    comment(f, 'diagnostics name what was expected')
    add(f, 'Float32(1.0) & Int32(1)', 'error: integer')
    add(f, 'Int32(1) ^ Float16(1.0)', 'error: integer')
    add(f, 'Int32x4(1)[0].to(Float32, rounding_mode=fx.RoundingMode.upward).dtype', 'error: float-to-float')
    add(f, 'Float32x4(1.0)[0].to(Int32, rounding_mode=fx.RoundingMode.upward).dtype', 'error: float-to-float')
    add(f, 'Int32(7) // Int32(0)', 'error: zero')
    add(f, 'Int32(7) % 0', 'error: zero')
    add(f, 'Int32(7) / 0', 'error: zero')
    add(f, 'fx.ceildiv(Int32(7), Int32(0))', 'error: zero')
    add(f, 'Int32(2) ** Int32(-1)', 'error: negative')
    add(f, 'Int32(1) << -1', 'error: negative')
    add(f, 'Float32(1.0).bitcast(Int64)', 'error: 64')
    add(f, 'fx.ceildiv(Float32(1.0), Float32(2.0))', 'error: Float32')
    add(f, 'fx.ceildiv(Boolean(True), Int32(1))', 'error: Boolean')
    add(f, 'fx.max(Float8E5M2(1.0), Float32(1.0))', 'error: Float8E5M2')
    add(f, 'abs(Boolean(True))', 'error: Boolean')
    add(f, 'Int8x4(1) + Int8x8(1)', 'error: Int8x8')
    add(f, 'Float6E3M2FN(1.0) + 1', 'error: Float32')


def main():
    gen_misc()
    gen_random()
    gen_literals(); gen_div(); gen_shift_pow(); gen_bool(); gen_cmp(); gen_builtins(); gen_convert(); gen_bitcast()
    gen_vector(); gen_select()
    bug_lines = set(l for _, l in BUGS)
    total = 0
    for fname, lines in CASES.items():
        with open(os.path.join(OUT, fname), 'w') as fh:
            fh.write('# generated by tests/sema/gen_adv_eval.py (adversarial cases): EXPR  =>  EXPECTED\n')
            seen = set()
            for l in lines:
                if l.startswith('#'):
                    fh.write(l + '\n')
                    continue
                if l in seen or l in bug_lines:
                    continue
                seen.add(l)
                fh.write(l + '\n')
                total += 1
        print('%-22s %d' % (fname, len(seen)))
    with open(os.path.join(OUT, 'adv_bugs.txt'), 'w') as fh:
        fh.write('# Cases exposing implementation bugs (all fixed); generated by gen_adv_eval.py\n')
        for c, l in BUGS:
            fh.write('# ' + c + '\n' + l + '\n')
    print('total %d, pending bugs %d' % (total, len(BUGS)))


if __name__ == '__main__':
    main()
