/* program.c - tensor programs (spec §7): checks a program's statements and
 * builds its dataflow graph of MatMul, Map and Reduce nodes. Map bodies are
 * ordinary FXIR scalar code, produced by evaluating the elementwise
 * expression with every tensor name bound to one element. */
#include "sema/sema_int.h"
#include "fxir/graph.h"
#include <string.h>

typedef struct Shape {
    int rank;
    int64_t dims[SEMA_MAX_DIMS];      /* -1: symbolic */
    const char *names[SEMA_MAX_DIMS]; /* symbolic dim names */
} Shape;

typedef struct ProgCtx {
    Sema *sema;
    Arena *arena;
    FxProgram *prog;
    AstNode *decl;
    int nmaps;
} ProgCtx;

/* ---- shapes ---- */

static Shape shape_of_type(const Type *t)
{
    Shape s = { 0 };
    if (t->kind != TY_TENSOR)
        return s;
    s.rank = t->ndims;
    for (int i = 0; i < t->ndims; i++) {
        s.dims[i] = t->dims[i];
        s.names[i] = t->dim_names ? t->dim_names[i] : NULL;
    }
    return s;
}

static bool dim_equal(const Shape *a, int i, const Shape *b, int j)
{
    if (a->names[i] || b->names[j])
        return a->names[i] && b->names[j] && strcmp(a->names[i], b->names[j]) == 0;
    return a->dims[i] == b->dims[j];
}

static bool dim_is_one(const Shape *s, int i)
{
    return !s->names[i] && s->dims[i] == 1;
}

static const char *shape_text(Arena *a, const Shape *s)
{
    char buf[256] = "[";
    for (int i = 0; i < s->rank; i++) {
        size_t n = strlen(buf);
        if (s->names[i])
            snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", s->names[i]);
        else
            snprintf(buf + n, sizeof buf - n, "%s%lld", i ? ", " : "", (long long)s->dims[i]);
    }
    strcat(buf, "]");
    return arena_strdup(a, buf);
}

static bool shapes_equal(const Shape *a, const Shape *b)
{
    if (a->rank != b->rank)
        return false;
    for (int i = 0; i < a->rank; i++)
        if (!dim_equal(a, i, b, i))
            return false;
    return true;
}

/* numpy broadcasting: trailing dims align; each pair is equal or one is 1. */
static bool broadcast(ProgCtx *p, const Shape *a, const Shape *b, Shape *out, Loc loc)
{
    Shape r = { 0 };
    r.rank = a->rank > b->rank ? a->rank : b->rank;
    for (int i = 0; i < r.rank; i++) {
        int ia = a->rank - r.rank + i, ib = b->rank - r.rank + i;
        bool ha = ia >= 0, hb = ib >= 0;
        if (ha && hb && !dim_equal(a, ia, b, ib) && !dim_is_one(a, ia) && !dim_is_one(b, ib)) {
            diag_error(loc, "shapes %s and %s do not broadcast: dimension %d differs", shape_text(p->arena, a),
                       shape_text(p->arena, b), i);
            return false;
        }
        const Shape *src = !ha ? b : !hb ? a : dim_is_one(a, ia) ? b : a;
        int k = src == a ? ia : ib;
        r.dims[i] = src->dims[k];
        r.names[i] = src->names[k];
    }
    *out = r;
    return true;
}

/* ---- names inside a program ---- */

static FxTensor *find_tensor(ProgCtx *p, const char *name)
{
    for (int i = p->prog->tensors.len - 1; i >= 0; i--) {
        FxTensor *t = p->prog->tensors.items[i];
        if (strcmp(t->name, name) == 0)
            return t;
    }
    return NULL;
}

static int find_scalar_param(ProgCtx *p, const char *name)
{
    for (int i = 0; i < p->prog->nparams; i++)
        if (p->prog->params[i].type->kind == TY_SCALAR && strcmp(p->prog->params[i].name, name) == 0)
            return i;
    return -1;
}

/* ---- elementwise expressions: shape, inputs ---- */

typedef struct MapInputs {
    FxTensor *tensors[32];
    int ntensors;
    int scalars[32];
    int nscalars;
} MapInputs;

