/* lower_program.c - turns each node of a program graph into an FXIR kernel
 * and records the launch plan. The kernels are ordinary FXIR, so codegen and
 * the host runtime treat them like the user's own kernels:
 *  - Map: one work-item per output element, numpy broadcasting of inputs;
 *  - Reduce: one workgroup per output element, a strided pass and a tree in
 *    LDS (one pass: each workgroup owns its whole reduced row);
 *  - MatMul/GEMM: 16x16 output tiles per workgroup, A and B tiles staged in
 *    LDS, boundary guards for sizes that are not multiples of the tile. */
#include "passes/plan.h"
#include "support/bigint.h"
#include <stdlib.h>
#include <string.h>

enum { MAP_BLOCK = 256, REDUCE_BLOCK = 256, TILE = 16 };

/* ---- a small builder for hand-written FXIR ---- */

typedef struct KB {
    Arena *a;
    FxFunc *f;
    FxBlock *b;
    Loc loc;
    FxInst **params;         /* per program parameter, then per transient */
    const FxProgram *prog;
    int ntransients;
    FxTensor **transients;
} KB;

static const Type *i64(void) { return type_scalar(SC_INT64); }
static const Type *i32(void) { return type_scalar(SC_INT32); }
static const Type *boolean(void) { return type_scalar(SC_BOOLEAN); }

static FxInst *k_emit(KB *k, FxOpcode op, int sub, const Type *t, int n, FxInst *x, FxInst *y, FxInst *z)
{
    FxInst *i = fxir_new(k->a, op, t, n, k->loc);
    i->sub = sub;
    FxInst *ops[3] = { x, y, z };
    for (int j = 0; j < n; j++)
        i->ops[j] = ops[j];
    fxir_append(k->b, i);
    return i;
}

static FxInst *k_int(KB *k, const Type *t, int64_t v)
{
    FxInst *i = fxir_new(k->a, FX_CONST, t, 0, k->loc);
    i->cval.lo = (uint64_t)v;
    i->cval.hi = v < 0 ? ~0ull : 0;   /* FxConst: sign-extended to 128 bits */
    fxir_append(k->b, i);
    return i;
}

/* A float or integer constant of scalar type s with value v. */
static FxInst *k_number(KB *k, ScalarId s, double v)
{
    if (!type_info(s)->fmt)
        return k_int(k, type_scalar(s), (int64_t)v);
    FxInst *i = fxir_new(k->a, FX_CONST, type_scalar(s), 0, k->loc);
    i->cval.lo = ff_from_double(type_info(s)->fmt, v, FF_RNE);
    fxir_append(k->b, i);
    return i;
}

static FxInst *k_bin(KB *k, FxBinop op, FxInst *x, FxInst *y) { return k_emit(k, FX_BINOP, op, x->type, 2, x, y, NULL); }
static FxInst *k_cmp(KB *k, FxCmp op, FxInst *x, FxInst *y) { return k_emit(k, FX_CMP, op, boolean(), 2, x, y, NULL); }
static FxInst *k_and(KB *k, FxInst *x, FxInst *y) { return k_emit(k, FX_BINOP, FXB_AND, boolean(), 2, x, y, NULL); }

static FxInst *k_cast(KB *k, FxInst *x, const Type *t)
{
    if (type_equal(x->type, t))
        return x;
    return k_emit(k, FX_CAST, 0, t, 1, x, NULL, NULL);
}

static FxInst *k_special(KB *k, FxSpecial s, int dim)
{
    FxInst *i = k_emit(k, FX_SPECIAL, s, i32(), 0, NULL, NULL, NULL);
    i->dim = dim;
    return i;
}

static FxInst *k_load(KB *k, FxInst *base, const Type *t, int n, FxInst **idx)
{
    FxInst *i = fxir_new(k->a, FX_LOAD, t, 1 + n, k->loc);
    i->ops[0] = base;
    for (int j = 0; j < n; j++)
        i->ops[1 + j] = idx[j];
    fxir_append(k->b, i);
    return i;
}

static void k_store(KB *k, FxInst *base, FxInst *v, int n, FxInst **idx)
{
    FxInst *i = fxir_new(k->a, FX_STORE, type_simple(TY_VOID), 2 + n, k->loc);
    i->ops[0] = base;
    i->ops[1] = v;
    for (int j = 0; j < n; j++)
        i->ops[2 + j] = idx[j];
    fxir_append(k->b, i);
}

static FxInst *k_alloca(KB *k, const Type *t, FxSpace space, const char *name)
{
    FxInst *i = k_emit(k, FX_ALLOCA, 0, t, 0, NULL, NULL, NULL);
    i->space = space;
    i->name = name;
    return i;
}

