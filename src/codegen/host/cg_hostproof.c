/* cg_hostproof.c - host: bounds checks proved once per block.
 *
 * A kernel's access p[i] to a Ptr parameter, or a[i, j] to a static array,
 * is checked at every work-item (cg_memory.c): a compare, a cold call, and,
 * because the call may read the work-item's ctx, a loop LLVM cannot
 * vectorize. Most indices are affine in the work-item id: i = block_idx.x *
 * block_dim.x + thread_idx.x, with factors the same for the whole block. An
 * affine function takes its least and greatest value over the block's box
 * of thread ids at corners of the box, so evaluating the index at the
 * corners (exactly, in 128 bits, every intermediate checked against its
 * type's range, so that no work-item's arithmetic wraps) proves every
 * work-item's access in bounds, once per block, before any work-item runs.
 *
 * The block then runs one of two versions of the kernel: when every proof
 * holds, the body generated again with those checks left out (the proved
 * accesses cannot fail, whatever path a work-item takes); otherwise the
 * body with every check, which reports the first bad access exactly as
 * before. The proof covers accesses a work-item may not reach (under
 * `if i < n`), so a block that straddles the end of a buffer takes the
 * checked version. A kernel without barriers gets both as work-item loops
 * in K__fxblock (cg_hostblock.c); a kernel run as regions between its
 * barriers (cg_hostregion.c) gets its whole region function twice, and
 * K__fxblock calls one of them.
 *
 * What is affine here: integer constants and scalar parameters, block_idx,
 * block_dim, grid_dim and thread_idx, the variable of a range loop around
 * the access (below), + and -, * with at most one factor that varies (with
 * thread_idx or a loop variable), and integer conversions, all at most 64
 * bits wide. Anything else (a variable, a division, a load) leaves the
 * access checked at every work-item in both versions, as are accesses in
 * fns and through derived Ptrs, and dynamic shared arrays.
 *
 * A range loop's variable: `for i in range(start, stop, step)` with start
 * and stop affine in the thread ids, and a step of a sign known at compile
 * time or affine (its sign then checked with the proof). Inside the body i
 * lies in [start, stop - 1] (a positive step; (stop, start] for a negative
 * one) for every work-item, so over the block in [least start, greatest
 * stop - 1], both taken at the corners of the thread ids: one more
 * dimension of the box, whose corners are those two values. The box holds
 * more than the work-items reach (a work-item with a late start, a last
 * value that the step skips), so a proof may fail that a finer one would
 * not, and the block then takes the checked version. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include <stdint.h>
#include "abi/fxhost.h"

enum { PROOF_MAX_NODES = 64 };   /* of one index expression: beyond, not worth a proof */
enum { PROOF_MAX_VARS = 3 };     /* loop variables one access may depend on (2^(3 + 3) corners at most) */
enum { PROOF_MAX_LOOPS = 16 };   /* range loops nested around an access that are tracked */

/* A range loop's variable, as sema builds the loop (sema/stmt.c,
 * range_loop): inside the body every load of `slot` is a value from
 * start towards stop. sign: the step's, or 0 when only the run time knows
 * it (the proof then requires step > 0). */
typedef struct RangeVar {
    const FxInst *slot;
    FxInst *start, *stop, *step;
    int sign;
    unsigned start_dims, stop_dims;   /* the thread ids start and stop depend on */
} RangeVar;

/* One access to prove: a Ptr parameter's (array NULL, one index below
 * the buffer's length) or a static array's (each index below its limit).
 * dims bit d < 3: an index depends on thread_idx[d]; bit 3 + k: on
 * vars[k]. */
typedef struct ProvedAccess {
    const FxInst *array;
    int param;
    FxInst **index;
    int nidx;
    const int64_t *limit;   /* array: each index's exclusive bound */
    unsigned dims;
    const RangeVar *vars[PROOF_MAX_VARS];
    int nvars;
} ProvedAccess;

