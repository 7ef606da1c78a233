/* wave_emulation.c - the host's wave model (docs/waves.md). When code is
 * generated for the host, every operation that needs the other lanes of a
 * wave becomes an exchange (FX_WAVE_EXCHANGE: the active lanes meet, each
 * gets a snapshot of everyone's value) followed by ordinary FXIR that
 * computes this lane's result from the snapshot:
 *   - fx.lane_id(): the linear work-item index modulo the wave size;
 *   - shuffles, readlane, ballot, any/all, the wave reductions, exactly as
 *     docs/waves.md defines them (the AMDGPU lowering computes the same);
 *   - FX_MFMA/WMMA: each lane computes the elements of D it holds, reading
 *     A and B where the vendor's register layout (target/matrix_layouts.c)
 *     places them, accumulating in k order (fma for floats, exact Int32
 *     products for Int8; a Float16 or BFloat16 product is exact in the
 *     Float32 accumulator, so it is an fma of the widened elements; xf32
 *     inputs lose their low 13 significand bits first, and gfx90a's Float16
 *     and BFloat16 instructions flush subnormals).
 * Because the result is plain FXIR, the arithmetic is codegen's own: a wave
 * sum of Float16 rounds exactly as a Float16 add elsewhere does. */
#include "passes/passes.h"
#include "fxir/builder.h"
#include <string.h>

typedef struct WaveEm {
    FxBuilder b;
    int wave;           /* lanes per wave (a power of two) */
    int lane_bits;
    FxInst *lane;       /* this lane's index (Int32), built at each site */
    FxInst *snap;       /* in a matrix helper: the exchanged fragments */
    FxFunc *helpers[TGT_MI_COUNT];   /* the matrix helpers made so far */
    FxFunc **exchanging;             /* the fns done so far that exchange */
    int nexchanging;
    FxForwarding fw;    /* the emulated instructions' results, in this fn */
} WaveEm;

static const Type *i32t(void) { return type_scalar(SC_INT32); }
static FxInst *c32(WaveEm *w, int64_t v) { return fxb_int(&w->b, i32t(), v); }
static FxInst *band(WaveEm *w, FxInst *x, FxInst *y) { return fxb_binop(&w->b, FXB_AND, x, y); }
static FxInst *bor(WaveEm *w, FxInst *x, FxInst *y) { return fxb_binop(&w->b, FXB_OR, x, y); }
static FxInst *shl(WaveEm *w, FxInst *x, int n) { return n ? fxb_binop(&w->b, FXB_SHL, x, c32(w, n)) : x; }
static FxInst *shr(WaveEm *w, FxInst *x, int n) { return n ? fxb_binop(&w->b, FXB_SHR, x, c32(w, n)) : x; }

/* The linear index of the work-item in its block, modulo the wave size:
 * waves are consecutive work-items, x fastest (as on AMDGPU). */
static FxInst *lane_index(WaveEm *w)
{
    FxBuilder *b = &w->b;
    FxInst *x = fxb_special(b, FXS_THREAD_IDX, 0), *y = fxb_special(b, FXS_THREAD_IDX, 1);
    FxInst *z = fxb_special(b, FXS_THREAD_IDX, 2);
    FxInst *dx = fxb_special(b, FXS_BLOCK_DIM, 0), *dy = fxb_special(b, FXS_BLOCK_DIM, 1);
    FxInst *linear = fxb_binop(b, FXB_ADD, x, fxb_binop(b, FXB_MUL, dx, fxb_binop(b, FXB_ADD, y,
                                                                                 fxb_binop(b, FXB_MUL, dy, z))));
    return band(w, linear, c32(w, w->wave - 1));
}

/* Whether lane s (an Int32 in 0..wave-1) is set in the Uint64 mask. */
static FxInst *lane_active(WaveEm *w, FxInst *mask, FxInst *s)
{
    const Type *u64 = type_scalar(SC_UINT64);
    FxInst *bit = fxb_binop(&w->b, FXB_AND, fxb_binop(&w->b, FXB_SHR, mask, fxb_cast(&w->b, s, u64)),
                            fxb_int(&w->b, u64, 1));
    return fxb_cmp(&w->b, FXC_NE, bit, fxb_int(&w->b, u64, 0));
}

