/* expr.c - expressions: names, literals, operators with seed 000's
 * normalization -> common type -> result type, subscripts and aggregates. */
#include "sema/sema_int.h"
#include <string.h>

static Val *copy_at(Ctx *c, const Val *v, Loc loc)
{
    Val *r = arena_alloc(c->arena, sizeof *r);
    *r = *v;
    r->loc = loc;
    return r;
}

static Val *literal_int(Ctx *c, AstNode *e)
{
    BigInt v;
    if (!big_parse(e->text, &v)) {
        diag_error(e->loc, "integer literal '%s' is too large (the limit is 512 bits)", e->text);
        return NULL;
    }
    return fold_make_litint(c->arena, v, e->loc);
}

static Val *load_var(Ctx *c, Binding *b, Loc loc)
{
    if (b->type->kind == TY_ARRAY) {
        Val *v = val_runtime(c, b->type, b->slot, loc);
        return v;   /* an array is a place: subscripts load from it */
    }
    FxInst *ld = sema_emit(c, FX_LOAD, 0, b->type, loc, 1, b->slot);
    ld->name = b->name;
    return val_runtime(c, b->type, ld, loc);
}

static Val *name_value(Ctx *c, AstNode *e)
{
    Binding *b = sema_lookup(c, e->name);
    if (!b) {
        diag_error(e->loc, "undefined name '%s'", e->name);
        return NULL;
    }
    switch (b->kind) {
    case B_CONST: {
        Val *v = sema_const_value(c, b, e->loc);
        return v ? copy_at(c, v, e->loc) : NULL;
    }
    case B_VALUE:
    case B_BUILTIN:
        /* A binding without a value was poisoned by an earlier error. */
        return b->val ? copy_at(c, b->val, e->loc) : NULL;
    case B_VAR:
        return load_var(c, b, e->loc);
    case B_FN:
    case B_KERNEL:
    case B_PROGRAM: {
        Val *v = arena_alloc(c->arena, sizeof *v);
        v->type = type_simple(TY_FUNC);
        v->is_static = true;
        v->str = b->name;
        v->decl = b->decl;
        v->loc = e->loc;
        return v;
    }
    }
    return NULL;
}

/* ---- binary operators ---- */

static const char *op_text(AstOp op) { return ast_op_text(op); }

/* The scalar type an operand contributes to promotion (after Boolean and
 * literal normalization). */
static bool operand_scalar(Ctx *c, Val *v, const OpRule *rule, ScalarId *out)
{
    if (v->type->kind == TY_LITINT || v->type->kind == TY_LITFLOAT) {
        bool ok;
        *out = sema_literal_type(c, v, &ok);
        return ok;
    }
    *out = v->type->scalar;
    if (*out == SC_BOOLEAN && rule->boolean == BOOL_TO_INT32)
        *out = SC_INT32;
    return true;
}

static bool check_operand_kinds(Ctx *c, AstOp op, Val *x, Val *y, Loc loc)
{
    if (!sema_is_numeric(x) || !sema_is_numeric(y)) {
        diag_error(loc, "unsupported operand types for '%s': %s and %s", op_text(op),
                   type_name(c->arena, x->type), type_name(c->arena, y->type));
        return false;
    }
    const char *what = op >= OP_LT && op <= OP_NE ? "comparison" : "arithmetic";
    if (sema_reject_narrow(c, x, what) || sema_reject_narrow(c, y, what))
        return false;
    if (x->type->kind == TY_VECTOR && y->type->kind == TY_VECTOR && x->type->lanes != y->type->lanes) {
        diag_error(loc, "vector lane counts differ: %s and %s", type_name(c->arena, x->type),
                   type_name(c->arena, y->type));
        return false;
    }
    return true;
}

static bool is_int_scalar_id(ScalarId s) { return s == SC_BOOLEAN || type_is_int(s); }

/* A static integer divisor/shift count/exponent that is invalid even when the
 * other operand is only known at run time. */
static bool check_static_rhs(Ctx *c, AstOp op, Val *y, ScalarId common)
{
    if (!y->is_static || y->type->kind == TY_VECTOR || !is_int_scalar_id(common))
        return true;
    bool zero = big_is_zero(y->i), neg = big_sign(y->i) < 0;
    if ((op == OP_FLOORDIV || op == OP_MOD || op == OP_DIV) && zero) {
        sema_fold_error(c, FXF_DIV_ZERO, y->loc);
        return false;
    }
    if ((op == OP_SHL || op == OP_SHR) && neg) {
        sema_fold_error(c, FXF_NEG_SHIFT, y->loc);
        return false;
    }
    if (op == OP_POW && neg) {
        sema_fold_error(c, FXF_NEG_POW, y->loc);
        return false;
    }
    return true;
}