static void note_tensor(MapInputs *in, FxTensor *t)
{
    for (int i = 0; i < in->ntensors; i++)
        if (in->tensors[i] == t)
            return;
    if (in->ntensors < 32)
        in->tensors[in->ntensors++] = t;
}

static void note_scalar(MapInputs *in, int param)
{
    for (int i = 0; i < in->nscalars; i++)
        if (in->scalars[i] == param)
            return;
    if (in->nscalars < 32)
        in->scalars[in->nscalars++] = param;
}

/* Shape of an elementwise expression; records the tensors and scalar
 * parameters it reads. */
static bool map_shape(ProgCtx *p, AstNode *e, Shape *out, MapInputs *in)
{
    switch (e->kind) {
    case AST_NAME: {
        FxTensor *t = find_tensor(p, e->name);
        if (t) {
            note_tensor(in, t);
            *out = shape_of_type(t->type);
            return true;
        }
        int k = find_scalar_param(p, e->name);
        if (k >= 0)
            note_scalar(in, k);
        *out = (Shape){ 0 };
        return true;
    }
    case AST_BINARY:
        if (e->op == OP_MATMUL) {
            diag_error(e->loc, "'@' is only supported as a whole statement: C = A @ B or "
                       "C = alpha * A @ B + beta * C");
            return false;
        }
        /* fallthrough */
    case AST_CALL: case AST_UNARY: case AST_ATTR: case AST_TUPLE: case AST_LIST:
    case AST_IFEXP: {
        Shape acc = { 0 }, s;
        AstNode *kids[64];
        int n = 0;
        if (e->kind == AST_IFEXP) {
            kids[n++] = e->a;
            kids[n++] = e->b;
            kids[n++] = e->c;
        } else if (e->kind == AST_BINARY) {
            kids[n++] = e->a;
            kids[n++] = e->b;
        } else if (e->kind == AST_UNARY || e->kind == AST_ATTR) {
            kids[n++] = e->a;
        } else {
            if (e->kind == AST_CALL && e->a->kind == AST_ATTR && e->a->a->kind == AST_NAME &&
                strncmp(e->a->name, "reduce_", 7) == 0 && strcmp(e->a->a->name, "fx") == 0) {
                diag_error(e->loc, "a reduction must be a whole statement: r = fx.%s(x, axis=k)", e->a->name);
                return false;
            }
            if (e->kind == AST_CALL && e->a->kind != AST_NAME && e->a->kind != AST_ATTR)
                kids[n++] = e->a;
            for (int i = 0; i < e->list.len && n < 64; i++)
                kids[n++] = e->list.items[i]->kind == AST_KWARG ? e->list.items[i]->a : e->list.items[i];
            if (e->kind == AST_CALL && e->a->kind == AST_ATTR && e->a->a->kind != AST_NAME)
                kids[n++] = e->a->a;   /* x.to(T): the receiver */
            else if (e->kind == AST_CALL && e->a->kind == AST_ATTR && e->a->a->kind == AST_NAME &&
                     strcmp(e->a->a->name, "fx") != 0)
                kids[n++] = e->a->a;
        }
        for (int i = 0; i < n; i++) {
            if (!map_shape(p, kids[i], &s, in) || !broadcast(p, &acc, &s, &acc, e->loc))
                return false;
        }
        *out = acc;
        return true;
    }
    default:
        *out = (Shape){ 0 };
        return true;
    }
}

/* ---- map bodies ---- */

/* The body of Map node n: the expression evaluated with every tensor name
 * bound to one element. */
