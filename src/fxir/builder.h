/* builder.h - the one way to create FXIR instructions. Sema's lowering,
 * program lowering, every pass and the tests build through it.
 *
 * A builder has an insertion point (the end of a block, or just before an
 * instruction) and a source location that every new instruction takes.
 * Result types follow the operands where FXIR's invariants fix them (a
 * binop has its operands' type, a compare gives Boolean of their shape);
 * the caller keeps FXIR's rule that operands of one operation have one type
 * (fxir_verify checks it). Structured control flow:
 *
 *   FxInst *br = fxb_if(b, cond);      // now inside the then-block
 *   ...; fxb_else(b, br); ...;         // the else-block
 *   fxb_after(b, br);                  // after the if
 *
 *   FxInst *lp = fxb_loop(b);          // inside the condition block
 *   fxb_loop_body(b, lp, cond);        // cond decides; now in the body
 *   fxb_loop_step(b, lp); ...          // the step block
 *   fxb_after(b, lp);
 */
#ifndef FX_FXIR_BUILDER_H
#define FX_FXIR_BUILDER_H
#include "fxir/fxir.h"

typedef struct FxBuilder {
    Arena *arena;
    FxBlock *block;     /* insertion block */
    FxInst *before;     /* insert before this instruction; NULL: at the end */
    Loc loc;            /* given to every new instruction */
    long placed;        /* instructions placed since fxb_init (sema's size limit counts them) */
} FxBuilder;

void fxb_init(FxBuilder *b, Arena *arena, FxBlock *block, Loc loc);
/* Positions. */
void fxb_at_end(FxBuilder *b, FxBlock *block);
void fxb_before(FxBuilder *b, FxInst *inst);
void fxb_after(FxBuilder *b, FxInst *inst);   /* right after inst, in its block */

/* A new function of module m; the builder moves into its body. */
FxFunc *fxb_func(FxBuilder *b, FxModule *m, const char *name, FxFuncKind kind, int nparams,
                 const Type *ret, Loc loc);
/* Declares parameter i of the builder's current function and emits its
 * FX_PARAM value. */
FxInst *fxb_param(FxBuilder *b, FxFunc *f, int i, const char *name, const Type *t);

/* Any instruction: operands as FxInst* varargs. */
FxInst *fxb_emit(FxBuilder *b, FxOpcode op, int sub, const Type *t, int nops, ...);
FxInst *fxb_vemit(FxBuilder *b, FxOpcode op, int sub, const Type *t, int nops, va_list ap);
/* An instruction with nops operands taken from an array. */
FxInst *fxb_emitv(FxBuilder *b, FxOpcode op, int sub, const Type *t, int nops, FxInst *const *ops);

/* Constants. */
FxInst *fxb_const(FxBuilder *b, const Type *t, FxConst c);
FxInst *fxb_int(FxBuilder *b, const Type *t, int64_t v);          /* sign-extended to 128 bits */
FxInst *fxb_number(FxBuilder *b, ScalarId s, double v);           /* float rounded to nearest even */
FxInst *fxb_bool(FxBuilder *b, bool v);

/* Arithmetic. */
FxInst *fxb_binop(FxBuilder *b, FxBinop op, FxInst *x, FxInst *y);
FxInst *fxb_cmp(FxBuilder *b, FxCmp op, FxInst *x, FxInst *y);
FxInst *fxb_unop(FxBuilder *b, FxUnop op, FxInst *x);
FxInst *fxb_cast(FxBuilder *b, FxInst *x, const Type *t);         /* x itself when already t */
FxInst *fxb_cast_round(FxBuilder *b, FxInst *x, const Type *t, FfRound rm);
FxInst *fxb_bitcast(FxBuilder *b, FxInst *x, const Type *t);
/* p viewed as a Ptr to elem (const stays const): p.cast(Ptr[elem]) */
FxInst *fxb_ptr_cast(FxBuilder *b, FxInst *p, const Type *elem);
/* p + k (k elements) */
FxInst *fxb_ptr_add(FxBuilder *b, FxInst *p, FxInst *k);
/* p + k (k elements), an address that is the same in every work-item of
 * the block (FXPTR_UNIFORM) */
