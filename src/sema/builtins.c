/* builtins.c - calls: type constructors, methods (.to, .bitcast, .select,
 * .is_static), fx.* builtins, len/abs/divmod, user fns, and attributes. */
#include "sema/sema_int.h"
#include "fxir/fxmath.h"
#include <fenv.h>
#include <math.h>
#include <string.h>

typedef struct Args {
    Val **pos;
    int npos;
    AstNode **kw;       /* AST_KWARG nodes */
    Val **kwval;
    int nkw;
    Loc loc;
} Args;

static Val *new_static(Ctx *c, const Type *t, Loc loc)
{
    Val *v = arena_alloc(c->arena, sizeof *v);
    v->type = t;
    v->is_static = true;
    v->loc = loc;
    return v;
}

static Val *type_val(Ctx *c, const Type *t, Loc loc)
{
    Val *v = new_static(c, type_simple(TY_TYPE), loc);
    v->tval = t;
    return v;
}

static Val *builtin_func(Ctx *c, const char *name, Val *receiver, Loc loc)
{
    Val *v = new_static(c, type_simple(TY_FUNC), loc);
    v->str = name;
    if (receiver) {
        v->elems = arena_alloc(c->arena, sizeof(Val *));
        v->elems[0] = receiver;
        v->nelems = 1;
    }
    return v;
}

static bool eval_args(Ctx *c, AstNode *call, Args *a)
{
    int n = call->list.len;
    a->pos = arena_alloc(c->arena, sizeof(Val *) * (size_t)(n ? n : 1));
    a->kw = arena_alloc(c->arena, sizeof(AstNode *) * (size_t)(n ? n : 1));
    a->kwval = arena_alloc(c->arena, sizeof(Val *) * (size_t)(n ? n : 1));
    a->npos = a->nkw = 0;
    a->loc = call->loc;
    for (int i = 0; i < n; i++) {
        AstNode *arg = call->list.items[i];
        Val *v = sema_expr(c, arg->kind == AST_KWARG ? arg->a : arg);
        if (!v)
            return false;
        if (arg->kind == AST_KWARG) {
            a->kw[a->nkw] = arg;
            a->kwval[a->nkw++] = v;
        } else {
            a->pos[a->npos++] = v;
        }
    }
    return true;
}

/* Reject keyword arguments other than `allowed` (NULL-terminated list). */
static bool check_kwargs(Args *a, const char *fname, const char *const *allowed)
{
    for (int i = 0; i < a->nkw; i++) {
        bool ok = false;
        for (const char *const *p = allowed; p && *p; p++)
            ok |= strcmp(*p, a->kw[i]->name) == 0;
        if (!ok) {
            diag_error(a->kw[i]->loc, "%s() got an unexpected keyword argument '%s'", fname, a->kw[i]->name);
            return false;
        }
    }
    return true;
}

static Val *kwarg(Args *a, const char *name)
{
    for (int i = 0; i < a->nkw; i++)
        if (strcmp(a->kw[i]->name, name) == 0)
            return a->kwval[i];
    return NULL;
}

static bool check_count(Args *a, const char *fname, int lo, int hi)
{
    if (a->npos >= lo && a->npos <= hi)
        return true;
    if (lo == hi)
        diag_error(a->loc, "%s() takes %d argument%s, got %d", fname, lo, lo == 1 ? "" : "s", a->npos);
    else
        diag_error(a->loc, "%s() takes %d to %d arguments, got %d", fname, lo, hi, a->npos);
    return false;
}

static bool is_lit(const Val *v)
{
    return v->type->kind == TY_LITINT || v->type->kind == TY_LITFLOAT;
}

static ScalarId elem_of(Ctx *c, Val *v, bool *ok)
{
    *ok = true;
    if (is_lit(v))
        return sema_literal_type(c, v, ok);
    return v->type->scalar;
}

/* ---- fast-math specs ---- */

static bool flag_by_name(const char *name, size_t n, unsigned *out)
{
    if (n == 4 && strncmp(name, "fast", 4) == 0) {
        *out = FMF_FAST;
        return true;
    }
    if (n == 4 && strncmp(name, "none", 4) == 0) {
        *out = 0;
        return true;
    }
    for (int b = 0; b < FMF_NBITS; b++)
        if (strlen(fxir_fmf_name(b)) == n && strncmp(fxir_fmf_name(b), name, n) == 0) {
            *out = 1u << b;
            return true;
        }
    return false;
}

bool sema_parse_fastmath(const char *spec, unsigned *flags)
{
    *flags = 0;
    const char *p = spec;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *start = p;
        while (*p && *p != ',' && *p != '|' && *p != ' ')
            p++;
        unsigned f;
        if (!flag_by_name(start, (size_t)(p - start), &f))
            return false;
        *flags |= f;
        while (*p == ' ')
            p++;
        if (*p == ',' || *p == '|')
            p++;
        else if (*p)
            return false;
    }
    return true;
}

Val *sema_fastmath_spec(Ctx *c, Val *v, Loc loc, bool *ok)
{
    *ok = true;
    Val *r = new_static(c, type_simple(TY_FASTMATH), loc);
    if (v->type->kind == TY_FASTMATH) {
        r->flags = v->flags;
    } else if (v->type->kind == TY_STRING) {
        if (!sema_parse_fastmath(v->str, &r->flags)) {
            diag_error(v->loc, "invalid fast-math spec \"%s\"; expected \"fast\", \"none\" or a "
                       "comma-separated list of reassoc, nnan, ninf, nsz, arcp, contract, afn", v->str);
            *ok = false;
        }
    } else if (v->type->kind == TY_TUPLE) {
        for (int i = 0; i < v->nelems && *ok; i++) {
            Val *e = sema_fastmath_spec(c, v->elems[i], loc, ok);
            r->flags |= e->flags;
        }
    } else {
        diag_error(v->loc, "expected fast-math flags (fx.FastMathFlags.X, a string such as \"fast\", "
                   "or a list/tuple/set of them), got %s", type_name(c->arena, v->type));
        *ok = false;
    }
    return r;
}

/* The flags for one operation: explicit keyword > ambient (with / command line). */
static bool op_fastmath(Ctx *c, Args *a, unsigned *fmf)
{
    *fmf = c->fmf;
    Val *kw = kwarg(a, "fastmath");
    if (!kw)
        return true;
    bool ok;
    Val *spec = sema_fastmath_spec(c, kw, kw->loc, &ok);
    *fmf = spec->flags;
    return ok;
}

/* ---- normalization of builtin operands to one common type ---- */

/* For fx.max/min/ceildiv/fma: flatten nested lists/tuples into `out`. */
static void flatten(Ctx *c, Val *v, PtrVec *out)
{
    if (v->type->kind == TY_TUPLE) {
        for (int i = 0; i < v->nelems; i++)
            flatten(c, v->elems[i], out);
        return;
    }
    ptrvec_push(c->arena, out, v);
}

typedef enum { NORM_MINMAX, NORM_CEILDIV, NORM_FLOAT, NORM_SELECT } NormKind;

static bool norm_operand(Ctx *c, Val *v, NormKind k, const char *fname, ScalarId *s)
{
    if (!sema_is_numeric(v)) {
        diag_error(v->loc, "%s() expects numbers, got %s", fname, type_name(c->arena, v->type));
        return false;
    }
    bool ok;
    *s = elem_of(c, v, &ok);
    if (!ok)
        return false;
    if (type_is_narrow(*s) && k != NORM_SELECT) {
        diag_error(v->loc, "%s() does not accept the storage type %s; convert it to Float32 first",
                   fname, type_info(*s)->name);
        return false;
    }
    if (*s == SC_INDEX && k != NORM_SELECT) {
        diag_error(v->loc, "%s() does not accept Index; cast it to an explicit integer type first "
                   "(e.g. Int64(i))", fname);
        return false;
    }
    if (k == NORM_CEILDIV && (*s == SC_BOOLEAN || !type_is_int(*s))) {
        diag_error(v->loc, "%s() takes integers, got %s", fname, type_info(*s)->name);
        return false;
    }
    if (k == NORM_FLOAT && !type_is_float(*s)) {
        if (is_lit(v) || *s == SC_BOOLEAN || type_is_int(*s)) {
            diag_error(v->loc, "%s() takes floating-point values, got %s; convert with Float32(x)",
                       fname, is_lit(v) ? "an integer literal" : type_info(*s)->name);
            return false;
        }
    }
    if (*s == SC_BOOLEAN && k == NORM_MINMAX)
        *s = SC_INT32;
    return true;
}

