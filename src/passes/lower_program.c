/* lower_program.c - turns each node of a program graph into an FXIR kernel
 * and records the launch plan. The kernels are ordinary FXIR, so codegen and
 * the host runtime treat them like the user's own kernels:
 *  - Map: one work-item per output element, numpy broadcasting of inputs;
 *  - Reduce: one workgroup per output element, a strided pass and a tree in
 *    LDS (one pass: each workgroup owns its whole reduced row); a Reduce
 *    with a body computes each element where it would have loaded it;
 *  - MatMul/GEMM: 16x16 output tiles per workgroup, A and B tiles staged in
 *    LDS, boundary guards for sizes that are not multiples of the tile. */
#include "passes/passes.h"
#include "abi/fxplan.h"
#include "fxir/builder.h"
#include "fxir/graph.h"
#include "support/bigint.h"
#include <stdlib.h>
#include <string.h>

enum { MAP_BLOCK = 256, REDUCE_BLOCK = 256, TILE = 16 };

/* ---- building a kernel ---- */

typedef struct KB {
    FxBuilder b;
    FxInst **params;         /* per program parameter, then per transient */
    const FxProgram *prog;
    int ntransients;
    FxTensor **transients;
} KB;

static const Type *i64(void) { return type_scalar(SC_INT64); }
static FxInst *k_i64(KB *k, int64_t v) { return fxb_int(&k->b, i64(), v); }
static FxInst *k_add(KB *k, FxInst *x, FxInst *y) { return fxb_binop(&k->b, FXB_ADD, x, y); }
static FxInst *k_mul(KB *k, FxInst *x, FxInst *y) { return fxb_binop(&k->b, FXB_MUL, x, y); }
static FxInst *k_lt(KB *k, FxInst *x, FxInst *y) { return fxb_cmp(&k->b, FXC_LT, x, y); }
static FxInst *k_and(KB *k, FxInst *x, FxInst *y) { return fxb_binop(&k->b, FXB_AND, x, y); }
static FxInst *k_load_slot(KB *k, FxInst *slot) { return fxb_load_slot(&k->b, slot); }
static void k_store_slot(KB *k, FxInst *slot, FxInst *v) { fxb_store_slot(&k->b, slot, v); }

/* A built-in index (thread_idx.x, ...) as Int64. */
static FxInst *k_special64(KB *k, FxSpecial s, int dim)
{
    return fxb_cast(&k->b, fxb_special(&k->b, s, dim), i64());
}

/* Global linear id along x: block_idx.x * block_dim.x + thread_idx.x, as Int64. */
static FxInst *k_global_id(KB *k)
{
    FxInst *b = k_special64(k, FXS_BLOCK_IDX, 0);
    FxInst *d = k_special64(k, FXS_BLOCK_DIM, 0);
    FxInst *t = k_special64(k, FXS_THREAD_IDX, 0);
    return k_add(k, k_mul(k, b, d), t);
}

static FxInst *k_counted_loop(KB *k, const char *name, FxInst *from, FxInst *limit, FxInst *step, FxInst **counter)
{
    return fxb_counted_loop(&k->b, name, from, limit, step, counter);
}

/* ---- kernels and their parameters ---- */

static int tensor_slot(const KB *k, const FxTensor *t)
{
    if (t->view_of)   /* a view reads its base's buffer */
        t = t->view_of;
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
        return k_i64(k, t->type->dims[d]);
    for (int i = 0; i < k->prog->nparams; i++)
        if (strcmp(k->prog->params[i].name, n) == 0)
            return fxb_cast(&k->b, k->params[i], i64());
    return k_i64(k, 0);
}

/* Whether dimension d of t is known at compile time (not a parameter). */
static bool dim_is_static(const FxTensor *t, int d)
{
    return !t->type->dim_names || !t->type->dim_names[d];
}

/* Linear offset of element `idx` in t's storage order. */
static FxInst *offset_of(KB *k, const FxTensor *t, FxInst **idx)
{
    int r = t->type->ndims;
    FxInst *off = NULL;
    for (int j = 0; j < r; j++) {
        int d = t->type->col_major ? r - 1 - j : j;
        off = off ? k_add(k, k_mul(k, off, dim_value(k, t, d)), idx[d]) : idx[d];
    }
    return off ? off : k_i64(k, 0);
}

static FxInst *load_element(KB *k, const FxTensor *t, FxInst **idx)
{
    FxInst *off = offset_of(k, t, idx);
    return fxb_load(&k->b, tensor_ptr(k, t), t->type->elem, 1, &off);
}

static void store_element(KB *k, const FxTensor *t, FxInst **idx, FxInst *v)
{
    FxInst *off = offset_of(k, t, idx);
    fxb_store(&k->b, tensor_ptr(k, t), v, 1, &off);
}

static FxFunc *new_kernel(FxModule *m, KB *k, const FxProgram *p, int nt, FxTensor **transients, int index,
                          int launch_bounds)
{
    memset(k, 0, sizeof *k);
    const char *name = arena_printf(m->arena, "%s__k%d", p->name, index);
    FxFunc *f = fxb_func(&k->b, m, name, FXF_KERNEL, p->nparams + nt, type_simple(TY_VOID), p->loc);
    f->launch_bounds = launch_bounds;
    k->prog = p;
    k->ntransients = nt;
    k->transients = transients;
    k->params = arena_alloc(m->arena, sizeof(FxInst *) * (size_t)(p->nparams + nt + 1));
    for (int i = 0; i < p->nparams + nt; i++) {
        bool is_param = i < p->nparams;
        const Type *t = is_param ? p->params[i].type : transients[i - p->nparams]->type;
        const char *pname = is_param ? p->params[i].name : transients[i - p->nparams]->name;
        const Type *pt = t->kind == TY_TENSOR ? type_ptr(m->arena, t->elem, false) : t;
        k->params[i] = fxb_param(&k->b, f, i, pname, pt);
    }
    return f;
}

/* ---- plan extents ---- */

static FxPlanExtent extent_of_tensor(const FxTensor *t, int skip_axis, int64_t div)
{
    FxPlanExtent e = { 0 };
    e.div = div;
    for (int d = 0; d < t->type->ndims; d++) {
        if (d == skip_axis)
            continue;
        e.names[e.nfactors] = t->type->dim_names ? t->type->dim_names[d] : NULL;
        e.values[e.nfactors++] = t->type->dims[d];
    }
    return e;
}

static FxPlanExtent extent_const(int64_t v)
{
    FxPlanExtent e = { 1, { v }, { NULL }, 1 };
    return e;
}

static FxPlanExtent extent_dim(const FxTensor *t, int d, int64_t div)
{
    FxPlanExtent e = { 1, { t->type->dims[d] }, { t->type->dim_names ? t->type->dim_names[d] : NULL }, div };
    return e;
}

/* ---- Map ---- */

/* The coordinates of linear index `lin` in t's logical (row-major) shape. */
static void coords_of(KB *k, const FxTensor *t, FxInst *lin, FxInst **idx)
{
    FxInst *rem = lin;
    for (int d = t->type->ndims - 1; d >= 0; d--) {
        FxInst *dim = dim_value(k, t, d);
        idx[d] = d == 0 ? rem : fxb_binop(&k->b, FXB_MOD, rem, dim);
        if (d > 0)
            rem = fxb_binop(&k->b, FXB_FLOORDIV, rem, dim);
    }
}

/* The element of input t at output coordinates idx (of rank ro): a size-1
 * dim of t broadcasts. */
static FxInst *broadcast_load(KB *k, const FxTensor *t, FxInst **idx, int ro)
{
    FxInst *in_idx[8];
    int ri = t->type->ndims;
    for (int j = 0; j < ri; j++) {
        bool one = !(t->type->dim_names && t->type->dim_names[j]) && t->type->dims[j] == 1;
        in_idx[j] = one ? k_i64(k, 0) : idx[j + ro - ri];
    }
    return load_element(k, t, in_idx);
}

/* The input elements of a group of nodes at coordinates idx of their index
 * space (rank ro): each input tensor loaded once, at the line of the first
 * node that reads it. A Reduce without a body loads its input whole (its
 * domain); inputs of bodies broadcast. */
typedef struct Loaded {
    const FxTensor **tensor;
    FxInst **value;
    int n;
} Loaded;

static Loaded load_inputs(KB *k, FxNode *const *group, int n, FxInst **idx, int ro)
{
    int most = 0;
    for (int g = 0; g < n; g++)
        most += group[g]->nins;
    Loaded l = { arena_alloc(k->b.arena, sizeof(FxTensor *) * (size_t)(most + 1)),
                 arena_alloc(k->b.arena, sizeof(FxInst *) * (size_t)(most + 1)), 0 };
    for (int g = 0; g < n; g++)
        for (int i = 0; i < group[g]->nins; i++) {
            const FxTensor *t = group[g]->ins[i];
            int at = 0;
            while (at < l.n && l.tensor[at] != t)
                at++;
            if (at < l.n)
                continue;
            k->b.loc = group[g]->loc;
            l.tensor[l.n] = t;
            l.value[l.n++] = group[g]->body ? broadcast_load(k, t, idx, ro) : load_element(k, t, idx);
        }
    return l;
}