static int binop_of(AstOp op)
{
    switch (op) {
    case OP_ADD: return FXB_ADD;
    case OP_SUB: return FXB_SUB;
    case OP_MUL: return FXB_MUL;
    case OP_DIV: return FXB_DIV;
    case OP_FLOORDIV: return FXB_FLOORDIV;
    case OP_MOD: return FXB_MOD;
    case OP_POW: return FXB_POW;
    case OP_BITAND: return FXB_AND;
    case OP_BITOR: return FXB_OR;
    case OP_BITXOR: return FXB_XOR;
    case OP_SHL: return FXB_SHL;
    default: return FXB_SHR;
    }
}

static int cmp_of(AstOp op)
{
    return op == OP_LT ? FXC_LT : op == OP_LE ? FXC_LE : op == OP_GT ? FXC_GT
         : op == OP_GE ? FXC_GE : op == OP_EQ ? FXC_EQ : FXC_NE;
}

static Val *emit_binary(Ctx *c, AstOp op, Val *x, Val *y, const Type *res, Loc loc)
{
    FxInst *a = sema_materialize(c, x), *b = sema_materialize(c, y);
    FxInst *i;
    if (op >= OP_LT && op <= OP_NE)
        i = sema_emit(c, FX_CMP, cmp_of(op), res, loc, 2, a, b);
    else
        i = sema_emit(c, FX_BINOP, binop_of(op), res, loc, 2, a, b);
    if (type_is_float(x->type->scalar))
        i->fmf = c->fmf;
    return val_runtime(c, res, i, loc);
}

static Val *literal_binary(Ctx *c, AstOp op, Val *x, Val *y, Loc loc)
{
    bool floats = x->type->kind == TY_LITFLOAT || y->type->kind == TY_LITFLOAT;
    const OpRule *rule = promote_op_rule(op);
    if (floats && rule->result == RES_INTEGER) {
        diag_error(loc, "unsupported operand types for '%s': bitwise operators need integers, not floats",
                   op_text(op));
        return NULL;
    }
    bool compare = op >= OP_LT && op <= OP_NE;
    if (floats && !compare) {
        x = x->type->kind == TY_LITINT ? fold_make_litfloat(c->arena, fold_as_double(x), x->loc) : x;
        y = y->type->kind == TY_LITINT ? fold_make_litfloat(c->arena, fold_as_double(y), y->loc) : y;
        if ((op == OP_FLOORDIV || op == OP_MOD || op == OP_DIV) && y->f == 0) {
            diag_error(y->loc, "float division by zero in a static literal expression");
            return NULL;
        }
    }
    if (op == OP_POW && fold_as_double(x) == 0 && fold_as_double(y) < 0) {
        diag_error(loc, "0 cannot be raised to a negative power (division by zero)");
        return NULL;
    }
    if (compare)
        return fold_compare(c->arena, cmp_of(op), x, y);
    Val *out = NULL;
    FxFoldStatus st = fold_binary(c->arena, binop_of(op), x, y, SC_COUNT, &out);
    if (st != FXF_OK) {
        sema_fold_error(c, st, st == FXF_TOO_LARGE ? loc : y->loc);
        return NULL;
    }
    return out;
}

/* Whether integer operand v (of scalar type s) can change value when
 * converted to `common`: a negative value meeting an unsigned type, or an
 * unsigned one too big for a signed type of its width or less. A static
 * operand is judged by its value (`u < 10` is exact; `u > -1` is not). */
static bool may_change_sign(const Val *v, ScalarId s, ScalarId common)
{
    const ScalarInfo *from = type_info(s), *to = type_info(common);
    bool literal = v->type->kind == TY_LITINT;
    if ((from->is_signed || literal) && !to->is_signed)
        return !v->is_static || big_sign(v->i) < 0;
    if (!from->is_signed && to->is_signed && to->width <= from->width)
        return !v->is_static || !big_fits(v->i, to->width, true);
    return false;
}

/* -Wsign-compare: a comparison of a signed and an unsigned integer whose
 * common type gives, for some operand values, another answer than the
 * mathematical comparison (Int32(-1) < Uint32(1) is False). */
static void warn_sign_compare(Ctx *c, const Val *x, const Val *y, ScalarId sx, ScalarId sy, ScalarId common,
                              Loc loc)
{
    if (!type_is_int(sx) || !type_is_int(sy) || (x->is_static && y->is_static))
        return;
    bool sgx = type_info(sx)->is_signed || x->type->kind == TY_LITINT;
    bool sgy = type_info(sy)->is_signed || y->type->kind == TY_LITINT;
    if (sgx == sgy || sx == SC_BOOLEAN || sy == SC_BOOLEAN)
        return;
    if (!may_change_sign(x, sx, common) && !may_change_sign(y, sy, common))
        return;
    const Val *neg = sgx ? x : y;
    warn_at(WARN_SIGN_COMPARE, loc, "comparison of %s and %s: both become %s, so %s compares as a large "
            "value when negative; convert one side explicitly (e.g. to %s)",
            type_name(c->arena, x->type), type_name(c->arena, y->type), type_info(common)->name,
            neg->type->kind == TY_LITINT ? "the literal" : "the signed side",
            type_info(common)->width >= 64 ? "Int128" : "Int64");
}