static FxFunc *map_body(ProgCtx *p, FxNode *n, AstNode *e, const Type *want, const Type **result)
{
    Sema *s = p->sema;
    const char *name = arena_printf(p->arena, "%s__map%d", p->prog->name, p->nmaps++);
    FxBuilder b;
    FxInst *params[64];
    FxFunc *f = fxg_map_body(&b, s->module, p->prog, n, name, VOID_TYPE, params);
    Ctx c;
    FnCtx fc;
    memset(&c, 0, sizeof c);
    memset(&fc, 0, sizeof fc);
    c.sema = s;
    c.arena = p->arena;
    c.scope = &s->globals;
    c.fmf = s->opts->fastmath;
    fc.func = f;
    fc.in_program = true;
    c.fn = &fc;
    c.block = &f->body;
    Scope sc;
    sema_push_scope(&c, &sc);
    for (int i = 0; i < f->nparams; i++)
        sema_bind(&c, f->params[i].name, B_VALUE, p->decl)->val = val_runtime(&c, params[i]->type, params[i], e->loc);
    Val *v = sema_expr(&c, e);
    if (!v)
        return NULL;
    if (v->type->kind == TY_LITINT || v->type->kind == TY_LITFLOAT) {
        bool ok;
        ScalarId lt = sema_literal_type(&c, v, &ok);
        v = fold_convert(p->arena, v, lt, FF_RNE, v->loc);
    }
    if (v->type->kind != TY_SCALAR) {
        diag_error(e->loc, "an elementwise expression must give one number per element, not %s",
                   type_name(p->arena, v->type));
        return NULL;
    }
    if (want && !(v = sema_assign_convert(&c, v, want, e->loc)))
        return NULL;
    f->ret = v->type;
    fc.ret = v->type;
    sema_emit(&c, FX_RETURN, 0, VOID_TYPE, e->loc, 1, sema_materialize(&c, v));
    *result = v->type;
    return f;
}

/* ---- statements ---- */

static FxTensor *new_transient(ProgCtx *p, const char *name, const Type *elem, const Shape *s, Loc loc)
{
    return fxg_transient(p->sema->module, p->prog, name, elem, s->rank, s->dims, s->names, loc);
}

static FxNode *new_node(ProgCtx *p, FxNodeKind kind, FxTensor *out, Loc loc)
{
    return fxg_node(p->sema->module, p->prog, kind, out, loc, NULL);
}

/* The target of `X = ...` (an output parameter) or `let X = ...`. */
typedef struct Target {
    const char *name;
    FxTensor *tensor;     /* NULL for let: made once the value's shape is known */
    Loc loc;
} Target;

static bool check_target_shape(ProgCtx *p, Target *t, const Shape *got, Loc loc)
{
    if (!t->tensor)
        return true;
    Shape want = shape_of_type(t->tensor->type);
    if (shapes_equal(&want, got))
        return true;
    diag_error(loc, "the value has shape %s but '%s' is declared with shape %s", shape_text(p->arena, got),
               t->name, shape_text(p->arena, &want));
    return false;
}

static bool map_statement(ProgCtx *p, Target *t, AstNode *e)
{
    MapInputs in = { 0 };
    Shape s;
    if (!map_shape(p, e, &s, &in) || !check_target_shape(p, t, &s, e->loc))
        return false;
    if (s.rank == 0) {
        diag_error(e->loc, "an elementwise statement needs at least one tensor operand");
        return false;
    }
    FxNode *n = new_node(p, FXN_MAP, t->tensor, e->loc);
    fxg_set_inputs(p->sema->module, n, in.ntensors, in.tensors);
    fxg_set_scalars(p->sema->module, n, in.nscalars, in.scalars);
    const Type *rt;
    if (!map_body(p, n, e, t->tensor ? t->tensor->type->elem : NULL, &rt))
        return false;
    if (!t->tensor)
        t->tensor = n->out = new_transient(p, t->name, rt, &s, t->loc);
    return true;
}