struct CgProof {
    ProvedAccess *items;
    int n, cap;
};

/* What affine() may use: the range loops around the access, innermost
 * last, and the loop variables the index uses so far. */
typedef struct AffineScope {
    const FxFunc *f;
    const RangeVar *const *loops;
    int nloops;
    const RangeVar **used;
    int *nused;
    int budget;
} AffineScope;

static bool int_type_fits(const Type *t)
{
    if (t->kind != TY_SCALAR || t->scalar == SC_BOOLEAN || !type_is_int(t->scalar))
        return false;
    return type_info(t->scalar)->width <= 64;
}

/* The bit of loop variable `slot` in a's dims (adding it to the used
 * ones), or 0 when slot is not a tracked loop's variable. */
static unsigned loop_var_bit(AffineScope *a, const FxInst *slot)
{
    for (int k = a->nloops - 1; k >= 0; k--) {
        if (a->loops[k]->slot != slot)
            continue;
        for (int u = 0; u < *a->nused; u++)
            if (a->used[u] == a->loops[k])
                return 1u << (3 + u);
        if (*a->nused == PROOF_MAX_VARS)
            return 0;
        a->used[*a->nused] = a->loops[k];
        return 1u << (3 + (*a->nused)++);
    }
    return 0;
}

/* Whether v is affine in the thread ids and loop variables (within the
 * node budget); *dims gets what it depends on. */
static bool affine(AffineScope *a, FxInst *v, unsigned *dims)
{
    if (--a->budget < 0 || !int_type_fits(v->type))
        return false;
    unsigned l = 0, r = 0;
    switch (v->op) {
    case FX_CONST:
        /* an unsigned constant of 2^63 or more is no signed 64-bit value */
        return type_info(v->type->scalar)->is_signed || !(v->cval.lo >> 63);
    case FX_PARAM:
        return v->param_index >= 0 && v->param_index < a->f->nparams;
    case FX_SPECIAL:
        if (v->sub == FXS_THREAD_IDX && v->dim >= 0 && v->dim < 3)
            *dims |= 1u << v->dim;
        return v->sub != FXS_LANE_ID && v->dim >= 0 && v->dim < 3;
    case FX_LOAD:
        l = v->nops == 1 ? loop_var_bit(a, v->ops[0]) : 0;
        *dims |= l;
        return l != 0;
    case FX_CAST:
        return int_type_fits(v->ops[0]->type) && affine(a, v->ops[0], dims);
    case FX_BINOP:
        if (v->sub != FXB_ADD && v->sub != FXB_SUB && v->sub != FXB_MUL)
            return false;
        if (!affine(a, v->ops[0], &l) || !affine(a, v->ops[1], &r))
            return false;
        if (v->sub == FXB_MUL && l && r)
            return false;   /* thread_idx * thread_idx is not affine */
        *dims |= l | r;
        return true;
    default:
        return false;
    }
}

/* ---- range loops ---- */

/* The value stored into slot last before `at` in its block. */
static FxInst *stored_before(const FxInst *at, const FxInst *slot)
{
    for (const FxInst *p = at->prev; p; p = p->prev)
        if (p->op == FX_STORE && p->nops == 2 && p->ops[0] == slot)
            return p->ops[1];
    return NULL;
}

/* x ^ flip: x */
static FxInst *unflipped(FxInst *v, const FxInst *flip)
{
    return v->op == FX_BINOP && v->sub == FXB_XOR && v->ops[1] == flip ? v->ops[0] : NULL;
}

/* The step's sign from sema's flip (0 for a positive step or an unsigned
 * type, -1 for a negative one, step >> (width - 1) when the run time
 * decides): +1, -1, or 0. */
static int flip_sign(const FxInst *flip)
{
    if (flip->op != FX_CONST)
        return 0;
    return flip->cval.lo == 0 ? 1 : -1;
}