/* p + k, k + p, p - k: the Ptr k elements further (C's pointer
 * arithmetic; k is taken modulo 2**64 as an address offset is). */
static Val *pointer_arith(Ctx *c, AstOp op, Val *x, Val *y, Loc loc)
{
    Val *p = x->type->kind == TY_PTR ? x : y, *k = p == x ? y : x;
    if ((op != OP_ADD && op != OP_SUB) || (op == OP_SUB && p != x) || k->type->kind == TY_PTR) {
        diag_error(loc, "unsupported operand types for '%s': %s and %s (a Ptr moves by an integer: p + k, "
                   "k + p, p - k)", op_text(op), type_name(c->arena, x->type), type_name(c->arena, y->type));
        return NULL;
    }
    bool integer = k->type->kind == TY_LITINT || (k->type->kind == TY_SCALAR && type_is_int(k->type->scalar) &&
                                                  k->type->scalar != SC_BOOLEAN);
    if (!integer) {
        diag_error(k->loc, "a Ptr moves by an integer number of elements, got %s", type_name(c->arena, k->type));
        return NULL;
    }
    if (k->type->kind == TY_LITINT || op == OP_SUB) {
        k = sema_convert(c, k, type_scalar(SC_INT64), FF_RNE, false, k->loc);
        if (k && op == OP_SUB)
            k = sema_unary_value(c, OP_NEG, k, k->loc);
        if (!k)
            return NULL;
    }
    return sema_ptr_view(c, p, k, p->type, loc);
}

Val *sema_ptr_view(Ctx *c, Val *p, Val *k, const Type *t, Loc loc)
{
    FxInst *i = sema_emit(c, FX_PTR_OFFSET, 0, t, loc, 2, p->ir, sema_materialize(c, k));
    return val_runtime(c, t, i, loc);
}

Val *sema_binary_values(Ctx *c, AstOp op, Val *x, Val *y, Loc loc)
{
    if (op == OP_MATMUL) {
        diag_error(loc, "'@' (matrix multiply) is only allowed on tensors in a program");
        return NULL;
    }
    if (x->type->kind == TY_TYPE && y->type->kind == TY_TYPE && (op == OP_EQ || op == OP_NE))
        return fold_make_bool(c->arena, type_equal(x->tval, y->tval) == (op == OP_EQ), loc);
    if (x->type->kind == TY_FASTMATH && y->type->kind == TY_FASTMATH && op == OP_BITOR) {
        Val *r = arena_alloc(c->arena, sizeof *r);
        *r = *x;
        r->flags = x->flags | y->flags;
        r->loc = loc;
        return r;
    }
    if (x->type->kind == TY_PTR || y->type->kind == TY_PTR)
        return pointer_arith(c, op, x, y, loc);
    if (!check_operand_kinds(c, op, x, y, loc))
        return NULL;
    bool lx = x->type->kind == TY_LITINT || x->type->kind == TY_LITFLOAT;
    bool ly = y->type->kind == TY_LITINT || y->type->kind == TY_LITFLOAT;
    if (lx && ly)
        return literal_binary(c, op, x, y, loc);
    const OpRule *rule = promote_op_rule(op);
    ScalarId sx, sy;
    if (!operand_scalar(c, x, rule, &sx) || !operand_scalar(c, y, rule, &sy))
        return NULL;
    if (rule->result == RES_INTEGER && (!is_int_scalar_id(sx) || !is_int_scalar_id(sy))) {
        diag_error(loc, "unsupported operand types for '%s': %s and %s (bitwise operators and shifts "
                   "need integers; use x.bitcast(Int32) to work on a float's bits)", op_text(op),
                   type_info(sx)->name, type_info(sy)->name);
        return NULL;
    }
    ScalarId common = promote_common(sx, sy);
    ScalarId result = promote_result(rule, common);
    if (op >= OP_LT && op <= OP_NE)
        warn_sign_compare(c, x, y, sx, sy, common, loc);
    if (!check_static_rhs(c, op, y, common))
        return NULL;
    /* Integer true division converts both operands to the float result type. */
    ScalarId operand_type = rule->result == RES_TRUEDIV ? result : common;
    const Type *shape = x->type->kind == TY_VECTOR ? x->type : y->type;
    const Type *ot = sema_vector_of(shape, operand_type);
    const Type *rt = sema_vector_of(shape, result);
    /* Operands are converted to the common type first (so a signed -1 meeting
     * an unsigned type becomes its maximum), then, for integer true division,
     * to the float result type. */
    if (operand_type != common) {
        x = sema_convert(c, x, sema_vector_of(shape, common), FF_RNE, false, x->loc);
        y = x ? sema_convert(c, y, sema_vector_of(shape, common), FF_RNE, false, y->loc) : NULL;
        if (!x || !y)
            return NULL;
    }
    if (x->is_static && y->is_static) {
        Val *cx = fold_convert(c->arena, x, operand_type, FF_RNE, x->loc);
        Val *cy = fold_convert(c->arena, y, operand_type, FF_RNE, y->loc);
        if (op >= OP_LT && op <= OP_NE) {
            Val *out = fold_compare(c->arena, cmp_of(op), cx, cy);
            out->loc = loc;
            return out;
        }
        Val *out = NULL;
        FxFoldStatus st = fold_binary(c->arena, binop_of(op), cx, cy, result, &out);
        if (st != FXF_OK) {
            sema_fold_error(c, st, y->loc);
            return NULL;
        }
        out->loc = loc;
        return out;
    }
    Val *cx = sema_convert(c, x, ot, FF_RNE, false, x->loc);
    Val *cy = sema_convert(c, y, ot, FF_RNE, false, y->loc);
    if (!cx || !cy)
        return NULL;
    return emit_binary(c, op, cx, cy, rt, loc);
}