/* fx.reduce_sum/max/min(x, axis=k) */
static bool reduce_statement(ProgCtx *p, Target *t, AstNode *call, FxReduceKind kind)
{
    AstNode *arg = NULL, *axis = NULL;
    for (int i = 0; i < call->list.len; i++) {
        AstNode *a = call->list.items[i];
        if (a->kind == AST_KWARG && strcmp(a->name, "axis") == 0)
            axis = a->a;
        else if (a->kind != AST_KWARG && !arg)
            arg = a;
        else {
            diag_error(a->loc, "a reduction takes one tensor and axis=K");
            return false;
        }
    }
    if (!arg || !axis) {
        diag_error(call->loc, "a reduction needs a tensor and an axis: fx.reduce_sum(x, axis=1)");
        return false;
    }
    Ctx g;
    sema_global_ctx(p->sema, &g);
    int64_t ax;
    if (!sema_static_int(&g, axis, "the reduction axis", &ax))
        return false;
    FxTensor *in = arg->kind == AST_NAME ? find_tensor(p, arg->name) : NULL;
    if (!in) {   /* reduce an elementwise expression: materialize it first */
        Target tmp = { arena_printf(p->arena, "%s__red%d", p->prog->name, p->prog->nodes.len), NULL, arg->loc };
        if (!map_statement(p, &tmp, arg))
            return false;
        in = tmp.tensor;
    }
    Shape s = shape_of_type(in->type), r = { 0 };
    if (ax < 0 || ax >= s.rank) {
        diag_error(axis->loc, "axis %lld is out of range for a tensor of shape %s", (long long)ax,
                   shape_text(p->arena, &s));
        return false;
    }
    ScalarId es = in->type->elem->kind == TY_SCALAR ? in->type->elem->scalar : SC_COUNT;
    if (es == SC_COUNT || !(type_is_float(es) || type_is_int(es)) || (kind != FXR_SUM && es == SC_INDEX)) {
        diag_error(arg->loc, "reductions take tensors of integers or floats");
        return false;
    }
    for (int i = 0; i < s.rank; i++)
        if (i != ax) {
            r.dims[r.rank] = s.dims[i];
            r.names[r.rank++] = s.names[i];
        }
    if (r.rank == 0) {
        r.rank = 1;
        r.dims[0] = 1;
    }
    if (!check_target_shape(p, t, &r, call->loc))
        return false;
    if (t->tensor && !type_equal(t->tensor->type->elem, in->type->elem)) {
        diag_error(call->loc, "the reduction gives %s elements but '%s' holds %s", type_name(p->arena, in->type->elem),
                   t->name, type_name(p->arena, t->tensor->type->elem));
        return false;
    }
    if (!t->tensor)
        t->tensor = new_transient(p, t->name, in->type->elem, &r, t->loc);
    FxNode *n = new_node(p, FXN_REDUCE, t->tensor, call->loc);
    fxg_set_inputs(p->sema->module, n, 1, &in);
    n->reduce = kind;
    n->axis = (int)ax;
    return true;
}

/* ---- MatMul / GEMM recognition ---- */

typedef struct MatMulForm {
    AstNode *a, *b;        /* tensor names */
    bool ta, tb;
    AstNode *alpha;        /* NULL: 1 */
    AstNode *beta;         /* NULL: no C term */
    bool has_c;
} MatMulForm;

static bool operand(AstNode *e, AstNode **name, bool *trans)
{
    *trans = false;
    if (e->kind == AST_ATTR && strcmp(e->name, "T") == 0) {
        *trans = true;
        e = e->a;
    }
    *name = e;
    return e->kind == AST_NAME;
}

static bool is_scalar_term(AstNode *e)
{
    return e->kind != AST_BINARY || e->op != OP_MATMUL;
}

/* alpha * A @ B parses as (alpha * A) @ B; also (alpha * (A @ B)) and A @ B. */
static bool match_matmul(AstNode *e, MatMulForm *f)
{
    if (e->kind == AST_BINARY && e->op == OP_MUL && e->b->kind == AST_BINARY && e->b->op == OP_MATMUL &&
        is_scalar_term(e->a)) {
        f->alpha = e->a;
        e = e->b;
    }
    if (e->kind != AST_BINARY || e->op != OP_MATMUL)
        return false;
    AstNode *lhs = e->a;
    if (lhs->kind == AST_BINARY && lhs->op == OP_MUL && !lhs->parenthesized) {
        if (f->alpha)
            return false;
        f->alpha = lhs->a;
        lhs = lhs->b;
    }
    return operand(lhs, &f->a, &f->ta) && operand(e->b, &f->b, &f->tb);
}

static bool match_c_term(AstNode *e, const char *c, MatMulForm *f)
{
    if (e->kind == AST_NAME && strcmp(e->name, c) == 0) {
        f->has_c = true;
        return true;
    }
    if (e->kind == AST_BINARY && e->op == OP_MUL) {
        if (e->b->kind == AST_NAME && strcmp(e->b->name, c) == 0) {
            f->beta = e->a;
            f->has_c = true;
            return true;
        }
        if (e->a->kind == AST_NAME && strcmp(e->a->name, c) == 0) {
            f->beta = e->b;
            f->has_c = true;
            return true;
        }
    }
    return false;
}