/* Global linear id along x: block_idx.x * block_dim.x + thread_idx.x, as Int64. */
static FxInst *k_global_id(KB *k)
{
    FxInst *b = k_cast(k, k_special(k, FXS_BLOCK_IDX, 0), i64());
    FxInst *d = k_cast(k, k_special(k, FXS_BLOCK_DIM, 0), i64());
    FxInst *t = k_cast(k, k_special(k, FXS_THREAD_IDX, 0), i64());
    return k_bin(k, FXB_ADD, k_bin(k, FXB_MUL, b, d), t);
}

/* ---- kernels and their parameters ---- */

static int tensor_slot(const KB *k, const FxTensor *t)
{
    if (t->param_index >= 0)
        return t->param_index;
    for (int i = 0; i < k->ntransients; i++)
        if (k->transients[i] == t)
            return k->prog->nparams + i;
    return -1;
}

static FxInst *tensor_ptr(KB *k, const FxTensor *t) { return k->params[tensor_slot(k, t)]; }

/* Dim `d` of tensor t as an Int64 value. */
static FxInst *dim_value(KB *k, const FxTensor *t, int d)
{
    const char *n = t->type->dim_names ? t->type->dim_names[d] : NULL;
    if (!n)
        return k_int(k, i64(), t->type->dims[d]);
    for (int i = 0; i < k->prog->nparams; i++)
        if (strcmp(k->prog->params[i].name, n) == 0)
            return k_cast(k, k->params[i], i64());
    return k_int(k, i64(), 0);
}

/* Linear offset of element `idx` in t's storage order. */
static FxInst *offset_of(KB *k, const FxTensor *t, FxInst **idx)
{
    int r = t->type->ndims;
    FxInst *off = NULL;
    for (int j = 0; j < r; j++) {
        int d = t->type->col_major ? r - 1 - j : j;
        off = off ? k_bin(k, FXB_ADD, k_bin(k, FXB_MUL, off, dim_value(k, t, d)), idx[d]) : idx[d];
    }
    return off ? off : k_int(k, i64(), 0);
}

static FxFunc *new_kernel(FxModule *m, KB *k, const FxProgram *p, int nt, FxTensor **transients, int index,
                          int launch_bounds)
{
    const char *name = arena_printf(m->arena, "%s__k%d", p->name, index);
    FxFunc *f = fxir_func_new(m, name, FXF_KERNEL, p->nparams + nt, type_simple(TY_VOID), p->loc);
    f->launch_bounds = launch_bounds;
    memset(k, 0, sizeof *k);
    k->a = m->arena;
    k->f = f;
    k->b = &f->body;
    k->loc = p->loc;
    k->prog = p;
    k->ntransients = nt;
    k->transients = transients;
    k->params = arena_alloc(m->arena, sizeof(FxInst *) * (size_t)(p->nparams + nt + 1));
    for (int i = 0; i < p->nparams + nt; i++) {
        bool is_param = i < p->nparams;
        const Type *t = is_param ? p->params[i].type : transients[i - p->nparams]->type;
        const char *pname = is_param ? p->params[i].name : transients[i - p->nparams]->name;
        const Type *pt = t->kind == TY_TENSOR ? type_ptr(m->arena, t->elem, false) : t;
        f->params[i] = (FxParam){ pname, pt, p->loc };
        FxInst *pi = fxir_new(m->arena, FX_PARAM, pt, 0, p->loc);
        pi->param_index = i;
        pi->name = pname;
        fxir_append(&f->body, pi);
        k->params[i] = pi;
    }
    return f;
}

/* ---- plan extents ---- */

static PlanExtent extent_of_tensor(const FxTensor *t, int skip_axis, int64_t div)
{
    PlanExtent e = { 0 };
    e.div = div;
    for (int d = 0; d < t->type->ndims; d++) {
        if (d == skip_axis)
            continue;
        e.names[e.nfactors] = t->type->dim_names ? t->type->dim_names[d] : NULL;
        e.values[e.nfactors++] = t->type->dims[d];
    }
    return e;
}

static PlanExtent extent_const(int64_t v)
{
    PlanExtent e = { 1, { v }, { NULL }, 1 };
    return e;
}

static PlanExtent extent_dim(const FxTensor *t, int d, int64_t div)
{
    PlanExtent e = { 1, { t->type->dims[d] }, { t->type->dim_names ? t->type->dim_names[d] : NULL }, div };
    return e;
}

/* ---- Map ---- */