/* ---- boolean connectives ---- */

static bool require_boolean(Ctx *c, Val *v, const char *what)
{
    if (v->type->kind == TY_SCALAR && v->type->scalar == SC_BOOLEAN)
        return true;
    diag_error(v->loc, "'%s' takes Boolean operands, got %s; compare explicitly (e.g. x != 0)", what,
               type_name(c->arena, v->type));
    return false;
}

static Val *logical(Ctx *c, AstNode *e)
{
    const char *what = e->op == OP_AND ? "and" : "or";
    Val *x = sema_expr(c, e->a);
    if (!x || !require_boolean(c, x, what))
        return NULL;
    /* Short-circuit on a static left operand: the right one is not used. */
    if (x->is_static) {
        bool t = fold_truthy(x);
        if ((e->op == OP_AND && !t) || (e->op == OP_OR && t)) {
            Val *r = fold_make_bool(c->arena, t, e->loc);
            return r;
        }
        Val *y = sema_expr(c, e->b);
        if (!y || !require_boolean(c, y, what))
            return NULL;
        return y->is_static ? fold_make_bool(c->arena, fold_truthy(y), e->loc) : y;
    }
    Val *y = sema_expr(c, e->b);
    if (!y || !require_boolean(c, y, what))
        return NULL;
    FxInst *a = x->ir, *b = sema_materialize(c, y);
    const Type *bt = type_scalar(SC_BOOLEAN);
    return val_runtime(c, bt, sema_emit(c, FX_BINOP, e->op == OP_AND ? FXB_AND : FXB_OR, bt,
                                        e->loc, 2, a, b), e->loc);
}

/* ---- unary operators ---- */

Val *sema_unary_value(Ctx *c, AstOp op, Val *x, Loc loc)
{
    if (op == OP_NOT) {
        if (!require_boolean(c, x, "not"))
            return NULL;
        if (x->is_static)
            return fold_make_bool(c->arena, !fold_truthy(x), loc);
        return val_runtime(c, x->type, sema_emit(c, FX_UNOP, FXU_INVERT, x->type, loc, 1, x->ir), loc);
    }
    if (!sema_is_numeric(x)) {
        diag_error(loc, "bad operand type for unary '%s': %s", ast_op_text(op),
                   type_name(c->arena, x->type));
        return NULL;
    }
    if (sema_reject_narrow(c, x, "arithmetic"))
        return NULL;
    bool is_lit = x->type->kind == TY_LITINT || x->type->kind == TY_LITFLOAT;
    ScalarId s = is_lit ? SC_COUNT : x->type->scalar;
    if (op == OP_INVERT && (x->type->kind == TY_LITFLOAT || (s != SC_COUNT && type_is_float(s)))) {
        diag_error(loc, "bad operand type for unary '~': bitwise operators need integers, got %s",
                   is_lit ? "a float literal" : type_info(s)->name);
        return NULL;
    }
    /* Arithmetic on Boolean happens in Int32 (seed: Boolean in arithmetic). */
    if (s == SC_BOOLEAN && (op == OP_NEG || op == OP_POS)) {
        x = sema_convert(c, x, sema_vector_of(x->type, SC_INT32), FF_RNE, false, loc);
        s = SC_INT32;
    }
    if (op == OP_POS)
        return x;
    if (x->is_static) {
        Val *out = fold_unary(c->arena, op == OP_NEG ? FXU_NEG : FXU_INVERT, x);
        out->loc = loc;
        return out;
    }
    int sub = op == OP_NEG ? FXU_NEG : FXU_INVERT;
    FxInst *i = sema_emit(c, FX_UNOP, sub, x->type, loc, 1, x->ir);
    if (type_is_float(s))
        i->fmf = c->fmf;
    return val_runtime(c, x->type, i, loc);
}

/* ---- subscripts: generic types, pointers, arrays, vector lanes ---- */