/* Loop `loop` as sema's range loop: its variable's slot, start, stop and
 * step (the step block stores old + step {last} into the slot `old` was
 * loaded from; the loop runs while a flag holds whose first value is
 * start ^ flip < stop ^ flip, and'ed with step != 0 for a run-time
 * step). False for any other loop. */
static bool range_var(const FxInst *loop, RangeVar *v)
{
    if (loop->op != FX_LOOP || loop->nblocks < 3 || loop->nops < 1)
        return false;
    FxInst *next = NULL;
    for (const FxInst *s = loop->blocks[2].first; s && !next; s = s->next)
        if (s->op == FX_STORE && s->nops == 2 && s->ops[1]->op == FX_BINOP && s->ops[1]->sub == FXB_ADD &&
            (s->ops[1]->nowrap & FXNW_LAST))
            next = s->ops[1];
    const FxInst *flag = loop->ops[0];
    if (!next || next->ops[0]->op != FX_LOAD || next->ops[0]->nops != 1 || flag->op != FX_LOAD ||
        flag->nops != 1)
        return false;
    v->slot = next->ops[0]->ops[0];
    v->step = next->ops[1];
    v->start = stored_before(loop, v->slot);
    FxInst *live = stored_before(loop, flag->ops[0]);
    if (!v->start || !live)
        return false;
    if (live->op == FX_BINOP && live->sub == FXB_AND)
        live = live->ops[1];
    if (live->op != FX_CMP || live->sub != FXC_LT || live->ops[0]->op != FX_BINOP ||
        live->ops[0]->sub != FXB_XOR)
        return false;
    const FxInst *flip = live->ops[0]->ops[1];
    v->stop = unflipped(live->ops[1], flip);
    v->sign = flip_sign(flip);
    return v->stop && unflipped(live->ops[0], flip) == v->start;
}

/* v is a range loop whose start, stop and step are affine in the thread
 * ids alone, and the step uniform. */
static bool trackable(const FxFunc *f, RangeVar *v)
{
    const RangeVar *none[1];
    int nused = 0;
    unsigned step_dims = 0;
    AffineScope a = { f, NULL, 0, none, &nused, PROOF_MAX_NODES };
    v->start_dims = v->stop_dims = 0;
    if (!affine(&a, v->start, &v->start_dims) || !affine(&a, v->stop, &v->stop_dims))
        return false;
    return v->sign != 0 || (affine(&a, v->step, &step_dims) && step_dims == 0);
}

static bool same_access(const ProvedAccess *a, const FxInst *array, int param, FxInst *const *index, int nidx)
{
    if (a->array != array || a->param != param || a->nidx != nidx)
        return false;
    for (int k = 0; k < nidx; k++)
        if (a->index[k] != index[k])
            return false;
    return true;
}

static void push_access(CgCtx *c, CgProof *p, ProvedAccess a)
{
    for (int k = 0; k < p->n; k++)
        if (same_access(&p->items[k], a.array, a.param, a.index, a.nidx))
            return;   /* loaded and stored: one proof */
    if (p->n == p->cap) {
        int cap = p->cap ? 2 * p->cap : 8;
        ProvedAccess *items = arena_alloc(c->fm->arena, sizeof *items * (size_t)cap);
        for (int k = 0; k < p->n; k++)
            items[k] = p->items[k];
        p->items = items;
        p->cap = cap;
    }
    p->items[p->n++] = a;
}

static bool all_affine(const FxFunc *f, const RangeVar *const *loops, int nloops, ProvedAccess *acc)
{
    int nused = 0;
    for (int k = 0; k < acc->nidx; k++) {
        AffineScope a = { f, loops, nloops, acc->vars, &nused, PROOF_MAX_NODES };
        if (!affine(&a, acc->index[k], &acc->dims))
            return false;
    }
    acc->nvars = nused;
    return true;
}