/* The lowest set lane of a nonzero mask: the lowest set bit m & -m is an
 * exact power of two 2^k in Float64, whose frexp exponent is k + 1. */
static FxInst *first_lane(WaveEm *w, FxInst *mask)
{
    FxBuilder *b = &w->b;
    FxInst *low = fxb_binop(b, FXB_AND, mask, fxb_binop(b, FXB_SUB, fxb_int(b, mask->type, 0), mask));
    FxInst *e = fxb_emit(b, FX_FREXP_EXP, 0, i32t(), 1, fxb_cast(b, low, type_scalar(SC_FLOAT64)));
    return fxb_binop(b, FXB_SUB, e, c32(w, 1));
}

static FxInst *slot_of(WaveEm *w, FxInst *snap, FxInst *s)
{
    return fxb_load(&w->b, snap, snap->type->elem, 1, &s);
}

/* Lane s's value when 0 <= s < wave and lane s is active, else `own`. */
static FxInst *value_of_lane_or(WaveEm *w, FxInst *snap, FxInst *mask, FxInst *s, FxInst *own)
{
    FxBuilder *b = &w->b;
    FxInst *in_range = fxb_binop(b, FXB_AND, fxb_cmp(b, FXC_GE, s, c32(w, 0)), fxb_cmp(b, FXC_LT, s, c32(w, w->wave)));
    FxInst *safe = fxb_select(b, in_range, s, w->lane);
    FxInst *ok = fxb_binop(b, FXB_AND, in_range, lane_active(w, mask, safe));
    return fxb_select(b, ok, slot_of(w, snap, safe), own);
}

/* The identity of a wave reduction: -0.0 for a float sum (x + -0.0 == x
 * for every x, -0.0 included), 0 for an integer sum, the type's lowest
 * value for max and highest for min. */
static FxInst *wave_identity(WaveEm *w, FxWaveOp op, const Type *t)
{
    ScalarId s = t->scalar;
    FxInst *id;
    if (op == FXW_SUM)
        id = fxb_number(&w->b, s, type_is_float(s) ? -0.0 : 0);
    else
        id = fxb_extreme(&w->b, s, op == FXW_MIN);
    return t->kind == TY_VECTOR ? fxb_splat(&w->b, id, t) : id;
}

static FxInst *wave_combine(WaveEm *w, FxWaveOp op, FxInst *lo, FxInst *hi)
{
    if (op == FXW_SUM)
        return fxb_binop(&w->b, FXB_ADD, lo, hi);
    return fxb_minmax(&w->b, op == FXW_MAX ? FXMM_MAX : FXMM_MIN, lo, hi);
}

/* The pairwise tree in lane order over all lanes, inactive ones the
 * identity: level by level, t[i] = combine(t[i], t[i + s]) for i a multiple
 * of 2s, lower lane first. */
static FxInst *wave_reduce(WaveEm *w, FxWaveOp op, FxInst *snap, FxInst *mask, const Type *t)
{
    FxBuilder *b = &w->b;
    int64_t dims[1] = { w->wave };
    FxInst *tree = fxb_alloca(b, type_array(b->arena, t, 1, dims), FXSPACE_PRIVATE, "tree");
    FxInst *l;
    FxInst *fill = fxb_counted_loop(b, "l", c32(w, 0), c32(w, w->wave), c32(w, 1), &l);
    FxInst *v = fxb_select(b, lane_active(w, mask, l), slot_of(w, snap, l), wave_identity(w, op, t));
    fxb_store(b, tree, v, 1, &l);
    fxb_after(b, fill);
    for (int s = 1; s < w->wave; s *= 2) {
        FxInst *i;
        FxInst *level = fxb_counted_loop(b, "i", c32(w, 0), c32(w, w->wave), c32(w, 2 * s), &i);
        FxInst *j = fxb_binop(b, FXB_ADD, i, c32(w, s));
        FxInst *lo = fxb_load(b, tree, t, 1, &i), *hi = fxb_load(b, tree, t, 1, &j);
        fxb_store(b, tree, wave_combine(w, op, lo, hi), 1, &i);
        fxb_after(b, level);
    }
    FxInst *zero = c32(w, 0);
    return fxb_load(b, tree, t, 1, &zero);
}