static bool index_operand(Ctx *c, Val *v)
{
    if (v->type->kind == TY_LITINT)
        return true;
    if (v->type->kind == TY_SCALAR && type_is_int(v->type->scalar))
        return true;
    diag_error(v->loc, "an index must be an integer, got %s", type_name(c->arena, v->type));
    return false;
}

static FxInst *index_ir(Ctx *c, Val *v)
{
    if (v->type->kind == TY_LITINT) {
        bool ok;
        ScalarId s = sema_literal_type(c, v, &ok);
        v = fold_convert(c->arena, v, ok ? s : SC_INT64, FF_RNE, v->loc);
    }
    return sema_materialize(c, v);
}

Val *sema_generic_type(Ctx *c, Val *base, AstNode *e);

static Val *subscript(Ctx *c, AstNode *e)
{
    Val *base = sema_expr(c, e->a);
    if (!base)
        return NULL;
    if (base->type->kind == TY_FUNC && base->decl == NULL)
        return sema_generic_type(c, base, e);
    if (base->type->kind == TY_VECTOR) {
        if (e->list.len != 1) {
            diag_error(e->loc, "a vector takes one lane index");
            return NULL;
        }
        Val *i = sema_expr(c, e->list.items[0]);
        if (!i || !index_operand(c, i))
            return NULL;
        if (i->is_static && (big_sign(i->i) < 0 || big_cmp(i->i, big_from_i64(base->type->lanes)) >= 0)) {
            diag_error(i->loc, "lane index out of range for %s", type_name(c->arena, base->type));
            return NULL;
        }
        const Type *et = type_scalar(base->type->scalar);
        return val_runtime(c, et, sema_emit(c, FX_EXTRACT, 0, et, e->loc, 2, base->ir, index_ir(c, i)),
                           e->loc);
    }
    if (base->type->kind != TY_PTR && base->type->kind != TY_ARRAY) {
        diag_error(e->a->loc, "a value of type %s cannot be subscripted", type_name(c->arena, base->type));
        return NULL;
    }
    int want = base->type->kind == TY_PTR ? 1 : base->type->ndims;
    if (e->list.len != want) {
        diag_error(e->loc, "%s takes %d index%s, got %d", type_name(c->arena, base->type), want,
                   want == 1 ? "" : "es", e->list.len);
        return NULL;
    }
    FxInst **idx = arena_alloc(c->arena, sizeof(FxInst *) * (size_t)want);
    for (int k = 0; k < want; k++) {
        Val *i = sema_expr(c, e->list.items[k]);
        if (!i || !index_operand(c, i))
            return NULL;
        if (base->type->kind == TY_ARRAY && i->is_static &&
            (big_sign(i->i) < 0 ||
             (!type_is_dyn_array(base->type) && big_cmp(i->i, big_from_i64(base->type->dims[k])) >= 0))) {
            diag_error(i->loc, "index out of range: dimension %d of %s has %lld elements", k,
                       type_name(c->arena, base->type), (long long)base->type->dims[k]);
            return NULL;
        }
        idx[k] = index_ir(c, i);
    }
    FxInst *ld = fxb_load(sema_builder(c, e->loc), base->ir, base->type->elem, want, idx);
    return val_runtime(c, base->type->elem, ld, e->loc);
}

/* ---- aggregates ---- */

static Val *sequence(Ctx *c, AstNode *e, char seq)
{
    Val *v = arena_alloc(c->arena, sizeof *v);
    v->nelems = e->list.len;
    v->elems = arena_alloc(c->arena, sizeof(Val *) * (size_t)(v->nelems ? v->nelems : 1));
    const Type **types = arena_alloc(c->arena, sizeof(Type *) * (size_t)(v->nelems ? v->nelems : 1));
    v->is_static = true;
    for (int i = 0; i < v->nelems; i++) {
        v->elems[i] = sema_expr(c, e->list.items[i]);
        if (!v->elems[i])
            return NULL;
        types[i] = v->elems[i]->type;
        v->is_static &= v->elems[i]->is_static;
    }
    v->type = type_tuple(c->arena, v->nelems, types);
    v->seq = seq;
    v->loc = e->loc;
    return v;
}

/* ---- the conditional expression ---- */

/* Type-check an arm a static condition drops: its code goes to a scratch
 * block that is discarded, and what the target lacks is no error there (as
 * in a dropped branch of a static if). */
static Val *check_dropped_arm(Ctx *c, AstNode *arm)
{
    FxBlock scratch = { 0 }, *saved = c->block;
    bool saved_discard = c->discard;
    c->block = &scratch;
    c->discard = true;
    Val *v = sema_expr(c, arm);
    c->block = saved;
    c->discard = saved_discard;
    return v;
}

