/* builder.c - creating FXIR instructions at an insertion point. */
#include "fxir/builder.h"
#include <string.h>

void fxb_init(FxBuilder *b, Arena *arena, FxBlock *block, Loc loc)
{
    b->arena = arena;
    b->block = block;
    b->before = NULL;
    b->loc = loc;
    b->placed = 0;
}

void fxb_at_end(FxBuilder *b, FxBlock *block)
{
    b->block = block;
    b->before = NULL;
}

void fxb_before(FxBuilder *b, FxInst *inst)
{
    b->block = inst->parent;
    b->before = inst;
}

void fxb_after(FxBuilder *b, FxInst *inst)
{
    b->block = inst->parent;
    b->before = inst->next;
}

static FxInst *place(FxBuilder *b, FxInst *i)
{
    b->placed++;
    if (b->before)
        fxir_insert_before(b->before, i);
    else
        fxir_append(b->block, i);
    return i;
}

FxFunc *fxb_func(FxBuilder *b, FxModule *m, const char *name, FxFuncKind kind, int nparams,
                 const Type *ret, Loc loc)
{
    FxFunc *f = fxir_func_new(m, name, kind, nparams, ret ? ret : type_simple(TY_VOID), loc);
    fxb_init(b, m->arena, &f->body, loc);
    return f;
}

FxInst *fxb_param(FxBuilder *b, FxFunc *f, int i, const char *name, const Type *t)
{
    f->params[i] = (FxParam){ name, t, b->loc };
    FxInst *p = fxir_new(b->arena, FX_PARAM, t, 0, b->loc);
    p->param_index = i;
    p->name = name;
    return place(b, p);
}

FxInst *fxb_emitv(FxBuilder *b, FxOpcode op, int sub, const Type *t, int nops, FxInst *const *ops)
{
    FxInst *i = fxir_new(b->arena, op, t, nops, b->loc);
    i->sub = sub;
    for (int k = 0; k < nops; k++)
        i->ops[k] = ops[k];
    return place(b, i);
}

FxInst *fxb_vemit(FxBuilder *b, FxOpcode op, int sub, const Type *t, int nops, va_list ap)
{
    FxInst *i = fxir_new(b->arena, op, t, nops, b->loc);
    i->sub = sub;
    for (int k = 0; k < nops; k++)
        i->ops[k] = va_arg(ap, FxInst *);
    return place(b, i);
}

FxInst *fxb_emit(FxBuilder *b, FxOpcode op, int sub, const Type *t, int nops, ...)
{
    va_list ap;
    va_start(ap, nops);
    FxInst *i = fxb_vemit(b, op, sub, t, nops, ap);
    va_end(ap);
    return i;
}

/* ---- constants ---- */

FxInst *fxb_const(FxBuilder *b, const Type *t, FxConst c)
{
    FxInst *i = fxir_new(b->arena, FX_CONST, t, 0, b->loc);
    i->cval = c;
    return place(b, i);
}

FxInst *fxb_int(FxBuilder *b, const Type *t, int64_t v)
{
    FxConst c = { (uint64_t)v, v < 0 ? ~UINT64_C(0) : 0 };
    return fxb_const(b, t, c);
}

FxInst *fxb_number(FxBuilder *b, ScalarId s, double v)
{
    const FloatFormat *fmt = type_info(s)->fmt;
    if (!fmt)
        return fxb_int(b, type_scalar(s), (int64_t)v);
    FxConst c = { ff_from_double(fmt, v, FF_RNE), 0 };
    return fxb_const(b, type_scalar(s), c);
}

FxInst *fxb_bool(FxBuilder *b, bool v)
{
    FxConst c = { v, 0 };
    return fxb_const(b, type_scalar(SC_BOOLEAN), c);
}

/* ---- arithmetic ---- */

static const Type *bool_like(const Type *t)
{
    return t->kind == TY_VECTOR ? type_vector(SC_BOOLEAN, t->lanes) : type_scalar(SC_BOOLEAN);
}

