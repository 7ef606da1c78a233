/* fold.c - static values (Val) and untyped literals; every operation goes
 * to FXIR's folder (fxir/fold.c), which computes what the run-time code
 * computes. */
#include "sema/fold.h"
#include <math.h>
#include <string.h>

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
    v->i = fxf_to_big(s, fxf_from_value(s, x));
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

static bool is_float_scalar(const Val *v)
{
    return v->type->kind == TY_SCALAR && type_info(v->type->scalar)->fmt != NULL;
}

static bool is_int_like(const Val *v)
{
    return v->type->kind == TY_LITINT || (v->type->kind == TY_SCALAR && !is_float_scalar(v));
}

FxConst fold_const_of(const Val *v)
{
    if (is_float_scalar(v)) {
        FxConst c = { v->bits, 0 };
        return c;
    }
    return fxf_from_value(v->type->scalar, v->i);
}

Val *fold_from_const(Arena *a, ScalarId s, FxConst c, Loc loc)
{
    if (type_info(s)->fmt)
        return fold_make_float(a, s, c.lo, loc);
    return fold_make_int(a, s, fxf_to_big(s, c), loc);
}

/* ---- reading static values ---- */

double fold_as_double(const Val *v)
{
    if (v->type->kind == TY_LITFLOAT)
        return v->f;
    if (v->type->kind == TY_LITINT)
        return ff_to_double(&ff_float64, ff_from_big(&ff_float64, v->i, FF_RNE));
    return fxf_to_double(v->type->scalar, fold_const_of(v));
}

bool fold_truthy(const Val *v)
{
    if (is_int_like(v))
        return !big_is_zero(v->i);
    return fold_as_double(v) != 0 || isnan(fold_as_double(v));
}

uint64_t fold_bits64(const Val *v)
{
    return (uint64_t)fxf_bits(v->type->scalar, fold_const_of(v));
}

BigInt fold_bits_big(const Val *v)
{
    unsigned __int128 raw = fxf_bits(v->type->scalar, fold_const_of(v));
    BigInt b = big_from_u64((uint64_t)raw);
    b.w[1] = (uint64_t)(raw >> 64);
    return b;
}

/* ---- conversions ---- */

Val *fold_convert(Arena *a, const Val *v, ScalarId to, FfRound rm, Loc loc)
{
    FxConst c;
    if (v->type->kind == TY_LITINT)
        c = to == SC_BOOLEAN ? fxf_from_value(to, v->i) : fxf_from_int(to, v->i, rm);
    else if (v->type->kind == TY_LITFLOAT)
        c = fxf_from_double(to, v->f, rm);
    else
        c = fxf_convert(v->type->scalar, fold_const_of(v), to, rm);
    return fold_from_const(a, to, c, loc);
}

Val *fold_bitcast(Arena *a, const Val *v, ScalarId to, Loc loc)
{
    return fold_from_const(a, to, fxf_bitcast(v->type->scalar, fold_const_of(v), to), loc);
}

/* ---- operations ---- */

FxFoldStatus fold_binary(Arena *a, FxBinop op, const Val *x, const Val *y, ScalarId result, Val **out)
{
    Loc loc = loc_span(x->loc, y->loc);
    if (x->type->kind == TY_SCALAR) {
        if (op == FXB_DIV && !is_float_scalar(x)) {   /* integer true division: in the float result type */
            x = fold_convert(a, x, result, FF_RNE, loc);
            y = fold_convert(a, y, result, FF_RNE, loc);
        }
        FxConst r;
        FxFoldStatus st = fxf_binop(op, x->type->scalar, fold_const_of(x), fold_const_of(y), &r);
        *out = fold_from_const(a, x->type->scalar, r, loc);
        return st;
    }
    if (is_int_like(x) && is_int_like(y)) {
        if (op == FXB_DIV) {   /* Python true division of two untyped integers */
            if (big_is_zero(y->i))
                return FXF_DIV_ZERO;
            *out = fold_make_litfloat(a, fxf_lit_int_quotient(x->i, y->i), loc);
            return FXF_OK;
        }
        if (!(op == FXB_POW && big_sign(y->i) < 0)) {
            BigInt r;
            FxFoldStatus st = fxf_lit_int_binop(op, x->i, y->i, &r);
            if (st == FXF_OK)
                *out = fold_make_litint(a, r, loc);
            return st;
        }
    }
    *out = fold_make_litfloat(a, fxf_lit_float_binop(op, fold_as_double(x), fold_as_double(y)), loc);
    return FXF_OK;
}

