/* fold.c - the constant folder (cproc's eval.c in spirit: a table-like switch
 * per operator). Every result here must equal, bit for bit, what the code
 * generator's instructions compute at run time for the same operands; the
 * differential tests hold the two against each other. */
#include "sema/fold.h"
#include <math.h>
#include <string.h>
#include "fxir/fxir.h"

/* ---- construction ---- */

static Val *new_val(Arena *a, const Type *t, Loc loc)
{
    Val *v = arena_alloc(a, sizeof *v);
    v->type = t;
    v->is_static = true;
    v->loc = loc;
    return v;
}

Val *fold_make_int(Arena *a, ScalarId s, BigInt x, Loc loc)
{
    Val *v = new_val(a, type_scalar(s), loc);
    if (s == SC_BOOLEAN)
        v->i = big_from_i64(!big_is_zero(x));
    else
        v->i = big_wrap(x, type_info(s)->width, type_info(s)->is_signed);
    return v;
}

Val *fold_make_float(Arena *a, ScalarId s, uint64_t bits, Loc loc)
{
    Val *v = new_val(a, type_scalar(s), loc);
    v->bits = bits;
    return v;
}

Val *fold_make_bool(Arena *a, bool b, Loc loc)
{
    return fold_make_int(a, SC_BOOLEAN, big_from_i64(b), loc);
}

Val *fold_make_litint(Arena *a, BigInt x, Loc loc)
{
    Val *v = new_val(a, type_simple(TY_LITINT), loc);
    v->i = x;
    return v;
}

Val *fold_make_litfloat(Arena *a, double d, Loc loc)
{
    Val *v = new_val(a, type_simple(TY_LITFLOAT), loc);
    v->f = d;
    return v;
}

/* ---- reading static values ---- */

static bool is_float_scalar(const Val *v)
{
    return v->type->kind == TY_SCALAR && type_info(v->type->scalar)->fmt != NULL;
}

static bool is_int_like(const Val *v)
{
    return v->type->kind == TY_LITINT ||
           (v->type->kind == TY_SCALAR && type_info(v->type->scalar)->fmt == NULL);
}

static double bits_to_double(ScalarId s, uint64_t bits)
{
    return ff_to_double(type_info(s)->fmt, bits);
}

static uint64_t double_to_bits(ScalarId s, double d, FfRound rm)
{
    return ff_from_double(type_info(s)->fmt, d, rm);
}

double fold_as_double(const Val *v)
{
    if (v->type->kind == TY_LITFLOAT)
        return v->f;
    if (is_float_scalar(v))
        return bits_to_double(v->type->scalar, v->bits);
    return ff_to_double(&ff_float64, ff_from_big(&ff_float64, v->i, FF_RNE));
}

bool fold_truthy(const Val *v)
{
    if (is_int_like(v))
        return !big_is_zero(v->i);
    return fold_as_double(v) != 0 || isnan(fold_as_double(v));
}

uint64_t fold_bits64(const Val *v)
{
    if (is_float_scalar(v))
        return v->bits;
    return big_to_u64(v->i);
}

BigInt fold_bits_big(const Val *v)
{
    if (is_float_scalar(v))
        return big_from_u64(v->bits);
    int w = type_info(v->type->scalar)->width;
    return big_wrap(v->i, w, false);
}

/* ---- conversions ---- */

/* Float to integer: truncate toward zero, saturate at the type's range, NaN -> 0
 * (llvm.fptosi.sat / fptoui.sat). */
static BigInt float_to_int(double d, ScalarId to)
{
    const ScalarInfo *ti = type_info(to);
    if (isnan(d))
        return big_from_i64(0);
    BigInt lo, hi;
    if (ti->is_signed) {
        hi = big_sub(big_shl(big_from_i64(1), (unsigned)ti->width - 1), big_from_i64(1));
        lo = big_neg(big_shl(big_from_i64(1), (unsigned)ti->width - 1));
    } else {
        hi = big_sub(big_shl(big_from_i64(1), (unsigned)ti->width), big_from_i64(1));
        lo = big_from_i64(0);
    }
    /* Beyond every integer width the value saturates without being
     * truncated (big_from_double_trunc is exact only below 2^575). */
    if (isinf(d) || fabs(d) >= 0x1p200)
        return d > 0 ? hi : lo;
    BigInt t = big_from_double_trunc(d);
    if (big_cmp(t, hi) > 0)
        return hi;
    if (big_cmp(t, lo) < 0)
        return lo;
    return t;
}