/* The common type of the operands (in the vector shape if any). */
static bool common_type(Ctx *c, Val **vals, int n, NormKind k, const char *fname, ScalarId *common_out,
                        const Type **shape_out)
{
    ScalarId common = SC_COUNT;
    const Type *shape = NULL;
    for (int i = 0; i < n; i++) {
        ScalarId s;
        if (!norm_operand(c, vals[i], k, fname, &s))
            return false;
        common = common == SC_COUNT ? s : promote_common(common, s);
        if (vals[i]->type->kind == TY_VECTOR) {
            if (shape && shape->lanes != vals[i]->type->lanes) {
                diag_error(vals[i]->loc, "vector lane counts differ in %s()", fname);
                return false;
            }
            shape = vals[i]->type;
        }
    }
    *common_out = common;
    *shape_out = shape ? type_vector(common, shape->lanes) : type_scalar(common);
    return true;
}

bool sema_choice_type(Ctx *c, Val **vals, int n, const char *what, const Type **out)
{
    ScalarId common;
    return common_type(c, vals, n, NORM_SELECT, what, &common, out);
}

/* Convert every operand to the common type (and to the vector shape if any). */
static bool unify(Ctx *c, Val **vals, int n, NormKind k, const char *fname, ScalarId *common_out,
                  const Type **shape_out)
{
    ScalarId common;
    const Type *t;
    if (!common_type(c, vals, n, k, fname, &common, &t))
        return false;
    for (int i = 0; i < n; i++) {
        bool all_static = true;
        for (int j = 0; j < n; j++)
            all_static &= vals[j]->is_static;
        if (all_static)
            vals[i] = fold_convert(c->arena, vals[i], common, FF_RNE, vals[i]->loc);
        else if (!(vals[i] = sema_convert(c, vals[i], t, FF_RNE, false, vals[i]->loc)))
            return false;
    }
    *common_out = common;
    *shape_out = t;
    return true;
}

static Val *minmax(Ctx *c, Args *a, int which, const char *fname)
{
    if (!check_kwargs(a, fname, NULL))
        return NULL;
    PtrVec flat = { 0 };
    for (int i = 0; i < a->npos; i++)
        flatten(c, a->pos[i], &flat);
    if (flat.len == 0) {
        diag_error(a->loc, "%s() needs at least one argument", fname);
        return NULL;
    }
    bool num = which == FXMM_MAXNUM || which == FXMM_MINNUM;
    if (num && flat.len != 2) {
        diag_error(a->loc, "%s() takes 2 arguments, got %d", fname, flat.len);
        return NULL;
    }
    Val **vals = (Val **)flat.items;
    ScalarId common;
    const Type *t;
    if (!unify(c, vals, flat.len, num ? NORM_FLOAT : NORM_MINMAX, fname, &common, &t))
        return NULL;
    Val *acc = vals[0];
    for (int i = 1; i < flat.len; i++) {
        if (acc->is_static && vals[i]->is_static) {
            acc = fold_minmax(c->arena, which, acc, vals[i]);
            continue;
        }
        FxInst *r = sema_emit(c, FX_MINMAX, which, t, a->loc, 2, sema_materialize(c, acc),
                              sema_materialize(c, vals[i]));
        acc = val_runtime(c, t, r, a->loc);
    }
    if (acc->is_static) {
        Val *r = arena_alloc(c->arena, sizeof *r);
        *r = *acc;
        r->loc = a->loc;
        return r;
    }
    return acc;
}

static Val *ceildiv(Ctx *c, Args *a)
{
    if (!check_kwargs(a, "fx.ceildiv", NULL) || !check_count(a, "fx.ceildiv", 2, 2))
        return NULL;
    Val *v[2] = { a->pos[0], a->pos[1] };
    ScalarId common;
    const Type *t;
    if (!unify(c, v, 2, NORM_CEILDIV, "fx.ceildiv", &common, &t))
        return NULL;
    if (v[1]->is_static && v[1]->type->kind == TY_SCALAR && big_is_zero(v[1]->i)) {
        sema_fold_error(c, FXF_DIV_ZERO, v[1]->loc);
        return NULL;
    }
    if (v[0]->is_static && v[1]->is_static) {
        Val *out;
        FxFoldStatus st = fold_ceildiv(c->arena, v[0], v[1], &out);
        if (st != FXF_OK) {
            sema_fold_error(c, st, a->loc);
            return NULL;
        }
        out->loc = a->loc;
        return out;
    }
    FxInst *r = sema_emit(c, FX_CEILDIV, 0, t, a->loc, 2, sema_materialize(c, v[0]),
                          sema_materialize(c, v[1]));
    return val_runtime(c, t, r, a->loc);
}

/* ---- math builtins ---- */

static const struct { const char *name; FxMathFn fn; } math_fns[] = {
    { "fx.exp", FXM_EXP }, { "fx.exp2", FXM_EXP2 }, { "fx.log", FXM_LOG }, { "fx.log2", FXM_LOG2 },
    { "fx.sqrt", FXM_SQRT }, { "fx.rsqrt", FXM_RSQRT }, { "fx.sin", FXM_SIN }, { "fx.cos", FXM_COS },
    { "fx.tanh", FXM_TANH }, { "fx.floor", FXM_FLOOR }, { "fx.ceil", FXM_CEIL }, { "fx.round", FXM_ROUND },
    { "fx.trunc", FXM_TRUNC }, { "fx.erf", FXM_ERF }, { "fx.erfc", FXM_ERFC }, { "fx.log1p", FXM_LOG1P },
    { "fx.expm1", FXM_EXPM1 }, { "fx.cbrt", FXM_CBRT }, { "fx.sigmoid", FXM_SIGMOID },
    { "fx.copysign", FXM_COPYSIGN }, { "fx.hypot", FXM_HYPOT }, { "fx.atan2", FXM_ATAN2 },
};

/* Host libm in the type's own precision (transcendentals are the documented
 * folding exception; sqrt, floor, ceil, round, trunc are exact). */
static double host_math(FxMathFn fn, double x, ScalarId s)
{
    bool f64 = s == SC_FLOAT64;
    float xf = (float)x;
    if (fxm_is_defined_here(fn))
        return fxm_eval(fn, s, x, 0.0);
    switch (fn) {
    case FXM_EXP: return f64 ? exp(x) : expf(xf);
    case FXM_EXP2: return f64 ? exp2(x) : exp2f(xf);
    case FXM_LOG: return f64 ? log(x) : logf(xf);
    case FXM_LOG2: return f64 ? log2(x) : log2f(xf);
    case FXM_SQRT: return sqrt(x);
    case FXM_RSQRT: return f64 ? 1.0 / sqrt(x) : 1.0f / sqrtf(xf);
    case FXM_SIN: return f64 ? sin(x) : sinf(xf);
    case FXM_COS: return f64 ? cos(x) : cosf(xf);
    case FXM_TANH: return f64 ? tanh(x) : tanhf(xf);
    case FXM_FLOOR: return floor(x);
    case FXM_CEIL: return ceil(x);
    case FXM_ROUND: return round(x);
    case FXM_TRUNC: return trunc(x);
    default: return NAN;
    }
}

/* fx.copysign, fx.hypot, fx.atan2: two operands of one float type. */
static Val *math2_call(Ctx *c, Args *a, FxMathFn fn, const char *fname)
{
    static const char *const kws[] = { "fastmath", NULL };
    if (!check_kwargs(a, fname, kws) || !check_count(a, fname, 2, 2))
        return NULL;
    Val *v[2] = { a->pos[0], a->pos[1] };
    ScalarId s;
    const Type *t;
    unsigned fmf;
    if (!op_fastmath(c, a, &fmf) || !unify(c, v, 2, NORM_FLOAT, fname, &s, &t))
        return NULL;
    if (v[0]->is_static && v[1]->is_static) {
        double r = fxm_eval(fn, s, fold_as_double(v[0]), fold_as_double(v[1]));
        return fold_make_float(c->arena, s, ff_from_double(type_info(s)->fmt, r, FF_RNE), a->loc);
    }
    FxInst *i = sema_emit(c, FX_MATH, fn, t, a->loc, 2, sema_materialize(c, v[0]), sema_materialize(c, v[1]));
    i->fmf = fmf;
    return val_runtime(c, t, i, a->loc);
}