static bool match_gemm(AstNode *e, const char *c, MatMulForm *f)
{
    memset(f, 0, sizeof *f);
    if (match_matmul(e, f))
        return true;
    if (e->kind != AST_BINARY || e->op != OP_ADD || !c)
        return false;
    MatMulForm g = { 0 };
    if (match_matmul(e->a, &g) && match_c_term(e->b, c, &g)) {
        *f = g;
        return true;
    }
    memset(&g, 0, sizeof g);
    if (match_matmul(e->b, &g) && match_c_term(e->a, c, &g)) {
        *f = g;
        return true;
    }
    return false;
}

static bool scalar_arg(ProgCtx *p, AstNode *e, FxScalarArg *out)
{
    if (!e) {
        *out = (FxScalarArg){ FXS_STATIC, 1.0, -1 };
        return true;
    }
    if (e->kind == AST_NAME && find_scalar_param(p, e->name) >= 0) {
        *out = (FxScalarArg){ FXS_PARAM, 0, find_scalar_param(p, e->name) };
        return true;
    }
    Ctx g;
    sema_global_ctx(p->sema, &g);
    Val *v = sema_expr_static(&g, e, "alpha and beta");
    if (!v)
        return false;
    if (!sema_is_numeric(v) || v->type->kind == TY_VECTOR) {
        diag_error(e->loc, "alpha and beta are scalars, got %s", type_name(p->arena, v->type));
        return false;
    }
    *out = (FxScalarArg){ FXS_STATIC, fold_as_double(v), -1 };
    return true;
}

/* The 8-bit floats a product takes (the matrix cores' fp8 and bf8, both
 * conventions): their products are exact in Float32. */
static ScalarId accumulator_for(ScalarId t)
{
    if (t == SC_FLOAT16 || t == SC_BFLOAT16 || fxir_float8_operand(t))
        return SC_FLOAT32;
    if (type_is_int(t) && type_info(t)->width < 32)
        return type_info(t)->is_signed ? SC_INT32 : SC_UINT32;
    return t;
}

/* `X = X @ B` (or A @ X): the product's tiles would read elements of X that
 * other tiles already wrote (on the GPU, while they write them), so the
 * product reads a copy of X that a Map makes first. */
static FxTensor *copy_of(ProgCtx *p, FxTensor *in, Loc loc)
{
    Shape s = shape_of_type(in->type);
    const char *name = arena_printf(p->arena, "%s__copy%d", in->name, p->nmaps);
    FxTensor *copy = new_transient(p, name, in->type->elem, &s, loc);
    FxNode *n = new_node(p, FXN_MAP, copy, loc);
    fxg_set_inputs(p->sema->module, n, 1, &in);
    FxBuilder b;
    FxInst *params[1];
    name = arena_printf(p->arena, "%s__map%d", p->prog->name, p->nmaps++);
    fxg_map_body(&b, p->sema->module, p->prog, n, name, in->type->elem, params);
    fxb_return(&b, params[0]);
    return copy;
}

