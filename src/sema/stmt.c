/* stmt.c - statements, and lowering of fns and kernels to FXIR. */
#include "sema/sema_int.h"
#include <string.h>

static void stmt(Ctx *c, AstNode *s);

static FxInst *const_int(Ctx *c, ScalarId t, int64_t v, Loc loc)
{
    return fxb_int(sema_builder(c, loc), type_scalar(t), v);
}

static FxInst *zero_of(Ctx *c, const Type *t, Loc loc)
{
    FxInst *z = const_int(c, t->scalar, 0, loc);   /* all-zero bits: 0, +0.0, False */
    z->type = type_scalar(t->scalar);
    if (t->kind == TY_VECTOR)
        return sema_emit(c, FX_SPLAT, 0, t, loc, 1, z);
    return z;
}

/* Run `body` in a nested scope. */
static void scoped_block(Ctx *c, AstNode *block)
{
    Scope s;
    sema_push_scope(c, &s);
    sema_block(c, block);
    sema_pop_scope(c);
}

static bool ends_in_jump(const FxBlock *b)
{
    return b->last && (b->last->op == FX_RETURN || b->last->op == FX_BREAK || b->last->op == FX_CONTINUE);
}

/* -Wunreachable-code: statement i follows a return, break or continue
 * written in the same block (not one a static condition chose: code after
 * `if DEBUG { return }` is configuration, not a mistake). */
static void warn_unreachable(AstNode *block, int i)
{
    AstKind prev = i > 0 ? block->list.items[i - 1]->kind : AST_BLOCK;
    if (prev != AST_RETURN && prev != AST_BREAK && prev != AST_CONTINUE)
        return;
    const char *what = prev == AST_RETURN ? "return" : prev == AST_BREAK ? "break" : "continue";
    warn_at(WARN_UNREACHABLE_CODE, block->list.items[i]->loc, "this statement never runs: it follows a '%s'", what);
}

/* Statements after a return, break or continue never run: they are still
 * checked, but their code goes to a scratch block that is dropped, so no
 * FXIR follows a jump (the verifier's rule). */
void sema_block(Ctx *c, AstNode *block)
{
    if (!sema_enter(c, block->loc))
        return;
    for (int i = 0; i < block->list.len; i++) {
        if (!ends_in_jump(c->block)) {
            stmt(c, block->list.items[i]);
            if (!c->fn || !c->fn->unrolling)   /* straight-line code counts too */
                sema_grow(c, 0, block->list.items[i]->loc, NULL);
            continue;
        }
        warn_unreachable(block, i);
        FxBlock scratch = { 0 }, *saved = c->block;
        bool saved_ret = c->fn ? c->fn->returned : false;
        c->block = &scratch;
        for (; i < block->list.len; i++)
            stmt(c, block->list.items[i]);
        c->block = saved;
        if (c->fn)
            c->fn->returned = saved_ret;
    }
    sema_leave(c);
}

/* ---- declarations ---- */

/* The type a `var` takes from its initializer when none is written:
 * literals normalize as in seed 000 (Int32/Int64, Float32). */
static const Type *inferred_type(Ctx *c, Val *v)
{
    if (v->type->kind == TY_LITINT || v->type->kind == TY_LITFLOAT) {
        bool ok;
        ScalarId s = sema_literal_type(c, v, &ok);
        return ok ? type_scalar(s) : NULL;
    }
    if (v->type->kind == TY_SCALAR || v->type->kind == TY_VECTOR)
        return v->type;
    diag_error(v->loc, "a var must hold a number or a vector, not %s", type_name(c->arena, v->type));
    return NULL;
}

static void poison(Ctx *c, AstNode *s, const char *name);

/* Whether declaration s bound name (not an earlier one it would hide). */
static bool bound_by(Ctx *c, const char *name, AstNode *s)
{
    Binding *b = sema_lookup_local(c, name);
    return b && b->decl == s;
}

static void let_stmt_checked(Ctx *c, AstNode *s)
{
    Val *v = sema_expr(c, s->b);
    if (!v)
        return;
    if (s->list2.len) {
        if (v->type->kind != TY_TUPLE || v->nelems != s->list2.len) {
            diag_error(s->b->loc, "cannot unpack %s into %d names", type_name(c->arena, v->type), s->list2.len);
            return;
        }
        for (int i = 0; i < s->list2.len; i++)
            sema_bind(c, s->list2.items[i]->name, B_VALUE, s)->val = v->elems[i];
        return;
    }
    if (s->a) {
        const Type *t = sema_type_expr(c, s->a);
        if (!t || !(v = sema_assign_convert_expr(c, v, t, s->b)))
            return;
    }
    if (v->ir && !v->ir->name)
        v->ir->name = s->name;
    sema_bind(c, s->name, B_VALUE, s)->val = v;
}

/* A let that failed still binds its names, poisoned, whatever step failed
 * (its value, its declared type, the conversion, the unpacking), so that
 * later uses report nothing more: one error, not a cascade of "undefined
 * name". */
static void let_stmt(Ctx *c, AstNode *s)
{
    int errors = diag_error_count();
    let_stmt_checked(c, s);
    if (diag_error_count() == errors)
        return;
    if (s->name && !bound_by(c, s->name, s))
        poison(c, s, s->name);
    for (int i = 0; i < s->list2.len; i++)
        if (!bound_by(c, s->list2.items[i]->name, s))
            poison(c, s, s->list2.items[i]->name);
}

static bool in_kernel(Ctx *c, Loc loc, const char *what)
{
    if (c->fn && !c->fn->is_eval)
        return true;
    diag_error(loc, "%s is only allowed inside a kernel or fn", what);
    return false;
}

static FxInst *new_slot(Ctx *c, const Type *t, FxSpace space, const char *name, Loc loc)
{
    FxInst *slot = sema_emit(c, FX_ALLOCA, 0, t, loc, 0);
    slot->space = space;
    slot->name = name;
    return slot;
}

/* Bind `name` without a value, so later uses of a declaration that failed
 * report nothing more (one error, not a cascade). */