/* The exclusive bound of each of nidx indices into static array type t, as
 * cg_memory.c checks them: one per dimension, or one linear index. */
static const int64_t *array_limits(CgCtx *c, const Type *t, int nidx)
{
    int64_t *limit = arena_alloc(c->fm->arena, sizeof *limit * (size_t)nidx);
    if (nidx == t->ndims) {
        for (int k = 0; k < nidx; k++)
            limit[k] = t->dims[k];
        return limit;
    }
    limit[0] = 1;
    for (int k = 0; k < t->ndims; k++)
        limit[0] *= t->dims[k];
    return limit;
}

/* The range loops around the statements being collected. */
typedef struct Loops {
    const RangeVar *var[PROOF_MAX_LOOPS];
    int n;
} Loops;

static void add_access(CgCtx *c, CgProof *p, const FxFunc *f, const Loops *loops, FxInst *base, FxInst **index,
                       int nidx)
{
    ProvedAccess a = { .array = NULL, .param = -1, .index = index, .nidx = nidx };
    if (base->op == FX_PARAM && base->type->kind == TY_PTR && nidx == 1) {
        if (base->param_index < 0 || base->param_index >= f->nparams)
            return;
        a.param = base->param_index;
    } else if (base->op == FX_ALLOCA && base->type->kind == TY_ARRAY && !type_is_dyn_array(base->type) &&
               (nidx == base->type->ndims || nidx == 1)) {
        a.array = base;
        a.limit = array_limits(c, base->type, nidx);
    } else {
        return;
    }
    if (all_affine(f, loops->var, loops->n, &a))
        push_access(c, p, a);
}

static void collect(CgCtx *c, CgProof *p, const FxFunc *f, Loops *loops, FxBlock *b);

/* A loop's blocks; a range loop's body with its variable tracked. */
static void collect_loop(CgCtx *c, CgProof *p, const FxFunc *f, Loops *loops, FxInst *i)
{
    RangeVar v;
    RangeVar *tracked = NULL;
    if (loops->n < PROOF_MAX_LOOPS && range_var(i, &v) && trackable(f, &v)) {
        tracked = arena_alloc(c->fm->arena, sizeof *tracked);
        *tracked = v;
    }
    for (int k = 0; k < i->nblocks; k++) {
        bool body = k == 1 && tracked;
        if (body)
            loops->var[loops->n++] = tracked;
        collect(c, p, f, loops, &i->blocks[k]);
        if (body)
            loops->n--;
    }
}

static void collect(CgCtx *c, CgProof *p, const FxFunc *f, Loops *loops, FxBlock *b)
{
    for (FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_LOAD && i->nops >= 2)
            add_access(c, p, f, loops, i->ops[0], i->ops + 1, i->nops - 1);
        else if (i->op == FX_STORE && i->nops >= 3)
            add_access(c, p, f, loops, i->ops[0], i->ops + 2, i->nops - 2);
        else if (i->op == FX_ATOMIC)
            add_access(c, p, f, loops, i->ops[0], i->ops + 1, 1);
        if (i->op == FX_LOOP) {
            collect_loop(c, p, f, loops, i);
            continue;
        }
        for (int k = 0; k < i->nblocks; k++)
            collect(c, p, f, loops, &i->blocks[k]);
    }
}

CgProof *cg_proof_plan(CgCtx *c, CgFunc *cf)
{
    if (c->dib)
        return NULL;   /* -g: one body per kernel, so that the lines map once */
    CgProof *p = arena_alloc(c->fm->arena, sizeof *p);
    *p = (CgProof){ 0 };
    Loops loops = { .n = 0 };
    collect(c, p, cf->f, &loops, &cf->f->body);
    return p->n ? p : NULL;
}