/* The coordinates of linear index `lin` in t's logical (row-major) shape. */
static void coords_of(KB *k, const FxTensor *t, FxInst *lin, FxInst **idx)
{
    FxInst *rem = lin;
    for (int d = t->type->ndims - 1; d >= 0; d--) {
        FxInst *dim = dim_value(k, t, d);
        idx[d] = d == 0 ? rem : k_bin(k, FXB_MOD, rem, dim);
        if (d > 0)
            rem = k_bin(k, FXB_FLOORDIV, rem, dim);
    }
}

static void lower_map(KB *k, const FxNode *n)
{
    FxInst *gid = k_global_id(k);
    FxInst *total = k_int(k, i64(), 1);
    for (int d = 0; d < n->out->type->ndims; d++)
        total = k_bin(k, FXB_MUL, total, dim_value(k, n->out, d));
    FxInst *guard = fxir_emit_if(k->a, k->b, k_cmp(k, FXC_LT, gid, total), k->loc);
    k->b = &guard->blocks[0];
    FxInst *idx[8], *in_idx[8];
    int ro = n->out->type->ndims;
    coords_of(k, n->out, gid, idx);
    FxInst *call = fxir_new(k->a, FX_CALL, n->body->ret, n->nins + n->nscalars, k->loc);
    call->callee = n->body;
    for (int i = 0; i < n->nins; i++) {
        const FxTensor *t = n->ins[i];
        int ri = t->type->ndims;
        for (int j = 0; j < ri; j++) {
            bool one = !(t->type->dim_names && t->type->dim_names[j]) && t->type->dims[j] == 1;
            in_idx[j] = one ? k_int(k, i64(), 0) : idx[j + ro - ri];   /* broadcast a size-1 dim */
        }
        call->ops[i] = k_load(k, tensor_ptr(k, t), t->type->elem, 1, (FxInst *[]){ offset_of(k, t, in_idx) });
    }
    for (int i = 0; i < n->nscalars; i++)
        call->ops[n->nins + i] = k->params[n->scalar_params[i]];
    fxir_append(k->b, call);
    k_store(k, tensor_ptr(k, n->out), call, 1, (FxInst *[]){ offset_of(k, n->out, idx) });
}

/* ---- Reduce ---- */

static FxInst *reduce_identity(KB *k, FxReduceKind r, ScalarId s)
{
    const ScalarInfo *si = type_info(s);
    if (r == FXR_SUM)
        return k_number(k, s, 0);
    if (si->fmt)
        return k_number(k, s, r == FXR_MAX ? -__builtin_inf() : __builtin_inf());
    /* The integer type's MIN (identity of max) or MAX (identity of min). */
    BigInt one = big_from_i64(1), v;
    int w = si->width;
    if (si->is_signed)
        v = r == FXR_MAX ? big_neg(big_shl(one, (unsigned)w - 1)) : big_sub(big_shl(one, (unsigned)w - 1), one);
    else
        v = r == FXR_MAX ? big_from_i64(0) : big_sub(big_shl(one, (unsigned)w), one);
    v = big_wrap(v, 128, false);   /* FxConst: 128-bit two's complement */
    FxInst *c = fxir_new(k->a, FX_CONST, type_scalar(s), 0, k->loc);
    c->cval.lo = v.w[0];
    c->cval.hi = v.w[1];
    fxir_append(k->b, c);
    return c;
}

static FxInst *reduce_combine(KB *k, FxReduceKind r, FxInst *x, FxInst *y)
{
    if (r == FXR_SUM)
        return k_bin(k, FXB_ADD, x, y);
    return k_emit(k, FX_MINMAX, r == FXR_MAX ? FXMM_MAX : FXMM_MIN, x->type, 2, x, y, NULL);
}