FxInst *fxb_binop(FxBuilder *b, FxBinop op, FxInst *x, FxInst *y)
{
    return fxb_emit(b, FX_BINOP, op, x->type, 2, x, y);
}

FxInst *fxb_cmp(FxBuilder *b, FxCmp op, FxInst *x, FxInst *y)
{
    return fxb_emit(b, FX_CMP, op, bool_like(x->type), 2, x, y);
}

FxInst *fxb_unop(FxBuilder *b, FxUnop op, FxInst *x)
{
    return fxb_emit(b, FX_UNOP, op, x->type, 1, x);
}

FxInst *fxb_cast(FxBuilder *b, FxInst *x, const Type *t)
{
    if (type_equal(x->type, t))
        return x;
    return fxb_emit(b, FX_CAST, 0, t, 1, x);
}

FxInst *fxb_cast_round(FxBuilder *b, FxInst *x, const Type *t, FfRound rm)
{
    FxInst *i = fxb_emit(b, FX_CAST, 0, t, 1, x);
    i->rounding = rm;
    return i;
}

FxInst *fxb_bitcast(FxBuilder *b, FxInst *x, const Type *t)
{
    return fxb_emit(b, FX_BITCAST, 0, t, 1, x);
}

FxInst *fxb_ptr_cast(FxBuilder *b, FxInst *p, const Type *elem)
{
    const Type *t = type_ptr(b->arena, elem, p->type->is_const);
    return fxb_emit(b, FX_PTR_OFFSET, 0, t, 2, p, fxb_int(b, type_scalar(SC_INT64), 0));
}

FxInst *fxb_ptr_add(FxBuilder *b, FxInst *p, FxInst *k)
{
    return fxb_emit(b, FX_PTR_OFFSET, FXPTR_ANY, p->type, 2, p, k);
}

FxInst *fxb_ptr_add_uniform(FxBuilder *b, FxInst *p, FxInst *k)
{
    return fxb_emit(b, FX_PTR_OFFSET, FXPTR_UNIFORM, p->type, 2, p, k);
}

FxInst *fxb_select(FxBuilder *b, FxInst *cond, FxInst *x, FxInst *y)
{
    return fxb_emit(b, FX_SELECT, 0, x->type, 3, cond, x, y);
}

FxInst *fxb_fma(FxBuilder *b, FxInst *x, FxInst *y, FxInst *z)
{
    return fxb_emit(b, FX_FMA, 0, x->type, 3, x, y, z);
}

FxInst *fxb_math(FxBuilder *b, FxMathFn fn, FxInst *x)
{
    return fxb_emit(b, FX_MATH, fn, x->type, 1, x);
}

FxInst *fxb_minmax(FxBuilder *b, FxMinMax which, FxInst *x, FxInst *y)
{
    return fxb_emit(b, FX_MINMAX, which, x->type, 2, x, y);
}

FxInst *fxb_ceildiv(FxBuilder *b, FxInst *x, FxInst *y)
{
    return fxb_emit(b, FX_CEILDIV, 0, x->type, 2, x, y);
}

FxInst *fxb_special(FxBuilder *b, FxSpecial s, int dim)
{
    FxInst *i = fxb_emit(b, FX_SPECIAL, s, type_scalar(SC_INT32), 0);
    i->dim = dim;
    return i;
}

/* ---- vectors ---- */

FxInst *fxb_splat(FxBuilder *b, FxInst *x, const Type *vt)
{
    return fxb_emit(b, FX_SPLAT, 0, vt, 1, x);
}

FxInst *fxb_extract(FxBuilder *b, FxInst *v, FxInst *lane)
{
    return fxb_emit(b, FX_EXTRACT, 0, type_scalar(v->type->scalar), 2, v, lane);
}

FxInst *fxb_insert(FxBuilder *b, FxInst *v, FxInst *x, FxInst *lane)
{
    return fxb_emit(b, FX_INSERT, 0, v->type, 3, v, x, lane);
}

/* ---- memory ---- */