FxInst *fxb_ptr_add_uniform(FxBuilder *b, FxInst *p, FxInst *k);
FxInst *fxb_select(FxBuilder *b, FxInst *cond, FxInst *x, FxInst *y);
FxInst *fxb_fma(FxBuilder *b, FxInst *x, FxInst *y, FxInst *z);
FxInst *fxb_math(FxBuilder *b, FxMathFn fn, FxInst *x);
FxInst *fxb_minmax(FxBuilder *b, FxMinMax which, FxInst *x, FxInst *y);
FxInst *fxb_ceildiv(FxBuilder *b, FxInst *x, FxInst *y);
FxInst *fxb_special(FxBuilder *b, FxSpecial s, int dim);          /* Int32 */

/* Vectors. */
FxInst *fxb_splat(FxBuilder *b, FxInst *x, const Type *vt);
FxInst *fxb_extract(FxBuilder *b, FxInst *v, FxInst *lane);
FxInst *fxb_insert(FxBuilder *b, FxInst *v, FxInst *x, FxInst *lane);

/* Memory. */
FxInst *fxb_alloca(FxBuilder *b, const Type *t, FxSpace space, const char *name);
/* base[idx...] (no index: a scalar slot); the loaded type is given. */
FxInst *fxb_load(FxBuilder *b, FxInst *base, const Type *t, int nidx, FxInst *const *idx);
FxInst *fxb_store(FxBuilder *b, FxInst *base, FxInst *v, int nidx, FxInst *const *idx);
/* old = op(base[idx], v[, newv for CAS]); t the element type. */
FxInst *fxb_atomic(FxBuilder *b, FxAtomic op, const Type *t, FxInst *base, FxInst *idx, FxInst *v, FxInst *newv);
FxInst *fxb_barrier(FxBuilder *b);
FxInst *fxb_barrier_shared(FxBuilder *b);   /* orders LDS only (FXBAR_SHARED) */
FxInst *fxb_mfma(FxBuilder *b, TgtMatrixId id, const Type *t, FxInst *x, FxInst *y, FxInst *acc);
/* A wave operation; `lane` is the Int32 second operand of shuffles and
 * readlane, NULL for the others. The result type follows the operation. */
FxInst *fxb_wave(FxBuilder *b, FxWaveOp op, FxInst *v, FxInst *lane);
FxInst *fxb_wave_exchange(FxBuilder *b, FxInst *v);   /* Ptr[type of v] */
FxInst *fxb_wave_active(FxBuilder *b);                /* Uint64 */
/* The matrix position (block*rows*cols + row*cols + col) that element e of
 * an operand's fragment holds in `lane` (an integer value; the result has its
 * type), from the layout's bit formula (target/target.h). */
FxInst *fxb_matrix_position(FxBuilder *b, const TgtOperandLayout *l, int wave_size, FxInst *lane, int e);

/* A slot's value (an FX_ALLOCA of a scalar or vector) and its update. */
FxInst *fxb_load_slot(FxBuilder *b, FxInst *slot);
void fxb_store_slot(FxBuilder *b, FxInst *slot, FxInst *v);
/* The largest (highest) or smallest value of scalar type s: +-inf for
 * floats, the integer type's MAX or MIN. */
FxInst *fxb_extreme(FxBuilder *b, ScalarId s, bool highest);
/* A private counter (of from's type) starting at `from`, and the loop
 * while counter < limit { body } step { counter += step }. Returns the loop
 * with the builder inside its body; *counter is the counter's value there. */
FxInst *fxb_counted_loop(FxBuilder *b, const char *name, FxInst *from, FxInst *limit, FxInst *step,
                         FxInst **counter);

/* Control flow. */
FxInst *fxb_if(FxBuilder *b, FxInst *cond);
void fxb_else(FxBuilder *b, FxInst *if_inst);
FxInst *fxb_loop(FxBuilder *b);
void fxb_loop_body(FxBuilder *b, FxInst *loop, FxInst *cond);    /* cond NULL: while True */
void fxb_loop_step(FxBuilder *b, FxInst *loop);
FxInst *fxb_call(FxBuilder *b, FxFunc *callee, int nargs, FxInst *const *args);
FxInst *fxb_return(FxBuilder *b, FxInst *v);                       /* v NULL: no value */
FxInst *fxb_break(FxBuilder *b);
FxInst *fxb_continue(FxBuilder *b);

#endif