/* Bit l of the ballot for every active lane l whose value is true. */
static FxInst *wave_ballot(WaveEm *w, FxInst *snap, FxInst *mask)
{
    FxBuilder *b = &w->b;
    const Type *u64 = type_scalar(SC_UINT64);
    FxInst *acc = fxb_alloca(b, u64, FXSPACE_PRIVATE, "ballot");
    fxb_store_slot(b, acc, fxb_int(b, u64, 0));
    FxInst *l;
    FxInst *loop = fxb_counted_loop(b, "l", c32(w, 0), c32(w, w->wave), c32(w, 1), &l);
    FxInst *bit = fxb_binop(b, FXB_SHL, fxb_cast(b, slot_of(w, snap, l), u64), fxb_cast(b, l, u64));
    fxb_store_slot(b, acc, fxb_binop(b, FXB_OR, fxb_load_slot(b, acc), bit));
    fxb_after(b, loop);
    return fxb_binop(b, FXB_AND, fxb_load_slot(b, acc), mask);
}

static FxInst *floor_mod_wave(WaveEm *w, FxInst *x) { return fxb_binop(&w->b, FXB_MOD, x, c32(w, w->wave)); }

/* readlane: the first active lane's index decides (as v_readlane's uniform
 * operand). A snapshot lasts until the lane's next exchange, so the index
 * is read before the values are exchanged. */
static FxInst *emulate_readlane(WaveEm *w, FxInst *i)
{
    FxInst *isnap = fxb_wave_exchange(&w->b, i->ops[1]);
    FxInst *first = first_lane(w, fxb_wave_active(&w->b));
    FxInst *index = floor_mod_wave(w, slot_of(w, isnap, first));
    FxInst *snap = fxb_wave_exchange(&w->b, i->ops[0]);
    FxInst *mask = fxb_wave_active(&w->b);
    return value_of_lane_or(w, snap, mask, index, slot_of(w, snap, first));
}

/* This lane's result of a wave operation, from the snapshot. */
static FxInst *emulate_wave(WaveEm *w, FxInst *i)
{
    FxBuilder *b = &w->b;
    if (i->sub == FXW_READLANE)
        return emulate_readlane(w, i);
    FxInst *v = i->ops[0];
    FxInst *snap = fxb_wave_exchange(b, v);
    FxInst *mask = fxb_wave_active(b);
    switch ((FxWaveOp)i->sub) {
    case FXW_SHUFFLE:
        return value_of_lane_or(w, snap, mask, floor_mod_wave(w, i->ops[1]), v);
    case FXW_SHUFFLE_XOR:
        return value_of_lane_or(w, snap, mask, fxb_binop(b, FXB_XOR, w->lane, i->ops[1]), v);
    case FXW_SHUFFLE_UP:
        return value_of_lane_or(w, snap, mask, fxb_binop(b, FXB_SUB, w->lane, i->ops[1]), v);
    case FXW_SHUFFLE_DOWN:
        return value_of_lane_or(w, snap, mask, fxb_binop(b, FXB_ADD, w->lane, i->ops[1]), v);
    case FXW_READFIRSTLANE:
        return slot_of(w, snap, first_lane(w, mask));
    case FXW_BALLOT:
        return wave_ballot(w, snap, mask);
    case FXW_ANY:
        return fxb_cmp(b, FXC_NE, wave_ballot(w, snap, mask), fxb_int(b, type_scalar(SC_UINT64), 0));
    case FXW_ALL:
        return fxb_cmp(b, FXC_EQ, wave_ballot(w, snap, mask), mask);
    case FXW_SUM: case FXW_MAX: case FXW_MIN:
        return wave_reduce(w, (FxWaveOp)i->sub, snap, mask, i->type);
    default:
        return NULL;
    }
}

/* ---- matrix instructions ---- */

/* The inverse: for a position, (e << lane_bits | lane) of the element that
 * holds it. The map is a bit permutation, so positions with disjoint bits
 * map to disjoint source bits and the part from the row (or column) ORs
 * with the part from k. Source bits no position bit decides (the replicated
 * halves of an RDNA A or B) come from the reading lane, so every copy is
 * read by someone. `from_bit`: the position bit `pos`'s bit 0 stands for. */