static FxInst *loaded_value(const Loaded *l, const FxTensor *t)
{
    for (int at = 0; at < l->n; at++)
        if (l->tensor[at] == t)
            return l->value[at];
    return NULL;
}

/* Node's element from the loaded inputs: its body's value, or (a Reduce
 * without a body) its input's element. */
static FxInst *node_element(KB *k, const FxNode *node, const Loaded *l)
{
    if (!node->body)
        return loaded_value(l, node->ins[0]);
    FxInst **args = arena_alloc(k->b.arena, sizeof(FxInst *) * (size_t)(node->nins + node->nscalars + 1));
    for (int i = 0; i < node->nins; i++)
        args[i] = loaded_value(l, node->ins[i]);
    for (int i = 0; i < node->nscalars; i++)
        args[node->nins + i] = k->params[node->scalar_params[i]];
    return fxb_call(&k->b, node->body, node->nins + node->nscalars, args);
}

/* Maps group[0..n) (one Map, or siblings: same shape, none reading what
 * another writes) as one kernel: each work-item loads every input element
 * of its index once, then computes and stores each member's element. */
static void lower_maps(KB *k, FxNode *const *group, int n)
{
    const FxTensor *shape = group[0]->out;
    FxInst *gid = k_global_id(k);
    FxInst *total = k_i64(k, 1);
    for (int d = 0; d < shape->type->ndims; d++)
        total = k_mul(k, total, dim_value(k, shape, d));
    fxb_if(&k->b, k_lt(k, gid, total));
    FxInst *idx[8];
    coords_of(k, shape, gid, idx);
    Loaded l = load_inputs(k, group, n, idx, shape->type->ndims);
    for (int g = 0; g < n; g++) {
        k->b.loc = group[g]->loc;
        store_element(k, group[g]->out, idx, node_element(k, group[g], &l));
    }
}

/* ---- Reduce ---- */

static FxInst *reduce_identity(KB *k, FxReduceKind r, ScalarId s)
{
    if (r == FXR_SUM || r == FXR_MAXABS)
        return fxb_number(&k->b, s, 0);
    return fxb_extreme(&k->b, s, r != FXR_MAX);   /* max starts at the lowest, min at the highest */
}

static FxInst *reduce_combine(KB *k, FxReduceKind r, FxInst *x, FxInst *y)
{
    if (r == FXR_SUM)
        return k_add(k, x, y);
    return fxb_minmax(&k->b, r == FXR_MIN || r == FXR_MINABS_NZ ? FXMM_MIN : FXMM_MAX, x, y);
}

/* x as Reduce n counts it: maxabs and minabsnz take |x|, and minabsnz
 * turns a zero into the identity (it does not count). */
static FxInst *reduce_operand(KB *k, const FxNode *n, FxInst *x)
{
    ScalarId s = fxg_reduce_domain(n)->type->elem->scalar;
    if (n->reduce == FXR_MAXABS || n->reduce == FXR_MINABS_NZ)
        x = fxb_unop(&k->b, FXU_ABS, x);
    if (n->reduce == FXR_MINABS_NZ) {
        FxInst *zero = fxb_cmp(&k->b, FXC_EQ, x, fxb_number(&k->b, s, 0));
        x = fxb_select(&k->b, zero, reduce_identity(k, FXR_MINABS_NZ, s), x);
    }
    return x;
}

static const Type *reduced_type(const FxNode *n) { return fxg_reduce_domain(n)->type->elem; }

/* Reduces group[0..n) (one, or siblings over domains of one shape along one
 * axis) as one kernel: a workgroup per output element, whose work-items
 * stride along the axis loading each input element once and combining it
 * into every member's accumulator, then a tree in LDS per member. */
static void lower_reduces(KB *k, FxNode *const *group, int n)
{
    const FxNode *first = group[0];
    const FxTensor *in = fxg_reduce_domain(first);
    int r = in->type->ndims;
    int64_t shared_dims[1] = { REDUCE_BLOCK };
    FxInst *buf[FXG_MAX_REDUCE_SIBLINGS], *acc[FXG_MAX_REDUCE_SIBLINGS];
    for (int g = 0; g < n; g++)
        buf[g] = fxb_alloca(&k->b, type_array(k->b.arena, reduced_type(group[g]), 1, shared_dims), FXSPACE_SHARED,
                            "partial");
    FxInst *tid = k_special64(k, FXS_THREAD_IDX, 0);
    FxInst *o = k_special64(k, FXS_BLOCK_IDX, 0);
    /* coordinates of this workgroup's output element, over the non-axis dims */
    FxInst *idx[8], *rem = o;
    for (int d = r - 1; d >= 0; d--) {
        if (d == first->axis)
            continue;
        FxInst *dim = dim_value(k, in, d);
        idx[d] = fxb_binop(&k->b, FXB_MOD, rem, dim);
        rem = fxb_binop(&k->b, FXB_FLOORDIV, rem, dim);
    }
    for (int g = 0; g < n; g++) {
        acc[g] = fxb_alloca(&k->b, reduced_type(group[g]), FXSPACE_PRIVATE, "acc");
        k_store_slot(k, acc[g], reduce_identity(k, group[g]->reduce, reduced_type(group[g])->scalar));
    }
    FxInst *len = dim_value(k, in, first->axis);
    FxInst *stride = k_special64(k, FXS_BLOCK_DIM, 0);
    FxInst *loop = k_counted_loop(k, "j", tid, len, stride, &idx[first->axis]);
    Loaded l = load_inputs(k, group, n, idx, r);
    for (int g = 0; g < n; g++) {
        k->b.loc = group[g]->loc;
        FxInst *x = reduce_operand(k, group[g], node_element(k, group[g], &l));
        k_store_slot(k, acc[g], reduce_combine(k, group[g]->reduce, k_load_slot(k, acc[g]), x));
    }
    k->b.loc = first->loc;
    fxb_after(&k->b, loop);
    for (int g = 0; g < n; g++)
        fxb_store(&k->b, buf[g], k_load_slot(k, acc[g]), 1, &tid);
    fxb_barrier(&k->b);
    /* tree: every work-item runs the same trip count, so the barrier is uniform */
    for (int s = REDUCE_BLOCK / 2; s > 0; s /= 2) {
        FxInst *sv = k_i64(k, s);
        FxInst *br = fxb_if(&k->b, k_lt(k, tid, sv));
        FxInst *other = k_add(k, tid, sv);
        for (int g = 0; g < n; g++) {
            const Type *et = reduced_type(group[g]);
            FxInst *v = reduce_combine(k, group[g]->reduce, fxb_load(&k->b, buf[g], et, 1, &tid),
                                       fxb_load(&k->b, buf[g], et, 1, &other));
            fxb_store(&k->b, buf[g], v, 1, &tid);
        }
        fxb_after(&k->b, br);
        fxb_barrier(&k->b);
    }
    fxb_if(&k->b, fxb_cmp(&k->b, FXC_EQ, tid, k_i64(k, 0)));
    FxInst *zero = k_i64(k, 0);
    for (int g = 0; g < n; g++) {
        k->b.loc = group[g]->loc;
        fxb_store(&k->b, tensor_ptr(k, group[g]->out), fxb_load(&k->b, buf[g], reduced_type(group[g]), 1, &zero), 1,
                  &o);
    }
}

/* ---- MatMul / GEMM ---- */

/* Element (i, kk) of op(X): X[i, kk], or X[kk, i] when transposed. */
static FxInst *matrix_element(KB *k, const FxTensor *t, bool trans, FxInst *i, FxInst *kk)
{
    FxInst *idx[2] = { trans ? kk : i, trans ? i : kk };
    return load_element(k, t, idx);
}

/* dims of op(X): rows and cols */
static FxInst *op_dim(KB *k, const FxTensor *t, bool trans, int which)
{
    return dim_value(k, t, trans ? 1 - which : which);
}

static FxInst *scalar_value(KB *k, FxScalarArg s, ScalarId acc)
{
    if (s.kind == FXS_PARAM)
        return fxb_cast(&k->b, k->params[s.param_index], type_scalar(acc));
    return fxb_number(&k->b, acc, s.value);
}

/* if cond { tile[ty, tx] = load } else { tile[ty, tx] = 0 } */
static void stage_tile(KB *k, FxInst *tile, FxInst *ty, FxInst *tx, FxInst *cond, const FxTensor *t, bool trans,
                       FxInst *i, FxInst *kk)
{
    FxInst *idx[2] = { ty, tx };
    FxInst *br = fxb_if(&k->b, cond);
    fxb_store(&k->b, tile, matrix_element(k, t, trans, i, kk), 2, idx);
    fxb_else(&k->b, br);
    fxb_store(&k->b, tile, fxb_number(&k->b, t->type->elem->scalar, 0), 2, idx);
    fxb_after(&k->b, br);
}