bool cg_proof_covers(const CgCtx *c, const FxInst *base, FxInst *const *index, int nidx)
{
    const CgProof *p = c->proved;
    if (!p)
        return false;
    const FxInst *array = base->op == FX_ALLOCA ? base : NULL;
    int param = base->op == FX_PARAM && !array ? base->param_index : -1;
    if (!array && param < 0)
        return false;
    for (int k = 0; k < p->n; k++)
        if (same_access(&p->items[k], array, param, index, nidx))
            return true;
    return false;
}

/* ---- the proof, in the block's entry ---- */

/* One corner's evaluation: exact values, and whether all stayed in range. */
typedef struct Corner {
    LLVMValueRef tid[3];     /* i128 thread ids at this corner */
    const ProvedAccess *access;            /* whose loop variables lv holds (NULL: none) */
    LLVMValueRef lv[PROOF_MAX_VARS];       /* i128 values of its loop variables */
    LLVMValueRef *args;      /* the kernel's unpacked arguments */
    LLVMValueRef ctx;        /* the runtime's FxHostCtx */
    LLVMValueRef ok;         /* i1 */
    CgMap memo;              /* FxInst* -> i128 value */
} Corner;

/* Exact values are i128: every operand is within its type's 64 bits
 * (require_fits), so a sum, difference or product of two is exact. */
static LLVMTypeRef wide_type(CgCtx *c)
{
    return LLVMIntTypeInContext(c->C, 128);
}

/* The i128 constant of a value in [-2^64, 2^64). */
static LLVMValueRef wide_const(CgCtx *c, unsigned long long lo, bool negative)
{
    uint64_t w[2] = { lo, negative ? ~0ULL : 0 };
    return LLVMConstIntOfArbitraryPrecision(wide_type(c), 2, w);
}

/* v within the range of its FXIR integer type t (at most 64 bits). */
static void require_fits(CgCtx *c, Corner *k, LLVMValueRef v, const Type *t)
{
    const ScalarInfo *si = type_info(t->scalar);
    int w = si->width;
    LLVMValueRef lo, hi;
    if (si->is_signed) {
        lo = wide_const(c, (unsigned long long)-1 << (w - 1), true);
        hi = wide_const(c, ~0ULL >> (65 - w), false);
    } else {
        lo = wide_const(c, 0, false);
        hi = wide_const(c, ~0ULL >> (64 - w), false);
    }
    LLVMValueRef in = LLVMBuildAnd(c->B, LLVMBuildICmp(c->B, LLVMIntSGE, v, lo, ""),
                                   LLVMBuildICmp(c->B, LLVMIntSLE, v, hi, ""), "");
    k->ok = LLVMBuildAnd(c->B, k->ok, in, "");
}

static LLVMValueRef ctx_wide(CgCtx *c, Corner *k, int field, int dim)
{
    LLVMValueRef saved = c->hostctx;
    c->hostctx = k->ctx;
    LLVMValueRef at = cg_hostctx_field(c, field, dim);
    c->hostctx = saved;
    LLVMValueRef v = LLVMBuildLoad2(c->B, LLVMInt32TypeInContext(c->C), at, "");
    LLVMSetAlignment(v, 4);
    return LLVMBuildSExt(c->B, v, wide_type(c), "");
}

static LLVMValueRef exact(CgCtx *c, Corner *k, FxInst *v);