Val *fold_convert(Arena *a, const Val *v, ScalarId to, FfRound rm, Loc loc)
{
    const ScalarInfo *ti = type_info(to);
    if (to == SC_BOOLEAN)
        return fold_make_bool(a, fold_truthy(v), loc);
    if (is_int_like(v)) {
        if (!ti->fmt)
            return fold_make_int(a, to, v->i, loc);
        return fold_make_float(a, to, ff_from_big(ti->fmt, v->i, rm), loc);
    }
    double d = fold_as_double(v);
    if (!ti->fmt)
        return fold_make_int(a, to, float_to_int(d, to), loc);
    if (v->type->kind == TY_SCALAR && v->type->scalar == to)
        return fold_make_float(a, to, v->bits, loc);
    return fold_make_float(a, to, double_to_bits(to, d, rm), loc);
}

Val *fold_bitcast(Arena *a, const Val *v, ScalarId to, Loc loc)
{
    BigInt raw = fold_bits_big(v);
    if (type_info(to)->fmt)
        return fold_make_float(a, to, big_to_u64(raw), loc);
    return fold_make_int(a, to, raw, loc);
}

/* ---- integer arithmetic (typed: wraps; untyped: exact, bounded at 512 bits) ---- */

static bool is_unsigned(ScalarId s)
{
    return s != SC_COUNT && s != SC_BOOLEAN && !type_info(s)->is_signed;
}

static int int_width(ScalarId s)
{
    return s == SC_COUNT ? 0 : type_info(s)->width;
}

/* Integer power by squaring; typed results wrap after every step. */
static FoldStatus int_pow(BigInt base, BigInt e, ScalarId s, BigInt *out)
{
    BigInt r = big_from_i64(1);
    if (big_sign(e) < 0)
        return FOLD_NEG_POW;
    int w = int_width(s);
    bool sg = s == SC_COUNT || type_info(s)->is_signed;
    while (!big_is_zero(e)) {
        if (big_to_u64(e) & 1) {
            r = big_mul(r, base);
            if (w)
                r = big_wrap(r, w, sg);
            else if (!big_in_range(r))
                return FOLD_TOO_LARGE;
        }
        e = big_shr(e, 1);
        if (big_is_zero(e))
            break;
        base = big_mul(base, base);
        if (w)
            base = big_wrap(base, w, sg);
        else if (!big_in_range(base))
            return FOLD_TOO_LARGE;
    }
    *out = r;
    return FOLD_OK;
}

static FoldStatus int_shift(AstOp op, BigInt x, BigInt count, ScalarId s, BigInt *out)
{
    if (big_sign(count) < 0)
        return FOLD_NEG_SHIFT;
    int w = int_width(s);
    if (w == 0) { /* untyped literal: exact */
        if (big_cmp(count, big_from_i64(BIG_BITS)) >= 0) {
            if (op == OP_SHL && !big_is_zero(x))
                return FOLD_TOO_LARGE;
            *out = op == OP_SHL ? big_from_i64(0) : big_from_i64(big_sign(x) < 0 ? -1 : 0);
            return FOLD_OK;
        }
        unsigned n = (unsigned)big_to_u64(count);
        *out = op == OP_SHL ? big_shl(x, n) : big_shr(x, n);
        if (op == OP_SHL && (!big_in_range(*out) || big_cmp(big_shr(*out, n), x) != 0))
            return FOLD_TOO_LARGE;
        return FOLD_OK;
    }
    bool sg = type_info(s)->is_signed && s != SC_BOOLEAN;
    if (big_cmp(count, big_from_i64(w)) >= 0) {
        bool fill = op == OP_SHR && sg && big_sign(x) < 0;
        *out = big_from_i64(fill ? -1 : 0);
        return FOLD_OK;
    }
    unsigned n = (unsigned)big_to_u64(count);
    *out = op == OP_SHL ? big_shl(x, n) : big_shr(x, n);
    return FOLD_OK;
}

static FoldStatus int_binary(AstOp op, BigInt x, BigInt y, ScalarId s, BigInt *out)
{
    BigInt r;
    switch (op) {
    case OP_ADD: *out = big_add(x, y); return FOLD_OK;
    case OP_SUB: *out = big_sub(x, y); return FOLD_OK;
    case OP_MUL: *out = big_mul(x, y); return FOLD_OK;
    case OP_FLOORDIV:
    case OP_MOD:
        if (big_is_zero(y))
            return FOLD_DIV_ZERO;
        big_divmod_floor(x, y, op == OP_FLOORDIV ? out : &r, op == OP_MOD ? out : &r);
        return FOLD_OK;
    case OP_POW: return int_pow(x, y, s, out);
    case OP_BITAND: *out = big_and(x, y); return FOLD_OK;
    case OP_BITOR: *out = big_or(x, y); return FOLD_OK;
    case OP_BITXOR: *out = big_xor(x, y); return FOLD_OK;
    case OP_SHL:
    case OP_SHR: return int_shift(op, x, y, s, out);
    default: return FOLD_OK;
    }
}