static void lower_reduce(KB *k, const FxNode *n)
{
    const FxTensor *in = n->ins[0];
    const Type *et = in->type->elem;
    int r = in->type->ndims;
    int64_t shared_dims[1] = { REDUCE_BLOCK };
    FxInst *buf = k_alloca(k, type_array(k->a, et, 1, shared_dims), FXSPACE_SHARED, "partial");
    FxInst *tid = k_cast(k, k_special(k, FXS_THREAD_IDX, 0), i64());
    FxInst *o = k_cast(k, k_special(k, FXS_BLOCK_IDX, 0), i64());
    /* coordinates of this workgroup's output element, over the non-axis dims */
    FxInst *idx[8], *rem = o;
    for (int d = r - 1; d >= 0; d--) {
        if (d == n->axis)
            continue;
        FxInst *dim = dim_value(k, in, d);
        idx[d] = k_bin(k, FXB_MOD, rem, dim);
        rem = k_bin(k, FXB_FLOORDIV, rem, dim);
    }
    FxInst *acc = k_alloca(k, et, FXSPACE_PRIVATE, "acc");
    k_store(k, acc, reduce_identity(k, n->reduce, et->scalar), 0, NULL);
    FxInst *j = k_alloca(k, i64(), FXSPACE_PRIVATE, "j");
    k_store(k, j, tid, 0, NULL);
    FxInst *len = dim_value(k, in, n->axis);
    FxInst *stride = k_cast(k, k_special(k, FXS_BLOCK_DIM, 0), i64());
    FxInst *loop = fxir_emit_loop(k->a, k->b, k->loc);
    FxBlock *outer = k->b;
    k->b = &loop->blocks[0];
    loop->ops[0] = k_cmp(k, FXC_LT, k_load(k, j, i64(), 0, NULL), len);
    k->b = &loop->blocks[1];
    idx[n->axis] = k_load(k, j, i64(), 0, NULL);
    FxInst *x = k_load(k, tensor_ptr(k, in), et, 1, (FxInst *[]){ offset_of(k, in, idx) });
    k_store(k, acc, reduce_combine(k, n->reduce, k_load(k, acc, et, 0, NULL), x), 0, NULL);
    k->b = &loop->blocks[2];
    k_store(k, j, k_bin(k, FXB_ADD, k_load(k, j, i64(), 0, NULL), stride), 0, NULL);
    k->b = outer;
    k_store(k, buf, k_load(k, acc, et, 0, NULL), 1, &tid);
    k_emit(k, FX_BARRIER, 0, type_simple(TY_VOID), 0, NULL, NULL, NULL);
    /* tree: every work-item runs the same trip count, so the barrier is uniform */
    for (int s = REDUCE_BLOCK / 2; s > 0; s /= 2) {
        FxInst *sv = k_int(k, i64(), s);
        FxInst *br = fxir_emit_if(k->a, k->b, k_cmp(k, FXC_LT, tid, sv), k->loc);
        FxBlock *save = k->b;
        k->b = &br->blocks[0];
        FxInst *other = k_bin(k, FXB_ADD, tid, sv);
        FxInst *v = reduce_combine(k, n->reduce, k_load(k, buf, et, 1, &tid), k_load(k, buf, et, 1, &other));
        k_store(k, buf, v, 1, &tid);
        k->b = save;
        k_emit(k, FX_BARRIER, 0, type_simple(TY_VOID), 0, NULL, NULL, NULL);
    }
    FxInst *first = fxir_emit_if(k->a, k->b, k_cmp(k, FXC_EQ, tid, k_int(k, i64(), 0)), k->loc);
    k->b = &first->blocks[0];
    FxInst *zero = k_int(k, i64(), 0);
    k_store(k, tensor_ptr(k, n->out), k_load(k, buf, et, 1, &zero), 1, &o);
}

/* ---- MatMul / GEMM ---- */

/* Element (i, kk) of op(X): X[i, kk], or X[kk, i] when transposed. */
static FxInst *matrix_element(KB *k, const FxTensor *t, bool trans, FxInst *i, FxInst *kk)
{
    FxInst *idx[2] = { trans ? kk : i, trans ? i : kk };
    return k_load(k, tensor_ptr(k, t), t->type->elem, 1, (FxInst *[]){ offset_of(k, t, idx) });
}

/* dims of op(X): rows and cols */
static FxInst *op_dim(KB *k, const FxTensor *t, bool trans, int which)
{
    return dim_value(k, t, trans ? 1 - which : which);
}

static FxInst *scalar_value(KB *k, FxScalarArg s, ScalarId acc)
{
    if (s.kind == FXS_PARAM)
        return k_cast(k, k->params[s.param_index], type_scalar(acc));
    return k_number(k, acc, s.value);
}

/* if cond { tile[ty, tx] = load } else { tile[ty, tx] = 0 } */
static void stage_tile(KB *k, FxInst *tile, FxInst *ty, FxInst *tx, FxInst *cond, const FxTensor *t, bool trans,
                       FxInst *i, FxInst *kk)
{
    FxInst *br = fxir_emit_if(k->a, k->b, cond, k->loc);
    FxBlock *save = k->b;
    FxInst *idx[2] = { ty, tx };
    k->b = &br->blocks[0];
    k_store(k, tile, matrix_element(k, t, trans, i, kk), 2, idx);
    k->b = &br->blocks[1];
    k_store(k, tile, k_number(k, t->type->elem->scalar, 0), 2, idx);
    k->b = save;
}

/* C[idx] = alpha * acc (+ beta * C[idx]), in the accumulator type, then
 * converted to C's element type. */