static LLVMValueRef exact_uncached(CgCtx *c, Corner *k, FxInst *v)
{
    LLVMTypeRef wide = wide_type(c);
    bool is_signed = type_info(v->type->scalar)->is_signed;
    switch (v->op) {
    case FX_CONST: {   /* cval: two's complement, sign-extended for signed types */
        uint64_t w[2] = { v->cval.lo, is_signed && (v->cval.lo >> 63) ? ~0ULL : 0 };
        return LLVMConstIntOfArbitraryPrecision(wide, 2, w);
    }
    case FX_PARAM: {
        LLVMValueRef a = k->args[v->param_index];
        return is_signed ? LLVMBuildSExt(c->B, a, wide, "") : LLVMBuildZExt(c->B, a, wide, "");
    }
    case FX_SPECIAL:
        if (v->sub == FXS_THREAD_IDX)
            return k->tid[v->dim];
        return ctx_wide(c, k, v->sub == FXS_BLOCK_IDX ? FX_HOSTCTX_block_idx
                             : v->sub == FXS_BLOCK_DIM ? FX_HOSTCTX_block_dim : FX_HOSTCTX_grid_dim, v->dim);
    case FX_LOAD:   /* a loop variable (affine() admits no other load) */
        for (int x = 0; k->access && x < k->access->nvars; x++)
            if (k->access->vars[x]->slot == v->ops[0])
                return k->lv[x];
        return LLVMConstNull(wide);   /* unreachable: affine() found it among the vars */
    case FX_CAST:
        return exact(c, k, v->ops[0]);   /* in range of the target type: unchanged */
    default: {
        LLVMValueRef a = exact(c, k, v->ops[0]), b = exact(c, k, v->ops[1]);
        return v->sub == FXB_ADD ? LLVMBuildAdd(c->B, a, b, "") : v->sub == FXB_SUB ? LLVMBuildSub(c->B, a, b, "")
                                 : LLVMBuildMul(c->B, a, b, "");
    }
    }
}

/* v's exact value at this corner; k->ok turns false where it leaves v's
 * type (the work-items' arithmetic would have wrapped). */
static LLVMValueRef exact(CgCtx *c, Corner *k, FxInst *v)
{
    LLVMValueRef known = cg_map_get(&k->memo, v);
    if (known)
        return known;
    LLVMValueRef x = exact_uncached(c, k, v);
    require_fits(c, k, x, v->type);
    cg_map_put(&k->memo, v, x);
    return x;
}

/* The exclusive bound of index k of access a, as an i128: a Ptr's length
 * from the launch's table of bounds, a static array's dimension. */
static LLVMValueRef access_bound(CgCtx *c, const ProvedAccess *a, int k, LLVMValueRef bounds)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->C);
    if (a->array)
        return wide_const(c, (unsigned long long)a->limit[k], false);
    LLVMValueRef slot = LLVMConstInt(i64, (unsigned long long)a->param, 0);
    LLVMValueRef bound = LLVMBuildLoad2(c->B, i64, LLVMBuildGEP2(c->B, i64, bounds, &slot, 1, ""), "bound");
    return LLVMBuildZExt(c->B, bound, wide_type(c), "");
}

static LLVMValueRef wide_min(CgCtx *c, LLVMValueRef a, LLVMValueRef b, bool least)
{
    if (!a)
        return b;
    return LLVMBuildSelect(c->B, LLVMBuildICmp(c->B, least ? LLVMIntSLT : LLVMIntSGT, a, b, ""), a, b, "");
}

/* The least (or greatest) exact value of v, which depends on the thread
 * ids in `dims` only, over the block: at the corners. */
static LLVMValueRef extreme(CgCtx *c, Corner *proto, FxInst *v, unsigned dims, const LLVMValueRef last[3],
                            bool least)
{
    LLVMValueRef best = NULL;
    for (unsigned corner = 0; corner < 8; corner++) {
        if (corner & ~dims)
            continue;
        Corner k = { .args = proto->args, .ctx = proto->ctx, .ok = proto->ok };
        for (int d = 0; d < 3; d++)
            k.tid[d] = corner >> d & 1 ? last[d] : LLVMConstNull(wide_type(c));
        best = wide_min(c, best, exact(c, &k, v), least);
        cg_map_free(&k.memo);
        proto->ok = k.ok;
    }
    return best;
}

/* The exact value of uniform v (it depends on no thread id). */
static LLVMValueRef uniform_value(CgCtx *c, Corner *proto, FxInst *v)
{
    Corner k = { .args = proto->args, .ctx = proto->ctx, .ok = proto->ok };
    for (int d = 0; d < 3; d++)
        k.tid[d] = LLVMConstNull(wide_type(c));
    LLVMValueRef x = exact(c, &k, v);
    cg_map_free(&k.memo);
    proto->ok = k.ok;
    return x;
}