static void poison(Ctx *c, AstNode *s, const char *name)
{
    sema_bind(c, name, B_VALUE, s);
}

static void var_stmt_checked(Ctx *c, AstNode *s);

static void var_stmt(Ctx *c, AstNode *s)
{
    int errors = diag_error_count();
    var_stmt_checked(c, s);
    if (diag_error_count() != errors && !bound_by(c, s->name, s))
        poison(c, s, s->name);
}

static void var_stmt_checked(Ctx *c, AstNode *s)
{
    if (!in_kernel(c, s->loc, "var"))
        return;
    const Type *t = s->a ? sema_type_expr(c, s->a) : NULL;
    if (s->a && !t)
        return;
    Val *init = s->b ? sema_expr(c, s->b) : NULL;
    if (s->b && !init)
        return;
    if (!t && !(t = inferred_type(c, init)))
        return;
    if (t->kind == TY_ARRAY) {
        if (init) {
            diag_error(s->b->loc, "an Array var cannot have an initializer; it starts zero-filled");
            return;
        }
        if (type_is_dyn_array(t)) {
            diag_error(s->a->loc, "only a shared array has a dynamic length: write `shared %s: %s` in the "
                       "kernel", s->name, type_name(c->arena, t));
            return;
        }
    } else if (t->kind != TY_SCALAR && t->kind != TY_VECTOR) {
        diag_error(s->a->loc, "a var must have a scalar, vector or Array type, not %s", type_name(c->arena, t));
        return;
    }
    FxInst *slot = new_slot(c, t, FXSPACE_PRIVATE, s->name, s->loc);
    if (t->kind != TY_ARRAY) {
        FxInst *value;
        if (init) {
            Val *v = sema_assign_convert_expr(c, init, t, s->b);
            if (!v)
                return;
            value = sema_materialize(c, v);
        } else {
            value = zero_of(c, t, s->loc);
        }
        sema_emit(c, FX_STORE, 0, VOID_TYPE, s->loc, 2, slot, value);
    }
    Binding *b = sema_bind(c, s->name, B_VAR, s);
    b->slot = slot;
    b->type = t;
}

/* shared NAME: Array[T, DYN]: only in a kernel, and one per kernel (its
 * memory is whatever the launch gives beyond the static arrays). */
static bool dynamic_shared_ok(Ctx *c, AstNode *s, const Type *t)
{
    if (!c->fn->is_kernel) {
        diag_error(s->a->loc, "a fn cannot declare a dynamic shared array; take the kernel's as a parameter, "
                   "`shared %s: %s`", s->name, type_name(c->arena, t));
        return false;
    }
    const FxInst *first = fxir_dynamic_shared(c->fn->func);
    if (first) {
        diag_error(s->loc, "a kernel has at most one dynamic shared array (they would share the same memory)");
        diag_note(first->loc, "'%s' is the first", first->name ? first->name : "?");
        return false;
    }
    return true;
}

/* shared NAME: Array[...]: in a kernel, or in a fn, where it is one
 * allocation per kernel that all calls of the fn share (as a __shared__
 * variable in a HIP __device__ function is). */
static void shared_stmt(Ctx *c, AstNode *s)
{
    if (!c->fn || c->fn->in_program || c->fn->is_eval || !c->fn->func) {
        poison(c, s, s->name);
        diag_error(s->loc, "shared arrays can only be declared in a kernel or a fn");
        return;
    }
    const Type *t = sema_type_expr(c, s->a);
    if (!t) {
        poison(c, s, s->name);
        return;
    }
    if (t->kind != TY_ARRAY) {
        poison(c, s, s->name);
        diag_error(s->a->loc, "shared memory holds an Array type, e.g. Array[Float32, 256]; got %s",
                   type_name(c->arena, t));
        return;
    }
    if (type_is_dyn_array(t) && !dynamic_shared_ok(c, s, t)) {
        poison(c, s, s->name);
        return;
    }
    Binding *b = sema_bind(c, s->name, B_VAR, s);
    b->slot = new_slot(c, t, FXSPACE_SHARED, s->name, s->loc);
    b->type = t;
}

/* ---- assignment ---- */

static Val *apply_compound(Ctx *c, AstNode *s, Val *old, Val *rhs, const Type *t)
{
    if (s->op == OP_NONE)
        return sema_assign_convert_expr(c, rhs, t, s->b);
    Val *r = sema_binary_values(c, s->op, old, rhs, s->loc);
    if (!r)
        return NULL;
    /* `x op= y` stores T(x op y), as C's compound assignment does: the result
     * of the promoted operation is converted back to the target's type. */
    if (!type_equal(r->type, t))
        r = sema_convert(c, r, t, FF_RNE, false, s->loc);
    return r;
}

static void assign_name(Ctx *c, AstNode *s)
{
    Binding *b = sema_lookup_target(c, s->a->name);
    if (!b && s->op == OP_NONE) {
        diag_error(s->a->loc, "undefined name '%s'; to declare it, write `let %s = ...` (or `var %s = ...` "
                   "to assign it again later)", s->a->name, s->a->name, s->a->name);
        poison(c, s, s->a->name);   /* its later uses are not more errors */
        return;
    }
    if (!b) {
        diag_error(s->a->loc, "undefined name '%s'", s->a->name);
        return;
    }
    if (b->kind == B_VALUE && !b->val)
        return;   /* poisoned by an earlier error */
    if (b->kind != B_VAR || b->type->kind == TY_ARRAY) {
        const char *why = b->kind == B_VALUE ? "it is immutable (declared with let, or a parameter); "
                                               "declare it with var to assign to it"
                        : b->kind == B_VAR ? "it is an array; assign to its elements"
                        : "it is not a variable";
        diag_error(s->a->loc, "cannot assign to '%s': %s", b->name, why);
        return;
    }
    Val *rhs = sema_expr(c, s->b);
    if (!rhs)
        return;
    Val *old = NULL;
    if (s->op != OP_NONE)
        old = val_runtime(c, b->type, sema_emit(c, FX_LOAD, 0, b->type, s->a->loc, 1, b->slot), s->a->loc);
    Val *v = apply_compound(c, s, old, rhs, b->type);
    if (v)
        sema_emit(c, FX_STORE, 0, VOID_TYPE, s->loc, 2, b->slot, sema_materialize(c, v));
}