/* if row < M and col < N { C[row, col] = alpha * r (+ beta * C[row, col]) },
 * in the accumulator type, then converted to C's element type. */
static void store_gemm_result(KB *k, const FxNode *n, FxInst *r, FxInst *row, FxInst *col, FxInst *M, FxInst *N)
{
    FxInst *inside = fxb_if(&k->b, k_and(k, k_lt(k, row, M), k_lt(k, col, N)));
    FxInst *idx[2] = { row, col };
    const Type *acc_t = type_scalar(n->acc_type);
    if (!(n->alpha.kind == FXS_STATIC && n->alpha.value == 1))
        r = k_mul(k, scalar_value(k, n->alpha, n->acc_type), r);
    if (n->beta.kind != FXS_NONE) {
        FxInst *cv = fxb_cast(&k->b, load_element(k, n->out, idx), acc_t);
        r = k_add(k, r, k_mul(k, scalar_value(k, n->beta, n->acc_type), cv));
    }
    store_element(k, n->out, idx, fxb_cast(&k->b, r, n->out->type->elem));
    fxb_after(&k->b, inside);
}

/* ---- MatMul on the matrix cores ----
 * A workgroup of 2 x 2 waves computes a BM x BN tile of C; each wave a
 * block of RM x RN instruction tiles (16 x 16 each), so every A fragment
 * feeds RN instructions and every B fragment RM. The K loop walks KS-deep
 * slices: the slice after the current one is loaded from global memory into
 * registers (each work-item a run of consecutive elements along the operand's
 * contiguous dimension, which LLVM merges into 16-byte loads) while the
 * current one, in LDS, feeds the matrix instructions. Both slices sit in LDS
 * k-fastest (As[row][k], Bs[col][k]), so an Int8 fragment's consecutive k
 * are one 8-byte LDS read. Tiles inside C (and slices inside K) load without
 * bounds tests; the edges test every element and read zeros outside.
 * What a lane passes and receives is the vendor's register layout
 * (target/matrix_layouts.c). */

/* The matrix-instruction element type of a Float32-accumulated input
 * (Float16, BFloat16, the 8-bit floats); 0 (TGT_E_F64) for others. */
static TgtElem matrix_elem_of(ScalarId s)
{
    switch (s) {
    case SC_FLOAT16: return TGT_E_F16;
    case SC_BFLOAT16: return TGT_E_BF16;
    case SC_F8E4M3FNUZ: return TGT_E_F8E4M3FNUZ;
    case SC_F8E5M2FNUZ: return TGT_E_F8E5M2FNUZ;
    case SC_F8E4M3FN: return TGT_E_F8E4M3FN;
    case SC_F8E5M2: return TGT_E_F8E5M2;
    default: return TGT_E_F64;
    }
}

/* The target's 16x16 matrix instruction for this contraction (Float64 or
 * Float32 in and out, Int8 or Int4 in and Int32 out, Float16, BFloat16 or 8-bit
 * floats in (A's and B's format the same or not) and Float32 out) in the
 * target's wave size; NULL where it has none (FMA tiles then). The
 * instructions' products are exact in their accumulator, so either way each
 * result is one fma chain in k order. */
static const TgtMatrixInst *matrix_inst_for(const FxNode *n, const TgtTarget *t)
{
    bool computes = !(n->alpha.kind == FXS_STATIC && n->alpha.value == 0);
    TgtElem in, acc;
    if (n->xf32)   /* contraction-precision checked that t has it */
        in = TGT_E_XF32, acc = TGT_E_F32;
    else if (n->in_type == n->acc_type && (n->in_type == SC_FLOAT64 || n->in_type == SC_FLOAT32))
        in = acc = n->in_type == SC_FLOAT64 ? TGT_E_F64 : TGT_E_F32;
    else if ((n->in_type == SC_INT8 || n->in_type == SC_INT4) && n->acc_type == SC_INT32)
        in = n->in_type == SC_INT8 ? TGT_E_I8 : TGT_E_I4, acc = TGT_E_I32;
    else if (n->acc_type == SC_FLOAT32 && matrix_elem_of(n->in_type) != TGT_E_F64)
        in = matrix_elem_of(n->in_type), acc = TGT_E_F32;
    else
        return NULL;
    /* B's own type differs only for two 8-bit float formats (fp8 by bf8) */
    TgtElem in_b = n->in_type_b != n->in_type ? matrix_elem_of(n->in_type_b) : in;
    const TgtMatrixInst *mi = computes ? tgt_find_matrix_ab(t, in, in_b, acc, TILE, TILE) : NULL;
    return mi && mi->blocks == 1 && mi->wave_size == t->wave_size ? mi : NULL;
}

enum { WAVES_M = 2, WAVES_N = 2, LOAD_BYTES = 16, MAX_TILES = 8 };

typedef struct MxTile {
    const TgtMatrixInst *mi;
    int rm, rn;         /* instruction tiles per wave */
    int bm, bn, ks;     /* the workgroup's tile of C and the slice depth */
    int threads;        /* work-items per workgroup */
    int vec;            /* consecutive elements one work-item loads */
} MxTile;

/* Whether consecutive k of op(X) are consecutive in memory: A's when its
 * transpose and its storage order agree (A.T of a column-major A), B's
 * when they differ. */
static bool k_contiguous(const FxTensor *t, bool is_b, bool trans)
{
    return is_b ? t->type->col_major != trans : t->type->col_major == trans;
}

/* The instructions on 4-, 8- and 16-bit inputs are short (16 cycles or
 * fewer for 16x16 on CDNA3, 8 on RDNA4): more instruction tiles per wave
 * give them more work per byte staged. 4 x 4, and:
 * - CDNA, 8-bit inputs with one operand k-contiguous and the other not,
 *   and K known at compile time: 8 along the k-contiguous one (whose
 *   staging is a 16-byte load and store), since the other's bytes go to
 *   LDS in pairs (with a run-time K the loop on K's edge, live too,
 *   makes 8 x 4 spill 146-181 VGPRs on gfx942);
 * - CDNA, 8-bit inputs with neither operand k-contiguous, K known at
 *   compile time: 8 x 4 (gfx942's A.T @ B: 0.79 -> 0.84, 236 VGPRs; 8 x 8
 *   spills 575 VGPRs);
 * - RDNA, Float16 and BFloat16 (fragments of 4 or 8 registers): 4 x 3 where
 *   B is k-contiguous, 4 x 2 where it is not (4 x 3 spills 48-147 VGPRs
 *   there, 4 x 4 everywhere);
 * - gfx11's Int4: 4 x 2 (4 x 4 spills 12 VGPRs in A.T @ B; with 4 x 3 a
 *   work-item's share of B, 24 bytes, is not whole 16-byte runs).
 * bench/matrix_isa measures the choice. */
static void narrow_tiles(MxTile *t, const TgtMatrixInst *mi, bool a_k_contig, bool b_k_contig, bool k_static)
{
    const TgtOperandLayout *a = tgt_matrix_layout(mi->id)->a;
    t->rm = t->rn = 4;
    if (mi->wave_size == 64) {
        if (a->elem_bits == 8 && k_static && a_k_contig && !b_k_contig)
            t->rm = 8;
        else if (a->elem_bits == 8 && k_static && b_k_contig && !a_k_contig)
            t->rn = 8;
        else if (a->elem_bits == 8 && k_static && !a_k_contig && !b_k_contig)
            t->rm = 8;
    } else if (a->elem_bits == 16) {
        t->rn = b_k_contig ? 3 : 2;
    } else if (a->elem_bits == 4 && a->per_lane * a->elem_bits > 32) {
        t->rn = 2;
    }
}

/* Whether a work-item's share of an operand slice of `rows` x ks is whole
 * runs of t->vec elements (make_slice's registers). */
static bool whole_runs(const MxTile *t, int rows)
{
    int elems = rows * t->ks;
    return elems % t->threads == 0 && elems / t->threads % t->vec == 0;
}

/* Float64 and Float32: 2 x 2 instruction tiles per wave. */
static MxTile matrix_tile(const FxNode *n, const TgtMatrixInst *mi)
{
    MxTile t = { .mi = mi, .rm = 2, .rn = 2 };
    if (mi->in != TGT_E_F64 && mi->in != TGT_E_F32)
        narrow_tiles(&t, mi, k_contiguous(n->ins[0], false, n->trans_a), k_contiguous(n->ins[1], true, n->trans_b),
                     dim_is_static(n->ins[0], n->trans_a ? 0 : 1));
    t.ks = 2 * mi->k > TILE ? 2 * mi->k : TILE;
    t.threads = WAVES_M * WAVES_N * mi->wave_size;
    t.vec = LOAD_BYTES * 8 / type_storage_bits(type_scalar(fxir_matrix_elem(mi->in)));
    if (!whole_runs(&t, WAVES_M * t.rm * mi->m) || !whole_runs(&t, WAVES_N * t.rn * mi->n))
        t.rm = t.rn = 4;   /* 4 x 4 makes whole runs for every instruction compiled in */
    t.bm = WAVES_M * t.rm * mi->m;
    t.bn = WAVES_N * t.rn * mi->n;
    return t;
}