/* fx.pow(x, y): x ** y in the operands' common float type (integers are
 * refused: `**` is the integer power). */
static Val *pow_call(Ctx *c, Args *a)
{
    static const char *const kws[] = { "fastmath", NULL };
    if (!check_kwargs(a, "fx.pow", kws) || !check_count(a, "fx.pow", 2, 2))
        return NULL;
    Val *v[2] = { a->pos[0], a->pos[1] };
    ScalarId s;
    const Type *t;
    unsigned fmf;
    if (!op_fastmath(c, a, &fmf) || !unify(c, v, 2, NORM_FLOAT, "fx.pow", &s, &t))
        return NULL;
    unsigned ambient = c->fmf;
    c->fmf = fmf;   /* the flags of this one operation */
    Val *r = sema_binary_values(c, OP_POW, v[0], v[1], a->loc);
    c->fmf = ambient;
    return r;
}

static Val *math_call(Ctx *c, Args *a, FxMathFn fn, const char *fname)
{
    static const char *const kws[] = { "fastmath", NULL };
    if (fxm_is_binary(fn))
        return math2_call(c, a, fn, fname);
    if (!check_kwargs(a, fname, kws) || !check_count(a, fname, 1, 1))
        return NULL;
    Val *v[1] = { a->pos[0] };
    ScalarId s;
    const Type *t;
    unsigned fmf;
    if (!op_fastmath(c, a, &fmf) || !unify(c, v, 1, NORM_FLOAT, fname, &s, &t))
        return NULL;
    if (v[0]->is_static) {
        double r = host_math(fn, fold_as_double(v[0]), s);
        return fold_make_float(c->arena, s, ff_from_double(type_info(s)->fmt, r, FF_RNE), a->loc);
    }
    FxInst *i = sema_emit(c, FX_MATH, fn, t, a->loc, 1, v[0]->ir);
    i->fmf = fmf;
    return val_runtime(c, t, i, a->loc);
}

/* fma with one rounding into format s: computed in binary64 with
 * round-to-odd, which makes the second rounding to a narrower format exact. */
static double fma_in_format(double x, double y, double z, ScalarId s)
{
    if (s == SC_FLOAT64)
        return fma(x, y, z);
    if (s == SC_FLOAT32)
        return (double)fmaf((float)x, (float)y, (float)z);
    int old = fegetround();
    feclearexcept(FE_INEXACT);
    fesetround(FE_TOWARDZERO);
    volatile double r = fma(x, y, z);
    bool inexact = fetestexcept(FE_INEXACT);
    fesetround(old);
    if (inexact && isfinite(r)) {
        uint64_t bits;
        double rr = r;
        memcpy(&bits, &rr, 8);
        bits |= 1;
        memcpy(&rr, &bits, 8);
        return rr;
    }
    return r;
}

static Val *fma_call(Ctx *c, Args *a)
{
    static const char *const kws[] = { "fastmath", NULL };
    if (!check_kwargs(a, "fx.fma", kws) || !check_count(a, "fx.fma", 3, 3))
        return NULL;
    Val *v[3] = { a->pos[0], a->pos[1], a->pos[2] };
    ScalarId s;
    const Type *t;
    unsigned fmf;
    if (!op_fastmath(c, a, &fmf) || !unify(c, v, 3, NORM_FLOAT, "fx.fma", &s, &t))
        return NULL;
    if (v[0]->is_static && v[1]->is_static && v[2]->is_static) {
        double r = fma_in_format(fold_as_double(v[0]), fold_as_double(v[1]), fold_as_double(v[2]), s);
        return fold_make_float(c->arena, s, ff_from_double(type_info(s)->fmt, r, FF_RNE), a->loc);
    }
    FxInst *i = sema_emit(c, FX_FMA, 0, t, a->loc, 3, sema_materialize(c, v[0]),
                          sema_materialize(c, v[1]), sema_materialize(c, v[2]));
    i->fmf = fmf;
    return val_runtime(c, t, i, a->loc);
}

/* ---- kernels: barrier, atomics, lanes ---- */

static bool in_kernel_code(Ctx *c, Loc loc, const char *what)
{
    if (c->fn && !c->fn->is_eval)
        return true;
    diag_error(loc, "%s is only available inside a kernel or fn", what);
    return false;
}

/* Wave operations, lane ids, barriers and matrix instructions need
 * work-items: kernels and the fns they call, not a program's maps. */
static bool in_work_item_code(Ctx *c, Loc loc, const char *what)
{
    if (!in_kernel_code(c, loc, what))
        return false;
    if (c->fn->in_program) {
        diag_error(loc, "%s is not available in a program: its elementwise expressions have no work-items or "
                   "waves", what);
        return false;
    }
    return true;
}

/* The first instruction of f (or of a fn it calls) that needs work-items
 * (fx.printf and fx.assert report work-items too). */
static const FxInst *work_item_use(const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_WAVE || i->op == FX_MFMA || i->op == FX_BARRIER || i->op == FX_FENCE ||
            i->op == FX_PRINT || i->op == FX_ASSERT || (i->op == FX_ALLOCA && i->space == FXSPACE_SHARED) ||
            (i->op == FX_SPECIAL && (i->sub == FXS_LANE_ID || i->sub == FXS_THREAD_IDX || i->sub == FXS_BLOCK_IDX)))
            return i;
        const FxInst *r = i->op == FX_CALL && i->callee ? work_item_use(&i->callee->body) : NULL;
        for (int k = 0; !r && k < i->nblocks; k++)
            r = work_item_use(&i->blocks[k]);
        if (r)
            return r;
    }
    return NULL;
}

/* A shared parameter takes a shared array of exactly its type, by
 * reference; any other parameter a value converted as an assignment is. */
static FxInst *fn_argument(Ctx *c, Val *arg, const FxParam *p)
{
    if (p->type->kind != TY_ARRAY) {
        Val *v = sema_assign_convert(c, arg, p->type, arg->loc);
        return v ? sema_materialize(c, v) : NULL;
    }
    if (arg->type->kind != TY_ARRAY || !fxir_is_shared_array(arg->ir)) {
        diag_error(arg->loc, "parameter '%s' takes a shared array (%s), got %s%s", p->name,
                   type_name(c->arena, p->type), arg->type->kind == TY_ARRAY ? "a private array " : "",
                   type_name(c->arena, arg->type));
        return NULL;
    }
    if (!type_equal(arg->type, p->type)) {
        diag_error(arg->loc, "parameter '%s' takes a shared %s, got a shared %s: element type and dimensions "
                   "must match", p->name, type_name(c->arena, p->type), type_name(c->arena, arg->type));
        return NULL;
    }
    return arg->ir;
}

static Val *void_val(Ctx *c, Loc loc)
{
    Val *v = new_static(c, VOID_TYPE, loc);
    v->is_static = false;
    return v;
}

static Val *atomic_call(Ctx *c, Args *a, FxAtomic kind, const char *fname)
{
    int want = kind == FXA_CAS ? 4 : 3;
    if (!check_kwargs(a, fname, NULL) || !check_count(a, fname, want, want) || !in_kernel_code(c, a->loc, fname))
        return NULL;
    Val *p = a->pos[0];
    bool is_ptr = p->type->kind == TY_PTR;
    bool is_shared = p->type->kind == TY_ARRAY && fxir_is_shared_array(p->ir);
    if (!(is_ptr || (is_shared && p->type->ndims == 1))) {
        diag_error(p->loc, "%s() needs a Ptr or a one-dimensional shared array, got %s", fname,
                   type_name(c->arena, p->type));
        return NULL;
    }
    if (is_ptr && p->type->is_const) {
        diag_error(p->loc, "%s() writes through a const Ptr", fname);
        return NULL;
    }
    const Type *et = p->type->elem;
    const char *why = et->kind == TY_SCALAR ? fxir_atomic_type_error(kind, et->scalar)
                                            : "atomics work on scalar elements";
    if (why) {
        diag_error(p->loc, "%s() on %s elements: %s", fname, type_name(c->arena, et), why);
        return NULL;
    }
    Val *idx = a->pos[1];
    if (!(idx->type->kind == TY_LITINT || (idx->type->kind == TY_SCALAR && type_is_int(idx->type->scalar)))) {
        diag_error(idx->loc, "an index must be an integer, got %s", type_name(c->arena, idx->type));
        return NULL;
    }
    if (idx->type->kind == TY_LITINT)
        idx = fold_convert(c->arena, idx, SC_INT32, FF_RNE, idx->loc);
    FxInst *ops[4] = { p->ir, sema_materialize(c, idx), NULL, NULL };
    for (int k = 2; k < want; k++) {
        Val *v = sema_assign_convert(c, a->pos[k], et, a->pos[k]->loc);
        if (!v)
            return NULL;
        ops[k] = sema_materialize(c, v);
    }
    FxInst *i = fxb_atomic(sema_builder(c, a->loc), (FxAtomic)kind, et, ops[0], ops[1], ops[2], ops[3]);
    return val_runtime(c, et, i, a->loc);
}