/* a / b rounded once to binary64 (Python's int true division): the quotient
 * is computed with at least 55 significant bits plus a sticky bit, so the
 * single rounding in ff_from_big is the correct one. */
static double exact_quotient(BigInt a, BigInt b)
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
    double d = ldexp(ff_to_double(&ff_float64, ff_from_big(&ff_float64, q, FF_RNE)), -k);
    return neg ? -d : d;
}

/* Exact comparison of an integer with a binary64 value (Python's int/float
 * comparison): -1, 0 or 1; 2 when d is NaN (unordered). */
static int compare_int_double(BigInt x, double d)
{
    if (isnan(d))
        return 2;
    if (isinf(d) || fabs(d) >= 0x1p560)
        return d > 0 ? -1 : 1;
    double t = trunc(d);
    int c = big_cmp(x, big_from_double_trunc(t));
    if (c != 0 || t == d)
        return c;
    return d > t ? -1 : 1;   /* equal integer parts: the fraction decides */
}

static bool compare_result(AstOp op, int c)
{
    if (c == 2)
        return op == OP_NE;
    switch (op) {
    case OP_LT: return c < 0;
    case OP_LE: return c <= 0;
    case OP_GT: return c > 0;
    case OP_GE: return c >= 0;
    case OP_EQ: return c == 0;
    default: return c != 0;
    }
}

static bool compare_ints(AstOp op, BigInt x, BigInt y)
{
    return compare_result(op, big_cmp(x, y));
}

static bool compare_doubles(AstOp op, double x, double y)
{
    return compare_result(op, x != x || y != y ? 2 : x < y ? -1 : x > y ? 1 : 0);
}

static bool is_compare(AstOp op)
{
    return op >= OP_LT && op <= OP_NE;
}

/* ---- float arithmetic: computed in binary64, rounded once to the format ----
 * binary64 holds more than 2p+2 bits of every narrower format here, so
 * + - * / computed in double and rounded once equal the correctly rounded
 * operation in the narrow format. */

static double python_mod(double x, double y, double (*round_to)(double, ScalarId), ScalarId s)
{
    double r = fmod(x, y);
    if (r != 0 && ((r < 0) != (y < 0)))
        r = round_to(r + y, s);
    if (r == 0)
        r = copysign(0.0, y);
    return r;
}

static double round_to_format(double d, ScalarId s)
{
    if (s == SC_COUNT || s == SC_FLOAT64)
        return d;
    return bits_to_double(s, double_to_bits(s, d, FF_RNE));
}

static double float_pow(double x, double y, ScalarId s)
{
    /* Transcendental: folded with the host's libm (spec §3.3), in the
     * precision of the type. */
    if (s == SC_FLOAT64 || s == SC_COUNT)
        return pow(x, y);
    return (double)powf((float)x, (float)y);
}

static double float_binary(AstOp op, double x, double y, ScalarId s)
{
    switch (op) {
    case OP_ADD: return x + y;
    case OP_SUB: return x - y;
    case OP_MUL: return x * y;
    case OP_DIV: return x / y;
    case OP_FLOORDIV: return floor(round_to_format(x / y, s));
    case OP_MOD: return python_mod(x, y, round_to_format, s);
    case OP_POW: return float_pow(x, y, s);
    default: return NAN;
    }
}