static void store_gemm_result(KB *k, const FxNode *n, FxInst *r, FxInst **idx)
{
    const Type *acc_t = type_scalar(n->acc_type);
    if (!(n->alpha.kind == FXS_STATIC && n->alpha.value == 1))
        r = k_bin(k, FXB_MUL, scalar_value(k, n->alpha, n->acc_type), r);
    if (n->beta.kind != FXS_NONE) {
        FxInst *cv = k_cast(k, k_load(k, tensor_ptr(k, n->out), n->out->type->elem, 1,
                                      (FxInst *[]){ offset_of(k, n->out, idx) }), acc_t);
        r = k_bin(k, FXB_ADD, r, k_bin(k, FXB_MUL, scalar_value(k, n->beta, n->acc_type), cv));
    }
    k_store(k, tensor_ptr(k, n->out), k_cast(k, r, n->out->type->elem), 1, (FxInst *[]){ offset_of(k, n->out, idx) });
}

/* ---- MatMul on the CDNA matrix cores ----
 * One wave (64 work-items) per 16x16 tile of C. Each 16-deep slice of A and
 * B is staged in LDS (every work-item loads 4 elements of each), then four
 * 16x16x4 MFMA steps accumulate it; lane l ends up holding
 * C[4 * (l / 16) + i][l % 16] for i = 0..3. */

enum { MFMA_WAVE = 64 };

/* The target's 16x16 matrix instruction for a Float64 or Float32 GEMM
 * that computes A @ B; NULL where it has none (FMA tiles then). */
static const TgtMatrixInst *mfma_for(const FxNode *n, const TgtTarget *t)
{
    bool computes = !(n->alpha.kind == FXS_STATIC && n->alpha.value == 0);
    if (!computes || n->in_type != n->acc_type || (n->in_type != SC_FLOAT64 && n->in_type != SC_FLOAT32))
        return NULL;
    TgtElem e = n->in_type == SC_FLOAT64 ? TGT_E_F64 : TGT_E_F32;
    const TgtMatrixInst *mi = tgt_find_matrix(t, e, e, TILE, TILE);
    return mi && mi->k == 4 && mi->wave_size == MFMA_WAVE ? mi : NULL;
}

