/* convert.c - values between static and run-time form, literal normalization
 * and explicit conversions (every promotion becomes an FX_CAST here, so no
 * later stage thinks about promotion). */
#include "sema/sema_int.h"
#include <math.h>
#include <stdarg.h>

Val *val_runtime(Ctx *c, const Type *t, FxInst *ir, Loc loc)
{
    Val *v = arena_alloc(c->arena, sizeof *v);
    v->type = t;
    v->ir = ir;
    v->loc = loc;
    return v;
}

FxBuilder *sema_builder(Ctx *c, Loc loc)
{
    if (c->fn)
        c->fn->size += c->b.placed;   /* what the builder placed since it was last started */
    fxb_init(&c->b, c->arena, c->block, loc);
    return &c->b;
}

FxInst *sema_emit(Ctx *c, FxOpcode op, int sub, const Type *t, Loc loc, int nops, ...)
{
    va_list ap;
    va_start(ap, nops);
    FxInst *i = fxb_vemit(sema_builder(c, loc), op, sub, t, nops, ap);
    va_end(ap);
    return i;
}

bool sema_is_numeric(const Val *v)
{
    TypeKind k = v->type->kind;
    return k == TY_SCALAR || k == TY_VECTOR || k == TY_LITINT || k == TY_LITFLOAT;
}

bool sema_value_is_number(const Val *v)
{
    return sema_is_numeric(v);
}

const Type *sema_vector_of(const Type *shape, ScalarId s)
{
    return shape->kind == TY_VECTOR ? type_vector(s, shape->lanes) : type_scalar(s);
}

bool sema_reject_narrow(Ctx *c, const Val *v, const char *what)
{
    if ((v->type->kind == TY_SCALAR || v->type->kind == TY_VECTOR) && type_is_narrow(v->type->scalar)) {
        diag_error(v->loc, "%s on %s is not supported: narrow floats are storage types; "
                   "convert to Float32 first, e.g. x.to(Float32)",
                   what, type_info(v->type->scalar)->name);
        return true;
    }
    return false;
}

static FxConst const_of(const Val *v)
{
    FxConst k = { 0, 0 };
    if (type_info(v->type->scalar)->fmt) {
        k.lo = v->bits;
    } else {
        BigInt b = big_wrap(v->i, 128, false);
        k.lo = b.w[0];
        k.hi = b.w[1];
    }
    return k;
}

FxInst *sema_materialize(Ctx *c, Val *v)
{
    if (!v->is_static)
        return v->ir;
    /* Untyped literals never reach here: callers convert them first. */
    if (v->type->kind != TY_SCALAR)
        return NULL;
    return fxb_const(sema_builder(c, v->loc), v->type, const_of(v));
}

void sema_fold_error(Ctx *c, FxFoldStatus st, Loc loc)
{
    (void)c;
    switch (st) {
    case FXF_DIV_ZERO:
        diag_error(loc, "integer division by zero in a static expression; guard the divisor "
                   "(at run time x // 0 and x %% 0 give 0, and x / 0 gives inf or nan)");
        break;
    case FXF_NEG_SHIFT:
        diag_error(loc, "negative shift count in a static expression; shift counts must be >= 0");
        break;
    case FXF_NEG_POW:
        diag_error(loc, "negative exponent in a static integer power; "
                   "use a float base (e.g. 2.0 ** -1) for a fractional result");
        break;
    case FXF_CEILDIV_OVERFLOW:
        diag_error(loc, "fx.ceildiv(MIN, -1) overflows the signed type");
        break;
    case FXF_TOO_LARGE:
        diag_error(loc, "integer literal arithmetic exceeds 512 bits");
        break;
    case FXF_OK:
        break;
    }
}

/* Seed 000 operand normalization: the type an untyped literal takes for
 * promotion. Beyond the Int64 range there is no implicit type. */
ScalarId sema_literal_type(Ctx *c, Val *lit, bool *ok)
{
    (void)c;
    *ok = true;
    if (lit->type->kind == TY_LITFLOAT)
        return SC_FLOAT32;
    if (big_fits(lit->i, 32, true))
        return SC_INT32;
    if (big_fits(lit->i, 64, true))
        return SC_INT64;
    *ok = false;
    diag_error(lit->loc, "integer literal does not fit in Int64, so it has no implicit type; "
               "write the type explicitly, e.g. Uint64(...) or Int128(...)");
    return SC_INT64;
}

Val *sema_literal_as(Ctx *c, Val *lit, ScalarId to, Loc loc)
{
    return fold_convert(c->arena, lit, to, FF_RNE, loc);
}

Val *sema_splat(Ctx *c, Val *v, const Type *vt, Loc loc)
{
    FxInst *s = sema_materialize(c, v);
    return val_runtime(c, vt, sema_emit(c, FX_SPLAT, 0, vt, loc, 1, s), loc);
}

/* Convert a numeric value to scalar or vector type `to`; `rm` applies to
 * float-to-float conversions. Static scalars fold; vectors and run-time
 * scalars become FX_CAST (and FX_SPLAT for a scalar going to a vector). */