/* The type both arms of a choice convert to. */
static const Type *arms_type(Ctx *c, Val **arms, AstNode *e)
{
    for (int i = 0; i < 2; i++)
        if (!sema_is_numeric(arms[i])) {
            diag_error(arms[i]->loc, "the arms of a run-time 'a if c else b' must be numbers or vectors (as a var's value), got %s",
                       type_name(c->arena, arms[i]->type));
            return NULL;
        }
    if (arms[0]->type->kind == TY_VECTOR && arms[1]->type->kind == TY_VECTOR &&
        arms[0]->type->lanes != arms[1]->type->lanes) {
        diag_error(e->loc, "the arms of 'a if c else b' have %d and %d lanes", arms[0]->type->lanes,
                   arms[1]->type->lanes);
        return NULL;
    }
    const Type *t;
    return sema_choice_type(c, arms, 2, "a if c else b", &t) ? t : NULL;
}

/* Two untyped literals of one kind stay an untyped literal, so that
 * `const BLOCK = 256 if WIDE else 128` adapts to its uses as 256 would. */
static bool both_literals_of_a_kind(const Val *x, const Val *y)
{
    TypeKind k = x->type->kind;
    return (k == TY_LITINT || k == TY_LITFLOAT) && y->type->kind == k;
}

/* A static condition: the chosen arm, in the arms' common type when both
 * are numbers (so that the type does not depend on whether the condition
 * happens to be static); other values (tuples, strings) pass as they are,
 * as in Python. */
static Val *static_choice(Ctx *c, AstNode *e, bool taken)
{
    Val *dropped = check_dropped_arm(c, taken ? e->c : e->a);
    Val *chosen = dropped ? sema_expr(c, taken ? e->a : e->c) : NULL;
    if (!chosen)
        return NULL;
    if (!sema_is_numeric(chosen) || !sema_is_numeric(dropped) || both_literals_of_a_kind(chosen, dropped))
        return chosen;
    Val *arms[2] = { taken ? chosen : dropped, taken ? dropped : chosen };
    const Type *t = arms_type(c, arms, e);
    return t ? sema_convert(c, chosen, t, FF_RNE, false, chosen->loc) : NULL;
}

/* Converts an arm in its own block and stores it in the result's slot. */
static bool store_arm(Ctx *c, FxBlock *block, FxInst *slot, Val *v, const Type *t)
{
    FxBlock *saved = c->block;
    c->block = block;
    v = sema_convert(c, v, t, FF_RNE, false, v->loc);
    if (v)
        sema_emit(c, FX_STORE, 0, type_simple(TY_VOID), v->loc, 2, slot, sema_materialize(c, v));
    c->block = saved;
    return v != NULL;
}

/* Whether the code of an arm has no effect anyone could see: no memory
 * access, call, atomic, output, synchronization or nested control. (Integer
 * arithmetic cannot trap in fx: x // 0 is 0.) */
static bool arm_is_pure(const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        switch (i->op) {
        case FX_LOAD: case FX_STORE: case FX_CALL: case FX_ATOMIC: case FX_PRINT: case FX_ASSERT:
        case FX_BARRIER: case FX_FENCE: case FX_WAVE: case FX_MFMA: case FX_ALLOCA:
            return false;
        default:
            if (i->nblocks > 0)
                return false;
        }
    }
    return true;
}

/* Moves the instructions of b in front of `before`. */
static void hoist_block(FxBlock *b, FxInst *before)
{
    while (b->first) {
        FxInst *i = b->first;
        fxir_remove(i);
        fxir_insert_before(before, i);
    }
}

/* Pointer arms (`a if flag else b`, HIP's `flag ? a : b`): a pointer is not
 * a var's value, so there is no slot to meet in. When computing both arms
 * has no visible effect, computing both and selecting is the lazy
 * conditional; otherwise the arms must be simplified. */
static Val *pointer_choice(Ctx *c, AstNode *e, FxInst *br, Val **arms)
{
    if (!type_equal(arms[0]->type, arms[1]->type)) {
        diag_error(e->loc, "the arms of 'a if c else b' are %s and %s; pointer arms must have the same type",
                   type_name(c->arena, arms[0]->type), type_name(c->arena, arms[1]->type));
        return NULL;
    }
    for (int k = 0; k < 2; k++)
        if (!arm_is_pure(&br->blocks[k])) {
            diag_error(arms[k]->loc, "a pointer arm of 'a if c else b' may only compute an address (no loads, "
                       "calls or atomics): compute the offset before the conditional");
            return NULL;
        }
    hoist_block(&br->blocks[0], br);
    hoist_block(&br->blocks[1], br);
    FxInst *cond = br->ops[0];
    fxir_remove(br);
    FxInst *sel = fxb_select(sema_builder(c, e->loc), cond, sema_materialize(c, arms[0]),
                             sema_materialize(c, arms[1]));
    return val_runtime(c, arms[0]->type, sel, e->loc);
}

/* conditional = expr "if" cond "else" expr: Python's, lazy. A static
 * condition keeps only the chosen arm (a static value stays static; the
 * other arm is still checked); a run-time one branches, and only the
 * chosen arm runs, so `x[i] if i < n else 0` never reads x[n]. The arms
 * meet in the type `.select` would give them. */