static void lower_matmul_mfma(KB *k, const FxNode *n, const TgtMatrixInst *mi)
{
    const FxTensor *A = n->ins[0], *B = n->ins[1];
    ScalarId es = n->in_type;
    const Type *et = type_scalar(es), *vt = type_vector(es, 4);
    FxInst *lane = k_cast(k, k_special(k, FXS_THREAD_IDX, 0), i64());
    FxInst *sixteen = k_int(k, i64(), TILE);
    FxInst *r16 = k_bin(k, FXB_MOD, lane, sixteen), *q = k_bin(k, FXB_FLOORDIV, lane, sixteen);
    FxInst *row0 = k_bin(k, FXB_MUL, k_cast(k, k_special(k, FXS_BLOCK_IDX, 1), i64()), sixteen);
    FxInst *col0 = k_bin(k, FXB_MUL, k_cast(k, k_special(k, FXS_BLOCK_IDX, 0), i64()), sixteen);
    FxInst *M = op_dim(k, A, n->trans_a, 0), *K = op_dim(k, A, n->trans_a, 1), *N = op_dim(k, B, n->trans_b, 1);
    int64_t tdims[2] = { TILE, TILE };
    FxInst *As = k_alloca(k, type_array(k->a, et, 2, tdims), FXSPACE_SHARED, "As");
    FxInst *Bs = k_alloca(k, type_array(k->a, et, 2, tdims), FXSPACE_SHARED, "Bs");
    FxInst *acc = k_alloca(k, vt, FXSPACE_PRIVATE, "acc");
    k_store(k, acc, k_emit(k, FX_SPLAT, 0, vt, 1, k_number(k, es, 0), NULL, NULL), 0, NULL);
    FxInst *k0 = k_alloca(k, i64(), FXSPACE_PRIVATE, "k0");
    k_store(k, k0, k_int(k, i64(), 0), 0, NULL);
    FxInst *loop = fxir_emit_loop(k->a, k->b, k->loc);
    FxBlock *outer = k->b;
    k->b = &loop->blocks[0];
    loop->ops[0] = k_cmp(k, FXC_LT, k_load(k, k0, i64(), 0, NULL), K);
    k->b = &loop->blocks[1];
    FxInst *kb = k_load(k, k0, i64(), 0, NULL);
    for (int j = 0; j < (TILE * TILE) / MFMA_WAVE; j++) {   /* stage both 16x16 slices */
        FxInst *e = k_bin(k, FXB_ADD, lane, k_int(k, i64(), (int64_t)j * MFMA_WAVE));
        FxInst *r = k_bin(k, FXB_FLOORDIV, e, sixteen), *cc = k_bin(k, FXB_MOD, e, sixteen);
        FxInst *ar = k_bin(k, FXB_ADD, row0, r), *ak = k_bin(k, FXB_ADD, kb, cc);
        stage_tile(k, As, r, cc, k_and(k, k_cmp(k, FXC_LT, ar, M), k_cmp(k, FXC_LT, ak, K)), A, n->trans_a, ar, ak);
        FxInst *bk = k_bin(k, FXB_ADD, kb, r), *bc = k_bin(k, FXB_ADD, col0, cc);
        stage_tile(k, Bs, r, cc, k_and(k, k_cmp(k, FXC_LT, bk, K), k_cmp(k, FXC_LT, bc, N)), B, !n->trans_b, bc, bk);
    }
    k_emit(k, FX_BARRIER, 0, type_simple(TY_VOID), 0, NULL, NULL, NULL);
    for (int s = 0; s < TILE / 4; s++) {
        FxInst *kk = k_bin(k, FXB_ADD, k_int(k, i64(), 4 * s), q);
        FxInst *a = k_load(k, As, et, 2, (FxInst *[]){ r16, kk });
        FxInst *b = k_load(k, Bs, et, 2, (FxInst *[]){ kk, r16 });
        FxInst *d = k_emit(k, FX_MFMA, mi->id, vt, 3, a, b,
                           k_load(k, acc, vt, 0, NULL));
        k_store(k, acc, d, 0, NULL);
    }
    k_emit(k, FX_BARRIER, 0, type_simple(TY_VOID), 0, NULL, NULL, NULL);
    k->b = &loop->blocks[2];
    k_store(k, k0, k_bin(k, FXB_ADD, k_load(k, k0, i64(), 0, NULL), sixteen), 0, NULL);
    k->b = outer;
    FxInst *col = k_bin(k, FXB_ADD, col0, r16);
    FxInst *d = k_load(k, acc, vt, 0, NULL);
    for (int i = 0; i < 4; i++) {
        FxInst *row = k_bin(k, FXB_ADD, row0, k_bin(k, FXB_ADD, k_bin(k, FXB_MUL, q, k_int(k, i64(), 4)),
                                                     k_int(k, i64(), i)));
        FxInst *inside = fxir_emit_if(k->a, k->b, k_and(k, k_cmp(k, FXC_LT, row, M), k_cmp(k, FXC_LT, col, N)),
                                      k->loc);
        FxBlock *save = k->b;
        k->b = &inside->blocks[0];
        FxInst *idx[2] = { row, col };
        store_gemm_result(k, n, k_emit(k, FX_EXTRACT, 0, et, 2, d, k_int(k, i32(), i), NULL), idx);
        k->b = save;
    }
}

/* FMA tiles with register blocking: a 16x16 workgroup computes a 32x32 tile
 * of C, each work-item a 2x2 block (rows ty, ty+16; columns tx, tx+16), so
 * every value read from LDS feeds two fmas. Each output is still one fma
 * chain in k order. */
enum { RB = 2, BIG_TILE = TILE * RB };