/* The type an operand's elements have in the staging registers and in LDS:
 * Int4 as the byte it is in memory (staged_element), since LLVM legalizes
 * vectors of i4 through the stack; the fragment narrows it again. */
static ScalarId staged_scalar(ScalarId s)
{
    return s == SC_INT4 ? SC_INT8 : s;
}

static FxInst *lane_index(KB *k, int v) { return fxb_int(&k->b, type_scalar(SC_INT32), v); }

static const TgtOperandLayout *operand_layout(const TgtMatrixInst *mi, bool is_b)
{
    return is_b ? tgt_matrix_layout(mi->id)->b : tgt_matrix_layout(mi->id)->a;
}

/* The row (A) or column (B) and the depth of element e of this lane's
 * operand of the instruction. */
static void lane_element_coords(KB *k, const TgtMatrixInst *mi, bool is_b, FxInst *lane, int e, FxInst **mn,
                                FxInst **kk)
{
    const TgtOperandLayout *l = operand_layout(mi, is_b);
    FxInst *pos = fxb_matrix_position(&k->b, l, mi->wave_size, lane, e);
    /* A: pos = m * K + k; B: pos = k * N + n */
    *kk = is_b ? fxb_binop(&k->b, FXB_FLOORDIV, pos, k_i64(k, mi->n)) : fxb_binop(&k->b, FXB_MOD, pos, k_i64(k, mi->k));
    *mn = is_b ? fxb_binop(&k->b, FXB_MOD, pos, k_i64(k, mi->n)) : fxb_binop(&k->b, FXB_FLOORDIV, pos, k_i64(k, mi->k));
}

/* Whether each lane's elements 2i and 2i + 1 of the instruction's operand
 * are one row's (or column's) depths 2j and 2j + 1: bit 0 of k is bit 0 of
 * the element number. A: position m * K + k; B: k * N + n. */
static bool lane_pairs_depths(const TgtMatrixInst *mi, bool is_b)
{
    const TgtOperandLayout *l = operand_layout(mi, is_b);
    int kbit = 0;
    while (is_b && 1 << kbit < l->cols)
        kbit++;
    return l->per_lane % 2 == 0 && kbit < l->nbits && l->bit_src[kbit] == tgt_lane_bits(mi->wave_size);
}

/* fragment for a slice whose LDS holds pairs of bytes (pairs_depths): a
 * UInt16 per two elements, reinterpreted as the bytes. */
static FxInst *fragment_of_pairs(KB *k, const TgtMatrixInst *mi, bool is_b, FxInst *tile, FxInst *lane, FxInst *row,
                                 int kk0, const Type *staged)
{
    const TgtOperandLayout *l = operand_layout(mi, is_b);
    const Type *lt = tile->type->elem;
    FxInst *frag = fxb_splat(&k->b, fxb_int(&k->b, lt, 0), type_vector(lt->scalar, l->per_lane / 2));
    for (int e = 0; e < l->per_lane; e += 2) {
        FxInst *mn, *kk;
        lane_element_coords(k, mi, is_b, lane, e, &mn, &kk);
        FxInst *pair = fxb_binop(&k->b, FXB_FLOORDIV, k_add(k, kk, k_i64(k, kk0)), k_i64(k, 2));
        FxInst *idx[2] = { k_add(k, row, mn), pair };
        frag = fxb_insert(&k->b, frag, fxb_load(&k->b, tile, lt, 2, idx), lane_index(k, e / 2));
    }
    return fxb_bitcast(&k->b, frag, type_vector(staged->scalar, l->per_lane));
}

/* This lane's fragment of A (rows of As from `row`) or B (columns of Bs from
 * `row`) for the instruction step at depth kk0 of the slice. */
static FxInst *fragment(KB *k, const TgtMatrixInst *mi, bool is_b, FxInst *tile, FxInst *lane, FxInst *row, int kk0)
{
    const TgtOperandLayout *l = operand_layout(mi, is_b);
    ScalarId es = fxir_matrix_elem(is_b ? mi->in_b : mi->in);
    const Type *et = type_scalar(es);
    if (tile->type->elem->scalar != staged_scalar(es))
        return fxb_cast(&k->b, fragment_of_pairs(k, mi, is_b, tile, lane, row, kk0, type_scalar(staged_scalar(es))),
                        type_vector(es, l->per_lane));
    FxInst *frag = l->per_lane == 1 ? NULL : fxb_splat(&k->b, fxb_number(&k->b, es, 0), type_vector(es, l->per_lane));
    for (int e = 0; e < l->per_lane; e++) {
        FxInst *mn, *kk;
        lane_element_coords(k, mi, is_b, lane, e, &mn, &kk);
        FxInst *idx[2] = { k_add(k, row, mn), k_add(k, kk, k_i64(k, kk0)) };
        FxInst *x = fxb_cast(&k->b, fxb_load(&k->b, tile, type_scalar(staged_scalar(es)), 2, idx), et);
        if (!frag)
            return x;
        frag = fxb_insert(&k->b, frag, x, fxb_int(&k->b, type_scalar(SC_INT32), e));
    }
    return frag;
}

/* One operand's slice: its tile (rows x ks in op coordinates: (m or n, k)),
 * the registers it passes through, and how work-items split it. */
typedef struct Slice {
    const FxTensor *t;
    bool is_b;
    bool trans;         /* matrix_element's transpose flag for this operand */
    bool k_contig;      /* consecutive k are consecutive in memory */
    bool byte_pairs;    /* bytes whose depths are paired: lds holds UInt16s (pairs_depths) */
    int rows;
    FxInst *lds;        /* [rows][ks] */
    FxInst **regs;      /* per run of mt->vec elements this work-item stages: a vector slot */
    int nregs;          /* elements */
    FxInst **row, **kk; /* k_contig: per element, its (row, k) built once (element_coords) */
    FxInst *origin;     /* first row of the tile in op coordinates */
    FxInst *extent;     /* rows of op(X) */
    FxInst *bytes;      /* Int4: the tensor's pointer viewed as Ptr[Int8], else NULL */
} Slice;

/* Element (row gr, depth gk) of op(X) as it is staged. An Int4 is staged
 * as its byte in memory, read through an Int8 view of the pointer: only
 * its low nibble reaches the instruction (the fragment truncates, codegen
 * packs the nibbles), so converting it to Int8 (sign-extending the nibble,
 * three VALU instructions per element) would be work thrown away. */
static FxInst *staged_element(KB *k, const Slice *sl, FxInst *gr, FxInst *gk)
{
    if (!sl->bytes)
        return matrix_element(k, sl->t, sl->trans, gr, gk);
    FxInst *idx[2] = { sl->trans ? gk : gr, sl->trans ? gr : gk };
    FxInst *off = offset_of(k, sl->t, idx);
    return fxb_load(&k->b, sl->bytes, type_scalar(SC_INT8), 1, &off);
}

/* Whether a work-item's runs of an operand that is not k-contiguous lie
 * on consecutive depths (k, k + 1, ...), rather than a workgroup's width
 * of lines apart, so that a row's elements at k and k + 1 are neighbours
 * in LDS:
 * - 16-bit elements: LLVM packs the two (v_perm_b32) into one 32-bit
 *   store, which it pairs again (ds_store_2addr_b32), where each took a
 *   16-bit store. The pack is a VALU instruction per two elements: it pays
 *   on wave32, where that issues in one cycle, and not on wave64's four
 *   (gfx942's Float16 A.T @ B.T: 58 -> 74 other cycles per iteration;
 *   gfx1201's A.T @ B: 91 -> 72).
 * - Bytes, on both wave sizes: LDS holds each row's pair as a UInt16
 *   (store_byte_pairs, fragment_of_pairs): per four bytes one VALU
 *   instruction and two stores, where store_bytes takes two and four
 *   (gfx942's Int8 A.T @ B: 239 -> 143; gfx1201's: 130 -> 92). Not Int4:
 *   its fragment narrows each byte on its own, and from pairs LLVM's code
 *   for that is worse (gfx1201's A.T @ B 242 -> 547). */
static bool pairs_depths(const MxTile *mt, const Slice *sl)
{
    int per_line = sl->rows / mt->vec, runs = sl->nregs / mt->vec;
    int bits = type_storage_bits(type_scalar(staged_scalar(sl->t->type->elem->scalar)));
    bool pays = bits == 8 ? runs % 2 == 0 && !sl->bytes && lane_pairs_depths(mt->mi, sl->is_b)
                          : bits == 16 && mt->mi->wave_size == 32;
    return !sl->k_contig && pays && mt->threads % per_line == 0 && runs > 1;
}