/* fx.threadfence() or fx.threadfence(scope): a sequentially consistent
 * fence at the scope a string names, "agent" by default as HIP's
 * __threadfence(). It orders a work-item's accesses, so programs have none. */
static Val *threadfence_call(Ctx *c, Args *a, const char *fname)
{
    if (!check_kwargs(a, fname, NULL) || !check_count(a, fname, 0, 1) || !in_work_item_code(c, a->loc, fname))
        return NULL;
    int scope = FXSC_AGENT;
    if (a->npos == 1) {
        Val *s = a->pos[0];
        scope = s->type->kind == TY_STRING ? fxir_sub_by_name(FX_FENCE, s->str, strlen(s->str)) : -1;
        if (scope < 0) {
            diag_error(s->loc, "%s() takes a scope \"workgroup\", \"agent\" or \"system\"", fname);
            return NULL;
        }
    }
    sema_emit(c, FX_FENCE, scope, VOID_TYPE, a->loc, 0);
    return void_val(c, a->loc);
}

/* ---- wave operations (docs/waves.md) ---- */

static const struct { const char *name; FxWaveOp op; } wave_fns[] = {
    { "fx.shuffle", FXW_SHUFFLE }, { "fx.shuffle_xor", FXW_SHUFFLE_XOR }, { "fx.shuffle_up", FXW_SHUFFLE_UP },
    { "fx.shuffle_down", FXW_SHUFFLE_DOWN }, { "fx.readlane", FXW_READLANE },
    { "fx.readfirstlane", FXW_READFIRSTLANE }, { "fx.ballot", FXW_BALLOT }, { "fx.any", FXW_ANY },
    { "fx.all", FXW_ALL }, { "fx.wave_sum", FXW_SUM }, { "fx.wave_max", FXW_MAX }, { "fx.wave_min", FXW_MIN },
};

/* fx.shuffle(v, lane) and the others: v any number (the reductions: no
 * storage-only type, no Index; a Boolean sums as Int32), or a Boolean for
 * ballot/any/all; the lane, mask or distance an Int32. */
static Val *wave_call(Ctx *c, Args *a, FxWaveOp op, const char *fname)
{
    bool has_lane = op <= FXW_READLANE;
    int want = has_lane ? 2 : 1;
    if (!check_kwargs(a, fname, NULL) || !check_count(a, fname, want, want) || !in_work_item_code(c, a->loc, fname))
        return NULL;
    const TgtTarget *t = c->sema->opts->target;
    /* (in a branch a static condition drops, what the target lacks is no error) */
    if (op < FXW_READLANE && t && !tgt_has_lane_permute(t) && !c->discard) {
        diag_error(a->loc, "%s() needs ds_bpermute_b32, which %s (%s) does not have: gfx801 and later "
                   "processors have it (fx.readlane, fx.readfirstlane, fx.ballot and the reductions work on %s)",
                   fname, t->name, t->family, t->name);
        return NULL;
    }
    Val *v = a->pos[0];
    if (op == FXW_BALLOT || op == FXW_ANY || op == FXW_ALL) {
        if (!(v = sema_assign_convert(c, v, type_scalar(SC_BOOLEAN), v->loc)))
            return NULL;
    } else {
        ScalarId common;
        const Type *t;
        bool reduce = op >= FXW_SUM;
        if (!unify(c, &v, 1, reduce ? NORM_MINMAX : NORM_SELECT, fname, &common, &t))
            return NULL;
        if (v->is_static && !(v = sema_convert(c, v, t, FF_RNE, false, v->loc)))
            return NULL;
    }
    FxInst *lane = NULL;
    if (has_lane) {
        Val *l = sema_assign_convert(c, a->pos[1], type_scalar(SC_INT32), a->pos[1]->loc);
        if (!l)
            return NULL;
        lane = sema_materialize(c, l);
    }
    FxInst *i = fxb_wave(sema_builder(c, a->loc), op, sema_materialize(c, v), lane);
    return val_runtime(c, i->type, i, a->loc);
}

/* ---- matrix instructions on per-lane fragments (docs/waves.md) ---- */

static bool fragment_shape(const Type *t, ScalarId *elem, int *lanes)
{
    if (t->kind != TY_SCALAR && t->kind != TY_VECTOR)
        return false;
    *elem = t->scalar;
    *lanes = t->kind == TY_VECTOR ? t->lanes : 1;
    return true;
}

/* Whether instruction mi takes A fragments of `in` x in_lanes, B's of
 * `in_b` x in_lanes and C/D of `acc` x acc_lanes. */
static bool takes_fragments(const TgtMatrixInst *mi, ScalarId in, ScalarId in_b, int in_lanes, ScalarId acc,
                            int acc_lanes)
{
    const TgtMatrixLayout *l = tgt_matrix_layout(mi->id);
    return fxir_matrix_elem(mi->in) == in && fxir_matrix_elem(mi->in_b) == in_b && fxir_matrix_elem(mi->acc) == acc &&
           l->a->per_lane == in_lanes && l->d->per_lane == acc_lanes;
}

static const Type *fragment_type(TgtElem e, int lanes)
{
    return lanes == 1 ? type_scalar(fxir_matrix_elem(e)) : type_vector(fxir_matrix_elem(e), lanes);
}

/* The shapes fx.mfma (CDNA) or fx.wmma (RDNA) accepts, for messages. */
static const char *fragment_menu(Ctx *c, bool wmma)
{
    char *s = "";
    for (int id = 0; id < TGT_MI_COUNT; id++) {
        const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)id);
        if ((strncmp(mi->family, "RDNA", 4) == 0) != wmma)
            continue;
        const TgtMatrixLayout *l = tgt_matrix_layout(mi->id);
        const char *a = type_name(c->arena, fragment_type(mi->in, l->a->per_lane));
        const char *ab = mi->in_b == mi->in ? arena_printf(c->arena, "A, B %s", a)
                       : arena_printf(c->arena, "A %s, B %s", a,
                                      type_name(c->arena, fragment_type(mi->in_b, l->a->per_lane)));
        s = arena_printf(c->arena, "%s%s%s: %s, C %s", s, *s ? "; " : "", mi->mnemonic, ab,
                         type_name(c->arena, type_vector(fxir_matrix_elem(mi->acc), l->d->per_lane)));
    }
    return s;
}

/* Among the instructions of fx.mfma (CDNA) or fx.wmma (RDNA) taking A
 * fragments `in` x in_lanes, B's `in_b` x in_lanes and C/D `acc` x
 * acc_lanes: the first of any processor (*wanted, NULL if none), and the
 * one the target has (returned, NULL if none); *where lists "mnemonic
 * (processors)" of every one. */
static const TgtMatrixInst *matrix_for(Ctx *c, bool wmma, ScalarId in, ScalarId in_b, int in_lanes, ScalarId acc,
                                       int acc_lanes, const TgtMatrixInst **wanted, const char **where)
{
    const TgtMatrixInst *found = NULL;
    *wanted = NULL;
    *where = "";
    for (int id = 0; id < TGT_MI_COUNT; id++) {
        const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)id);
        if ((strncmp(mi->family, "RDNA", 4) == 0) != wmma || !takes_fragments(mi, in, in_b, in_lanes, acc, acc_lanes))
            continue;
        *wanted = *wanted ? *wanted : mi;
        *where = arena_printf(c->arena, "%s%s%s (%s)", *where, **where ? ", " : "", mi->mnemonic,
                              tgt_matrix_targets(mi->id));
        if (!found && c->sema->opts->target && tgt_has_matrix(c->sema->opts->target, mi->id))
            found = mi;
    }
    return found;
}