static void lower_matmul(KB *k, const FxNode *n)
{
    const FxTensor *A = n->ins[0], *B = n->ins[1];
    const Type *in_t = type_scalar(n->in_type), *acc_t = type_scalar(n->acc_type);
    bool compute = !(n->alpha.kind == FXS_STATIC && n->alpha.value == 0);   /* BLAS: alpha 0 skips A @ B */
    FxInst *ty = k_cast(k, k_special(k, FXS_THREAD_IDX, 1), i64());
    FxInst *tx = k_cast(k, k_special(k, FXS_THREAD_IDX, 0), i64());
    FxInst *tile = k_int(k, i64(), TILE), *big = k_int(k, i64(), BIG_TILE);
    FxInst *row0 = k_bin(k, FXB_MUL, k_cast(k, k_special(k, FXS_BLOCK_IDX, 1), i64()), big);
    FxInst *col0 = k_bin(k, FXB_MUL, k_cast(k, k_special(k, FXS_BLOCK_IDX, 0), i64()), big);
    FxInst *M = op_dim(k, A, n->trans_a, 0), *K = op_dim(k, A, n->trans_a, 1), *N = op_dim(k, B, n->trans_b, 1);
    FxInst *lr[RB], *lc[RB], *rows[RB], *cols[RB], *acc[RB][RB];
    for (int i = 0; i < RB; i++) {
        lr[i] = k_bin(k, FXB_ADD, ty, k_int(k, i64(), (int64_t)i * TILE));   /* row within the tile */
        lc[i] = k_bin(k, FXB_ADD, tx, k_int(k, i64(), (int64_t)i * TILE));
        rows[i] = k_bin(k, FXB_ADD, row0, lr[i]);
        cols[i] = k_bin(k, FXB_ADD, col0, lc[i]);
    }
    for (int i = 0; i < RB; i++)
        for (int j = 0; j < RB; j++) {
            acc[i][j] = k_alloca(k, acc_t, FXSPACE_PRIVATE, "acc");
            k_store(k, acc[i][j], k_number(k, n->acc_type, 0), 0, NULL);
        }
    if (compute) {
        int64_t adims[2] = { BIG_TILE, TILE }, bdims[2] = { TILE, BIG_TILE };
        FxInst *As = k_alloca(k, type_array(k->a, in_t, 2, adims), FXSPACE_SHARED, "As");
        FxInst *Bs = k_alloca(k, type_array(k->a, in_t, 2, bdims), FXSPACE_SHARED, "Bs");
        FxInst *k0 = k_alloca(k, i64(), FXSPACE_PRIVATE, "k0");
        k_store(k, k0, k_int(k, i64(), 0), 0, NULL);
        FxInst *loop = fxir_emit_loop(k->a, k->b, k->loc);
        FxBlock *outer = k->b;
        k->b = &loop->blocks[0];
        loop->ops[0] = k_cmp(k, FXC_LT, k_load(k, k0, i64(), 0, NULL), K);
        k->b = &loop->blocks[1];
        FxInst *kb = k_load(k, k0, i64(), 0, NULL);
        FxInst *ka = k_bin(k, FXB_ADD, kb, tx), *kbb = k_bin(k, FXB_ADD, kb, ty);
        for (int i = 0; i < RB; i++) {
            stage_tile(k, As, lr[i], tx, k_and(k, k_cmp(k, FXC_LT, rows[i], M), k_cmp(k, FXC_LT, ka, K)), A,
                       n->trans_a, rows[i], ka);
            stage_tile(k, Bs, ty, lc[i], k_and(k, k_cmp(k, FXC_LT, kbb, K), k_cmp(k, FXC_LT, cols[i], N)), B,
                       !n->trans_b, cols[i], kbb);
        }
        k_emit(k, FX_BARRIER, 0, type_simple(TY_VOID), 0, NULL, NULL, NULL);
        for (int kk = 0; kk < TILE; kk++) {   /* unrolled inner product over the slice */
            FxInst *c = k_int(k, i64(), kk), *a[RB], *b[RB];
            for (int i = 0; i < RB; i++) {
                a[i] = k_cast(k, k_load(k, As, in_t, 2, (FxInst *[]){ lr[i], c }), acc_t);
                b[i] = k_cast(k, k_load(k, Bs, in_t, 2, (FxInst *[]){ c, lc[i] }), acc_t);
            }
            for (int i = 0; i < RB; i++)
                for (int j = 0; j < RB; j++) {
                    FxInst *prev = k_load(k, acc[i][j], acc_t, 0, NULL);
                    FxInst *next = type_is_float(n->acc_type)
                                       ? k_emit(k, FX_FMA, 0, acc_t, 3, a[i], b[j], prev)
                                       : k_bin(k, FXB_ADD, k_bin(k, FXB_MUL, a[i], b[j]), prev);
                    k_store(k, acc[i][j], next, 0, NULL);
                }
        }
        k_emit(k, FX_BARRIER, 0, type_simple(TY_VOID), 0, NULL, NULL, NULL);
        k->b = &loop->blocks[2];
        k_store(k, k0, k_bin(k, FXB_ADD, k_load(k, k0, i64(), 0, NULL), tile), 0, NULL);
        k->b = outer;
    }
    for (int i = 0; i < RB; i++)
        for (int j = 0; j < RB; j++) {
            FxInst *inside = fxir_emit_if(k->a, k->b, k_and(k, k_cmp(k, FXC_LT, rows[i], M),
                                                               k_cmp(k, FXC_LT, cols[j], N)), k->loc);
            FxBlock *save = k->b;
            k->b = &inside->blocks[0];
            FxInst *idx[2] = { rows[i], cols[j] };
            store_gemm_result(k, n, k_load(k, acc[i][j], acc_t, 0, NULL), idx);
            k->b = save;
        }
}

/* ---- driving ---- */