FxInst *fxb_alloca(FxBuilder *b, const Type *t, FxSpace space, const char *name)
{
    FxInst *i = fxb_emit(b, FX_ALLOCA, 0, t, 0);
    i->space = space;
    i->name = name;
    return i;
}

FxInst *fxb_load(FxBuilder *b, FxInst *base, const Type *t, int nidx, FxInst *const *idx)
{
    FxInst *i = fxir_new(b->arena, FX_LOAD, t, 1 + nidx, b->loc);
    i->ops[0] = base;
    for (int k = 0; k < nidx; k++)
        i->ops[1 + k] = idx[k];
    return place(b, i);
}

FxInst *fxb_store(FxBuilder *b, FxInst *base, FxInst *v, int nidx, FxInst *const *idx)
{
    FxInst *i = fxir_new(b->arena, FX_STORE, type_simple(TY_VOID), 2 + nidx, b->loc);
    i->ops[0] = base;
    i->ops[1] = v;
    for (int k = 0; k < nidx; k++)
        i->ops[2 + k] = idx[k];
    return place(b, i);
}

FxInst *fxb_atomic(FxBuilder *b, FxAtomic op, const Type *t, FxInst *base, FxInst *idx, FxInst *v, FxInst *newv)
{
    if (op == FXA_CAS)
        return fxb_emit(b, FX_ATOMIC, op, t, 4, base, idx, v, newv);
    return fxb_emit(b, FX_ATOMIC, op, t, 3, base, idx, v);
}

FxInst *fxb_barrier(FxBuilder *b)
{
    return fxb_emit(b, FX_BARRIER, FXBAR_ALL, type_simple(TY_VOID), 0);
}

FxInst *fxb_barrier_shared(FxBuilder *b)
{
    return fxb_emit(b, FX_BARRIER, FXBAR_SHARED, type_simple(TY_VOID), 0);
}

FxInst *fxb_mfma(FxBuilder *b, TgtMatrixId id, const Type *t, FxInst *x, FxInst *y, FxInst *acc)
{
    return fxb_emit(b, FX_MFMA, id, t, 3, x, y, acc);
}

FxInst *fxb_wave(FxBuilder *b, FxWaveOp op, FxInst *v, FxInst *lane)
{
    const Type *t = op == FXW_BALLOT ? type_scalar(SC_UINT64) : v->type;
    if (lane)
        return fxb_emit(b, FX_WAVE, op, t, 2, v, lane);
    return fxb_emit(b, FX_WAVE, op, t, 1, v);
}

FxInst *fxb_wave_exchange(FxBuilder *b, FxInst *v)
{
    return fxb_emit(b, FX_WAVE_EXCHANGE, 0, type_ptr(b->arena, v->type, true), 1, v);
}

FxInst *fxb_wave_active(FxBuilder *b)
{
    return fxb_emit(b, FX_WAVE_ACTIVE, 0, type_scalar(SC_UINT64), 0);
}

FxInst *fxb_load_slot(FxBuilder *b, FxInst *slot) { return fxb_load(b, slot, slot->type, 0, NULL); }
void fxb_store_slot(FxBuilder *b, FxInst *slot, FxInst *v) { fxb_store(b, slot, v, 0, NULL); }

FxInst *fxb_extreme(FxBuilder *b, ScalarId s, bool highest)
{
    const ScalarInfo *si = type_info(s);
    if (si->fmt)
        return fxb_number(b, s, highest ? __builtin_inf() : -__builtin_inf());
    BigInt one = big_from_i64(1), v;
    int w = si->width;
    if (si->is_signed)
        v = highest ? big_sub(big_shl(one, (unsigned)w - 1), one) : big_neg(big_shl(one, (unsigned)w - 1));
    else
        v = highest ? big_sub(big_shl(one, (unsigned)w), one) : big_from_i64(0);
    v = big_wrap(v, 128, false);   /* FxConst: 128-bit two's complement */
    FxConst c = { v.w[0], v.w[1] };
    return fxb_const(b, type_scalar(s), c);
}