FoldStatus fold_binary(Arena *a, AstOp op, const Val *x, const Val *y, ScalarId result, Val **out)
{
    Loc loc = loc_span(x->loc, y->loc);
    bool literal = x->type->kind != TY_SCALAR;
    ScalarId s = literal ? SC_COUNT : x->type->scalar;
    if (is_compare(op) && x->type->kind == TY_LITINT && y->type->kind == TY_LITFLOAT) {
        *out = fold_make_bool(a, compare_result(op, compare_int_double(x->i, y->f)), loc);
        return FOLD_OK;
    }
    if (is_compare(op) && x->type->kind == TY_LITFLOAT && y->type->kind == TY_LITINT) {
        int c = compare_int_double(y->i, x->f);
        *out = fold_make_bool(a, compare_result(op, c == 2 ? 2 : -c), loc);
        return FOLD_OK;
    }
    if (is_compare(op)) {
        bool r = is_int_like(x) && is_int_like(y)
                     ? compare_ints(op, x->i, y->i)
                     : compare_doubles(op, fold_as_double(x), fold_as_double(y));
        *out = fold_make_bool(a, r, loc);
        return FOLD_OK;
    }
    bool ints = is_int_like(x) && is_int_like(y);
    if (ints && op == OP_DIV) {
        if (big_is_zero(y->i))
            return FOLD_DIV_ZERO;
        if (literal) { /* Python true division of two untyped integers */
            *out = fold_make_litfloat(a, exact_quotient(x->i, y->i), loc);
            return FOLD_OK;
        }
        Val *fx = fold_convert(a, x, result, FF_RNE, loc), *fy = fold_convert(a, y, result, FF_RNE, loc);
        return fold_binary(a, op, fx, fy, result, out);
    }
    if (ints && !(literal && op == OP_POW && big_sign(y->i) < 0)) {
        BigInt r;
        FoldStatus st = int_binary(op, x->i, y->i, s, &r);
        if (st != FOLD_OK)
            return st;
        if (literal) {
            if (!big_in_range(r))
                return FOLD_TOO_LARGE;
            *out = fold_make_litint(a, r, loc);
        } else {
            *out = fold_make_int(a, result, r, loc);
        }
        return FOLD_OK;
    }
    double r = float_binary(op, fold_as_double(x), fold_as_double(y), s);
    *out = literal ? fold_make_litfloat(a, r, loc)
                   : fold_make_float(a, result, double_to_bits(result, r, FF_RNE), loc);
    return FOLD_OK;
}

/* ---- unary ---- */

static uint64_t sign_mask(ScalarId s)
{
    return (uint64_t)1 << (type_info(s)->width - 1);
}

FoldStatus fold_unary(Arena *a, AstOp op, const Val *x, Val **out)
{
    Loc loc = x->loc;
    if (x->type->kind == TY_LITINT) {
        BigInt r = op == OP_NEG ? big_neg(x->i) : op == OP_INVERT ? big_not(x->i) : x->i;
        *out = fold_make_litint(a, r, loc);
        return FOLD_OK;
    }
    if (x->type->kind == TY_LITFLOAT) {
        *out = fold_make_litfloat(a, op == OP_NEG ? -x->f : x->f, loc);
        return FOLD_OK;
    }
    ScalarId s = x->type->scalar;
    if (s == SC_BOOLEAN && (op == OP_INVERT || op == OP_NOT)) {
        *out = fold_make_bool(a, big_is_zero(x->i), loc);
        return FOLD_OK;
    }
    if (is_float_scalar(x)) {
        /* Negation flips the sign bit only, as LLVM's fneg does (NaN too). */
        uint64_t bits = op == OP_NEG ? x->bits ^ sign_mask(s) : x->bits;
        *out = fold_make_float(a, s, bits, loc);
        return FOLD_OK;
    }
    BigInt r = op == OP_NEG ? big_neg(x->i) : op == OP_INVERT ? big_not(x->i) : x->i;
    *out = fold_make_int(a, s, r, loc);
    return FOLD_OK;
}

FoldStatus fold_abs(Arena *a, const Val *x, Val **out)
{
    if (x->type->kind == TY_LITINT) {
        *out = fold_make_litint(a, big_sign(x->i) < 0 ? big_neg(x->i) : x->i, x->loc);
    } else if (x->type->kind == TY_LITFLOAT) {
        *out = fold_make_litfloat(a, fabs(x->f), x->loc);
    } else if (is_float_scalar(x)) {
        *out = fold_make_float(a, x->type->scalar, x->bits & ~sign_mask(x->type->scalar), x->loc);
    } else {
        BigInt r = big_sign(x->i) < 0 ? big_neg(x->i) : x->i;
        *out = fold_make_int(a, x->type->scalar, r, x->loc);  /* wraps: abs(MIN) == MIN */
    }
    return FOLD_OK;
}

/* ---- fx.max / fx.min / maxnumf / minnumf / ceildiv ---- */

/* IEEE 754-2019 maximum/minimum: NaN propagates, -0 < +0. */
static bool float_less(double x, double y)
{
    if (x == 0 && y == 0)
        return signbit(x) && !signbit(y);
    return x < y;
}