/* Element r of this work-item's share: its (row, k) inside the slice. */
static void share_coords(KB *k, const MxTile *mt, const Slice *sl, FxInst *tid, int r, FxInst **row, FxInst **kk)
{
    int v = r % mt->vec, run = r / mt->vec, runs = sl->nregs / mt->vec;
    int per_line = (sl->k_contig ? mt->ks : sl->rows) / mt->vec;   /* runs along the contiguous dimension */
    bool pairs = pairs_depths(mt, sl);
    FxInst *g = pairs ? tid : k_add(k, tid, k_i64(k, (int64_t)run * mt->threads));
    FxInst *line = fxb_binop(&k->b, FXB_FLOORDIV, g, k_i64(k, per_line));
    if (pairs)
        line = k_add(k, k_mul(k, line, k_i64(k, runs)), k_i64(k, run));
    FxInst *at = k_add(k, k_mul(k, fxb_binop(&k->b, FXB_MOD, g, k_i64(k, per_line)), k_i64(k, mt->vec)), k_i64(k, v));
    *row = sl->k_contig ? line : at;
    *kk = sl->k_contig ? at : line;
}

/* share_coords, or the coordinates make_slice built once for a k-contiguous
 * operand. */
static void element_coords(KB *k, const MxTile *mt, const Slice *sl, FxInst *tid, int r, FxInst **row, FxInst **kk)
{
    if (sl->row) {
        *row = sl->row[r];
        *kk = sl->kk[r];
    } else {
        share_coords(k, mt, sl, tid, r, row, kk);
    }
}

/* The operand's pointer advanced to the slice at depth k0 (its first row
 * and k0): the part of each staged element's address that every
 * work-item of the block shares, marked uniform. GPU code then keeps it in
 * SGPRs, advanced by the scalar unit in each iteration, and adds it to
 * each work-item's invariant offset: where LLVM's loop strength reduction
 * saw the whole address, it folded a second operand's advance into the
 * work-items' 64-bit addresses, 4 VALU instructions per iteration
 * (gfx1201's 8-bit A.T @ B.T: 86 -> 84 other cycles). */
static FxInst *slice_base(KB *k, const Slice *sl, FxInst *k0)
{
    FxInst *p = sl->bytes ? sl->bytes : tensor_ptr(k, sl->t);
    FxInst *idx[2] = { sl->trans ? k0 : sl->origin, sl->trans ? sl->origin : k0 };
    return fxb_ptr_add_uniform(&k->b, p, offset_of(k, sl->t, idx));
}

/* Element (row, kk) of the slice whose pointer is `base` (slice_base), as
 * it is staged: the address is the uniform base plus the work-item's
 * offset, which is the same in every iteration of the K loop. */
static FxInst *slice_element(KB *k, const Slice *sl, FxInst *base, FxInst *row, FxInst *kk)
{
    FxInst *idx[2] = { sl->trans ? kk : row, sl->trans ? row : kk };
    FxInst *off = offset_of(k, sl->t, idx);
    return fxb_load(&k->b, base, base->type->elem, 1, &off);
}

/* Where a work-item's runs of bytes lie on consecutive depths
 * (pairs_depths), run r is run 0 r depths further: its loads address the
 * slice's pointer advanced by r depths, which stays uniform, plus run 0's
 * offsets. LLVM then computes one address per operand and reaches the
 * other runs by the load's immediate offset, where each run took a 64-bit
 * add (gfx1201's 8-bit A.T @ B: 92 -> 78 other cycles per iteration). Not
 * for 16-bit pairs: gfx1100's Float16 A.T @ B.T then spills 12 VGPRs. */
static FxInst *run_pointer(KB *k, const Slice *sl, FxInst *base, int run)
{
    FxInst *row = k_i64(k, 0), *kk = k_i64(k, run);
    FxInst *idx[2] = { sl->trans ? kk : row, sl->trans ? row : kk };
    return fxb_ptr_add(&k->b, base, offset_of(k, sl->t, idx));
}

/* Run `run` of this work-item's share, element by element: from the
 * slice's pointer `base` (slice_base) without tests, or, base NULL, from
 * the operand reading zeros outside it. */
static void fetch_run(KB *k, const MxTile *mt, const Slice *sl, FxInst *tid, FxInst *k0, FxInst *K, int run,
                      FxInst *base)
{
    bool guarded = !base;
    ScalarId es = staged_scalar(sl->t->type->elem->scalar);
    FxInst *slot = sl->regs[run];
    FxInst *vec = fxb_splat(&k->b, fxb_number(&k->b, es, 0), slot->type);
    if (guarded)
        k_store_slot(k, slot, vec);
    int first = guarded || !sl->byte_pairs ? run : 0;
    FxInst *at = first == run ? base : run_pointer(k, sl, base, run);
    for (int v = 0; v < mt->vec; v++) {
        FxInst *row, *kk;
        element_coords(k, mt, sl, tid, first * mt->vec + v, &row, &kk);
        if (!guarded) {
            FxInst *x = fxb_cast(&k->b, slice_element(k, sl, at, row, kk), type_scalar(es));
            vec = fxb_insert(&k->b, vec, x, lane_index(k, v));
            continue;
        }
        FxInst *gr = k_add(k, sl->origin, row), *gk = k_add(k, k0, kk);
        FxInst *e = fxb_if(&k->b, k_and(k, k_lt(k, gr, sl->extent), k_lt(k, gk, K)));
        FxInst *x = fxb_cast(&k->b, staged_element(k, sl, gr, gk), type_scalar(es));
        k_store_slot(k, slot, fxb_insert(&k->b, k_load_slot(k, slot), x, lane_index(k, v)));
        fxb_after(&k->b, e);
    }
    if (!guarded)
        k_store_slot(k, slot, vec);
}

/* Loads this work-item's share of the slice at depth k0 into its registers;
 * `inside` (a Boolean) says the whole slice is inside the operand. */
static void fetch_slice(KB *k, const MxTile *mt, const Slice *sl, FxInst *tid, FxInst *k0, FxInst *K, FxInst *inside)
{
    int runs = sl->nregs / mt->vec;
    bool always = inside->op == FX_CONST && inside->cval.lo == 1;
    FxInst *br = always ? NULL : fxb_if(&k->b, inside);
    FxInst *base = slice_base(k, sl, k0);
    for (int r = 0; r < runs; r++)
        fetch_run(k, mt, sl, tid, k0, K, r, base);
    if (br) {
        fxb_else(&k->b, br);
        for (int r = 0; r < runs; r++)
            fetch_run(k, mt, sl, tid, k0, K, r, NULL);
        fxb_after(&k->b, br);
    }
}

/* A byte operand that is not k-contiguous: each byte of a run goes to its
 * own LDS row. Cut from the run's 32-bit words by shifts, bytes 0 and 2
 * need none (ds_write_b8 and ds_write_b8_d16_hi store them from the word)
 * and 1 and 3 one each: two shifts per word, where extracting the bytes
 * from the vector took three. */
static void store_bytes(KB *k, const MxTile *mt, const Slice *sl, FxInst *tid)
{
    const Type *et = sl->lds->type->elem, *u32 = type_scalar(SC_UINT32);
    const Type *words = type_vector(SC_UINT32, mt->vec / 4);
    for (int run = 0; run < sl->nregs / mt->vec; run++) {
        FxInst *ws = fxb_bitcast(&k->b, k_load_slot(k, sl->regs[run]), words);
        for (int w = 0; w < mt->vec / 4; w++) {
            FxInst *x = fxb_extract(&k->b, ws, lane_index(k, w));
            for (int b = 0; b < 4; b++) {
                FxInst *idx[2];
                element_coords(k, mt, sl, tid, run * mt->vec + 4 * w + b, &idx[0], &idx[1]);
                FxInst *v = b ? fxb_binop(&k->b, FXB_SHR, x, fxb_int(&k->b, u32, 8 * b)) : x;
                v = fxb_bitcast(&k->b, fxb_cast(&k->b, v, type_scalar(SC_UINT8)), et);
                fxb_store(&k->b, sl->lds, v, 2, idx);
            }
        }
    }
}

static FxInst *u32_const(KB *k, uint32_t v) { return fxb_int(&k->b, type_scalar(SC_UINT32), v); }

/* Bytes `odd` and odd + 2 of words x0 and x1, interleaved: (x0's, x1's,
 * x0's, x1's). As a shuffle of the words' bytes LLVM makes it one
 * v_perm_b32. */