static FxInst *holder_bits(WaveEm *w, const TgtOperandLayout *l, FxInst *pos, int from_bit, int nbits)
{
    FxInst *src = c32(w, 0);
    for (int bit = from_bit; bit < from_bit + nbits && bit < l->nbits; bit++) {
        int s = l->bit_src[bit];
        if (s >= 0)
            src = bor(w, src, shl(w, band(w, shr(w, pos, bit - from_bit), c32(w, 1)), s));
    }
    return src;
}

static FxInst *free_bits(WaveEm *w, const TgtOperandLayout *l)
{
    int decided = 0;
    for (int bit = 0; bit < l->nbits; bit++)
        if (l->bit_src[bit] >= 0)
            decided |= 1 << l->bit_src[bit];
    int free_lane_bits = (w->wave - 1) & ~decided;
    return band(w, w->lane, c32(w, free_lane_bits));
}

static int log2i(int x)
{
    int n = 0;
    while ((1 << n) < x)
        n++;
    return n;
}

/* Element src of an operand in the exchanged fragments: a lane's slot holds
 * its A elements, then its B elements (`first`: where this operand's begin). */
static FxInst *fragment_element(WaveEm *w, FxInst *snap, FxInst *src, int first)
{
    FxInst *lane = band(w, src, c32(w, w->wave - 1));
    FxInst *e = fxb_binop(&w->b, FXB_ADD, shr(w, src, w->lane_bits), c32(w, first));
    return fxb_extract(&w->b, slot_of(w, snap, lane), e);
}

/* This lane's A and B fragments side by side in one vector, exchanged once
 * (a snapshot lasts until the lane's next exchange). */
static FxInst *exchange_fragments(WaveEm *w, FxInst *a, FxInst *b, int per_lane)
{
    const Type *vt = type_vector(type_elem_scalar(a->type), 2 * per_lane);
    FxInst *both = fxb_splat(&w->b, fxb_number(&w->b, vt->scalar, 0), vt);
    for (int k = 0; k < 2 * per_lane; k++) {
        FxInst *src = k < per_lane ? a : b;
        FxInst *x = per_lane == 1 ? src : fxb_extract(&w->b, src, c32(w, k % per_lane));
        both = fxb_insert(&w->b, both, x, c32(w, k));
    }
    return fxb_wave_exchange(&w->b, both);
}

/* An xf32 input as CDNA3's xf32 instructions read the Float32 register: the
 * low 13 significand bits dropped (1 sign, 8 exponent, 10 significand bits
 * remain; docs/waves.md says where this comes from). */
static FxInst *xf32_input(WaveEm *w, FxInst *x)
{
    const Type *u32 = type_scalar(SC_UINT32);
    FxInst *bits = fxb_bitcast(&w->b, x, u32);
    FxInst *kept = fxb_binop(&w->b, FXB_AND, bits, fxb_int(&w->b, u32, 0xFFFFE000u));
    return fxb_bitcast(&w->b, kept, x->type);
}

/* gfx90a's Float16 and BFloat16 MFMA flush subnormal input and output data
 * to zero (AMD's MIOpen documentation, "MI200 MFMA behavior specifics"):
 * the model flushes A's and B's elements, C's and D's, keeping the sign. */
static bool flushes_subnormals(const TgtMatrixInst *mi)
{
    return strcmp(mi->family, "CDNA2") == 0 && (mi->in == TGT_E_F16 || mi->in == TGT_E_BF16);
}

/* x (Float16, BFloat16 or Float32) with a subnormal value replaced by the
 * zero of its sign: where the exponent field is 0, only the sign bit stays. */