static FxPlan *lower_program(FxModule *m, FxProgram *p, const TgtTarget *target)
{
    FxPlan *plan = arena_alloc(m->arena, sizeof *plan);
    plan->program = p->name;
    plan->prog = p;
    int nt = 0;
    FxTensor **trans = arena_alloc(m->arena, sizeof(FxTensor *) * (size_t)(p->tensors.len + 1));
    for (int i = 0; i < p->tensors.len; i++) {
        FxTensor *t = p->tensors.items[i];
        if (t->param_index < 0)
            trans[nt++] = t;
    }
    plan->ntransients = nt;
    plan->transients = arena_alloc(m->arena, sizeof(PlanBuffer) * (size_t)(nt + 1));
    for (int i = 0; i < nt; i++)
        plan->transients[i] = (PlanBuffer){ trans[i]->name, trans[i]->type->elem, extent_of_tensor(trans[i], -1, 1) };
    plan->nsteps = p->nodes.len;
    plan->steps = arena_alloc(m->arena, sizeof(PlanStep) * (size_t)(p->nodes.len + 1));
    for (int i = 0; i < p->nodes.len; i++) {
        FxNode *n = p->nodes.items[i];
        PlanStep *st = &plan->steps[i];
        KB k;
        const TgtMatrixInst *mi = n->kind == FXN_MATMUL ? mfma_for(n, target) : NULL;
        bool mfma = mi != NULL;
        int bounds = n->kind == FXN_MAP ? MAP_BLOCK : n->kind == FXN_REDUCE ? REDUCE_BLOCK
                   : mfma ? MFMA_WAVE : TILE * TILE;
        FxFunc *f = new_kernel(m, &k, p, nt, trans, i, bounds);
        k.loc = n->loc;
        st->kernel = f->name;
        st->block[0] = st->block[1] = st->block[2] = 1;
        st->grid[1] = st->grid[2] = extent_const(1);
        switch (n->kind) {
        case FXN_MAP:
            lower_map(&k, n);
            st->grid[0] = extent_of_tensor(n->out, -1, MAP_BLOCK);
            st->block[0] = MAP_BLOCK;
            break;
        case FXN_REDUCE:
            lower_reduce(&k, n);
            st->grid[0] = extent_of_tensor(n->ins[0], n->axis, 1);
            st->block[0] = REDUCE_BLOCK;
            break;
        case FXN_MATMUL:
            if (mfma)
                lower_matmul_mfma(&k, n, mi);
            else
                lower_matmul(&k, n);
            st->grid[0] = extent_dim(n->out, 1, mfma ? TILE : BIG_TILE);
            st->grid[1] = extent_dim(n->out, 0, mfma ? TILE : BIG_TILE);
            st->block[0] = mfma ? MFMA_WAVE : TILE;
            st->block[1] = mfma ? 1 : TILE;
            break;
        }
    }
    return plan;
}

PtrVec plan_lower_programs(FxModule *m, const TgtTarget *target)
{
    PtrVec plans = { 0 };
    for (int i = 0; i < m->programs.len; i++)
        ptrvec_push(m->arena, &plans, lower_program(m, m->programs.items[i], target));
    return plans;
}

/* ---- text form ---- */

static void print_extent(FILE *out, const PlanExtent *e)
{
    if (e->div != 1)
        fputs("ceildiv(", out);
    for (int i = 0; i < e->nfactors; i++) {
        if (i)
            fputc('*', out);
        if (e->names[i])
            fputs(e->names[i], out);
        else
            fprintf(out, "%lld", (long long)e->values[i]);
    }
    if (e->nfactors == 0)
        fputc('1', out);
    if (e->div != 1)
        fprintf(out, ", %lld)", (long long)e->div);
}

void plan_print(FILE *out, const FxPlan *p)
{
    Arena *a = arena_new();
    fprintf(out, "plan %s\n", p->program);
    fputs("  args:", out);
    for (int i = 0; i < p->prog->nparams; i++)
        fprintf(out, " %s", p->prog->params[i].name);
    for (int i = 0; i < p->ntransients; i++)
        fprintf(out, " %s", p->transients[i].name);
    fputc('\n', out);
    for (int i = 0; i < p->ntransients; i++) {
        fprintf(out, "  transient %s %s %d ", p->transients[i].name, type_name(a, p->transients[i].elem),
                type_storage_bits(p->transients[i].elem) / 8);
        print_extent(out, &p->transients[i].count);
        fputc('\n', out);
    }
    for (int i = 0; i < p->nsteps; i++) {
        const PlanStep *s = &p->steps[i];
        fprintf(out, "  launch %s grid(", s->kernel);
        for (int d = 0; d < 3; d++) {
            if (d)
                fputs(", ", out);
            print_extent(out, &s->grid[d]);
        }
        fprintf(out, ") block(%d, %d, %d)\n", s->block[0], s->block[1], s->block[2]);
    }
    arena_free(a);
}

char *plan_to_text(Arena *a, const FxPlan *p)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    plan_print(f, p);
    fclose(f);
    char *r = arena_strdup(a, buf);
    free(buf);
    return r;
}