static bool no_matrix_takes(Ctx *c, bool wmma, const Type *a, const Type *b, const Type *acc, Loc loc)
{
    const char *ab = type_equal(a, b) ? arena_printf(c->arena, "A, B %s", type_name(c->arena, a))
                   : arena_printf(c->arena, "A %s, B %s", type_name(c->arena, a), type_name(c->arena, b));
    diag_error(loc, "no %s instruction takes %s and C %s; the instructions: %s", wmma ? "WMMA" : "MFMA", ab,
               type_name(c->arena, acc), fragment_menu(c, wmma));
    return false;
}

/* fx.mfma(a, b, c) / fx.wmma(a, b, c): one matrix instruction of the wave,
 * chosen by the fragments' types among the target's; d = a @ b + c with the
 * vendor's register layouts. Every lane of the wave must reach it. */
static Val *matrix_call(Ctx *c, Args *a, bool wmma, const char *fname)
{
    if (!check_kwargs(a, fname, NULL) || !check_count(a, fname, 3, 3) || !in_work_item_code(c, a->loc, fname))
        return NULL;
    ScalarId in, in_b, acc;
    int in_lanes, in_b_lanes, acc_lanes;
    for (int k = 0; k < 3; k++)
        if (a->pos[k]->type->kind == TY_LITINT || a->pos[k]->type->kind == TY_LITFLOAT) {
            diag_error(a->pos[k]->loc, "%s() takes typed fragments, got an untyped literal", fname);
            return NULL;
        }
    if (!fragment_shape(a->pos[0]->type, &in, &in_lanes) || !fragment_shape(a->pos[1]->type, &in_b, &in_b_lanes) ||
        !fragment_shape(a->pos[2]->type, &acc, &acc_lanes) || in_lanes != in_b_lanes) {
        diag_error(a->loc, "%s() takes this lane's fragments of A and B (as many elements) and of C; "
                   "the instructions: %s", fname, fragment_menu(c, wmma));
        return NULL;
    }
    const TgtMatrixInst *wanted;
    const char *where;
    const TgtMatrixInst *found = matrix_for(c, wmma, in, in_b, in_lanes, acc, acc_lanes, &wanted, &where);
    const TgtTarget *t = c->sema->opts->target;
    const char *tname = !t || t->kind == TGT_HOST ? "the host (fxrun --arch=GFX runs a GPU's kernels there)" : t->name;
    /* In a branch a static condition drops (`if fx.has_mfma(...)`), the
     * fragment types are often the ones another target's instruction takes
     * (chosen by a static conditional expression): the call is not built,
     * and its value is C's. */
    if (!found && c->discard)
        return a->pos[2];
    if (!wanted) {
        no_matrix_takes(c, wmma, a->pos[0]->type, a->pos[1]->type, a->pos[2]->type, a->loc);
        return NULL;
    }
    if (!found) {
        diag_error(a->loc, "%s() on these fragments needs a matrix instruction %s does not have: %s", fname, tname,
                   where);
        return NULL;
    }
    FxInst *ops[3];
    for (int k = 0; k < 3; k++)
        ops[k] = sema_materialize(c, a->pos[k]);
    FxInst *i = fxb_mfma(sema_builder(c, a->loc), found->id, a->pos[2]->type, ops[0], ops[1], ops[2]);
    return val_runtime(c, i->type, i, a->loc);
}

/* fx.has_mfma(A, C) / fx.has_wmma(A, C), or (A, B, C) when A's and B's
 * fragments differ (fp8 by bf8): a static Boolean, whether the target has
 * the instruction fx.mfma / fx.wmma would run on fragments of those types.
 * Fragment types no instruction of any processor takes are an error
 * rather than False, so that a misspelt shape cannot silently select the
 * fallback. */
static Val *has_matrix_call(Ctx *c, Args *a, bool wmma, const char *fname)
{
    if (!check_kwargs(a, fname, NULL) || !check_count(a, fname, 2, 3))
        return NULL;
    for (int k = 0; k < a->npos; k++)
        if (a->pos[k]->type->kind != TY_TYPE) {
            diag_error(a->pos[k]->loc, "%s() takes fragment types (e.g. Float16x4, Float32x4), got a value of type %s",
                       fname, type_name(c->arena, a->pos[k]->type));
            return NULL;
        }
    ScalarId in, in_b, acc;
    int in_lanes, in_b_lanes, acc_lanes;
    const Type *ta = a->pos[0]->tval, *tb = a->pos[a->npos - 2]->tval, *tc = a->pos[a->npos - 1]->tval;
    const TgtMatrixInst *wanted = NULL, *found = NULL;
    const char *where;
    if (fragment_shape(ta, &in, &in_lanes) && fragment_shape(tb, &in_b, &in_b_lanes) &&
        fragment_shape(tc, &acc, &acc_lanes) && in_lanes == in_b_lanes)
        found = matrix_for(c, wmma, in, in_b, in_lanes, acc, acc_lanes, &wanted, &where);
    if (!wanted) {
        no_matrix_takes(c, wmma, ta, tb, tc, a->loc);
        return NULL;
    }
    return fold_make_bool(c->arena, found != NULL, a->loc);
}

/* ---- type constructors and conversions ---- */

static Val *construct(Ctx *c, const Type *t, Args *a)
{
    const char *tn = type_name(c->arena, t);
    if (!check_kwargs(a, tn, NULL))
        return NULL;
    if (t->kind == TY_VECTOR && a->npos == t->lanes && a->npos > 1) {
        /* Float32x4(a, b, c, d): build from lanes. */
        const Type *et = type_scalar(t->scalar);
        FxInst *vec = NULL;
        Val *first = sema_convert(c, a->pos[0], t, FF_RNE, false, a->loc);
        if (!first)
            return NULL;
        vec = first->ir;
        for (int k = 1; k < a->npos; k++) {
            if (!sema_is_numeric(a->pos[k]) || a->pos[k]->type->kind == TY_VECTOR) {
                diag_error(a->pos[k]->loc, "%s() lanes must be scalars", tn);
                return NULL;
            }
            Val *lane = sema_convert(c, a->pos[k], et, FF_RNE, false, a->pos[k]->loc);
            FxInst *idx = fxb_int(sema_builder(c, a->loc), type_scalar(SC_INT32), k);
            vec = sema_emit(c, FX_INSERT, 0, t, a->loc, 3, vec, sema_materialize(c, lane), idx);
        }
        return val_runtime(c, t, vec, a->loc);
    }
    if (t->kind != TY_SCALAR && t->kind != TY_VECTOR) {
        diag_error(a->loc, "%s cannot be called as a constructor", tn);
        return NULL;
    }
    if (!check_count(a, tn, 1, 1))
        return NULL;
    Val *x = a->pos[0];
    if (!sema_is_numeric(x)) {
        diag_error(x->loc, "cannot convert %s to %s", type_name(c->arena, x->type), tn);
        return NULL;
    }
    return sema_convert(c, x, t, FF_RNE, false, a->loc);
}

static bool is_floatish(ScalarId s) { return type_info(s)->fmt != NULL; }

static Val *method_to(Ctx *c, Val *x, Args *a)
{
    static const char *const kws[] = { "rounding_mode", NULL };
    if (!check_kwargs(a, "to", kws) || !check_count(a, "to", 1, 1))
        return NULL;
    if (a->pos[0]->type->kind != TY_TYPE) {
        diag_error(a->pos[0]->loc, "to() expects a type, e.g. x.to(Float32)");
        return NULL;
    }
    const Type *t = a->pos[0]->tval;
    if (t->kind != TY_SCALAR) {
        diag_error(a->pos[0]->loc, "to() expects a scalar type; vectors convert elementwise to their element type");
        return NULL;
    }
    bool ok;
    ScalarId from = elem_of(c, x, &ok);
    if (!ok)
        return NULL;
    const Type *target = sema_vector_of(x->type, t->scalar);
    Val *rmv = kwarg(a, "rounding_mode");
    FfRound rm = FF_RNE;
    if (rmv) {
        if (rmv->type->kind != TY_ROUNDING) {
            diag_error(rmv->loc, "rounding_mode= expects fx.RoundingMode.X, got %s", type_name(c->arena, rmv->type));
            return NULL;
        }
        if (!is_floatish(from) || !is_floatish(t->scalar)) {
            diag_error(rmv->loc, "rounding_mode= applies only to float-to-float conversions, not %s to %s",
                       type_info(from)->name, type_info(t->scalar)->name);
            return NULL;
        }
        if (x->is_static) {
            diag_error(rmv->loc, "rounding_mode= needs a run-time value: a static value is narrowed on the "
                       "host with round-to-nearest-even (drop the rounding mode, or convert a run-time value)");
            return NULL;
        }
        rm = (FfRound)rmv->flags;
    }
    return sema_convert(c, x, target, rm, rmv != NULL, a->loc);
}