static FxInst *interleave_bytes(KB *k, FxInst *x0, FxInst *x1, int odd)
{
    const Type *quad = type_vector(SC_UINT8, 4);
    FxInst *q0 = fxb_bitcast(&k->b, x0, quad), *q1 = fxb_bitcast(&k->b, x1, quad);
    FxInst *r = fxb_splat(&k->b, fxb_int(&k->b, type_scalar(SC_UINT8), 0), quad);
    for (int e = 0; e < 4; e++)
        r = fxb_insert(&k->b, r, fxb_extract(&k->b, e % 2 ? q1 : q0, lane_index(k, odd + e / 2 * 2)), lane_index(k, e));
    return fxb_bitcast(&k->b, r, type_scalar(SC_UINT32));
}

/* A byte operand whose depths are paired (pairs_depths): runs 2p and
 * 2p + 1 hold the same rows at depths d and d + 1, so each row's two
 * bytes make one UInt16 of LDS. A v_perm_b32 interleaves two rows' pairs
 * from the runs' words, and ds_write_b16 / ds_write_b16_d16_hi store them:
 * per four bytes one VALU instruction and two stores, where store_bytes
 * takes two and four. */
static void store_byte_pairs(KB *k, const MxTile *mt, const Slice *sl, FxInst *tid)
{
    const Type *lt = sl->lds->type->elem, *words = type_vector(SC_UINT32, mt->vec / 4);
    for (int run = 0; run < sl->nregs / mt->vec; run += 2) {
        FxInst *w0 = fxb_bitcast(&k->b, k_load_slot(k, sl->regs[run]), words);
        FxInst *w1 = fxb_bitcast(&k->b, k_load_slot(k, sl->regs[run + 1]), words);
        for (int w = 0; w < mt->vec / 4; w++) {
            FxInst *x0 = fxb_extract(&k->b, w0, lane_index(k, w)), *x1 = fxb_extract(&k->b, w1, lane_index(k, w));
            FxInst *pair[2] = { interleave_bytes(k, x0, x1, 0), interleave_bytes(k, x0, x1, 1) };
            for (int b = 0; b < 4; b++) {
                FxInst *idx[2];
                element_coords(k, mt, sl, tid, run * mt->vec + 4 * w + b, &idx[0], &idx[1]);
                idx[1] = fxb_binop(&k->b, FXB_FLOORDIV, idx[1], k_i64(k, 2));
                FxInst *v = fxb_binop(&k->b, FXB_SHR, pair[b % 2], u32_const(k, 16 * (b / 2)));
                fxb_store(&k->b, sl->lds, fxb_cast(&k->b, v, lt), 2, idx);
            }
        }
    }
}

static void store_slice(KB *k, const MxTile *mt, const Slice *sl, FxInst *tid)
{
    if (sl->byte_pairs) {
        store_byte_pairs(k, mt, sl, tid);
        return;
    }
    if (!sl->k_contig && type_storage_bits(sl->lds->type->elem) == 8) {
        store_bytes(k, mt, sl, tid);
        return;
    }
    for (int r = 0; r < sl->nregs; r++) {
        FxInst *idx[2];
        element_coords(k, mt, sl, tid, r, &idx[0], &idx[1]);
        FxInst *vec = k_load_slot(k, sl->regs[r / mt->vec]);
        fxb_store(&k->b, sl->lds, fxb_extract(&k->b, vec, lane_index(k, r % mt->vec)), 2, idx);
    }
}

static Slice make_slice(KB *k, const MxTile *mt, const FxTensor *t, bool is_b, bool trans, FxInst *tid,
                        FxInst *origin, FxInst *extent)
{
    const Type *et = type_scalar(staged_scalar(t->type->elem->scalar));
    Slice sl = { .t = t, .is_b = is_b, .trans = is_b ? !trans : trans, .rows = is_b ? mt->bn : mt->bm,
                 .origin = origin, .extent = extent };
    sl.k_contig = k_contiguous(t, is_b, trans);
    if (et->scalar != t->type->elem->scalar)
        sl.bytes = fxb_ptr_cast(&k->b, tensor_ptr(k, t), et);
    sl.nregs = sl.rows * mt->ks / mt->threads;
    sl.byte_pairs = type_storage_bits(et) == 8 && pairs_depths(mt, &sl);
    int64_t dims[2] = { sl.rows, sl.byte_pairs ? mt->ks / 2 : mt->ks };
    const Type *lt = sl.byte_pairs ? type_scalar(SC_UINT16) : et;
    sl.lds = fxb_alloca(&k->b, type_array(k->b.arena, lt, 2, dims), FXSPACE_SHARED, is_b ? "Bs" : "As");
    int runs = sl.nregs / mt->vec;
    sl.regs = arena_alloc(k->b.arena, sizeof(FxInst *) * (size_t)runs);
    for (int r = 0; r < runs; r++)
        sl.regs[r] = fxb_alloca(&k->b, type_vector(et->scalar, mt->vec), FXSPACE_PRIVATE, is_b ? "b_next" : "a_next");
    /* A k-contiguous operand's coordinates are built once, here before any
     * branch, and every fetch and store reuses them. Built in each arm of
     * the first slice's inside/edge test and again in the loops, the
     * offsets of a run's k (tid % (ks / vec) * vec + v, invariant in the
     * loops) became GVN's phis, one per element, live through the K loops,
     * and hid from the load/store vectorizer that the run is consecutive:
     * byte loads and LDS stores, and spills (Int8 with a k-contiguous B and
     * a run-time K). The other layout keeps building them where they are
     * used: its elements are rows of LDS apart, and built once their
     * addresses would stay live through the loops. */
    if (sl.k_contig) {
        sl.row = arena_alloc(k->b.arena, sizeof(FxInst *) * (size_t)sl.nregs);
        sl.kk = arena_alloc(k->b.arena, sizeof(FxInst *) * (size_t)sl.nregs);
        for (int r = 0; r < sl.nregs; r++)
            share_coords(k, mt, &sl, tid, r, &sl.row[r], &sl.kk[r]);
    }
    return sl;
}

/* The state of one GEMM kernel on the matrix cores. */
typedef struct MxGemm {
    MxTile mt;
    const TgtMatrixInst *mi;
    const TgtMatrixLayout *lay;
    const Type *dt;         /* a D fragment */
    FxInst *tid, *lane, *wrow, *wcol, *K;
    Slice sa, sb;
    FxInst *acc[MAX_TILES][MAX_TILES];
    FxInst *k0;             /* slot: the slice in LDS */
} MxGemm;

/* The instructions of the slice in LDS: RM x RN tiles per step of the
 * instruction's k. */
static void compute_slice(KB *k, MxGemm *g)
{
    const TgtMatrixInst *mi = g->mi;
    for (int kk0 = 0; kk0 < g->mt.ks; kk0 += mi->k) {
        FxInst *fa[MAX_TILES], *fb[MAX_TILES];
        for (int i = 0; i < g->mt.rm; i++)
            fa[i] = fragment(k, mi, false, g->sa.lds, g->lane, k_add(k, g->wrow, k_i64(k, (int64_t)i * mi->m)), kk0);
        for (int j = 0; j < g->mt.rn; j++)
            fb[j] = fragment(k, mi, true, g->sb.lds, g->lane, k_add(k, g->wcol, k_i64(k, (int64_t)j * mi->n)), kk0);
        for (int i = 0; i < g->mt.rm; i++)
            for (int j = 0; j < g->mt.rn; j++)
                k_store_slot(k, g->acc[i][j], fxb_mfma(&k->b, mi->id, g->dt, fa[i], fb[j], k_load_slot(k, g->acc[i][j])));
    }
}

/* One step of the K loop: the next slice (when there is one) from global
 * memory into registers, the current one through the matrix cores, then
 * the next into LDS. `inside`: the next slice needs no bounds tests; NULL:
 * decide at run time. */
static void k_step(KB *k, MxGemm *g, FxInst *tile_inside, bool steady)
{
    FxInst *ks = k_i64(k, g->mt.ks);
    FxInst *next = k_add(k, k_load_slot(k, g->k0), ks);
    FxInst *more = steady ? NULL : k_lt(k, next, g->K);
    FxInst *inside = steady ? fxb_bool(&k->b, true)
                            : k_and(k, tile_inside, fxb_cmp(&k->b, FXC_LE, k_add(k, next, ks), g->K));
    FxInst *pre = more ? fxb_if(&k->b, more) : NULL;
    fetch_slice(k, &g->mt, &g->sa, g->tid, next, g->K, inside);
    fetch_slice(k, &g->mt, &g->sb, g->tid, next, g->K, inside);
    if (pre)
        fxb_after(&k->b, pre);
    compute_slice(k, g);
    fxb_barrier_shared(&k->b);
    FxInst *st = more ? fxb_if(&k->b, more) : NULL;
    store_slice(k, &g->mt, &g->sa, g->tid);
    store_slice(k, &g->mt, &g->sb, g->tid);
    if (st)
        fxb_after(&k->b, st);
    fxb_barrier_shared(&k->b);
    k_store_slot(k, g->k0, next);
}

