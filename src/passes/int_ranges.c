/* int_ranges.c - the int-ranges pass: which integer add/sub/mul cannot wrap.
 *
 * fx integers wrap (spec §3.4), so codegen may not give LLVM `nsw`/`nuw`
 * unless it is true; without them LLVM cannot move a constant out of a
 * sign-extended 32-bit index, and neighbouring loads stay separate
 * (issue 13). This pass is the one place that decides the flags
 * (FxInst.nowrap, fxir.h); codegen only copies them.
 *
 * Proofs: an interval of the mathematical value of every scalar integer
 * SSA value of 8 to 64 bits, in one walk of each function in program
 * order. What is known: constants; the work-item and block ids and sizes
 * (fxir_special_range: launch bounds, grid limits, wave size); and what add, sub, mul, floor division and modulo by
 * a positive divisor, `&` with a non-negative operand, `>>` of a
 * non-negative value, fx.max/fx.min, select and conversions that keep the
 * value make of them; and a range loop's variable with a static step, which
 * inside the loop never passes its start backwards (the loop stops before
 * its counter wraps): at least start's lower bound for a step > 0, at most
 * its upper bound for a step < 0. Everything else (parameters, loads,
 * values from other slots) is the whole range of its type. An
 * operation whose exact result fits its type gets NSW (signed types) and
 * NUW (when both operands and the result are non-negative and the result
 * fits the unsigned range of the width).
 *
 * Indices: an index into a kernel's Ptr parameter lies in [0, len) or
 * the access is out of bounds (fxrun reports it, the GPU's behaviour is
 * undefined). A signed add whose every use is such an index, with one
 * operand proved non-negative, can wrap only to a negative value, so in
 * every program without an out-of-bounds access it does not wrap: it gets
 * NSW|INDEX, and LLVM may split sext(a + c) into sext(a) + c, the
 * immediate offsets of neighbouring accesses (sgemm's B and C tiles).
 * Only the add that is the index: an add further up the chain may wrap
 * and be brought back into range by a later operand. Parameters only: an
 * index into a Ptr view (p + k) may be negative.
 *
 * The promise: in an @index_nowrap kernel every signed scalar add/sub/mul
 * the proof leaves unflagged gets NSW|PROMISED, except the compiler's own
 * that may wrap by design (FXNW_WRAPS: a range loop's limits and increment); host code checks those at
 * run time (codegen/cg_expr.c), the GPU takes them on trust. */
#include "passes/passes.h"
#include "fxir/types.h"
#include <stdlib.h>

typedef __int128 I128;

typedef struct Range {
    I128 lo, hi;
} Range;

typedef struct Ranges {
    Range *r;           /* by instruction id */
    bool *known;        /* computed yet (a use before its definition in the walk stays unknown) */
    const FxInst **var_start;   /* by slot id: a range loop variable's start, while inside its loop */
    signed char *var_sign;      /* the sign of its static step */
    int n;
    const FxFunc *f;    /* whose specials these are */
    int wave_size;
    bool promise;       /* @index_nowrap */
} Ranges;

/* The scalar integer types the analysis covers: 8 to 64 bits (Int4 and
 * the 128-bit types are left alone). 0 for anything else. */
static int int_width(const Type *t, bool *sgn)
{
    if (!t || t->kind != TY_SCALAR || !type_is_int(t->scalar))
        return 0;
    const ScalarInfo *si = type_info(t->scalar);
    if (si->width < 8 || si->width > 64)
        return 0;
    *sgn = si->is_signed;
    return si->width;
}

static Range type_range(const Type *t)
{
    bool sgn = false;
    int w = int_width(t, &sgn);
    if (!w)
        return (Range){ 0, -1 };   /* empty: not analysed */
    if (sgn)
        return (Range){ -((I128)1 << (w - 1)), ((I128)1 << (w - 1)) - 1 };
    return (Range){ 0, ((I128)1 << w) - 1 };
}

static bool fits(Range r, Range in) { return r.lo >= in.lo && r.hi <= in.hi; }
static bool analysed(Range r) { return r.lo <= r.hi; }

static Range get(const Ranges *rs, const FxInst *v)
{
    if (v && v->id >= 0 && v->id < rs->n && rs->known[v->id])
        return rs->r[v->id];
    return v ? type_range(v->type) : (Range){ 0, -1 };
}

static I128 min2(I128 a, I128 b) { return a < b ? a : b; }
static I128 max2(I128 a, I128 b) { return a > b ? a : b; }