static const int allowed_lanes[] = { 1, 2, 3, 4, 8, 16, 32, 64 };

static Val *method_bitcast(Ctx *c, Val *x, Args *a)
{
    if (!check_kwargs(a, "bitcast", NULL) || !check_count(a, "bitcast", 1, 1))
        return NULL;
    if (a->pos[0]->type->kind != TY_TYPE || a->pos[0]->tval->kind != TY_SCALAR) {
        diag_error(a->pos[0]->loc, "bitcast() expects a scalar type, e.g. x.bitcast(Int32)");
        return NULL;
    }
    ScalarId to = a->pos[0]->tval->scalar;
    if (is_lit(x) || x->type->kind != (x->type->kind == TY_VECTOR ? TY_VECTOR : TY_SCALAR)) {
        diag_error(x->loc, "bitcast() needs a typed value; write e.g. Float32(1.0).bitcast(Int32)");
        return NULL;
    }
    int from_w = type_info(x->type->scalar)->width, to_w = type_info(to)->width;
    if (x->type->scalar == to)
        return x;   /* reinterpreting as its own type */
    if ((x->type->scalar == SC_BOOLEAN) != (to == SC_BOOLEAN)) {
        diag_error(a->loc, "bitcast() does not apply to Boolean");
        return NULL;
    }
    if (x->type->kind == TY_SCALAR) {
        if (from_w != to_w) {
            diag_error(a->loc, "bitcast() between types of different widths: %s is %d bits, %s is %d bits",
                       type_info(x->type->scalar)->name, from_w, type_info(to)->name, to_w);
            return NULL;
        }
        if (x->is_static)
            return fold_bitcast(c->arena, x, to, a->loc);
        const Type *t = type_scalar(to);
        return val_runtime(c, t, sema_emit(c, FX_BITCAST, 0, t, a->loc, 1, x->ir), a->loc);
    }
    int total = from_w * x->type->lanes;
    bool lanes_ok = false;
    for (size_t k = 0; k < sizeof allowed_lanes / sizeof allowed_lanes[0]; k++)
        lanes_ok |= total % to_w == 0 && allowed_lanes[k] == total / to_w;
    if (!lanes_ok) {
        diag_error(a->loc, "bitcast() of %s (%d bits) to %s: the total width is not a whole number of "
                   "supported lanes", type_name(c->arena, x->type), total, type_info(to)->name);
        return NULL;
    }
    const Type *t = type_vector(to, total / to_w);
    return val_runtime(c, t, sema_emit(c, FX_BITCAST, 0, t, a->loc, 1, x->ir), a->loc);
}

static Val *method_select(Ctx *c, Val *cond, Args *a)
{
    if (!check_kwargs(a, "select", NULL) || !check_count(a, "select", 2, 2))
        return NULL;
    if (!sema_is_numeric(cond)) {
        diag_error(cond->loc, "select() needs a Boolean condition, got %s", type_name(c->arena, cond->type));
        return NULL;
    }
    /* A non-Boolean condition converts by truthiness (nonzero). */
    if (is_lit(cond) || cond->type->scalar != SC_BOOLEAN)
        cond = sema_convert(c, cond, sema_vector_of(is_lit(cond) ? type_scalar(SC_INT32) : cond->type, SC_BOOLEAN),
                            FF_RNE, false, cond->loc);
    Val *v[2] = { a->pos[0], a->pos[1] };
    ScalarId s;
    const Type *t;
    if (!unify(c, v, 2, NORM_SELECT, "select", &s, &t))
        return NULL;
    if (cond->type->kind == TY_VECTOR && t->kind == TY_VECTOR && cond->type->lanes != t->lanes) {
        diag_error(a->loc, "select(): the condition has %d lanes, the values %d", cond->type->lanes, t->lanes);
        return NULL;
    }
    if (cond->type->kind == TY_VECTOR && t->kind == TY_SCALAR) {
        t = type_vector(s, cond->type->lanes);
        v[0] = sema_convert(c, v[0], t, FF_RNE, false, v[0]->loc);
        v[1] = sema_convert(c, v[1], t, FF_RNE, false, v[1]->loc);
    }
    if (cond->is_static && v[0]->is_static == v[1]->is_static) {
        Val *r = arena_alloc(c->arena, sizeof *r);
        *r = *(fold_truthy(cond) ? v[0] : v[1]);
        r->loc = a->loc;
        return r;
    }
    FxInst *i = sema_emit(c, FX_SELECT, 0, t, a->loc, 3, sema_materialize(c, cond),
                          sema_materialize(c, v[0]), sema_materialize(c, v[1]));
    return val_runtime(c, t, i, a->loc);
}

/* The bytes of one element of Ptr[T] and the alignment loads of it
 * assume (vectors of 2, 4, 8... lanes: their size; others: a lane's). */
static int64_t elem_size(const Type *t)
{
    int64_t b = type_storage_bits(t) / 8;
    return b > 0 ? b : 1;
}

static int64_t elem_align(const Type *t)
{
    if (t->kind == TY_VECTOR && (t->lanes & (t->lanes - 1)) == 0)
        return elem_size(t);
    return elem_size(type_scalar(t->scalar));
}

/* How many bytes past its root a Ptr is, when every step of the chain is
 * static; -1 when not known. */
static int64_t static_byte_offset(const FxInst *p)
{
    int64_t off = 0;
    for (; p->op == FX_PTR_OFFSET; p = p->ops[0]) {
        if (p->ops[1]->op != FX_CONST)
            return -1;
        off += (int64_t)p->ops[1]->cval.lo * elem_size(p->ops[0]->type->elem);
    }
    return off;
}

/* p.cast(Ptr[U]): the same address viewed as U elements. A const Ptr stays
 * const. Loads through it assume U's alignment on the GPU; where the
 * offset from the parameter is static, a misaligned one is an error. */
static Val *method_cast(Ctx *c, Val *p, Args *a)
{
    if (!check_kwargs(a, "cast", NULL) || !check_count(a, "cast", 1, 1))
        return NULL;
    const Type *t = a->pos[0]->type->kind == TY_TYPE ? a->pos[0]->tval : NULL;
    if (!t || t->kind != TY_PTR) {
        diag_error(a->pos[0]->loc, "cast() takes a Ptr type, e.g. p.cast(Ptr[Uint32])");
        return NULL;
    }
    if (t->elem->kind != TY_SCALAR && t->elem->kind != TY_VECTOR) {
        diag_error(a->pos[0]->loc, "a Ptr points at scalars or vectors, not %s", type_name(c->arena, t->elem));
        return NULL;
    }
    t = type_ptr(c->arena, t->elem, p->type->is_const);
    int64_t off = static_byte_offset(p->ir), align = elem_align(t->elem);
    if (off >= 0 && off % align != 0) {
        diag_error(a->loc, "this Ptr is %lld bytes past its parameter, not a multiple of the %lld-byte alignment "
                   "%s needs", (long long)off, (long long)align, type_name(c->arena, t->elem));
        return NULL;
    }
    return sema_ptr_view(c, p, fold_make_int(c->arena, SC_INT64, big_from_i64(0), a->loc), t, a->loc);
}

static Val *call_method(Ctx *c, const char *m, Val *recv, Args *a)
{
    if (strcmp(m, "cast") == 0)
        return method_cast(c, recv, a);
    if (strcmp(m, "to") == 0)
        return method_to(c, recv, a);
    if (strcmp(m, "bitcast") == 0)
        return method_bitcast(c, recv, a);
    if (strcmp(m, "select") == 0)
        return method_select(c, recv, a);
    if (strcmp(m, "is_static") == 0) {
        if (!check_count(a, "is_static", 0, 0))
            return NULL;
        return fold_make_bool(c->arena, recv->is_static, a->loc);
    }
    diag_error(a->loc, "unknown method '%s'", m);
    return NULL;
}

/* ---- len, abs, divmod ---- */