Val *fold_compare(Arena *a, FxCmp op, const Val *x, const Val *y)
{
    Loc loc = loc_span(x->loc, y->loc);
    bool r;
    if (x->type->kind == TY_SCALAR && y->type->kind == TY_SCALAR)
        r = fxf_cmp(op, x->type->scalar, fold_const_of(x), fold_const_of(y));
    else if (x->type->kind == TY_LITINT && y->type->kind == TY_LITFLOAT)
        r = fxf_lit_cmp_int_double(op, x->i, y->f);
    else if (x->type->kind == TY_LITFLOAT && y->type->kind == TY_LITINT) {
        static const FxCmp mirror[] = { FXC_GT, FXC_GE, FXC_LT, FXC_LE, FXC_EQ, FXC_NE };
        r = fxf_lit_cmp_int_double(mirror[op], y->i, x->f);
    } else if (is_int_like(x) && is_int_like(y))
        r = fxf_lit_cmp_ints(op, x->i, y->i);
    else
        r = fxf_lit_cmp_doubles(op, fold_as_double(x), fold_as_double(y));
    return fold_make_bool(a, r, loc);
}

Val *fold_unary(Arena *a, FxUnop op, const Val *x)
{
    if (x->type->kind == TY_LITINT) {
        BigInt r = op == FXU_NEG ? big_neg(x->i) : op == FXU_INVERT ? big_not(x->i)
                 : big_sign(x->i) < 0 ? big_neg(x->i) : x->i;
        return fold_make_litint(a, r, x->loc);
    }
    if (x->type->kind == TY_LITFLOAT)
        return fold_make_litfloat(a, op == FXU_NEG ? -x->f : op == FXU_ABS ? fabs(x->f) : x->f, x->loc);
    ScalarId s = x->type->scalar;
    return fold_from_const(a, s, fxf_unop(op, s, fold_const_of(x)), x->loc);
}

Val *fold_minmax(Arena *a, FxMinMax which, const Val *x, const Val *y)
{
    if (x->type->kind == TY_SCALAR) {
        ScalarId s = x->type->scalar;
        FxConst r = fxf_minmax(which, s, fold_const_of(x), fold_const_of(y));
        FxConst cx = fold_const_of(x);
        bool is_x = r.lo == cx.lo && r.hi == cx.hi;
        return fold_from_const(a, s, r, is_x ? x->loc : y->loc);
    }
    bool ints = is_int_like(x);
    int pick = fxf_lit_minmax_pick(which, ints, x->i, y->i, ints ? 0 : fold_as_double(x),
                                   ints ? 0 : fold_as_double(y));
    if (pick < 0)
        return (Val *)(isnan(fold_as_double(x)) ? x : y);
    return (Val *)(pick == 0 ? x : y);
}

FxFoldStatus fold_ceildiv(Arena *a, const Val *x, const Val *y, Val **out)
{
    Loc loc = loc_span(x->loc, y->loc);
    if (x->type->kind == TY_SCALAR) {
        FxConst r;
        FxFoldStatus st = fxf_ceildiv(x->type->scalar, fold_const_of(x), fold_const_of(y), &r);
        *out = fold_from_const(a, x->type->scalar, r, loc);
        return st;
    }
    BigInt q;
    FxFoldStatus st = fxf_lit_ceildiv(x->i, y->i, &q);
    *out = fold_make_litint(a, q, loc);
    return st;
}

/* ---- printing (spec §9) ---- */


static void print_scalar_value(FILE *out, const Val *v)
{
    char buf[FXF_FORMAT_MAX];
    fputs(fxf_format(v->type->scalar, fold_const_of(v), buf), out);
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