static bool matmul_statement(ProgCtx *p, Target *t, MatMulForm *f, Loc loc)
{
    FxTensor *a = find_tensor(p, f->a->name), *b = find_tensor(p, f->b->name);
    if (!a || !b) {
        AstNode *bad = a ? f->b : f->a;
        diag_error(bad->loc, "'%s' is not a tensor of this program", bad->name);
        return false;
    }
    Shape sa = shape_of_type(a->type), sb = shape_of_type(b->type);
    if (sa.rank != 2 || sb.rank != 2) {
        diag_error(loc, "'@' multiplies 2-D tensors; got shapes %s and %s", shape_text(p->arena, &sa),
                   shape_text(p->arena, &sb));
        return false;
    }
    int am = f->ta ? 1 : 0, ak = 1 - am, bk = f->tb ? 1 : 0, bn = 1 - bk;
    if (!dim_equal(&sa, ak, &sb, bk)) {
        diag_error(loc, "inner dimensions differ: %s%s @ %s%s", shape_text(p->arena, &sa), f->ta ? ".T" : "",
                   shape_text(p->arena, &sb), f->tb ? ".T" : "");
        return false;
    }
    /* two 8-bit float formats may meet (fp8 by bf8); other types match */
    bool float8s = a->type->elem->kind == TY_SCALAR && b->type->elem->kind == TY_SCALAR &&
                   fxir_float8_operand(a->type->elem->scalar) && fxir_float8_operand(b->type->elem->scalar);
    if ((!float8s && !type_equal(a->type->elem, b->type->elem)) || a->type->elem->kind != TY_SCALAR ||
        !(type_is_float(a->type->elem->scalar) || type_is_int(a->type->elem->scalar) ||
          fxir_float8_operand(a->type->elem->scalar))) {
        diag_error(loc, "'@' needs two tensors of one numeric element type (an integer or a float), or of two of "
                   "the 8-bit floats Float8E4M3FN, Float8E5M2, Float8E4M3FNUZ, Float8E5M2FNUZ; got %s and %s",
                   type_name(p->arena, a->type->elem), type_name(p->arena, b->type->elem));
        return false;
    }
    Shape r = { 2, { sa.dims[am], sb.dims[bn] }, { sa.names[am], sb.names[bn] } };
    if (!check_target_shape(p, t, &r, loc))
        return false;
    FxNode *n = new_node(p, FXN_MATMUL, NULL, loc);
    if (!scalar_arg(p, f->alpha, &n->alpha))
        return false;
    n->beta = (FxScalarArg){ FXS_NONE, 0, -1 };
    if (f->has_c && !scalar_arg(p, f->beta, &n->beta))
        return false;
    /* BLAS: a static beta of 0 does not read C. */
    if (n->beta.kind == FXS_STATIC && n->beta.value == 0)
        n->beta.kind = FXS_NONE;
    ScalarId in = a->type->elem->scalar;
    if (!t->tensor)   /* an 8-bit product has no 8-bit result: its transient is the Float32 sum */
        t->tensor = new_transient(p, t->name, type_scalar(fxir_float8_operand(in) ? SC_FLOAT32 : in), &r, t->loc);
    if (fxir_float8_operand(in) && t->tensor->type->elem->scalar != SC_FLOAT32) {
        diag_error(loc, "a product of %s accumulates in Float32, so its result must be a Float32 tensor, not %s; "
                   "convert it afterwards",
                   type_name(p->arena, a->type->elem), type_name(p->arena, t->tensor->type->elem));
        return false;
    }
    n->out = t->tensor;
    n->in_type = in;
    n->in_type_b = b->type->elem->scalar;
    n->acc_type = accumulator_for(in);
    n->out_type = t->tensor->type->elem->scalar;
    n->trans_a = f->ta;
    n->trans_b = f->tb;
    if (a == t->tensor || b == t->tensor) {   /* the copy runs before the product */
        FxTensor *copy = copy_of(p, t->tensor, loc);
        fxg_move_node(p->prog, n, p->prog->nodes.len - 1);
        a = a == t->tensor ? copy : a;
        b = b == t->tensor ? copy : b;
    }
    FxTensor *ins[3] = { a, b, t->tensor };
    fxg_set_inputs(p->sema->module, n, n->beta.kind == FXS_NONE ? 2 : 3, ins);
    return true;
}

static bool statement(ProgCtx *p, AstNode *s)
{
    Target t = { 0 };
    AstNode *value;
    if (s->kind == AST_ASSIGN && s->op == OP_NONE && s->a->kind == AST_NAME) {
        t.name = s->a->name;
        t.loc = s->a->loc;
        t.tensor = find_tensor(p, t.name);
        if (!t.tensor || t.tensor->param_index < 0) {
            diag_error(s->a->loc, "'%s' is not a tensor parameter; results go to a Tensor parameter, "
                       "intermediate values are declared with let", t.name);
            return false;
        }
        value = s->b;
    } else if (s->kind == AST_LET && s->name && !s->a) {
        t.name = s->name;
        t.loc = s->loc;
        value = s->b;
    } else if (s->kind == AST_STATIC_ASSERT) {
        Ctx g;
        sema_global_ctx(p->sema, &g);
        sema_check_static_assert(&g, s);
        return true;
    } else {
        diag_error(s->loc, "a program body holds whole-tensor statements: 'X = expr' for a Tensor "
                   "parameter or 'let X = expr'");
        return false;
    }
    MatMulForm f;
    if (match_gemm(value, t.name, &f))
        return matmul_statement(p, &t, &f, value->loc);
    if (value->kind == AST_CALL && value->a->kind == AST_ATTR && value->a->a->kind == AST_NAME &&
        strcmp(value->a->a->name, "fx") == 0 && strncmp(value->a->name, "reduce_", 7) == 0) {
        const char *k = value->a->name + 7;
        FxReduceKind kind = !strcmp(k, "sum") ? FXR_SUM : !strcmp(k, "max") ? FXR_MAX : FXR_MIN;
        if (strcmp(k, "sum") && strcmp(k, "max") && strcmp(k, "min")) {
            diag_error(value->a->loc, "unknown reduction 'fx.%s'; expected reduce_sum, reduce_max or reduce_min",
                       value->a->name);
            return false;
        }
        return reduce_statement(p, &t, value, kind);
    }
    return map_statement(p, &t, value);
}