static FxInst *index_value(Ctx *c, AstNode *e)
{
    Val *i = sema_expr(c, e);
    if (!i)
        return NULL;
    if (i->type->kind == TY_LITINT)
        i = fold_convert(c->arena, i, big_fits(i->i, 32, true) ? SC_INT32 : SC_INT64, FF_RNE, i->loc);
    if (i->type->kind != TY_SCALAR || !type_is_int(i->type->scalar)) {
        diag_error(e->loc, "an index must be an integer, got %s", type_name(c->arena, i->type));
        return NULL;
    }
    return sema_materialize(c, i);
}

static void assign_lane(Ctx *c, AstNode *s, AstNode *t)
{
    Binding *b = t->a->kind == AST_NAME ? sema_lookup(c, t->a->name) : NULL;
    if (!b || b->kind != B_VAR || b->type->kind != TY_VECTOR) {
        diag_error(t->loc, "only a vector declared with var can have a lane assigned");
        return;
    }
    FxInst *idx = index_value(c, t->list.items[0]);
    Val *rhs = idx ? sema_expr(c, s->b) : NULL;
    if (!rhs)
        return;
    const Type *et = type_scalar(b->type->scalar);
    FxInst *vec = sema_emit(c, FX_LOAD, 0, b->type, t->loc, 1, b->slot);
    Val *old = NULL;
    if (s->op != OP_NONE)
        old = val_runtime(c, et, sema_emit(c, FX_EXTRACT, 0, et, t->loc, 2, vec, idx), t->loc);
    Val *v = apply_compound(c, s, old, rhs, et);
    if (!v)
        return;
    FxInst *nv = sema_emit(c, FX_INSERT, 0, b->type, s->loc, 3, vec, sema_materialize(c, v), idx);
    sema_emit(c, FX_STORE, 0, VOID_TYPE, s->loc, 2, b->slot, nv);
}

static void assign_element(Ctx *c, AstNode *s)
{
    AstNode *t = s->a;
    Val *base = sema_expr(c, t->a);
    if (!base)
        return;
    if (base->type->kind == TY_VECTOR) {
        assign_lane(c, s, t);
        return;
    }
    if (base->type->kind != TY_PTR && base->type->kind != TY_ARRAY) {
        diag_error(t->a->loc, "cannot assign to an element of %s", type_name(c->arena, base->type));
        return;
    }
    if (base->type->kind == TY_PTR && base->type->is_const) {
        diag_error(t->loc, "cannot store through a const Ptr parameter (it promises the kernel writes nothing "
                   "through it)");
        return;
    }
    int want = base->type->kind == TY_PTR ? 1 : base->type->ndims;
    if (t->list.len != want) {
        diag_error(t->loc, "%s takes %d index%s, got %d", type_name(c->arena, base->type), want,
                   want == 1 ? "" : "es", t->list.len);
        return;
    }
    FxInst **idx = arena_alloc(c->arena, sizeof(FxInst *) * (size_t)want);
    for (int k = 0; k < want; k++) {
        AstNode *ie = t->list.items[k];
        if (!(idx[k] = index_value(c, ie)))
            return;
        if (base->type->kind == TY_ARRAY && idx[k]->op == FX_CONST) {
            int64_t v = (int64_t)idx[k]->cval.lo;
            bool dyn = type_is_dyn_array(base->type);   /* its length comes at launch */
            if (v < 0 || (!dyn && v >= base->type->dims[k])) {
                diag_error(ie->loc, "index out of range: dimension %d of %s has %lld elements", k,
                           type_name(c->arena, base->type), (long long)base->type->dims[k]);
                return;
            }
        }
    }
    const Type *et = base->type->elem;
    Val *rhs = sema_expr(c, s->b);
    if (!rhs)
        return;
    Val *old = NULL;
    if (s->op != OP_NONE) {
        FxInst *ld = fxb_load(sema_builder(c, t->loc), base->ir, et, want, idx);
        old = val_runtime(c, et, ld, t->loc);
    }
    Val *v = apply_compound(c, s, old, rhs, et);
    if (!v)
        return;
    FxInst *value = sema_materialize(c, v);
    fxb_store(sema_builder(c, s->loc), base->ir, value, want, idx);
}

static void assign_stmt(Ctx *c, AstNode *s)
{
    if (!in_kernel(c, s->loc, "assignment"))
        return;
    if (s->a->kind == AST_NAME)
        assign_name(c, s);
    else if (s->a->kind == AST_INDEX)
        assign_element(c, s);
    else
        diag_error(s->a->loc, "cannot assign to this expression; expected a variable or an element "
                   "such as p[i]");
}

/* ---- control flow ---- */

static Val *condition(Ctx *c, AstNode *e, const char *what)
{
    Val *v = sema_expr(c, e);
    if (!v)
        return NULL;
    if (v->type->kind != TY_SCALAR || v->type->scalar != SC_BOOLEAN) {
        diag_error(e->loc, "the condition of '%s' must be a Boolean, got %s; compare explicitly (e.g. x != 0)",
                   what, type_name(c->arena, v->type));
        return NULL;
    }
    return v;
}

/* Type-check a branch that a static condition removes: its code is emitted
 * into a scratch block that is then dropped. What the target lacks (a matrix
 * instruction) is not an error there, as code under a false `#if` in C. */
static void check_discarded(Ctx *c, AstNode *branch)
{
    FxBlock scratch = { 0 };
    FxBlock *saved = c->block;
    bool saved_ret = c->fn ? c->fn->returned : false, saved_discard = c->discard;
    c->block = &scratch;
    c->discard = true;
    if (branch->kind == AST_IF)
        stmt(c, branch);
    else
        scoped_block(c, branch);
    c->block = saved;
    c->discard = saved_discard;
    if (c->fn)
        c->fn->returned = saved_ret;
}