static Val *len_call(Ctx *c, Args *a)
{
    if (!check_count(a, "len", 1, 1))
        return NULL;
    Val *x = a->pos[0];
    if (x->type->kind == TY_VECTOR)
        return fold_make_litint(c->arena, big_from_i64(x->type->lanes), a->loc);
    if (x->type->kind == TY_TUPLE)
        return fold_make_litint(c->arena, big_from_i64(x->nelems), a->loc);
    if (x->type->kind == TY_TYPE && x->tval->kind == TY_VECTOR)
        return fold_make_litint(c->arena, big_from_i64(x->tval->lanes), a->loc);
    diag_error(x->loc, "len() takes a vector, got %s", type_name(c->arena, x->type));
    return NULL;
}

static Val *abs_call(Ctx *c, Args *a)
{
    if (!check_count(a, "abs", 1, 1))
        return NULL;
    Val *x = a->pos[0];
    if (!sema_is_numeric(x) || sema_reject_narrow(c, x, "abs()"))
        return x && !sema_is_numeric(x) ? (diag_error(x->loc, "abs() takes a number, got %s",
                                                      type_name(c->arena, x->type)), NULL) : NULL;
    if (!is_lit(x) && x->type->scalar == SC_BOOLEAN) {
        diag_error(x->loc, "abs() of a Boolean is not defined; convert it with Int32(b) first");
        return NULL;
    }
    if (x->is_static) {
        Val *out = fold_unary(c->arena, FXU_ABS, x);
        out->loc = a->loc;
        return out;
    }
    FxInst *i = sema_emit(c, FX_UNOP, FXU_ABS, x->type, a->loc, 1, x->ir);
    if (type_is_float(x->type->scalar))
        i->fmf = c->fmf;
    return val_runtime(c, x->type, i, a->loc);
}

static Val *divmod_call(Ctx *c, Args *a)
{
    if (!check_count(a, "divmod", 2, 2))
        return NULL;
    Val *q = sema_binary_values(c, OP_FLOORDIV, a->pos[0], a->pos[1], a->loc);
    Val *r = q ? sema_binary_values(c, OP_MOD, a->pos[0], a->pos[1], a->loc) : NULL;
    if (!r)
        return NULL;
    Val *t = arena_alloc(c->arena, sizeof *t);
    t->nelems = 2;
    t->elems = arena_alloc(c->arena, sizeof(Val *) * 2);
    t->elems[0] = q;
    t->elems[1] = r;
    const Type *ts[2] = { q->type, r->type };
    t->type = type_tuple(c->arena, 2, ts);
    t->seq = '(';
    t->is_static = q->is_static && r->is_static;
    t->loc = a->loc;
    return t;
}

/* ---- user fns ---- */

static Val *call_user_fn(Ctx *c, Val *f, Args *a)
{
    AstNode *decl = f->decl;
    if (decl->kind != AST_FN) {
        diag_error(a->loc, "'%s' is a %s and cannot be called from device code", f->str,
                   decl->kind == AST_KERNEL ? "kernel" : "program");
        return NULL;
    }
    if (!in_kernel_code(c, a->loc, "calling a fn"))
        return NULL;
    if (a->nkw) {
        diag_error(a->kw[0]->loc, "fn calls take positional arguments only");
        return NULL;
    }
    Binding *b = sema_lookup(c, f->str);
    if (b && !b->fn && !sema_enter_call(c, f->str, a->loc))
        return NULL;
    FxFunc *fn = b ? sema_lower_fn(c->sema, b) : NULL;
    if (!fn)
        return NULL;
    const FxInst *use = c->fn->in_program ? work_item_use(&fn->body) : NULL;
    if (use) {
        diag_error(a->loc, "'%s' cannot be called in a program: it uses work-items, waves or shared "
                   "memory (or fx.printf or fx.assert, which report work-items)", f->str);
        diag_note(use->loc, "here");
        return NULL;
    }
    if (a->npos != fn->nparams) {
        diag_error(a->loc, "%s() takes %d argument%s, got %d", f->str, fn->nparams, fn->nparams == 1 ? "" : "s",
                   a->npos);
        diag_note(decl->loc, "'%s' is defined here", f->str);
        return NULL;
    }
    FxInst **args = arena_alloc(c->arena, sizeof(FxInst *) * (size_t)(a->npos + 1));
    for (int i = 0; i < a->npos; i++) {
        args[i] = fn_argument(c, a->pos[i], &fn->params[i]);
        if (!args[i]) {
            diag_note(fn->params[i].loc, "parameter '%s' is declared here", fn->params[i].name);
            return NULL;
        }
    }
    FxInst *call = fxb_call(sema_builder(c, a->loc), fn, a->npos, args);
    if (!sema_grow(c, b->expanded, a->loc, f->str))
        return NULL;
    return val_runtime(c, fn->ret, call, a->loc);
}

/* ---- dispatch ---- */

static Val *call_builtin(Ctx *c, const char *n, Args *a)
{
    if (strcmp(n, "fx.max") == 0) return minmax(c, a, FXMM_MAX, n);
    if (strcmp(n, "fx.min") == 0) return minmax(c, a, FXMM_MIN, n);
    if (strcmp(n, "fx.maxnumf") == 0) return minmax(c, a, FXMM_MAXNUM, n);
    if (strcmp(n, "fx.minnumf") == 0) return minmax(c, a, FXMM_MINNUM, n);
    if (strcmp(n, "fx.ceildiv") == 0) return ceildiv(c, a);
    if (strcmp(n, "fx.fma") == 0) return fma_call(c, a);
    if (strcmp(n, "fx.pow") == 0) return pow_call(c, a);
    for (size_t k = 0; k < sizeof math_fns / sizeof math_fns[0]; k++)
        if (strcmp(n, math_fns[k].name) == 0)
            return math_call(c, a, math_fns[k].fn, n);
    if (strcmp(n, "fx.barrier") == 0) {
        if (!check_count(a, n, 0, 0) || !in_work_item_code(c, a->loc, "fx.barrier()"))
            return NULL;
        if (!c->fn->is_kernel && c->fn->func) {
            /* fns are inlined into kernels, so a barrier in a fn is a kernel barrier. */
        }
        sema_emit(c, FX_BARRIER, 0, VOID_TYPE, a->loc, 0);
        return void_val(c, a->loc);
    }
    if (strcmp(n, "fx.atomic_add") == 0) return atomic_call(c, a, FXA_ADD, n);
    if (strcmp(n, "fx.atomic_max") == 0) return atomic_call(c, a, FXA_MAX, n);
    if (strcmp(n, "fx.atomic_min") == 0) return atomic_call(c, a, FXA_MIN, n);
    if (strcmp(n, "fx.atomic_cas") == 0) return atomic_call(c, a, FXA_CAS, n);
    for (int k = FXA_SUB; k < FXA_COUNT; k++)
        if (strncmp(n, "fx.atomic_", 10) == 0 && strcmp(n + 10, fxir_sub_name(FX_ATOMIC, k)) == 0)
            return atomic_call(c, a, (FxAtomic)k, n);
    if (strcmp(n, "fx.threadfence") == 0) return threadfence_call(c, a, n);
    if (strcmp(n, "fx.lane_id") == 0) {
        if (!check_count(a, n, 0, 0) || !in_work_item_code(c, a->loc, "fx.lane_id()"))
            return NULL;
        const Type *t = type_scalar(SC_INT32);
        return val_runtime(c, t, sema_emit(c, FX_SPECIAL, FXS_LANE_ID, t, a->loc, 0), a->loc);
    }
    for (size_t k = 0; k < sizeof wave_fns / sizeof wave_fns[0]; k++)
        if (strcmp(n, wave_fns[k].name) == 0)
            return wave_call(c, a, wave_fns[k].op, n);
    if (strcmp(n, "fx.mfma") == 0) return matrix_call(c, a, false, n);
    if (strcmp(n, "fx.wmma") == 0) return matrix_call(c, a, true, n);
    if (strcmp(n, "fx.has_mfma") == 0) return has_matrix_call(c, a, false, n);
    if (strcmp(n, "fx.has_wmma") == 0) return has_matrix_call(c, a, true, n);
    if (strcmp(n, "fx.wave_size") == 0) {
        if (!check_count(a, n, 0, 0))
            return NULL;
        return fold_make_int(c->arena, SC_INT32, big_from_i64(c->sema->opts->wave_size), a->loc);
    }
    if (strcmp(n, "fx.fastmath") == 0) {
        if (!check_count(a, n, 1, 1))
            return NULL;
        bool ok;
        Val *v = sema_fastmath_spec(c, a->pos[0], a->loc, &ok);
        return ok ? v : NULL;
    }
    if (strcmp(n, "fx.printf") == 0)
        return check_kwargs(a, n, NULL) ? sema_debug_printf(c, a->pos, a->npos, a->loc) : NULL;
    if (strcmp(n, "len") == 0) return len_call(c, a);
    if (strcmp(n, "abs") == 0 || strcmp(n, "fx.abs") == 0) return abs_call(c, a);
    if (strcmp(n, "divmod") == 0) return divmod_call(c, a);
    if (strcmp(n, "range") == 0 || strcmp(n, "static_range") == 0) {
        diag_error(a->loc, "%s() can only be used as the iterable of a for loop", n);
        return NULL;
    }
    if (strncmp(n, "fx.reduce_", 10) == 0) {
        diag_error(a->loc, "%s() is a tensor operation, allowed only in a program", n);
        return NULL;
    }
    diag_error(a->loc, "'%s' is not callable", n);
    return NULL;
}