/* ---- parameters ---- */

static bool program_params(ProgCtx *p)
{
    AstNode *d = p->decl;
    Ctx g;
    sema_global_ctx(p->sema, &g);
    FxProgram *prog = p->prog;
    bool ok = true;
    for (int i = 0; i < d->list.len; i++) {
        AstNode *pa = d->list.items[i];
        const Type *t = sema_type_expr(&g, pa->a);
        prog->params[i] = (FxParam){ pa->name, t, pa->loc };
        if (!t) {
            ok = false;
            continue;
        }
        if (t->kind != TY_TENSOR && t->kind != TY_SCALAR) {
            diag_error(pa->a->loc, "a program parameter is a Tensor or a scalar, not %s", type_name(p->arena, t));
            ok = false;
        }
        if (t->kind == TY_TENSOR)
            fxg_param_tensor(p->sema->module, prog, i);
    }
    /* A symbolic dim names an Int32 parameter of the same program. */
    for (int i = 0; ok && i < prog->nparams; i++) {
        const Type *t = prog->params[i].type;
        for (int k = 0; t->kind == TY_TENSOR && k < t->ndims; k++) {
            const char *n = t->dim_names[k];
            int j = n ? find_scalar_param(p, n) : 0;
            if (n && (j < 0 || prog->params[j].type->scalar != SC_INT32)) {
                diag_error(prog->params[i].loc, "dimension '%s' of '%s' must be a literal, a const, or an Int32 "
                           "parameter of '%s'", n, prog->params[i].name, prog->name);
                ok = false;
            }
        }
    }
    return ok;
}

/* @contraction_precision("ozaki2:16"): the program's own precision (spec §8.2) */
static void program_decorators(ProgCtx *p)
{
    AstNode *d = p->decl;
    Ctx g;
    sema_global_ctx(p->sema, &g);
    for (int i = 0; i < d->list2.len; i++) {
        AstNode *dec = d->list2.items[i];
        if (strcmp(dec->name, "contraction_precision") != 0) {
            diag_error(dec->loc, "unknown decorator '@%s'; programs accept @contraction_precision(\"...\")",
                       dec->name);
            continue;
        }
        Val *v = dec->list.len == 1 ? sema_expr_static(&g, dec->list.items[0], "@contraction_precision") : NULL;
        if (dec->list.len != 1 || (v && v->type->kind != TY_STRING)) {
            diag_error(dec->loc, "@contraction_precision takes one string, e.g. @contraction_precision(\"ozaki\")");
            continue;
        }
        FxPrecision pr;
        if (v && !fxir_parse_precision(v->str, &pr)) {
            diag_error(dec->list.items[0]->loc, "invalid contraction precision '%s'; expected %s", v->str,
                       fxir_precision_choices());
            continue;
        }
        if (v)
            p->prog->precision = arena_strdup(p->arena, v->str);
    }
}

FxProgram *sema_lower_program(Sema *s, Binding *b)
{
    AstNode *d = b->decl;
    ProgCtx p = { s, s->arena, NULL, d, 0 };
    FxProgram *prog = fxg_program(s->module, b->name, d->list.len, d->loc);
    p.prog = prog;
    program_decorators(&p);
    if (!program_params(&p))
        return NULL;
    int errors = diag_error_count();
    for (int i = 0; i < d->b->list.len; i++)
        statement(&p, d->b->list.items[i]);
    if (diag_error_count() != errors)
        return NULL;
    return prog;
}