/* Whether expression e names anything (a const, a type, a loop variable). */
static bool names_anything(const AstNode *e)
{
    if (!e)
        return false;
    if (e->kind == AST_NAME)
        return true;
    if (names_anything(e->a) || names_anything(e->b) || names_anything(e->c))
        return true;
    for (int i = 0; i < e->list.len; i++)
        if (names_anything(e->list.items[i]))
            return true;
    return false;
}

static void if_stmt(Ctx *c, AstNode *s)
{
    Val *cond = condition(c, s->a, "if");
    if (!cond)
        return;
    if (cond->is_static) {
        if (!names_anything(s->a))
            warn_at(WARN_CONSTANT_CONDITION, s->a->loc, "the condition is always %s: it is made of literals "
                    "only (a condition that names a const is a compile-time choice and not warned about)",
                    fold_truthy(cond) ? "true" : "false");
        bool taken = fold_truthy(cond);
        AstNode *live = taken ? s->b : s->c, *dead = taken ? s->c : s->b;
        if (dead)
            check_discarded(c, dead);
        if (live) {
            if (live->kind == AST_IF)
                stmt(c, live);
            else
                scoped_block(c, live);
        }
        return;
    }
    if (!in_kernel(c, s->loc, "a run-time if"))
        return;
    FxInst *br = fxb_if(sema_builder(c, s->loc), cond->ir);
    FxBlock *saved = c->block;
    c->block = &br->blocks[0];
    scoped_block(c, s->b);
    if (s->c) {
        c->block = &br->blocks[1];
        if (s->c->kind == AST_IF)
            stmt(c, s->c);
        else
            scoped_block(c, s->c);
    }
    c->block = saved;
}

static bool range_args(Ctx *c, AstNode *call, const char *fname, Val **start, Val **stop, Val **step)
{
    int n = call->list.len;
    if (n < 1 || n > 3) {
        diag_error(call->loc, "%s() takes 1 to 3 arguments (stop | start, stop | start, stop, step), got %d",
                   fname, n);
        return false;
    }
    Val *v[3];
    for (int i = 0; i < n; i++) {
        if (call->list.items[i]->kind == AST_KWARG) {
            diag_error(call->list.items[i]->loc, "%s() takes no keyword arguments", fname);
            return false;
        }
        if (!(v[i] = sema_expr(c, call->list.items[i])))
            return false;
        bool ok = v[i]->type->kind == TY_LITINT ||
                  (v[i]->type->kind == TY_SCALAR && type_is_int(v[i]->type->scalar));
        if (!ok) {
            diag_error(v[i]->loc, "%s() bounds must be integers, got %s", fname, type_name(c->arena, v[i]->type));
            return false;
        }
    }
    *start = n == 1 ? fold_make_litint(c->arena, big_from_i64(0), call->loc) : v[0];
    *stop = n == 1 ? v[0] : v[1];
    *step = n == 3 ? v[2] : fold_make_litint(c->arena, big_from_i64(1), call->loc);
    if ((*step)->is_static && big_is_zero((*step)->i)) {
        diag_error((*step)->loc, "%s() step must not be zero", fname);
        return false;
    }
    return true;
}

/* Python's len(range(a, b, d)), d != 0. */
static BigInt static_range_count(BigInt a, BigInt b, BigInt d)
{
    BigInt span = big_sign(d) > 0 ? big_sub(b, a) : big_sub(a, b);
    if (big_sign(span) <= 0)
        return big_from_i64(0);
    BigInt mag = big_sign(d) > 0 ? d : big_neg(d), q, r;
    big_divmod_floor(big_sub(span, big_from_i64(1)), mag, &q, &r);
    return big_add(q, big_from_i64(1));
}

static void static_range_loop(Ctx *c, AstNode *s, AstNode *call)
{
    Val *start, *stop, *step;
    if (!range_args(c, call, "static_range", &start, &stop, &step))
        return;
    if (!start->is_static || !stop->is_static || !step->is_static) {
        diag_error(call->loc, "static_range() bounds must be static values; use range() for run-time bounds");
        return;
    }
    /* Exact (unbounded) arithmetic: bounds near a type's end cannot wrap. */
    BigInt a = start->i, b = stop->i, d = step->i;
    if (big_cmp(static_range_count(a, b, d), big_from_i64(65536)) > 0) {
        diag_error(call->loc, "static_range() would unroll more than 65536 iterations");
        return;
    }
    for (BigInt i = a; big_sign(d) > 0 ? big_cmp(i, b) < 0 : big_cmp(i, b) > 0; i = big_add(i, d))
        if (!big_fits(i, 32, true)) {
            diag_error(call->loc, "static_range() yields %s, outside Int32 (its loop variable is a static Int32)",
                       big_to_dec(i, (char[BIG_DEC_MAX]){0}));
            return;
        }
    int saved_depth = c->fn ? c->fn->loop_depth : 0;
    if (c->fn) {
        c->fn->loop_depth = -1000000;   /* break/continue cannot leave an unrolled loop */
        c->fn->unrolling++;
    }
    for (BigInt i = a; big_sign(d) > 0 ? big_cmp(i, b) < 0 : big_cmp(i, b) > 0; i = big_add(i, d)) {
        if (!sema_grow(c, 1, call->loc, NULL))   /* each copy counts, even one that emits nothing */
            break;
        Scope sc;
        sema_push_scope(c, &sc);
        sema_bind(c, s->name, B_VALUE, s)->val = fold_make_int(c->arena, SC_INT32, i, s->loc);
        sema_block(c, s->b);
        sema_pop_scope(c);
    }
    if (c->fn) {
        c->fn->loop_depth = saved_depth;
        c->fn->unrolling--;
    }
}