Val *fold_minmax(Arena *a, int which, const Val *x, const Val *y)
{
    bool want_max = which == FXMM_MAX || which == FXMM_MAXNUM;
    if (is_int_like(x)) {
        int c = big_cmp(x->i, y->i);
        return (want_max ? c >= 0 : c <= 0) ? (Val *)x : (Val *)y;
    }
    double dx = fold_as_double(x), dy = fold_as_double(y);
    bool num = which == FXMM_MAXNUM || which == FXMM_MINNUM;
    if (isnan(dx) || isnan(dy)) {
        if (num && !(isnan(dx) && isnan(dy)))
            return (Val *)(isnan(dx) ? y : x);
        Val *n = (Val *)(isnan(dx) ? x : y);
        if (x->type->kind == TY_SCALAR)  /* the canonical quiet NaN, as LLVM folds it */
            return fold_make_float(a, x->type->scalar, double_to_bits(x->type->scalar, NAN, FF_RNE), n->loc);
        return n;
    }
    bool x_less = float_less(dx, dy);
    return want_max ? (x_less ? (Val *)y : (Val *)x) : (x_less ? (Val *)x : (Val *)y);
}

FoldStatus fold_ceildiv(Arena *a, const Val *x, const Val *y, Val **out)
{
    if (big_is_zero(y->i))
        return FOLD_DIV_ZERO;
    ScalarId s = x->type->kind == TY_SCALAR ? x->type->scalar : SC_COUNT;
    if (s != SC_COUNT && type_info(s)->is_signed) {
        BigInt min = big_neg(big_shl(big_from_i64(1), (unsigned)type_info(s)->width - 1));
        if (big_cmp(x->i, min) == 0 && big_cmp(y->i, big_from_i64(-1)) == 0)
            return FOLD_CEILDIV_OVERFLOW;
    }
    /* ceil(x / y) == -floor(-x / y), computed exactly. */
    BigInt q, r;
    big_divmod_floor(big_neg(x->i), y->i, &q, &r);
    q = big_neg(q);
    Loc loc = loc_span(x->loc, y->loc);
    *out = s == SC_COUNT ? fold_make_litint(a, q, loc) : fold_make_int(a, s, q, loc);
    (void)is_unsigned;
    return FOLD_OK;
}

/* ---- printing (spec §9) ---- */

char *fold_format_float(ScalarId s, uint64_t bits, char *buf)
{
    return ff_repr(type_info(s)->fmt, bits, buf);
}


static void print_scalar_value(FILE *out, const Val *v)
{
    char buf[FF_REPR_MAX > BIG_DEC_MAX ? FF_REPR_MAX : BIG_DEC_MAX];
    ScalarId s = v->type->scalar;
    if (s == SC_BOOLEAN)
        fputs(big_is_zero(v->i) ? "False" : "True", out);
    else if (type_info(s)->fmt)
        fputs(fold_format_float(s, v->bits, buf), out);
    else
        fputs(big_to_dec(v->i, buf), out);
}

static void print_flags(FILE *out, unsigned flags)
{
    if (flags == 0) {
        fputs("none", out);
        return;
    }
    if (flags == FMF_FAST) {
        fputs("fast", out);
        return;
    }
    const char *sep = "";
    for (int b = 0; b < 7; b++)
        if (flags & (1u << b)) {
            fprintf(out, "%s%s", sep, fxir_fmf_name(b));
            sep = "|";
        }
}

void fold_print(FILE *out, const Val *v, bool with_type)
{
    char buf[BIG_DEC_MAX];
    switch (v->type->kind) {
    case TY_SCALAR:
        if (with_type)
            fprintf(out, "%s(", type_info(v->type->scalar)->name);
        print_scalar_value(out, v);
        if (with_type)
            fputc(')', out);
        break;
    case TY_LITINT:
        fputs(big_to_dec(v->i, buf), out);
        break;
    case TY_LITFLOAT:
        fputs(ff_repr(&ff_float64, ff_from_double(&ff_float64, v->f, FF_RNE), buf), out);
        break;
    case TY_TYPE: {
        Arena *a = arena_new();
        fprintf(out, "Type(%s)", type_name(a, v->tval));
        arena_free(a);
        break;
    }
    case TY_TUPLE:
        fputc(v->seq == '[' ? '[' : '(', out);
        for (int i = 0; i < v->nelems; i++) {
            if (i)
                fputs(", ", out);
            fold_print(out, v->elems[i], with_type);
        }
        if (v->seq != '[' && v->nelems == 1)
            fputc(',', out);
        fputc(v->seq == '[' ? ']' : ')', out);
        break;
    case TY_STRING:
        fprintf(out, "'%s'", v->str);
        break;
    case TY_FASTMATH:
        fputs("FastMathFlags(", out);
        print_flags(out, v->flags);
        fputc(')', out);
        break;
    case TY_ROUNDING:
        fprintf(out, "RoundingMode(%s)", fxir_rounding_name((FfRound)v->flags));
        break;
    default:
        fputs(v->str ? v->str : "<value>", out);
        break;
    }
}