static FxInst *flush_subnormal(WaveEm *w, FxInst *x)
{
    ScalarId s = x->type->scalar;
    bool f32 = s == SC_FLOAT32;
    const Type *ut = type_scalar(f32 ? SC_UINT32 : SC_UINT16);
    uint32_t exp_mask = f32 ? 0x7F800000u : s == SC_BFLOAT16 ? 0x7F80u : 0x7C00u;
    uint32_t sign = f32 ? 0x80000000u : 0x8000u;
    FxInst *bits = fxb_bitcast(&w->b, x, ut);
    FxInst *tiny = fxb_cmp(&w->b, FXC_EQ, fxb_binop(&w->b, FXB_AND, bits, fxb_int(&w->b, ut, exp_mask)),
                           fxb_int(&w->b, ut, 0));
    FxInst *zero = fxb_bitcast(&w->b, fxb_binop(&w->b, FXB_AND, bits, fxb_int(&w->b, ut, sign)), x->type);
    return fxb_select(&w->b, tiny, zero, x);
}

/* One element of D: C's element plus A[blk,row,:] . B[blk,:,col] in k order,
 * one k per iteration of a loop. */
static FxInst *matrix_element(WaveEm *w, const TgtMatrixInst *mi, FxInst *snap, FxInst *c, int e)
{
    const TgtMatrixLayout *lay = tgt_matrix_layout(mi->id);
    FxBuilder *b = &w->b;
    FxInst *pos = fxb_matrix_position(b, lay->d, w->wave, w->lane, e);
    FxInst *blk = fxb_binop(b, FXB_FLOORDIV, pos, c32(w, mi->m * mi->n));
    FxInst *row = band(w, fxb_binop(b, FXB_FLOORDIV, pos, c32(w, mi->n)), c32(w, mi->m - 1));
    FxInst *col = band(w, pos, c32(w, mi->n - 1));
    FxInst *abase = fxb_binop(b, FXB_ADD, fxb_binop(b, FXB_MUL, blk, c32(w, mi->m * mi->k)),
                              fxb_binop(b, FXB_MUL, row, c32(w, mi->k)));
    FxInst *bbase = fxb_binop(b, FXB_ADD, fxb_binop(b, FXB_MUL, blk, c32(w, mi->k * mi->n)), col);
    int kbits = log2i(mi->k), nbits = log2i(mi->n);
    FxInst *asrc = bor(w, holder_bits(w, lay->a, abase, 0, 16), free_bits(w, lay->a));
    FxInst *bsrc = bor(w, holder_bits(w, lay->b, bbase, 0, 16), free_bits(w, lay->b));
    const Type *acc_t = c->type;
    FxInst *acc = fxb_alloca(b, acc_t, FXSPACE_PRIVATE, "acc");
    bool flush = flushes_subnormals(mi);
    fxb_store_slot(b, acc, flush ? flush_subnormal(w, c) : c);
    FxInst *kk;
    FxInst *loop = fxb_counted_loop(b, "kk", c32(w, 0), c32(w, mi->k), c32(w, 1), &kk);
    /* A's k is position bits 0.., B's k bits log2(n).. */
    FxInst *x = fragment_element(w, w->snap, bor(w, asrc, holder_bits(w, lay->a, kk, 0, kbits)), 0);
    FxInst *y = fragment_element(w, w->snap, bor(w, bsrc, holder_bits(w, lay->b, kk, nbits, kbits)),
                                 lay->a->per_lane);
    if (mi->in_b != mi->in)   /* fp8 by bf8: B's bytes travelled as A's type */
        y = fxb_bitcast(b, y, type_scalar(fxir_matrix_elem(mi->in_b)));
    FxInst *prev = fxb_load_slot(b, acc);
    if (mi->in == TGT_E_XF32) {   /* 11-bit significands: the product is exact, as Float16's */
        x = xf32_input(w, x);
        y = xf32_input(w, y);
    }
    if (flush) {
        x = flush_subnormal(w, x);
        y = flush_subnormal(w, y);
    }
    if (type_is_float(acc_t->scalar) && x->type->scalar != acc_t->scalar)
        fxb_store_slot(b, acc, fxb_fma(b, fxb_cast(b, x, acc_t), fxb_cast(b, y, acc_t), prev));
    else if (type_is_float(acc_t->scalar))
        fxb_store_slot(b, acc, fxb_fma(b, x, y, prev));
    else   /* Int8 x Int8 is exact in Int32; the sum wraps as the hardware's does */
        fxb_store_slot(b, acc, fxb_binop(b, FXB_ADD, prev, fxb_binop(b, FXB_MUL, fxb_cast(b, x, acc_t),
                                                                       fxb_cast(b, y, acc_t))));
    fxb_after(b, loop);
    (void)snap;
    FxInst *d = fxb_load_slot(b, acc);
    return flush ? flush_subnormal(w, d) : d;
}