/* k0 + 2 ks <= K (the slice after the next one still starts inside K). k0
 * runs through the multiples of ks from 0, so this is k0 != ks (K / ks - 1)
 * (0 when K < 2 ks): an equality with an invariant, which the scalar unit
 * tests in 64 bits (s_cmp_lg_u64). An ordered 64-bit comparison takes a
 * VALU v_cmp and an s_and with exec before the branch (the scalar unit
 * orders 32-bit integers only), and on wave64 a VALU instruction issues
 * in 4 cycles. */
static FxInst *steady_test(KB *k, MxGemm *g, FxInst *k0)
{
    FxInst *ks = k_i64(k, g->mt.ks);
    FxInst *slices = fxb_binop(&k->b, FXB_FLOORDIV, g->K, ks);
    FxInst *steps = fxb_minmax(&k->b, FXMM_MAX, fxb_binop(&k->b, FXB_SUB, slices, k_i64(k, 1)), k_i64(k, 0));
    return fxb_cmp(&k->b, FXC_NE, k0, k_mul(k, steps, ks));
}

/* while cond() { k_step } with the condition built in the loop's header. */
static void k_loop(KB *k, MxGemm *g, FxInst *tile_inside, bool steady)
{
    FxInst *loop = fxb_loop(&k->b);
    FxInst *k0 = k_load_slot(k, g->k0);
    /* steady: the slice after the next one still starts inside K, so the next is whole */
    FxInst *cond = steady ? k_and(k, tile_inside, steady_test(k, g, k0))
                          : k_lt(k, k0, g->K);
    fxb_loop_body(&k->b, loop, cond);
    k_step(k, g, tile_inside, steady);
    fxb_after(&k->b, loop);
}