/* Bring the range bounds to one integer type (literals normalize to Int32). */
static bool range_type(Ctx *c, Val **v, int n, ScalarId *out)
{
    ScalarId t = SC_COUNT;
    for (int i = 0; i < n; i++) {
        if (v[i]->type->kind == TY_LITINT)
            continue;
        t = t == SC_COUNT ? v[i]->type->scalar : promote_common(t, v[i]->type->scalar);
    }
    if (t == SC_COUNT) {
        bool ok = true;
        for (int i = 0; i < n && ok; i++) {
            ScalarId s = sema_literal_type(c, v[i], &ok);
            t = t == SC_COUNT ? s : promote_common(t, s);
        }
        if (!ok)
            return false;
    }
    for (int i = 0; i < n; i++)
        if (!(v[i] = sema_convert(c, v[i], type_scalar(t), FF_RNE, false, v[i]->loc)))
            return false;
    *out = t;
    return true;
}

/* The loop's own arithmetic: its limits wrap for the lowest step, its last
 * increment past the end, both by design (never read then), so
 * @index_nowrap's promise does not cover them. */
static FxInst *range_binop(Ctx *c, FxBinop op, FxInst *a, FxInst *b, Loc loc)
{
    FxInst *i = sema_emit(c, FX_BINOP, op, a->type, loc, 2, a, b);
    if (op == FXB_ADD || op == FXB_SUB || op == FXB_MUL)
        i->nowrap = FXNW_WRAPS;
    return i;
}

static FxInst *range_cmp(Ctx *c, FxCmp op, FxInst *a, FxInst *b, Loc loc)
{
    return sema_emit(c, FX_CMP, op, type_scalar(SC_BOOLEAN), loc, 2, a, b);
}

/* The tests of a range loop, computed once before it. `flip` is 0 for a
 * step > 0 and all ones for a step < 0: x ^ flip reverses the order of t
 * for a downward range (~x == -x - 1, exact), so one signed-or-unsigned
 * `<` serves both directions and a run-time step's sign is tested here,
 * once. In the flipped order every range goes upward, by mag = |step|
 * (modular: 2^(w-1) for t's lowest step, still exact below). The loop runs
 * while `live` at entry, and after the iteration with value i continues
 * while the next value lies before stop: (i ^ flip) + mag < stop ^ flip,
 * tested without a wrap as (i ^ flip) < lim with lim = max(stop ^ flip,
 * lowest + mag) - mag, which is stop ^ flip - mag saturated at t's lowest
 * value (no value is below it); neither lowest + mag nor the difference
 * leaves t. No division, no trip count. (A select of lowest or the plain
 * difference would do as well, but LLVM splits a compare with a select
 * into two compares and an `and` inside the loop.)
 *
 * A signed run-time step (Int8 to Int128) is tested by distance instead,
 * without a per-iteration xor: with dir = flip | 1 (+1 or -1), the values
 * lie (i - start) * dir apart from start, modulo 2^w, which as an unsigned
 * number of t's width is the exact distance (below 2^w: both ends are
 * values of t); they grow by mag = step * dir. After the iteration with
 * value i the loop continues while the distance plus mag stays below
 * stop's, D = (stop - start) * dir: e < D - min(D, mag) with
 * e = (i - start) * dir. That is a multiple of mag with the iteration
 * count, the same in every work-item: LLVM keeps it as a scalar counter
 * (SCEV sees the product; an xor would hide it) and the loop variable is
 * left to the address, which it widens (reduce: 6 VGPRs, clang's count,
 * and 9 instructions per iteration, 10 before). dir is NULL otherwise. */
typedef struct RangeTests {
    FxInst *flip, *live, *lim;
    FxInst *dir;
} RangeTests;

/* The unsigned type of t's width, for the distances; SC_COUNT for Int4. */
static ScalarId range_distance_type(ScalarId t)
{
    return t >= SC_INT8 && t <= SC_INT128 ? (ScalarId)(SC_UINT8 + (t - SC_INT8)) : SC_COUNT;
}

/* x * dir as the unsigned distance type u */
static FxInst *range_distance(Ctx *c, FxInst *x, FxInst *dir, ScalarId u, Loc loc)
{
    return sema_emit(c, FX_CAST, 0, type_scalar(u), loc, 1, range_binop(c, FXB_MUL, x, dir, loc));
}

/* Whether the loop runs at all: start before stop in the flipped order,
 * and a run-time step not 0 (such a step runs no iterations). */
static FxInst *range_live(Ctx *c, ScalarId t, FxInst *start, FxInst *fstop, FxInst *step, FxInst *flip,
                          bool runtime_step, Loc loc)
{
    FxInst *live = range_cmp(c, FXC_LT, range_binop(c, FXB_XOR, start, flip, loc), fstop, loc);
    if (!runtime_step)
        return live;
    return range_binop(c, FXB_AND, range_cmp(c, FXC_NE, step, const_int(c, t, 0, loc), loc), live, loc);
}

static RangeTests range_tests(Ctx *c, ScalarId t, FxInst *start, FxInst *stop, FxInst *step, int sign, Loc loc)
{
    RangeTests r = { 0 };
    const ScalarInfo *in = type_info(t);
    ScalarId u = range_distance_type(t);
    if (sign == 0 && in->is_signed && u != SC_COUNT) {
        r.flip = range_binop(c, FXB_SHR, step, const_int(c, t, in->width - 1, loc), loc);
        r.dir = range_binop(c, FXB_OR, r.flip, const_int(c, t, 1, loc), loc);
        r.live = range_live(c, t, start, range_binop(c, FXB_XOR, stop, r.flip, loc), step, r.flip, true, loc);
        FxInst *mag = range_distance(c, step, r.dir, u, loc);
        FxInst *d = range_distance(c, range_binop(c, FXB_SUB, stop, start, loc), r.dir, u, loc);
        FxInst *most = sema_emit(c, FX_MINMAX, FXMM_MIN, type_scalar(u), loc, 2, d, mag);
        r.lim = range_binop(c, FXB_SUB, d, most, loc);
        return r;
    }
    if (sign != 0 || !in->is_signed)
        r.flip = const_int(c, t, sign < 0 ? -1 : 0, loc);
    else   /* the sign bit spread: a shift stays on the scalar unit for a uniform step */
        r.flip = range_binop(c, FXB_SHR, step, const_int(c, t, in->width - 1, loc), loc);
    FxInst *mag = range_binop(c, FXB_SUB, range_binop(c, FXB_XOR, step, r.flip, loc), r.flip, loc);
    FxInst *fstop = range_binop(c, FXB_XOR, stop, r.flip, loc);
    r.live = range_live(c, t, start, fstop, step, r.flip, sign == 0, loc);
    FxInst *floor = range_binop(c, FXB_ADD, fxb_extreme(sema_builder(c, loc), t, false), mag, loc);
    FxInst *clamp = sema_emit(c, FX_MINMAX, FXMM_MAX, type_scalar(t), loc, 2, fstop, floor);
    r.lim = range_binop(c, FXB_SUB, clamp, mag, loc);
    return r;
}