/* The fn computing this lane's D of instruction mi from the exchanged
 * fragments, made once per module and instruction:
 *   fn __fx_emulate_<name>(snap: Ptr[fragments], lane: Int32, c: D) -> D */
static FxFunc *matrix_helper(WaveEm *w, FxModule *m, const TgtMatrixInst *mi, const Type *snap_t, const Type *d_t)
{
    if (w->helpers[mi->id])
        return w->helpers[mi->id];
    FxBuilder saved = w->b;
    FxInst *saved_lane = w->lane;
    const char *name = arena_printf(m->arena, "__fx_emulate_%s", mi->mnemonic);
    FxFunc *f = fxb_func(&w->b, m, name, FXF_FN, 3, d_t, w->b.loc);
    f->outlined = true;
    w->snap = fxb_param(&w->b, f, 0, "snap", snap_t);
    w->lane = fxb_param(&w->b, f, 1, "lane", i32t());
    FxInst *c = fxb_param(&w->b, f, 2, "c", d_t);
    FxInst *d = c;
    for (int e = 0; e < d_t->lanes; e++) {
        FxInst *idx = c32(w, e);
        d = fxb_insert(&w->b, d, matrix_element(w, mi, w->snap, fxb_extract(&w->b, c, idx), e), idx);
    }
    fxb_return(&w->b, d);
    /* fns come before their callers: move it from the end to the front */
    void **items = m->funcs.items;
    memmove(items + 1, items, sizeof(void *) * (size_t)(m->funcs.len - 1));
    items[0] = f;
    w->helpers[mi->id] = f;
    w->b = saved;
    w->lane = saved_lane;
    return f;
}

static FxInst *emulate_mfma(WaveEm *w, FxModule *m, FxInst *i)
{
    const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)i->sub);
    FxInst *bfrag = i->ops[1];
    if (mi->in_b != mi->in)   /* one snapshot vector: B's 8-bit floats as A's type, bit for bit */
        bfrag = fxb_bitcast(&w->b, bfrag, i->ops[0]->type);
    FxInst *snap = exchange_fragments(w, i->ops[0], bfrag, tgt_matrix_layout(mi->id)->a->per_lane);
    FxFunc *f = matrix_helper(w, m, mi, snap->type, i->type);
    FxInst *args[3] = { snap, w->lane, i->ops[2] };
    return fxb_call(&w->b, f, 3, args);
}

/* ---- reconvergence at loops ----
 * A GPU runs a loop's iterations in lock-step: a lane that skipped a wave
 * operation in iteration i meets the others again at the end of iteration
 * i, and lanes that left the loop wait for the others after it. Without
 * that, a lane could run ahead into iteration i + 1 and meet the lanes still
 * in iteration i at the same operation. So every loop that exchanges (itself
 * or through a call) gets an exchange at the start of its step block (the
 * latch, where `continue` goes too) and one right after it; the runtime
 * serves the lowest site first, and the latch comes after everything in the
 * body and before the exit. */

static bool block_exchanges(WaveEm *w, const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_WAVE_EXCHANGE)
            return true;
        if (i->op == FX_CALL)
            for (int k = 0; k < w->nexchanging; k++)
                if (w->exchanging[k] == i->callee)
                    return true;
        for (int k = 0; k < i->nblocks; k++)
            if (block_exchanges(w, &i->blocks[k]))
                return true;
    }
    return false;
}

static void converge(WaveEm *w)
{
    fxb_wave_exchange(&w->b, fxb_bool(&w->b, true));
}

static void converge_loops(WaveEm *w, FxBlock *b)
{
    for (FxInst *i = b->first; i; i = i->next) {
        for (int k = 0; k < i->nblocks; k++)
            converge_loops(w, &i->blocks[k]);
        if (i->op != FX_LOOP || !(block_exchanges(w, &i->blocks[0]) || block_exchanges(w, &i->blocks[1]) ||
                                  block_exchanges(w, &i->blocks[2])))
            continue;
        w->b.loc = i->loc;
        FxBlock *step = &i->blocks[2];
        if (step->first)
            fxb_before(&w->b, step->first);
        else
            fxb_at_end(&w->b, step);
        converge(w);
        fxb_after(&w->b, i);
        converge(w);   /* the walk then steps over it */
    }
}