/* from + ((to - from) / mag) * mag, toward `to` by whole steps of mag > 0
 * from `from` (to >= from; mag is 1 where it is not positive: the proof
 * fails then anyway). In 64 bits: from and to are values of a type of at
 * most 32 bits, so the difference fits, and an i128 division would need a
 * runtime function the JIT may not find. */
static LLVMValueRef last_step(CgCtx *c, LLVMValueRef from, LLVMValueRef to, LLVMValueRef mag, bool up)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->C), wide = wide_type(c);
    LLVMValueRef positive = LLVMBuildICmp(c->B, LLVMIntSGT, mag, LLVMConstNull(wide), "");
    mag = LLVMBuildSelect(c->B, positive, mag, wide_const(c, 1, false), "");
    LLVMValueRef span = up ? LLVMBuildSub(c->B, to, from, "") : LLVMBuildSub(c->B, from, to, "");
    LLVMValueRef q = LLVMBuildSDiv(c->B, LLVMBuildTrunc(c->B, span, i64, ""), LLVMBuildTrunc(c->B, mag, i64, ""), "");
    LLVMValueRef move = LLVMBuildMul(c->B, LLVMBuildSExt(c->B, q, wide, ""), mag, "");
    return up ? LLVMBuildAdd(c->B, from, move, "") : LLVMBuildSub(c->B, from, move, "");
}

/* [*lo, *hi]: every value loop variable v takes in the block (module
 * comment). A run-time step must be positive for it. With a uniform start
 * of at most 32 bits, the far end is the last value the steps reach (a
 * tiled loop `for k0 in range(0, K, 16)` ends at K - 16, not K - 1). */
static void loop_var_range(CgCtx *c, Corner *proto, const RangeVar *v, const LLVMValueRef last[3],
                           LLVMValueRef *lo, LLVMValueRef *hi)
{
    LLVMValueRef one = wide_const(c, 1, false);
    LLVMValueRef step = NULL;
    if (v->sign == 0) {
        step = uniform_value(c, proto, v->step);
        proto->ok = LLVMBuildAnd(c->B, proto->ok,
                                 LLVMBuildICmp(c->B, LLVMIntSGT, step, LLVMConstNull(wide_type(c)), ""), "");
    }
    bool whole_steps = v->start_dims == 0 && type_info(v->start->type->scalar)->width <= 32;
    if (whole_steps && !step)
        step = uniform_value(c, proto, v->step);
    if (v->sign >= 0) {
        *lo = extreme(c, proto, v->start, v->start_dims, last, true);
        *hi = LLVMBuildSub(c->B, extreme(c, proto, v->stop, v->stop_dims, last, false), one, "");
        if (whole_steps)
            *hi = last_step(c, *lo, *hi, step, true);
    } else {
        *lo = LLVMBuildAdd(c->B, extreme(c, proto, v->stop, v->stop_dims, last, true), one, "");
        *hi = extreme(c, proto, v->start, v->start_dims, last, false);
        if (whole_steps)
            *lo = last_step(c, *hi, *lo, LLVMBuildNeg(c->B, step, ""), false);
    }
}

/* 0 <= index < bound for each index of a, at every corner of the box of
 * the thread ids and loop variables the indices depend on. */