static I128 floor_div(I128 a, I128 b)   /* b > 0 */
{
    I128 q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* The exact interval of a op b; false when a bound does not fit 128 bits. */
static bool exact_arith(int sub, Range a, Range b, Range *out)
{
    if (sub == FXB_ADD) {
        *out = (Range){ a.lo + b.lo, a.hi + b.hi };
        return true;
    }
    if (sub == FXB_SUB) {
        *out = (Range){ a.lo - b.hi, a.hi - b.lo };
        return true;
    }
    I128 p[4];
    I128 x[2] = { a.lo, a.hi }, y[2] = { b.lo, b.hi };
    for (int k = 0; k < 4; k++)
        if (__builtin_mul_overflow(x[k >> 1], y[k & 1], &p[k]))
            return false;
    *out = (Range){ min2(min2(p[0], p[1]), min2(p[2], p[3])), max2(max2(p[0], p[1]), max2(p[2], p[3])) };
    return true;
}

/* add/sub/mul: the flags the operands' ranges prove, and the result's range. */
static Range arith(Ranges *rs, FxInst *i)
{
    Range full = type_range(i->type), a = get(rs, i->ops[0]), b = get(rs, i->ops[1]), e;
    bool sgn = false;
    int w = int_width(i->type, &sgn);
    if (!exact_arith(i->sub, a, b, &e))
        e = (Range){ full.lo - 1, full.hi + 1 };   /* certainly out of range */
    if (sgn && fits(e, full))
        i->nowrap |= FXNW_NSW;
    if (a.lo >= 0 && b.lo >= 0 && fits(e, (Range){ 0, ((I128)1 << w) - 1 }))
        i->nowrap |= FXNW_NUW;
    if (sgn && rs->promise && !(i->nowrap & (FXNW_NSW | FXNW_WRAPS)))
        i->nowrap |= FXNW_NSW | FXNW_PROMISED;
    if (i->nowrap & FXNW_NSW || fits(e, full))
        return (Range){ max2(e.lo, full.lo), min2(e.hi, full.hi) };
    return full;
}

/* floor division and floored modulo by a divisor known to be positive */
static Range divide(const Ranges *rs, const FxInst *i)
{
    Range full = type_range(i->type), a = get(rs, i->ops[0]), d = get(rs, i->ops[1]);
    if (d.lo < 1)
        return full;
    if (i->sub == FXB_MOD) {
        if (a.lo >= 0 && a.hi < d.lo)
            return a;
        return (Range){ 0, a.lo >= 0 ? min2(a.hi, d.hi - 1) : d.hi - 1 };
    }
    /* floor(x / d) is monotone in x, and in d for x of one sign: the corners bound it */
    return (Range){ min2(floor_div(a.lo, d.lo), floor_div(a.lo, d.hi)),
                    max2(floor_div(a.hi, d.lo), floor_div(a.hi, d.hi)) };
}

static Range bitwise(const Ranges *rs, const FxInst *i)
{
    Range full = type_range(i->type), a = get(rs, i->ops[0]), b = get(rs, i->ops[1]);
    bool sgn = false;
    int w = int_width(i->type, &sgn);
    if (i->sub == FXB_AND && (a.lo >= 0 || b.lo >= 0))   /* no bit above the non-negative one's */
        return (Range){ 0, a.lo >= 0 && b.lo >= 0 ? min2(a.hi, b.hi) : a.lo >= 0 ? a.hi : b.hi };
    if (i->sub == FXB_SHR && a.lo >= 0 && b.lo >= 0 && b.hi < w)
        return (Range){ a.lo >> (int)b.hi, a.hi >> (int)b.lo };
    return full;
}

static Range binop(Ranges *rs, FxInst *i)
{
    switch (i->sub) {
    case FXB_ADD: case FXB_SUB: case FXB_MUL: return arith(rs, i);
    case FXB_FLOORDIV: case FXB_MOD: return divide(rs, i);
    case FXB_AND: case FXB_SHR: return bitwise(rs, i);
    default: return type_range(i->type);
    }
}

static Range special(const Ranges *rs, const FxInst *i)
{
    int64_t lo, hi;
    fxir_special_range(rs->f, i, rs->wave_size, &lo, &hi);
    return (Range){ lo, hi };
}

static Range constant(const FxInst *i)
{
    bool sgn = false;
    int w = int_width(i->type, &sgn);
    if (!w)
        return (Range){ 0, -1 };
    uint64_t bits = w == 64 ? i->cval.lo : i->cval.lo & ((UINT64_C(1) << w) - 1);
    I128 v = (I128)bits;
    if (sgn && (bits >> (w - 1)) & 1)
        v -= (I128)1 << w;
    return (Range){ v, v };
}

/* A conversion or reinterpretation keeps a value that fits the new type. */
static Range convert(const Ranges *rs, const FxInst *i)
{
    Range full = type_range(i->type), a = get(rs, i->ops[0]);
    if (i->ops[0]->type && i->ops[0]->type->kind == TY_SCALAR && i->ops[0]->type->scalar == SC_BOOLEAN)
        a = (Range){ 0, 1 };
    return analysed(a) && fits(a, full) ? a : full;
}

static Range minmax(const Ranges *rs, const FxInst *i)
{
    Range a = get(rs, i->ops[0]), b = get(rs, i->ops[1]);
    if (i->sub == FXMM_MAX)
        return (Range){ max2(a.lo, b.lo), max2(a.hi, b.hi) };
    if (i->sub == FXMM_MIN)
        return (Range){ min2(a.lo, b.lo), min2(a.hi, b.hi) };
    return type_range(i->type);
}

static Range select_range(const Ranges *rs, const FxInst *i)
{
    Range a = get(rs, i->ops[1]), b = get(rs, i->ops[2]);
    return (Range){ min2(a.lo, b.lo), max2(a.hi, b.hi) };
}

/* A load of a range loop's variable inside its loop. */
static Range loop_variable(const Ranges *rs, const FxInst *i)
{
    Range full = type_range(i->type);
    const FxInst *slot = i->nops == 1 ? i->ops[0] : NULL;
    if (!slot || slot->op != FX_ALLOCA || slot->id < 0 || slot->id >= rs->n || !rs->var_start[slot->id])
        return full;
    Range s = get(rs, rs->var_start[slot->id]);
    return rs->var_sign[slot->id] > 0 ? (Range){ s.lo, full.hi } : (Range){ full.lo, s.hi };
}

static Range compute(Ranges *rs, FxInst *i)
{
    switch (i->op) {
    case FX_LOAD: return loop_variable(rs, i);
    case FX_CONST: return constant(i);
    case FX_SPECIAL: return special(rs, i);
    case FX_BINOP: return binop(rs, i);
    case FX_CAST: case FX_BITCAST: return convert(rs, i);
    case FX_MINMAX: return minmax(rs, i);
    case FX_SELECT: return select_range(rs, i);
    default: return type_range(i->type);
    }
}

/* The slot of a range loop with a static step, as sema builds one: the
 * step block stores old + step {wraps,last} into the slot `old` was
 * loaded from, and the block stored `start` into it before the loop.
 * NULL for any other loop. */
static const FxInst *range_variable(const FxInst *loop, const FxInst **start, int *sign)
{
    if (loop->op != FX_LOOP || loop->nblocks < 3)
        return NULL;
    for (const FxInst *s = loop->blocks[2].first; s; s = s->next) {
        const FxInst *v = s->op == FX_STORE && s->nops == 2 ? s->ops[1] : NULL;
        if (!v || v->op != FX_BINOP || v->sub != FXB_ADD || !(v->nowrap & FXNW_LAST))
            continue;
        const FxInst *slot = s->ops[0], *old = v->ops[0], *step = v->ops[1];
        if (slot->op != FX_ALLOCA || old->op != FX_LOAD || old->ops[0] != slot || step->op != FX_CONST)
            return NULL;
        Range st = constant(step);
        *sign = st.lo > 0 ? 1 : st.lo < 0 ? -1 : 0;
        for (const FxInst *p = loop->prev; p && *sign; p = p->prev)
            if (p->op == FX_STORE && p->nops == 2 && p->ops[0] == slot) {
                *start = p->ops[1];
                return slot;
            }
        return NULL;
    }
    return NULL;
}

static void walk(Ranges *rs, FxBlock *b)
{
    for (FxInst *i = b->first; i; i = i->next) {
        const FxInst *start = NULL;
        int sign = 0;
        const FxInst *var = range_variable(i, &start, &sign);
        bool track = var && var->id >= 0 && var->id < rs->n;
        if (track) {
            rs->var_start[var->id] = start;
            rs->var_sign[var->id] = (signed char)sign;
        }
        for (int k = 0; k < i->nblocks; k++)
            walk(rs, &i->blocks[k]);
        if (track)   /* after the loop the slot holds the wrapped last increment */
            rs->var_start[var->id] = NULL;
        /* from a store into the variable on (the increment, in the step
         * block, which the walk reaches after the body) its loads are not
         * the body's values */
        if (i->op == FX_STORE && i->nops == 2 && i->ops[0]->op == FX_ALLOCA && i->ops[0]->id >= 0 &&
            i->ops[0]->id < rs->n)
            rs->var_start[i->ops[0]->id] = NULL;
        bool sgn;
        if (!int_width(i->type, &sgn))
            continue;
        Range r = compute(rs, i);
        Range full = type_range(i->type);
        rs->r[i->id] = analysed(r) && fits(r, full) ? r : full;
        rs->known[i->id] = true;
    }
}

/* all[id]: every use of a body instruction as an operand; index[id]: its
 * uses as the index of a load, store or atomic through a kernel's Ptr
 * parameter. */
typedef struct Uses {
    int *all, *index;
} Uses;

static bool param_ptr(const FxFunc *f, const FxInst *base)
{
    return f->kind == FXF_KERNEL && base->op == FX_PARAM && base->type && base->type->kind == TY_PTR;
}

/* which operand of i is the index of a Ptr access (-1: none) */
static int ptr_index_operand(const FxInst *i)
{
    switch (i->op) {
    case FX_LOAD: return i->nops == 2 ? 1 : -1;
    case FX_STORE: return i->nops == 3 ? 2 : -1;
    case FX_ATOMIC: return 1;
    default: return -1;
    }
}

static void count_uses(const Ranges *rs, Uses *u, const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        int ix = ptr_index_operand(i);
        bool through_param = ix >= 0 && param_ptr(rs->f, i->ops[0]);
        for (int k = 0; k < i->nops; k++) {
            const FxInst *o = i->ops[k];
            if (!o || o->op != FX_BINOP || o->id < 0 || o->id >= rs->n)
                continue;
            u->all[o->id]++;
            if (through_param && k == ix)
                u->index[o->id]++;
        }
        for (int k = 0; k < i->nblocks; k++)
            count_uses(rs, u, &i->blocks[k]);
    }
}