static void range_loop(Ctx *c, AstNode *s, AstNode *call)
{
    Val *v[3];
    if (!range_args(c, call, "range", &v[0], &v[1], &v[2]))
        return;
    if (!in_kernel(c, s->loc, "a for loop"))
        return;
    ScalarId t;
    if (!range_type(c, v, 3, &t))
        return;
    const Type *ty = type_scalar(t), *bt = type_scalar(SC_BOOLEAN);
    Loc loc = s->loc;
    FxInst *start = sema_materialize(c, v[0]), *stop = sema_materialize(c, v[1]);
    FxInst *step = sema_materialize(c, v[2]);
    int sign = v[2]->is_static ? big_sign(v[2]->i) : 0;
    RangeTests r = range_tests(c, t, start, stop, step, sign, loc);
    FxInst *more = new_slot(c, bt, FXSPACE_PRIVATE, NULL, loc);
    sema_emit(c, FX_STORE, 0, VOID_TYPE, loc, 2, more, r.live);
    FxInst *slot = new_slot(c, ty, FXSPACE_PRIVATE, s->name, loc);
    sema_emit(c, FX_STORE, 0, VOID_TYPE, loc, 2, slot, start);
    FxInst *loop = fxb_loop(sema_builder(c, loc));
    FxBlock *saved = c->block;
    c->block = &loop->blocks[0];
    loop->ops[0] = sema_emit(c, FX_LOAD, 0, bt, loc, 1, more);
    /* body: the loop variable is an immutable value per iteration. */
    c->block = &loop->blocks[1];
    Scope sc;
    sema_push_scope(c, &sc);
    FxInst *cur = sema_emit(c, FX_LOAD, 0, ty, s->loc, 1, slot);
    cur->name = s->name;
    sema_bind(c, s->name, B_VALUE, s)->val = val_runtime(c, ty, cur, s->loc);
    c->fn->loop_depth++;
    sema_block(c, s->b);
    c->fn->loop_depth--;
    sema_pop_scope(c);
    /* step: test the old value; the variable's last increment may wrap, it
     * is never read then. */
    c->block = &loop->blocks[2];
    FxInst *old = sema_emit(c, FX_LOAD, 0, ty, loc, 1, slot);
    FxInst *before = r.dir ? range_distance(c, range_binop(c, FXB_SUB, old, start, loc), r.dir,
                                            range_distance_type(t), loc)
                           : range_binop(c, FXB_XOR, old, r.flip, loc);
    sema_emit(c, FX_STORE, 0, VOID_TYPE, loc, 2, more, range_cmp(c, FXC_LT, before, r.lim, loc));
    FxInst *next = range_binop(c, FXB_ADD, old, step, loc);
    next->nowrap |= FXNW_LAST;
    sema_emit(c, FX_STORE, 0, VOID_TYPE, loc, 2, slot, next);
    c->block = saved;
}

static void for_stmt(Ctx *c, AstNode *s)
{
    AstNode *it = s->a;
    const char *fname = it->kind == AST_CALL && it->a->kind == AST_NAME ? it->a->name : NULL;
    if (fname && strcmp(fname, "static_range") == 0) {
        static_range_loop(c, s, it);
        return;
    }
    if (fname && strcmp(fname, "range") == 0) {
        range_loop(c, s, it);
        return;
    }
    diag_error(it->loc, "a for loop iterates over range(...) or static_range(...)");
}

static void while_stmt(Ctx *c, AstNode *s)
{
    if (!in_kernel(c, s->loc, "a while loop"))
        return;
    FxInst *loop = fxb_loop(sema_builder(c, s->loc));
    FxBlock *saved = c->block;
    c->block = &loop->blocks[0];
    Val *cond = condition(c, s->a, "while");
    if (!cond) {
        c->block = saved;
        return;
    }
    loop->ops[0] = sema_materialize(c, cond);
    c->block = &loop->blocks[1];
    c->fn->loop_depth++;
    scoped_block(c, s->b);
    c->fn->loop_depth--;
    c->block = saved;
}

static void jump_stmt(Ctx *c, AstNode *s)
{
    const char *what = s->kind == AST_BREAK ? "break" : "continue";
    if (!c->fn || c->fn->loop_depth <= 0) {
        if (c->fn && c->fn->loop_depth < 0)
            diag_error(s->loc, "'%s' inside a static_range loop is not allowed: the loop is unrolled at "
                       "compile time; use a static if or range()", what);
        else
            diag_error(s->loc, "'%s' outside a loop", what);
        return;
    }
    sema_emit(c, s->kind == AST_BREAK ? FX_BREAK : FX_CONTINUE, 0, VOID_TYPE, s->loc, 0);
}