Val *sema_call(Ctx *c, AstNode *call)
{
    Val *f = sema_expr(c, call->a);
    if (!f)
        return NULL;
    /* --no-assert: fx.assert's arguments are checked but their code is
     * dropped with the assert's, as C's NDEBUG does (docs/debugging.md) */
    FxBlock scratch = { 0 }, *saved = c->block;
    if (f->type->kind == TY_FUNC && !f->decl && strcmp(f->str, "fx.assert") == 0 && c->sema->opts->no_assert)
        c->block = &scratch;
    Args a;
    if (!eval_args(c, call, &a)) {
        c->block = saved;
        return NULL;
    }
    if (f->type->kind == TY_TYPE)
        return construct(c, f->tval, &a);
    if (f->type->kind != TY_FUNC) {
        diag_error(call->a->loc, "a value of type %s is not callable", type_name(c->arena, f->type));
        return NULL;
    }
    if (f->decl)
        return call_user_fn(c, f, &a);
    if (strcmp(f->str, "fx.assert") == 0) {
        Val *r = check_kwargs(&a, f->str, NULL) ? sema_debug_assert(c, a.pos, a.npos, a.loc) : NULL;
        c->block = saved;
        return r;
    }
    if (strncmp(f->str, "method:", 7) == 0)
        return call_method(c, f->str + 7, f->elems[0], &a);
    return call_builtin(c, f->str, &a);
}

/* ---- attributes ---- */

static const char *const fx_functions[] = {
    "max", "min", "maxnumf", "minnumf", "ceildiv", "fma", "exp", "exp2", "log", "log2", "sqrt", "rsqrt",
    "sin", "cos", "tanh", "floor", "ceil", "round", "trunc", "barrier", "atomic_add", "atomic_max",
    "atomic_min", "atomic_cas", "lane_id", "wave_size", "fastmath", "reduce_sum", "reduce_max", "reduce_min",
    "abs", "shuffle", "shuffle_xor", "shuffle_up", "shuffle_down", "readlane", "readfirstlane", "ballot", "any",
    "all", "wave_sum", "wave_max", "wave_min", "mfma", "wmma", "has_mfma", "has_wmma", "printf", "assert",
    "atomic_sub", "atomic_and", "atomic_or", "atomic_xor", "atomic_xchg", "threadfence", "erf", "erfc", "log1p",
    "expm1", "cbrt", "sigmoid", "copysign", "hypot", "atan2", "pow", NULL
};

static Val *fx_member(Ctx *c, const char *m, Loc loc)
{
    for (const char *const *p = fx_functions; *p; p++)
        if (strcmp(*p, m) == 0)
            return builtin_func(c, arena_printf(c->arena, "fx.%s", m), NULL, loc);
    if (strcmp(m, "inf") == 0)
        return fold_make_litfloat(c->arena, INFINITY, loc);
    if (strcmp(m, "nan") == 0)
        return fold_make_litfloat(c->arena, NAN, loc);
    if (strcmp(m, "pi") == 0)
        return fold_make_litfloat(c->arena, 3.14159265358979323846, loc);
    if (strcmp(m, "RoundingMode") == 0 || strcmp(m, "FastMathFlags") == 0) {
        Val *v = new_static(c, type_simple(TY_MODULE), loc);
        v->str = arena_printf(c->arena, "fx.%s", m);
        return v;
    }
    diag_error(loc, "module 'fx' has no member '%s'", m);
    return NULL;
}

static Val *enum_member(Ctx *c, Val *mod, const char *m, Loc loc)
{
    if (strcmp(mod->str, "fx.RoundingMode") == 0) {
        int k = fxir_rounding_by_name(m, strlen(m));
        if (k >= 0) {
            Val *v = new_static(c, type_simple(TY_ROUNDING), loc);
            v->flags = (unsigned)k;
            return v;
        }
        diag_error(loc, "fx.RoundingMode has no member '%s'; expected to_nearest_even, downward, upward, "
                   "toward_zero or to_nearest_away", m);
        return NULL;
    }
    unsigned f;
    if (!flag_by_name(m, strlen(m), &f)) {
        diag_error(loc, "fx.FastMathFlags has no member '%s'; expected none, reassoc, nnan, ninf, nsz, arcp, "
                   "contract, afn or fast", m);
        return NULL;
    }
    Val *v = new_static(c, type_simple(TY_FASTMATH), loc);
    v->flags = f;
    return v;
}

static Val *special_member(Ctx *c, Val *base, const char *m, Loc loc)
{
    int dim = strcmp(m, "x") == 0 ? 0 : strcmp(m, "y") == 0 ? 1 : strcmp(m, "z") == 0 ? 2 : -1;
    if (dim < 0) {
        diag_error(loc, "%s has members x, y and z, not '%s'", base->str, m);
        return NULL;
    }
    if (!in_kernel_code(c, loc, base->str))
        return NULL;
    FxSpecial s = strcmp(base->str, "thread_idx") == 0 ? FXS_THREAD_IDX
                : strcmp(base->str, "block_idx") == 0 ? FXS_BLOCK_IDX
                : strcmp(base->str, "block_dim") == 0 ? FXS_BLOCK_DIM : FXS_GRID_DIM;
    const Type *t = type_scalar(SC_INT32);
    FxInst *i = sema_emit(c, FX_SPECIAL, s, t, loc, 0);
    i->dim = dim;
    return val_runtime(c, t, i, loc);
}

static Val *type_member(Ctx *c, Val *base, const char *m, Loc loc)
{
    const Type *t = base->tval;
    if (t->kind == TY_SCALAR && (strcmp(m, "width") == 0 || strcmp(m, "log_width") == 0)) {
        int w = type_info(t->scalar)->width;
        return fold_make_litint(c->arena, big_from_i64(m[0] == 'w' ? w : type_log_width(w)), loc);
    }
    diag_error(loc, "type %s has no attribute '%s' (types have .width and .log_width)",
               type_name(c->arena, t), m);
    return NULL;
}

Val *sema_attr(Ctx *c, AstNode *e)
{
    Val *base = sema_expr(c, e->a);
    if (!base)
        return NULL;
    const char *m = e->name;
    switch (base->type->kind) {
    case TY_MODULE:
        return strcmp(base->str, "fx") == 0 ? fx_member(c, m, e->loc) : enum_member(c, base, m, e->loc);
    case TY_SPECIAL:
        return special_member(c, base, m, e->loc);
    case TY_TYPE:
        return type_member(c, base, m, e->loc);
    default:
        break;
    }
    if (strcmp(m, "dtype") == 0) {
        if (base->type->kind == TY_SCALAR || base->type->kind == TY_VECTOR)
            return type_val(c, type_scalar(base->type->scalar), e->loc);
        if (is_lit(base)) {
            bool ok;
            ScalarId s = sema_literal_type(c, base, &ok);
            return ok ? type_val(c, type_scalar(s), e->loc) : NULL;
        }
    }
    if (strcmp(m, "cast") == 0 && base->type->kind == TY_PTR)
        return builtin_func(c, "method:cast", base, e->loc);
    if (strcmp(m, "to") == 0 || strcmp(m, "bitcast") == 0 || strcmp(m, "select") == 0 ||
        strcmp(m, "is_static") == 0) {
        if (!sema_is_numeric(base)) {
            diag_error(e->loc, "a value of type %s has no method '%s'", type_name(c->arena, base->type), m);
            return NULL;
        }
        return builtin_func(c, arena_printf(c->arena, "method:%s", m), base, e->loc);
    }
    diag_error(e->loc, "a value of type %s has no attribute '%s'", type_name(c->arena, base->type), m);
    return NULL;
}