Val *sema_convert(Ctx *c, Val *v, const Type *to, FfRound rm, bool explicit_rm, Loc loc)
{
    ScalarId ts = to->scalar;
    if (v->type->kind == TY_VECTOR && to->kind == TY_SCALAR) {
        diag_error(loc, "cannot convert the vector type %s to the scalar type %s; take a lane: x[0]%s",
                   type_name(c->arena, v->type), type_info(ts)->name,
                   v->type->lanes == 1 ? "" : " (or reduce the lanes)");
        return NULL;
    }
    if (v->type->kind == TY_VECTOR && v->type->lanes != to->lanes) {
        diag_error(loc, "cannot convert a vector of %d lanes to %s", v->type->lanes,
                   type_name(c->arena, to));
        return NULL;
    }
    if (v->is_static) {
        Val *s = fold_convert(c->arena, v, ts, rm, loc);
        return to->kind == TY_VECTOR ? sema_splat(c, s, to, loc) : s;
    }
    Val *cur = v;
    const Type *mid = sema_vector_of(v->type, ts);
    if (!type_equal(v->type, mid)) {
        FxInst *i = sema_emit(c, FX_CAST, 0, mid, loc, 1, v->ir);
        i->rounding = rm;
        (void)explicit_rm;
        cur = val_runtime(c, mid, i, loc);
    }
    if (to->kind == TY_VECTOR && cur->type->kind == TY_SCALAR)
        cur = sema_splat(c, cur, to, loc);
    return cur;
}

static bool float_is_integral_in(const Val *v, ScalarId to)
{
    double d = fold_as_double(v);
    if (isnan(d) || isinf(d) || d != trunc(d))
        return false;
    BigInt b = big_from_double_trunc(d);
    return big_fits(b, type_info(to)->width, type_info(to)->is_signed);
}

/* The first integer literal of e (outside calls, whose arguments have
 * their own types) that an untyped literal's normalization makes Int64
 * because it does not fit Int32, while it fits integer type `to`. */
static AstNode *wide_literal_for(AstNode *e, ScalarId to)
{
    if (!e || e->kind == AST_CALL)
        return NULL;
    if (e->kind == AST_INT) {
        BigInt v;
        bool wide = big_parse(e->text, &v) && !big_fits(v, 32, true) && big_fits(v, 64, true);
        return wide && big_fits(v, type_info(to)->width, type_info(to)->is_signed) ? e : NULL;
    }
    if (e->kind != AST_BINARY && e->kind != AST_UNARY)
        return NULL;
    AstNode *l = wide_literal_for(e->a, to);
    return l ? l : wide_literal_for(e->b, to);
}

/* After a failed implicit conversion of expression e to `to`: when a
 * literal too big for Int32 (so Int64 by seed 000) is what widened it,
 * say so and give the typed literal that keeps the arithmetic in `to`. */
void sema_advise_wide_literal(Ctx *c, AstNode *e, const Type *to)
{
    if (to->kind != TY_SCALAR || !type_is_int(to->scalar))
        return;
    AstNode *lit = wide_literal_for(e, to->scalar);
    if (!lit)
        return;
    const char *tn = type_info(to->scalar)->name;
    diag_note(lit->loc, "the literal %s does not fit Int32, so it is an Int64 and makes the expression one; "
              "write %s(%s) to compute in %s", lit->text, tn, lit->text, tn);
}

/* sema_assign_convert of the value of expression e, with the advice above. */
Val *sema_assign_convert_expr(Ctx *c, Val *v, const Type *to, AstNode *e)
{
    Val *r = sema_assign_convert(c, v, to, e->loc);
    if (!r)
        sema_advise_wide_literal(c, e, to);
    return r;
}

/* Implicit conversion at `let x: T = e`, `var`, assignment, arguments and
 * return: only static values convert; run-time values must already have the
 * type. */
Val *sema_assign_convert(Ctx *c, Val *v, const Type *to, Loc loc)
{
    if (type_equal(v->type, to))
        return v;
    bool numeric_target = to->kind == TY_SCALAR || to->kind == TY_VECTOR;
    if (!numeric_target || !sema_is_numeric(v)) {
        diag_error(loc, "expected a value of type %s, got %s", type_name(c->arena, to),
                   type_name(c->arena, v->type));
        return NULL;
    }
    if (!v->is_static && v->type->kind == TY_VECTOR && to->kind == TY_SCALAR) {
        const char *lane = type_info(v->type->scalar)->name, *tn = type_name(c->arena, to);
        if (v->type->scalar == to->scalar)
            diag_error(loc, "cannot implicitly convert a run-time %s to %s: a vector does not become a "
                       "scalar; take a lane: x[0]", type_name(c->arena, v->type), tn);
        else
            diag_error(loc, "cannot implicitly convert a run-time %s to %s: a vector does not become a "
                       "scalar; take a lane and convert it: %s(x[0]) (its lanes are %s)", type_name(c->arena, v->type),
                       tn, tn, lane);
        return NULL;
    }
    if (!v->is_static) {
        const char *tn = type_name(c->arena, to);
        diag_error(loc, "cannot implicitly convert a run-time %s to %s; convert explicitly with "
                   "%s(x) or x.to(%s)", type_name(c->arena, v->type), tn, tn, tn);
        return NULL;
    }
    bool from_float = v->type->kind == TY_LITFLOAT ||
                      (v->type->kind == TY_SCALAR && type_info(v->type->scalar)->fmt);
    ScalarId ts = to->scalar;
    if (from_float && type_is_int(ts) && !float_is_integral_in(v, ts)) {
        diag_error(loc, "the static value is not representable in %s; convert explicitly with %s(x)",
                   type_info(ts)->name, type_info(ts)->name);
        return NULL;
    }
    return sema_convert(c, v, to, FF_RNE, false, loc);
}