static void return_stmt(Ctx *c, AstNode *s)
{
    if (!in_kernel(c, s->loc, "return"))
        return;
    const Type *rt = c->fn->ret;
    if (!s->a) {
        if (rt->kind != TY_VOID) {
            diag_error(s->loc, "this fn returns %s; 'return' needs a value", type_name(c->arena, rt));
            return;
        }
        sema_emit(c, FX_RETURN, 0, VOID_TYPE, s->loc, 0);
        c->fn->returned = true;
        return;
    }
    Val *v = sema_expr(c, s->a);
    if (!v)
        return;
    if (rt->kind == TY_VOID) {
        diag_error(s->a->loc, "%s has no return type, so it cannot return a value; declare one with '-> Type'",
                   c->fn->is_kernel ? "a kernel" : "this fn");
        return;
    }
    if (!(v = sema_assign_convert_expr(c, v, rt, s->a)))
        return;
    sema_emit(c, FX_RETURN, 0, VOID_TYPE, s->loc, 1, sema_materialize(c, v));
    c->fn->returned = true;
}

static void with_stmt(Ctx *c, AstNode *s)
{
    Val *v = sema_expr_static(c, s->a, "the argument of 'with'");
    if (!v)
        return;
    if (v->type->kind != TY_FASTMATH) {
        diag_error(s->a->loc, "'with' takes fx.fastmath(...), got %s", type_name(c->arena, v->type));
        return;
    }
    unsigned saved = c->fmf;
    c->fmf = v->flags;
    scoped_block(c, s->b);
    c->fmf = saved;
}

static void expr_stmt(Ctx *c, AstNode *s)
{
    Val *v = sema_expr(c, s->a);
    (void)v;
}

static void stmt(Ctx *c, AstNode *s)
{
    switch (s->kind) {
    case AST_LET: let_stmt(c, s); break;
    case AST_VAR: var_stmt(c, s); break;
    case AST_SHARED: shared_stmt(c, s); break;
    case AST_ASSIGN: assign_stmt(c, s); break;
    case AST_EXPR_STMT: expr_stmt(c, s); break;
    case AST_IF: if_stmt(c, s); break;
    case AST_FOR: for_stmt(c, s); break;
    case AST_WHILE: while_stmt(c, s); break;
    case AST_BREAK: case AST_CONTINUE: jump_stmt(c, s); break;
    case AST_RETURN: return_stmt(c, s); break;
    case AST_WITH: with_stmt(c, s); break;
    case AST_STATIC_ASSERT: sema_check_static_assert(c, s); break;
    case AST_BLOCK: scoped_block(c, s); break;
    default:
        diag_error(s->loc, "expected a statement");
        break;
    }
}

/* ---- functions ---- */

static bool falls_through(AstNode *block);

/* Whether control can pass statement s (conservatively: loops may end). */
static bool stmt_falls_through(AstNode *s)
{
    if (s->kind == AST_RETURN)
        return false;
    if (s->kind == AST_IF && s->c) {
        bool else_falls = s->c->kind == AST_IF ? stmt_falls_through(s->c) : falls_through(s->c);
        return falls_through(s->b) || else_falls;
    }
    return true;
}

/* Whether control can reach the end of a block (conservatively): no
 * statement of it stops control, so code after a return does not count. */
static bool falls_through(AstNode *block)
{
    if (!block)
        return true;
    for (int i = 0; i < block->list.len; i++)
        if (!stmt_falls_through(block->list.items[i]))
            return false;
    return true;
}

/* `shared NAME: Array[...]`: a fn takes a shared array by reference. */
static const Type *shared_param_type(Ctx *c, AstNode *p, const Type *t, bool kernel)
{
    if (kernel) {
        diag_error(p->name_loc, "a kernel parameter cannot be shared; declare the array in the kernel with "
                   "`shared %s: %s`", p->name, type_name(c->arena, t));
        return NULL;
    }
    if (t->kind != TY_ARRAY) {
        diag_error(p->a->loc, "a shared parameter is an Array, e.g. Array[Float32, 256]; got %s",
                   type_name(c->arena, t));
        return NULL;
    }
    return t;
}

static const Type *param_type(Ctx *c, AstNode *p, bool kernel)
{
    const Type *t = sema_type_expr(c, p->a);
    if (!t)
        return NULL;
    if (p->bval)
        return shared_param_type(c, p, t, kernel);
    if (t->kind == TY_ARRAY && !kernel) {
        diag_error(p->a->loc, "an Array parameter is a shared array passed by reference: write `shared %s: %s`",
                   p->name, type_name(c->arena, t));
        return NULL;
    }
    if (p->flag) {
        if (t->kind != TY_PTR) {
            diag_error(p->loc, "'const' applies only to Ptr parameters");
            return NULL;
        }
        t = type_ptr(c->arena, t->elem, true);
    }
    bool ok = t->kind == TY_SCALAR || t->kind == TY_VECTOR || t->kind == TY_PTR;
    if (!ok) {
        diag_error(p->a->loc, "a %s parameter must be a scalar, a vector or a Ptr, not %s",
                   kernel ? "kernel" : "fn", type_name(c->arena, t));
        return NULL;
    }
    return t;
}

static bool check_params(Ctx *c, AstNode *decl, FxFunc *f, bool kernel)
{
    bool ok = true;
    for (int i = 0; i < decl->list.len; i++) {
        AstNode *p = decl->list.items[i];
        for (int j = 0; j < i; j++)
            if (strcmp(decl->list.items[j]->name, p->name) == 0) {
                diag_error(p->loc, "duplicate parameter '%s'", p->name);
                ok = false;
            }
        f->params[i].name = p->name;
        f->params[i].loc = p->loc;
        f->params[i].type = param_type(c, p, kernel);
        ok &= f->params[i].type != NULL;
    }
    return ok;
}

static void bind_params(Ctx *c, AstNode *decl, FxFunc *f)
{
    for (int i = 0; i < f->nparams; i++) {
        FxBuilder *b = sema_builder(c, f->params[i].loc);
        fxb_at_end(b, &f->body);
        FxInst *p = fxb_param(b, f, i, f->params[i].name, f->params[i].type);
        if (f->params[i].type->kind == TY_ARRAY) {   /* a place, as the shared array it names */
            Binding *a = sema_bind(c, f->params[i].name, B_VAR, decl->list.items[i]);
            a->slot = p;
            a->type = f->params[i].type;
            continue;
        }
        sema_bind(c, f->params[i].name, B_VALUE, decl->list.items[i])->val =
            val_runtime(c, f->params[i].type, p, f->params[i].loc);
    }
}