static Val *conditional(Ctx *c, AstNode *e)
{
    Val *cond = sema_expr(c, e->b);
    if (!cond)
        return NULL;
    if (cond->type->kind != TY_SCALAR || cond->type->scalar != SC_BOOLEAN) {
        diag_error(e->b->loc, "the condition of 'a if c else b' must be a Boolean, got %s; compare explicitly "
                   "(e.g. x != 0)", type_name(c->arena, cond->type));
        return NULL;
    }
    if (cond->is_static)
        return static_choice(c, e, fold_truthy(cond));
    FxInst *br = fxb_if(sema_builder(c, e->loc), cond->ir);
    FxBlock *saved = c->block;
    Val *arms[2];
    c->block = &br->blocks[0];
    arms[0] = sema_expr(c, e->a);
    c->block = &br->blocks[1];
    arms[1] = sema_expr(c, e->c);
    c->block = saved;
    if (arms[0] && arms[1] && arms[0]->type->kind == TY_PTR && arms[1]->type->kind == TY_PTR)
        return pointer_choice(c, e, br, arms);
    const Type *t = arms[0] && arms[1] ? arms_type(c, arms, e) : NULL;
    if (!t)
        return NULL;
    FxBuilder *b = sema_builder(c, e->loc);
    fxb_before(b, br);   /* the slot must dominate both arms' stores */
    FxInst *slot = fxb_emit(b, FX_ALLOCA, 0, t, 0);
    slot->space = FXSPACE_PRIVATE;
    if (!store_arm(c, &br->blocks[0], slot, arms[0], t) || !store_arm(c, &br->blocks[1], slot, arms[1], t))
        return NULL;
    return val_runtime(c, t, sema_emit(c, FX_LOAD, 0, t, e->loc, 1, slot), e->loc);
}

static Val *expr_of_kind(Ctx *c, AstNode *e);

Val *sema_expr(Ctx *c, AstNode *e)
{
    if (!sema_enter(c, e->loc))
        return NULL;
    Val *v = expr_of_kind(c, e);
    sema_leave(c);
    return v;
}

static Val *expr_of_kind(Ctx *c, AstNode *e)
{
    switch (e->kind) {
    case AST_INT: return literal_int(c, e);
    case AST_FLOAT: return fold_make_litfloat(c->arena, e->fval, e->loc);
    case AST_BOOL: return fold_make_bool(c->arena, e->bval, e->loc);
    case AST_STRING: {
        Val *v = arena_alloc(c->arena, sizeof *v);
        v->type = type_simple(TY_STRING);
        v->is_static = true;
        v->str = e->text;
        v->loc = e->loc;
        return v;
    }
    case AST_NAME: return name_value(c, e);
    case AST_BINARY: {
        if (e->op == OP_AND || e->op == OP_OR)
            return logical(c, e);
        Val *x = sema_expr(c, e->a);
        Val *y = x ? sema_expr(c, e->b) : NULL;
        return y ? sema_binary_values(c, e->op, x, y, e->loc) : NULL;
    }
    case AST_UNARY: {
        Val *x = sema_expr(c, e->a);
        return x ? sema_unary_value(c, e->op, x, e->loc) : NULL;
    }
    case AST_IFEXP: return conditional(c, e);
    case AST_CALL: return sema_call(c, e);
    case AST_ATTR: return sema_attr(c, e);
    case AST_INDEX: return subscript(c, e);
    case AST_TUPLE: return sequence(c, e, '(');
    case AST_LIST: return sequence(c, e, '[');
    case AST_SET: return sequence(c, e, '{');
    case AST_KWARG:
        diag_error(e->loc, "keyword argument '%s=' outside a call", e->name);
        return NULL;
    default:
        diag_error(e->loc, "expected an expression");
        return NULL;
    }
}

Val *sema_expr_static(Ctx *c, AstNode *e, const char *what)
{
    Val *v = sema_expr(c, e);
    if (v && !v->is_static) {
        diag_error(e->loc, "%s must be a compile-time (static) value, but this is a run-time value", what);
        Binding *b = e->kind == AST_NAME ? sema_lookup(c, e->name) : NULL;
        if (b && b->decl && (b->kind == B_VALUE || b->kind == B_VAR))
            diag_note(b->decl->loc, "'%s' is a run-time value: it is defined here", e->name);
        return NULL;
    }
    return v;
}

bool sema_static_int(Ctx *c, AstNode *e, const char *what, int64_t *out)
{
    Val *v = sema_expr_static(c, e, what);
    if (!v)
        return false;
    bool is_int = v->type->kind == TY_LITINT ||
                  (v->type->kind == TY_SCALAR && type_is_int(v->type->scalar));
    if (!is_int || !big_fits(v->i, 64, true)) {
        diag_error(e->loc, "%s must be a static integer, got %s", what, type_name(c->arena, v->type));
        return false;
    }
    *out = big_to_i64(v->i);
    return true;
}