static void flag_index_adds(const Ranges *rs, const Uses *u, FxBlock *b)
{
    for (FxInst *i = b->first; i; i = i->next) {
        for (int k = 0; k < i->nblocks; k++)
            flag_index_adds(rs, u, &i->blocks[k]);
        bool sgn = false;
        if (i->op != FX_BINOP || i->sub != FXB_ADD || !int_width(i->type, &sgn) || !sgn)
            continue;
        if ((i->nowrap & (FXNW_NSW | FXNW_WRAPS)) || u->index[i->id] == 0 || u->index[i->id] != u->all[i->id])
            continue;
        if (get(rs, i->ops[0]).lo >= 0 || get(rs, i->ops[1]).lo >= 0)
            i->nowrap |= FXNW_NSW | FXNW_INDEX;
    }
}

static void index_adds(const Ranges *rs, FxFunc *f)
{
    Uses u = { calloc((size_t)rs->n + 1, sizeof(int)), calloc((size_t)rs->n + 1, sizeof(int)) };
    if (!u.all || !u.index)
        abort();
    count_uses(rs, &u, &f->body);
    flag_index_adds(rs, &u, &f->body);
    free(u.all);
    free(u.index);
}

static void number(FxBlock *b, int *n)
{
    for (FxInst *i = b->first; i; i = i->next) {
        i->id = (*n)++;
        for (int k = 0; k < i->nblocks; k++)
            number(&i->blocks[k], n);
    }
}