static void function_ctx(Sema *s, Ctx *c, FnCtx *fc, FxFunc *f, bool kernel)
{
    memset(c, 0, sizeof *c);
    memset(fc, 0, sizeof *fc);
    c->sema = s;
    c->arena = s->arena;
    c->scope = &s->globals;
    c->fmf = s->opts->fastmath;
    fc->func = f;
    fc->is_kernel = kernel;
    fc->ret = f ? f->ret : VOID_TYPE;
    c->fn = fc;
    c->block = f ? &f->body : &s->scratch;   /* before the function exists: types only */
}

/* Keep the module's functions in dependency order: a fn is listed after
 * every fn it calls. fxir_func_new appends a fn when its lowering starts;
 * it is taken out again at once (it is still the last one) and appended
 * when its lowering finishes, after the fns it called. (Moving it from the
 * middle of the list instead made many fns quadratic.) */
static void unlist_new_fn(FxModule *m, FxFunc *f)
{
    if (m->funcs.len > 0 && m->funcs.items[m->funcs.len - 1] == f)
        m->funcs.len--;
}

FxFunc *sema_lower_fn(Sema *s, Binding *b)
{
    if (b->fn)
        return b->fn;
    AstNode *d = b->decl;
    if (b->lowering) {
        diag_error(d->loc, "fn '%s' is recursive; recursion is not allowed in GPU code", b->name);
        return NULL;
    }
    if (b->failed)
        return NULL;
    b->lowering = true;
    Ctx c;
    FnCtx fc;
    function_ctx(s, &c, &fc, NULL, false);
    const Type *ret = d->a ? sema_type_expr(&c, d->a) : VOID_TYPE;
    if (ret && ret->kind != TY_VOID && ret->kind != TY_SCALAR && ret->kind != TY_VECTOR) {
        diag_error(d->a->loc, "a fn returns a scalar or a vector, not %s", type_name(c.arena, ret));
        ret = NULL;
    }
    for (int i = 0; i < d->list2.len; i++) {
        const char *dn = d->list2.items[i]->name;
        if (strcmp(dn, "index_nowrap") == 0 || strcmp(dn, "launch_bounds") == 0)
            diag_error(d->list2.items[i]->loc, "@%s applies to kernels, not to a fn (a fn is inlined into "
                       "the kernels that call it)", dn);
        else
            diag_error(d->list2.items[i]->loc, "unknown decorator '@%s' on a fn", dn);
    }
    FxFunc *f = fxir_func_new(s->module, b->name, FXF_FN, d->list.len, ret ? ret : VOID_TYPE, d->loc);
    unlist_new_fn(s->module, f);
    function_ctx(s, &c, &fc, f, false);
    s->call_depth++;
    Scope sc;
    sema_push_scope(&c, &sc);
    int errors = diag_error_count();
    if (ret && check_params(&c, d, f, false)) {
        bind_params(&c, d, f);
        sema_block(&c, d->b);
        if (ret->kind != TY_VOID && falls_through(d->b))
            diag_error(d->b->loc, "fn '%s' returns %s but control can reach the end of its body without a return",
                       b->name, type_name(c.arena, ret));
    }
    s->call_depth--;
    b->lowering = false;
    if (diag_error_count() != errors || !ret) {
        b->failed = true;
        return NULL;
    }
    sema_warn_unused(&c, &sc);
    sema_warn_divergent_barriers(s, f);
    b->fn = f;
    b->expanded = sema_fn_size(&c);
    ptrvec_push(s->arena, &s->module->funcs, f);
    return f;
}

/* @index_nowrap: the kernel promises that its signed add/sub/mul do not
 * overflow (the int-ranges pass acts on it). A bare name: an argument list,
 * even an empty one, is a mistake worth a message. */
static void index_nowrap_decorator(AstNode *dec, FxFunc *f)
{
    if (dec->flag) {   /* flag: written with parentheses */
        diag_error(dec->loc, "@index_nowrap takes no arguments");
        return;
    }
    f->index_nowrap = true;
}

static void kernel_decorators(Ctx *c, AstNode *d, FxFunc *f)
{
    for (int i = 0; i < d->list2.len; i++) {
        AstNode *dec = d->list2.items[i];
        if (strcmp(dec->name, "index_nowrap") == 0) {
            index_nowrap_decorator(dec, f);
            continue;
        }
        if (strcmp(dec->name, "launch_bounds") != 0) {
            diag_error(dec->loc, "unknown decorator '@%s'; kernels accept @launch_bounds(N) and @index_nowrap",
                       dec->name);
            continue;
        }
        int64_t n;
        if (dec->list.len != 1) {
            diag_error(dec->loc, "@launch_bounds takes one argument, the maximum threads per block");
            continue;
        }
        if (!sema_static_int(c, dec->list.items[0], "@launch_bounds", &n))
            continue;
        if (n < 1 || n > 1024) {
            diag_error(dec->list.items[0]->loc, "@launch_bounds must be between 1 and 1024, got %lld", (long long)n);
            continue;
        }
        f->launch_bounds = (int)n;
    }
}

FxFunc *sema_lower_kernel(Sema *s, Binding *b)
{
    AstNode *d = b->decl;
    FxFunc *f = fxir_func_new(s->module, b->name, FXF_KERNEL, d->list.len, VOID_TYPE, d->loc);
    Ctx c;
    FnCtx fc;
    function_ctx(s, &c, &fc, f, true);
    kernel_decorators(&c, d, f);
    Scope sc;
    sema_push_scope(&c, &sc);
    int errors = diag_error_count();
    if (check_params(&c, d, f, true)) {
        bind_params(&c, d, f);
        sema_block(&c, d->b);
        if (diag_error_count() == errors) {
            sema_warn_unused(&c, &sc);
            sema_warn_divergent_barriers(s, f);
        }
    }
    b->fn = f;
    return f;
}