const Type *sema_type_expr(Ctx *c, AstNode *e)
{
    Val *v = sema_expr(c, e);
    if (!v)
        return NULL;
    if (v->type->kind != TY_TYPE) {
        diag_error(e->loc, "expected a type, got a value of type %s", type_name(c->arena, v->type));
        return NULL;
    }
    return v->tval;
}

/* ---- generic types: Ptr[T], Array[T, d...], Tensor[T, d..., col_major] ---- */

static const Type *element_type(Ctx *c, AstNode *e, const char *generic)
{
    const Type *t = sema_type_expr(c, e);
    if (t && t->kind != TY_SCALAR && t->kind != TY_VECTOR) {
        diag_error(e->loc, "%s elements must be a scalar or vector type, got %s", generic,
                   type_name(c->arena, t));
        return NULL;
    }
    return t;
}

static bool tensor_dim(Ctx *c, AstNode *d, int64_t *dim, const char **name)
{
    *name = NULL;
    if (d->kind == AST_NAME) {
        Binding *b = sema_lookup(c, d->name);
        if (!b || b->kind == B_VALUE) {
            /* A symbolic dim: the name of an Int32 parameter of the program. */
            *dim = -1;
            *name = d->name;
            return true;
        }
    }
    return sema_static_int(c, d, "a Tensor dimension", dim);
}

Val *sema_generic_type(Ctx *c, Val *base, AstNode *e)
{
    const char *g = base->str;
    bool is_ptr = strcmp(g, "Ptr") == 0, is_array = strcmp(g, "Array") == 0, is_tensor = strcmp(g, "Tensor") == 0;
    if (!is_ptr && !is_array && !is_tensor) {
        diag_error(e->a->loc, "'%s' cannot be subscripted", g);
        return NULL;
    }
    int n = e->list.len;
    if (is_ptr && n != 1) {
        diag_error(e->loc, "Ptr takes one element type: Ptr[T]");
        return NULL;
    }
    if (!is_ptr && n < 2) {
        diag_error(e->loc, "%s needs an element type and at least one dimension: %s[T, d0, ...]", g, g);
        return NULL;
    }
    const Type *elem = element_type(c, e->list.items[0], g);
    if (!elem)
        return NULL;
    Val *v = arena_alloc(c->arena, sizeof *v);
    v->type = type_simple(TY_TYPE);
    v->is_static = true;
    v->loc = e->loc;
    if (is_ptr) {
        v->tval = type_ptr(c->arena, elem, false);
        return v;
    }
    int64_t *dims = arena_alloc(c->arena, sizeof(int64_t) * (size_t)n);
    const char **names = arena_alloc(c->arena, sizeof(char *) * (size_t)n);
    int nd = 0;
    bool col_major = false;
    /* docs/limits.md: the bytes of the static dims, checked as they multiply */
    int64_t bytes = type_storage_bits(elem) / 8 > 0 ? type_storage_bits(elem) / 8 : 1;
    const int64_t max_bytes = is_tensor ? (INT64_C(1) << 62) : (INT64_C(1) << 31) - 1;
    for (int k = 1; k < n; k++) {
        AstNode *d = e->list.items[k];
        if (is_tensor && k == n - 1 && d->kind == AST_NAME && strcmp(d->name, "col_major") == 0) {
            col_major = true;
            continue;
        }
        if (nd == SEMA_MAX_DIMS) {
            diag_error(d->loc, "%s has at most %d dimensions (docs/limits.md)", g, SEMA_MAX_DIMS);
            return NULL;
        }
        if (is_array && d->kind == AST_NAME && strcmp(d->name, "DYN") == 0 && !sema_lookup(c, "DYN")) {
            if (n != 2) {
                diag_error(d->loc, "DYN is the length of a one-dimensional dynamic shared array, "
                           "Array[T, DYN]; it cannot be one of several dimensions");
                return NULL;
            }
            dims[nd++] = TYPE_DIM_DYN;   /* given at launch: no static size to check */
            continue;
        }
        if (is_tensor ? !tensor_dim(c, d, &dims[nd], &names[nd])
                      : !sema_static_int(c, d, "an Array dimension", &dims[nd]))
            return NULL;
        if (!names[nd] && dims[nd] <= 0) {
            diag_error(d->loc, "%s dimensions must be positive, got %lld", g, (long long)dims[nd]);
            return NULL;
        }
        if (!names[nd] && (dims[nd] > max_bytes / bytes)) {
            diag_error(d->loc, "this %s would hold more than %lld bytes, the most %s may hold (docs/limits.md)", g,
                       (long long)max_bytes, is_tensor ? "a Tensor" : "an Array");
            return NULL;
        }
        if (!names[nd])
            bytes *= dims[nd];
        nd++;
    }
    v->tval = is_tensor ? type_tensor(c->arena, elem, nd, dims, names, col_major)
                        : type_array(c->arena, elem, nd, dims);
    return v;
}