/* ---- atomics in lock-step ----
 * A GPU runs each memory instruction of a wave for all its active lanes at
 * once: every lane's earlier loads are done before any lane's atomic, and
 * the atomics of the lanes all happen before any lane goes on. The host runs
 * the lanes one after another between exchanges, so an atomic becomes a
 * point where the wave meets: an exchange right before it (the loads of
 * every lane are done) and one right after it (no lane goes on before all
 * did theirs). The runtime resumes the released lanes in lane order, so
 * the atomics of one instruction happen in lane order (docs/waves.md,
 * "Memory operations in lock-step"). The exchange after it carries the
 * atomic's old value: a wave whose lanes see the same old values over and
 * over while other lanes wait for them is not making progress, which the
 * runtime reports (the in-wave spin lock). Plain loads and stores are not
 * synchronized: lanes communicating through them without a barrier race. */
static void lockstep_atomic(WaveEm *w, FxInst *i)
{
    w->b.loc = i->loc;
    fxb_before(&w->b, i);
    converge(w);
    fxb_after(&w->b, i);
    bool has_value = i->type && (i->type->kind == TY_SCALAR || i->type->kind == TY_VECTOR);
    fxb_wave_exchange(&w->b, has_value ? i : fxb_bool(&w->b, true));
}

/* ---- driving ---- */

static bool needs_emulation(const FxInst *i)
{
    return i->op == FX_WAVE || i->op == FX_MFMA || (i->op == FX_SPECIAL && i->sub == FXS_LANE_ID);
}

/* Walks blk's nested blocks before each instruction, so every operand is
 * forwarded after the emulation of its definition (fxir.h). */
static int emulate_block(WaveEm *w, FxModule *m, FxBlock *blk)
{
    int n = 0;
    for (FxInst *i = blk->first; i;) {
        FxInst *next = i->next;
        for (int k = 0; k < i->nblocks; k++)
            n += emulate_block(w, m, &i->blocks[k]);
        fxir_forward_operands(&w->fw, i);
        if (needs_emulation(i)) {
            fxb_before(&w->b, i);
            w->b.loc = i->loc;
            w->lane = lane_index(w);
            FxInst *r = i->op == FX_WAVE ? emulate_wave(w, i) : i->op == FX_MFMA ? emulate_mfma(w, m, i) : w->lane;
            fxir_forward(&w->fw, i, r);
            fxir_remove(i);
            n++;
        } else if (i->op == FX_ATOMIC && w->wave > 1) {
            lockstep_atomic(w, i);   /* `next` steps over the exchanges it adds */
            n++;
        }
        i = next;
    }
    return n;
}

int pass_wave_emulation(FxModule *m, const PassOptions *o)
{
    WaveEm w = { .wave = o->target->wave_size, .lane_bits = tgt_lane_bits(o->target->wave_size) };
    fxb_init(&w.b, m->arena, NULL, (Loc){ 0 });
    int n = 0;
    int nfuncs = m->funcs.len;
    FxFunc **funcs = arena_alloc(m->arena, sizeof(FxFunc *) * (size_t)(nfuncs + 1));
    if (nfuncs > 0)   /* an empty module has no list to copy (items NULL) */
        memcpy(funcs, m->funcs.items, sizeof(FxFunc *) * (size_t)nfuncs);   /* helpers join the list */
    w.exchanging = arena_alloc(m->arena, sizeof(FxFunc *) * (size_t)(nfuncs + 1));
    for (int k = 0; k < nfuncs; k++) {   /* fns first, so callers know their callees */
        fxir_forwarding_init(&w.fw, m->arena, funcs[k]);
        n += emulate_block(&w, m, &funcs[k]->body);
        if (w.wave > 1)
            converge_loops(&w, &funcs[k]->body);
        if (block_exchanges(&w, &funcs[k]->body))
            w.exchanging[w.nexchanging++] = funcs[k];
    }
    return n;
}