static LLVMValueRef prove_access(CgCtx *c, const ProvedAccess *a, LLVMValueRef *args, LLVMValueRef ctx,
                                 LLVMValueRef bounds, const LLVMValueRef last[3])
{
    LLVMTypeRef wide = wide_type(c);
    LLVMValueRef *bound = arena_alloc(c->fm->arena, sizeof *bound * (size_t)a->nidx);
    for (int i = 0; i < a->nidx; i++)
        bound[i] = access_bound(c, a, i, bounds);
    Corner proto = { .args = args, .ctx = ctx, .ok = LLVMConstInt(LLVMInt1TypeInContext(c->C), 1, 0) };
    LLVMValueRef lo[PROOF_MAX_VARS], hi[PROOF_MAX_VARS];
    for (int x = 0; x < a->nvars; x++)
        loop_var_range(c, &proto, a->vars[x], last, &lo[x], &hi[x]);
    LLVMValueRef all = proto.ok;
    for (unsigned corner = 0; corner < 1u << (3 + a->nvars); corner++) {
        if (corner & ~a->dims)
            continue;   /* a corner along what the indices do not use is another's twin */
        Corner k = { .access = a, .args = args, .ctx = ctx, .ok = all };
        for (int d = 0; d < 3; d++)
            k.tid[d] = corner >> d & 1 ? last[d] : LLVMConstNull(wide);
        for (int x = 0; x < a->nvars; x++)
            k.lv[x] = corner >> (3 + x) & 1 ? hi[x] : lo[x];
        for (int i = 0; i < a->nidx; i++) {
            LLVMValueRef v = exact(c, &k, a->index[i]);
            LLVMValueRef in = LLVMBuildAnd(c->B, LLVMBuildICmp(c->B, LLVMIntSGE, v, LLVMConstNull(wide), ""),
                                           LLVMBuildICmp(c->B, LLVMIntSLT, v, bound[i], ""), "");
            k.ok = LLVMBuildAnd(c->B, k.ok, in, "");
        }
        cg_map_free(&k.memo);
        all = k.ok;
    }
    return all;
}

LLVMValueRef cg_proof_holds(CgCtx *c, const CgProof *p, LLVMValueRef *args, LLVMValueRef ctx)
{
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c->C, 0);
    LLVMValueRef saved = c->hostctx;
    c->hostctx = ctx;
    LLVMValueRef bounds = LLVMBuildLoad2(c->B, ptr, cg_hostctx_field(c, FX_HOSTCTX_bounds, 0), "bounds");
    c->hostctx = saved;
    Corner k = { .ctx = ctx };
    LLVMValueRef last[3];
    for (int d = 0; d < 3; d++)
        last[d] = LLVMBuildSub(c->B, ctx_wide(c, &k, FX_HOSTCTX_block_dim, d), wide_const(c, 1, false), "");
    LLVMValueRef all = LLVMConstInt(LLVMInt1TypeInContext(c->C), 1, 0);
    for (int a = 0; a < p->n; a++)
        all = LLVMBuildAnd(c->B, all, prove_access(c, &p->items[a], args, ctx, bounds, last), "");
    return all;
}

/* The kernel's body again (as regions when it has them), as K's twin
 * fx.kernel.K.proved, with the proved accesses unchecked. */
LLVMValueRef cg_proof_body(CgCtx *c, CgFunc *cf, const CgProof *p)
{
    LLVMValueRef checked = cf->fn;
    const char *name = arena_printf(c->fm->arena, "%s.proved", LLVMGetValueName(checked));
    LLVMValueRef twin = LLVMAddFunction(c->M, name, cf->fnty);
    LLVMSetLinkage(twin, LLVMInternalLinkage);
    cg_fn_attr(c, twin, "nounwind");
    cg_fn_attr(c, twin, "alwaysinline");
    LLVMBuilderRef saved_b = c->B;
    c->B = LLVMCreateBuilderInContext(c->C);
    cf->fn = twin;
    c->proved = p;
    cg_begin_func(c, cf);
    if (cf->regions)
        cg_emit_regions(c, cf);
    else
        cg_emit_body(c, &cf->f->body);
    cg_end_func(c);
    c->proved = NULL;
    cf->fn = checked;
    LLVMDisposeBuilder(c->B);
    c->B = saved_b;
    return twin;
}