/* The pass decides NSW, NUW and PROMISED afresh; WRAPS and LAST are sema's. */
static void clear_flags(FxBlock *b)
{
    for (FxInst *i = b->first; i; i = i->next) {
        i->nowrap &= FXNW_WRAPS | FXNW_LAST;
        for (int k = 0; k < i->nblocks; k++)
            clear_flags(&i->blocks[k]);
    }
}

static void analyse(FxFunc *f, int wave_size)
{
    Ranges rs = { 0 };
    number(&f->body, &rs.n);
    rs.r = calloc((size_t)rs.n + 1, sizeof *rs.r);
    rs.known = calloc((size_t)rs.n + 1, sizeof *rs.known);
    rs.var_start = calloc((size_t)rs.n + 1, sizeof *rs.var_start);
    rs.var_sign = calloc((size_t)rs.n + 1, sizeof *rs.var_sign);
    if (!rs.r || !rs.known || !rs.var_start || !rs.var_sign)
        abort();
    rs.f = f;
    rs.wave_size = wave_size;
    rs.promise = f->kind == FXF_KERNEL && f->index_nowrap;
    clear_flags(&f->body);   /* the pass decides alone: flags read from text are recomputed */
    walk(&rs, &f->body);
    index_adds(&rs, f);
    free(rs.r);
    free(rs.known);
    free(rs.var_start);
    free(rs.var_sign);
}

int pass_int_ranges(FxModule *m, const PassOptions *o)
{
    /* the host emulates waves as lanes of the target's size; 64 covers every target */
    int wave = o && o->target && o->target->wave_size > 0 ? o->target->wave_size : 64;
    int n = 0;
    for (int k = 0; k < m->funcs.len; k++, n++)
        analyse(m->funcs.items[k], wave);
    return n;
}