static void lower_matmul_matrix(KB *k, const FxNode *n, const TgtMatrixInst *mi)
{
    const FxTensor *A = n->ins[0], *B = n->ins[1];
    MxGemm g = { .mt = matrix_tile(n, mi), .mi = mi, .lay = tgt_matrix_layout(mi->id) };
    const MxTile *mt = &g.mt;
    g.dt = type_vector(fxir_matrix_elem(mi->acc), g.lay->d->per_lane);
    g.tid = k_special64(k, FXS_THREAD_IDX, 0);
    FxInst *wave = fxb_binop(&k->b, FXB_FLOORDIV, g.tid, k_i64(k, mi->wave_size));
    g.lane = fxb_binop(&k->b, FXB_MOD, g.tid, k_i64(k, mi->wave_size));
    g.wrow = k_mul(k, fxb_binop(&k->b, FXB_FLOORDIV, wave, k_i64(k, WAVES_N)), k_i64(k, (int64_t)mt->rm * mi->m));
    g.wcol = k_mul(k, fxb_binop(&k->b, FXB_MOD, wave, k_i64(k, WAVES_N)), k_i64(k, (int64_t)mt->rn * mi->n));
    FxInst *row0 = k_mul(k, k_special64(k, FXS_BLOCK_IDX, 1), k_i64(k, mt->bm));
    FxInst *col0 = k_mul(k, k_special64(k, FXS_BLOCK_IDX, 0), k_i64(k, mt->bn));
    FxInst *M = op_dim(k, A, n->trans_a, 0), *N = op_dim(k, B, n->trans_b, 1);
    g.K = op_dim(k, A, n->trans_a, 1);
    g.sa = make_slice(k, mt, A, false, n->trans_a, g.tid, row0, M);
    g.sb = make_slice(k, mt, B, true, n->trans_b, g.tid, col0, N);
    for (int i = 0; i < mt->rm; i++)
        for (int j = 0; j < mt->rn; j++) {
            g.acc[i][j] = fxb_alloca(&k->b, g.dt, FXSPACE_PRIVATE, "acc");
            k_store_slot(k, g.acc[i][j], fxb_splat(&k->b, fxb_number(&k->b, g.dt->scalar, 0), g.dt));
        }
    /* the tile lies inside C; then a slice is inside when it is inside K */
    FxInst *tile_inside = k_and(k, fxb_cmp(&k->b, FXC_LE, k_add(k, row0, k_i64(k, mt->bm)), M),
                                fxb_cmp(&k->b, FXC_LE, k_add(k, col0, k_i64(k, mt->bn)), N));
    FxInst *zero = k_i64(k, 0), *ks = k_i64(k, mt->ks);
    FxInst *inside0 = k_and(k, tile_inside, fxb_cmp(&k->b, FXC_LE, ks, g.K));
    fetch_slice(k, mt, &g.sa, g.tid, zero, g.K, inside0);
    fetch_slice(k, mt, &g.sb, g.tid, zero, g.K, inside0);
    store_slice(k, mt, &g.sa, g.tid);
    store_slice(k, mt, &g.sb, g.tid);
    fxb_barrier_shared(&k->b);
    g.k0 = fxb_alloca(&k->b, type_scalar(SC_INT64), FXSPACE_PRIVATE, "k0");
    k_store_slot(k, g.k0, zero);
    k_loop(k, &g, tile_inside, true);    /* the steady state: every load inside */
    k_loop(k, &g, tile_inside, false);   /* the last slices, and tiles on C's edges */
    for (int i = 0; i < mt->rm; i++)
        for (int j = 0; j < mt->rn; j++) {
            FxInst *d = k_load_slot(k, g.acc[i][j]);
            for (int e = 0; e < g.lay->d->per_lane; e++) {
                FxInst *pos = fxb_matrix_position(&k->b, g.lay->d, mi->wave_size, g.lane, e);
                FxInst *r = fxb_binop(&k->b, FXB_FLOORDIV, pos, k_i64(k, mi->n));
                FxInst *c = fxb_binop(&k->b, FXB_MOD, pos, k_i64(k, mi->n));
                FxInst *row = k_add(k, k_add(k, row0, g.wrow), k_add(k, k_i64(k, (int64_t)i * mi->m), r));
                FxInst *col = k_add(k, k_add(k, col0, g.wcol), k_add(k, k_i64(k, (int64_t)j * mi->n), c));
                FxInst *v = fxb_extract(&k->b, d, fxb_int(&k->b, type_scalar(SC_INT32), e));
                store_gemm_result(k, n, v, row, col, M, N);
            }
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
    const Type *in_t = type_scalar(n->in_type), *in_b_t = type_scalar(n->in_type_b);
    const Type *acc_t = type_scalar(n->acc_type);
    bool compute = !(n->alpha.kind == FXS_STATIC && n->alpha.value == 0);   /* BLAS: alpha 0 skips A @ B */
    FxInst *ty = k_special64(k, FXS_THREAD_IDX, 1);
    FxInst *tx = k_special64(k, FXS_THREAD_IDX, 0);
    FxInst *tile = k_i64(k, TILE), *big = k_i64(k, BIG_TILE);
    FxInst *row0 = k_mul(k, k_special64(k, FXS_BLOCK_IDX, 1), big);
    FxInst *col0 = k_mul(k, k_special64(k, FXS_BLOCK_IDX, 0), big);
    FxInst *M = op_dim(k, A, n->trans_a, 0), *K = op_dim(k, A, n->trans_a, 1), *N = op_dim(k, B, n->trans_b, 1);
    FxInst *lr[RB], *lc[RB], *rows[RB], *cols[RB], *acc[RB][RB];
    for (int i = 0; i < RB; i++) {
        lr[i] = k_add(k, ty, k_i64(k, (int64_t)i * TILE));   /* row within the tile */
        lc[i] = k_add(k, tx, k_i64(k, (int64_t)i * TILE));
        rows[i] = k_add(k, row0, lr[i]);
        cols[i] = k_add(k, col0, lc[i]);
    }
    for (int i = 0; i < RB; i++)
        for (int j = 0; j < RB; j++) {
            acc[i][j] = fxb_alloca(&k->b, acc_t, FXSPACE_PRIVATE, "acc");
            k_store_slot(k, acc[i][j], fxb_number(&k->b, n->acc_type, 0));
        }
    if (compute) {
        int64_t adims[2] = { BIG_TILE, TILE }, bdims[2] = { TILE, BIG_TILE };
        FxInst *As = fxb_alloca(&k->b, type_array(k->b.arena, in_t, 2, adims), FXSPACE_SHARED, "As");
        FxInst *Bs = fxb_alloca(&k->b, type_array(k->b.arena, in_b_t, 2, bdims), FXSPACE_SHARED, "Bs");
        FxInst *kb;
        FxInst *loop = k_counted_loop(k, "k0", k_i64(k, 0), K, tile, &kb);
        FxInst *ka = k_add(k, kb, tx), *kbb = k_add(k, kb, ty);
        for (int i = 0; i < RB; i++) {
            stage_tile(k, As, lr[i], tx, k_and(k, k_lt(k, rows[i], M), k_lt(k, ka, K)), A, n->trans_a, rows[i], ka);
            stage_tile(k, Bs, ty, lc[i], k_and(k, k_lt(k, kbb, K), k_lt(k, cols[i], N)), B, !n->trans_b, cols[i],
                       kbb);
        }
        fxb_barrier(&k->b);
        for (int kk = 0; kk < TILE; kk++) {   /* unrolled inner product over the slice */
            FxInst *c = k_i64(k, kk), *a[RB], *b[RB];
            for (int i = 0; i < RB; i++) {
                a[i] = fxb_cast(&k->b, fxb_load(&k->b, As, in_t, 2, (FxInst *[]){ lr[i], c }), acc_t);
                b[i] = fxb_cast(&k->b, fxb_load(&k->b, Bs, in_b_t, 2, (FxInst *[]){ c, lc[i] }), acc_t);
            }
            for (int i = 0; i < RB; i++)
                for (int j = 0; j < RB; j++) {
                    FxInst *prev = k_load_slot(k, acc[i][j]);
                    FxInst *next = type_is_float(n->acc_type) ? fxb_fma(&k->b, a[i], b[j], prev)
                                                              : k_add(k, k_mul(k, a[i], b[j]), prev);
                    k_store_slot(k, acc[i][j], next);
                }
        }
        fxb_barrier(&k->b);
        fxb_after(&k->b, loop);
    }
    for (int i = 0; i < RB; i++)
        for (int j = 0; j < RB; j++)
            store_gemm_result(k, n, k_load_slot(k, acc[i][j]), rows[i], cols[j], M, N);
}

/* ---- sharing kernels ---- */

/* The step launches the shape's fn with only the arguments it reads (the fn
 * loses the others). */
static void bind_step(FxModule *m, FxPlanStep *st, const FxCodeShape *s)
{
    int *kept = arena_alloc(m->arena, sizeof(int) * (size_t)(s->nread + 1));
    st->nbind = fxir_drop_unread_params(s, kept);
    st->bind = kept;
}

static void drop_funcs(FxModule *m, FxFunc **gone, int ngone)
{
    int n = 0;
    for (int i = 0; i < m->funcs.len; i++) {
        bool keep = true;
        for (int g = 0; g < ngone && keep; g++)
            keep = m->funcs.items[i] != gone[g];
        if (keep)
            m->funcs.items[n++] = m->funcs.items[i];
    }
    m->funcs.len = n;
}

/* Steps whose kernels compute the same thing from different buffers (an
 * Ozaki scheme's Int8 products, one per pair of slices) launch the first of
 * them, each step binding its own buffers (args(...) in the plan); the
 * copies leave the module. kernels[i] is step i's. */
static void share_kernels(FxModule *m, FxPlan *plan, FxFunc **kernels)
{
    int n = plan->nsteps, ngone = 0;
    FxCodeShape *shape = arena_alloc(m->arena, sizeof(FxCodeShape) * (size_t)(n + 1));
    FxFunc **gone = arena_alloc(m->arena, sizeof(FxFunc *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        fxir_code_shape(kernels[i], &shape[i]);
    for (int i = 0; i < n; i++) {
        bool shared = false;
        for (int j = i + 1; j < n && kernels[i]; j++) {
            if (!kernels[j] || !fxir_same_code(&shape[i], &shape[j]))
                continue;
            bind_step(m, &plan->steps[j], &shape[j]);
            plan->steps[j].kernel = kernels[i]->name;
            gone[ngone++] = kernels[j];
            kernels[j] = NULL;
            shared = true;
        }
        if (shared)
            bind_step(m, &plan->steps[i], &shape[i]);
    }
    for (int i = 0; i < n; i++)
        fxir_code_shape_free(&shape[i]);
    drop_funcs(m, gone, ngone);
}

/* ---- driving ---- */

/* Step s of the plan: node group[0], with the Maps or Reduces that run in
 * its kernel (group[1..n)), lowered to one kernel. */
static FxFunc *lower_step(FxModule *m, const FxProgram *p, int nt, FxTensor **trans, const TgtTarget *target,
                          FxNode *const *group, int n, int s, FxPlanStep *st)
{
    const FxNode *node = group[0];
    KB k;
    const TgtMatrixInst *mi = node->kind == FXN_MATMUL ? matrix_inst_for(node, target) : NULL;
    bool mfma = mi != NULL;
    MxTile mt = mfma ? matrix_tile(node, mi) : (MxTile){ 0 };
    int bounds = node->kind == FXN_MAP ? MAP_BLOCK : node->kind == FXN_REDUCE ? REDUCE_BLOCK
               : mfma ? mt.threads : TILE * TILE;
    FxFunc *f = new_kernel(m, &k, p, nt, trans, s, bounds);
    k.b.loc = node->loc;
    st->kernel = f->name;
    st->when = node->when ? fxg_base(node->when)->name : NULL;
    st->when_nonzero = node->when_nonzero;
    st->note = node->note;
    st->block[0] = st->block[1] = st->block[2] = 1;
    st->grid[1] = st->grid[2] = extent_const(1);
    switch (node->kind) {
    case FXN_MAP:
        lower_maps(&k, group, n);
        st->grid[0] = extent_of_tensor(node->out, -1, MAP_BLOCK);
        st->block[0] = MAP_BLOCK;
        break;
    case FXN_REDUCE:
        lower_reduces(&k, group, n);
        st->grid[0] = extent_of_tensor(fxg_reduce_domain(node), node->axis, 1);
        st->block[0] = REDUCE_BLOCK;
        break;
    case FXN_MATMUL:
        if (mfma)
            lower_matmul_matrix(&k, node, mi);
        else
            lower_matmul(&k, node);
        st->grid[0] = extent_dim(node->out, 1, mfma ? mt.bn : BIG_TILE);
        st->grid[1] = extent_dim(node->out, 0, mfma ? mt.bm : BIG_TILE);
        st->block[0] = mfma ? mt.threads : TILE;
        st->block[1] = mfma ? 1 : TILE;
        break;
    }
    return f;
}

static FxPlan *lower_program(FxModule *m, FxProgram *p, const TgtTarget *target)
{
    FxPlan *plan = arena_alloc(m->arena, sizeof *plan);
    plan->program = p->name;
    int nt = 0;
    FxTensor **trans = arena_alloc(m->arena, sizeof(FxTensor *) * (size_t)(p->tensors.len + 1));
    for (int i = 0; i < p->tensors.len; i++) {
        FxTensor *t = p->tensors.items[i];
        if (t->param_index < 0 && !t->view_of)   /* views use their base's buffer */
            trans[nt++] = t;
    }
    plan->nargs = p->nparams + nt;
    plan->args = arena_alloc(m->arena, sizeof(char *) * (size_t)(plan->nargs + 1));
    for (int i = 0; i < p->nparams; i++)
        plan->args[i] = p->params[i].name;
    plan->ntransients = nt;
    plan->transients = arena_alloc(m->arena, sizeof(FxPlanBuffer) * (size_t)(nt + 1));
    for (int i = 0; i < nt; i++) {
        const Type *et = trans[i]->type->elem;
        plan->args[p->nparams + i] = trans[i]->name;
        plan->transients[i] = (FxPlanBuffer){ trans[i]->name, type_name(m->arena, et), type_storage_bits(et) / 8,
                                              extent_of_tensor(trans[i], -1, 1) };
    }
    int nsteps = 0;
    for (int i = 0; i < p->nodes.len; i++)
        nsteps += !((FxNode *)p->nodes.items[i])->with_previous;
    plan->nsteps = nsteps;
    plan->steps = arena_alloc(m->arena, sizeof(FxPlanStep) * (size_t)(nsteps + 1));
    FxFunc **kernels = arena_alloc(m->arena, sizeof(FxFunc *) * (size_t)(nsteps + 1));
    for (int i = 0, s = 0; i < p->nodes.len; s++) {
        int nmembers = 1;   /* the Maps that run with it */
        while (i + nmembers < p->nodes.len && ((FxNode *)p->nodes.items[i + nmembers])->with_previous)
            nmembers++;
        kernels[s] = lower_step(m, p, nt, trans, target, (FxNode **)&p->nodes.items[i], nmembers, s,
                                &plan->steps[s]);
        i += nmembers;
    }
    share_kernels(m, plan, kernels);
    return plan;
}

/* Every program becomes kernels (appended to m->funcs) and a plan, which
 * also travels in the artifact as the constant __fxplan_<program>. */
int pass_lower_programs(FxModule *m, const TgtTarget *target)
{
    for (int i = 0; i < m->programs.len; i++) {
        FxPlan *plan = lower_program(m, m->programs.items[i], target);
        ptrvec_push(m->arena, &m->plans, plan);
        FxData *d = arena_alloc(m->arena, sizeof *d);
        d->name = arena_printf(m->arena, "__fxplan_%s", plan->program);
        char *text = fxplan_to_text(plan);
        d->bytes = arena_strdup(m->arena, text ? text : "");
        d->len = strlen(d->bytes);
        free(text);
        ptrvec_push(m->arena, &m->data, d);
    }
    return m->programs.len;
}