FxInst *fxb_matrix_position(FxBuilder *b, const TgtOperandLayout *l, int wave_size, FxInst *lane, int e)
{
    const Type *t = lane->type;
    int lane_bits = 0;
    while ((1 << lane_bits) < wave_size)
        lane_bits++;
    FxInst *pos = fxb_int(b, t, 0);
    for (int bit = 0; bit < l->nbits; bit++) {
        int s = l->bit_src[bit];
        if (s < 0)
            continue;
        if (s >= lane_bits) {   /* a bit of e: static */
            if (e >> (s - lane_bits) & 1)
                pos = fxb_binop(b, FXB_OR, pos, fxb_int(b, t, (int64_t)1 << bit));
            continue;
        }
        FxInst *x = fxb_binop(b, FXB_AND, fxb_binop(b, FXB_SHR, lane, fxb_int(b, t, s)), fxb_int(b, t, 1));
        pos = fxb_binop(b, FXB_OR, pos, fxb_binop(b, FXB_SHL, x, fxb_int(b, t, bit)));
    }
    return pos;
}

/* ---- control flow ---- */

static FxInst *structured(FxBuilder *b, FxOpcode op, int nblocks)
{
    FxInst *i = fxir_new(b->arena, op, NULL, 1, b->loc);
    i->nblocks = nblocks;
    i->blocks = arena_alloc(b->arena, sizeof(FxBlock) * (size_t)nblocks);
    for (int k = 0; k < nblocks; k++)
        i->blocks[k].owner = i;
    return place(b, i);
}

FxInst *fxb_if(FxBuilder *b, FxInst *cond)
{
    FxInst *i = structured(b, FX_IF, 2);
    i->ops[0] = cond;
    fxb_at_end(b, &i->blocks[0]);
    return i;
}

void fxb_else(FxBuilder *b, FxInst *if_inst)
{
    fxb_at_end(b, &if_inst->blocks[1]);
}

FxInst *fxb_loop(FxBuilder *b)
{
    FxInst *i = structured(b, FX_LOOP, 3);
    fxb_at_end(b, &i->blocks[0]);
    return i;
}

void fxb_loop_body(FxBuilder *b, FxInst *loop, FxInst *cond)
{
    loop->ops[0] = cond;
    fxb_at_end(b, &loop->blocks[1]);
}

void fxb_loop_step(FxBuilder *b, FxInst *loop)
{
    fxb_at_end(b, &loop->blocks[2]);
}

FxInst *fxb_call(FxBuilder *b, FxFunc *callee, int nargs, FxInst *const *args)
{
    FxInst *i = fxb_emitv(b, FX_CALL, 0, callee->ret, nargs, args);
    i->callee = callee;
    return i;
}

FxInst *fxb_return(FxBuilder *b, FxInst *v)
{
    return v ? fxb_emit(b, FX_RETURN, 0, type_simple(TY_VOID), 1, v)
             : fxb_emit(b, FX_RETURN, 0, type_simple(TY_VOID), 0);
}

FxInst *fxb_counted_loop(FxBuilder *b, const char *name, FxInst *from, FxInst *limit, FxInst *step,
                         FxInst **counter)
{
    FxInst *slot = fxb_alloca(b, from->type, FXSPACE_PRIVATE, name);
    fxb_store_slot(b, slot, from);
    FxInst *loop = fxb_loop(b);
    fxb_loop_body(b, loop, fxb_cmp(b, FXC_LT, fxb_load_slot(b, slot), limit));
    fxb_loop_step(b, loop);
    fxb_store_slot(b, slot, fxb_binop(b, FXB_ADD, fxb_load_slot(b, slot), step));
    fxb_at_end(b, &loop->blocks[1]);
    *counter = fxb_load_slot(b, slot);
    return loop;
}

FxInst *fxb_break(FxBuilder *b)
{
    return fxb_emit(b, FX_BREAK, 0, type_simple(TY_VOID), 0);
}

FxInst *fxb_continue(FxBuilder *b)
{
    return fxb_emit(b, FX_CONTINUE, 0, type_simple(TY_VOID), 0);
}
