/* fxir.h - FXIR, the project's own typed intermediate representation.
 *
 * Sema lowers the typed AST into FXIR; the passes rewrite it; codegen turns it
 * into LLVM IR. Invariants that every producer keeps and every consumer may
 * rely on:
 *  - every instruction has a result type (type_simple(TY_VOID) when none);
 *  - operands of a binary op, comparison, select arm, min/max, fma all have the
 *    SAME type: sema makes every promotion an explicit FX_CAST and every
 *    scalar-to-vector broadcast an explicit FX_SPLAT;
 *  - control flow is structured (FX_IF, FX_LOOP); a value is visible in its
 *    own block after its definition and in blocks nested below it;
 *  - mutable variables live in FX_ALLOCA slots accessed by FX_LOAD/FX_STORE;
 *    `let` bindings are plain SSA values;
 *  - semantics of every opcode are exactly those of spec §3.4 (guards
 *    included): codegen must compute what the constant folder computes. */
#ifndef FX_FXIR_H
#define FX_FXIR_H
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include "support/arena.h"
#include "support/diag.h"
#include "support/floatfmt.h"
#include "fxir/types.h"
#include "target/target.h"

typedef enum {
    FX_CONST,      /* cval; scalar, or vector = splat of cval */
    FX_PARAM,      /* param_index */
    FX_BINOP,      /* sub: FxBinop; ops[0], ops[1] of `type` */
    FX_CMP,        /* sub: FxCmp; ops of one type; result Boolean (or Booleanx<N>) */
    FX_UNOP,       /* sub: FxUnop; ops[0] */
    FX_CAST,       /* ops[0] converted to `type`; rounding (float->float only) */
    FX_BITCAST,    /* ops[0] reinterpreted as `type` (equal total width) */
    FX_SELECT,     /* ops[0] cond (Boolean or Booleanx<N>), ops[1] true value, ops[2] false value */
    FX_FMA,        /* ops[0]*ops[1]+ops[2], one rounding */
    FX_MATH,       /* sub: FxMathFn; ops[0] (float scalar/vector) */
    FX_MINMAX,     /* sub: FxMinMax; ops[0], ops[1] */
    FX_CEILDIV,    /* integer ceil division, ops[0], ops[1] */
    FX_SPECIAL,    /* sub: FxSpecial; dim 0..2 (x,y,z) where it applies; Int32 */
    FX_ALLOCA,     /* a variable slot of type `type` (scalar, vector or TY_ARRAY); space */
    FX_LOAD,       /* ops[0] base (Ptr value or ALLOCA), ops[1..] indices (integers) */
    FX_STORE,      /* ops[0] base, ops[1] value, ops[2..] indices */
    FX_ATOMIC,     /* sub: FxAtomic; ops[0] base, ops[1] index, ops[2] value, [ops[3] new value for CAS] */
    FX_BARRIER,
    FX_SPLAT,      /* scalar ops[0] broadcast to vector `type` */
    FX_EXTRACT,    /* ops[0] vector, ops[1] lane index (integer) */
    FX_INSERT,     /* ops[0] vector, ops[1] scalar, ops[2] lane index; result the new vector */
    FX_IF,         /* ops[0] Boolean cond; blocks[0] then, blocks[1] else */
    FX_LOOP,       /* blocks[0] cond (its cond value is ops[0], defined inside blocks[0]),
                      blocks[1] body, blocks[2] step (runs after the body and on continue) */
    FX_BREAK,
    FX_CONTINUE,
    FX_RETURN,     /* [ops[0]] */
    FX_CALL,       /* callee, ops = arguments */
    FX_MFMA,       /* sub: a TgtMatrixId; ops[0] a, ops[1] b (this lane's part), ops[2] accumulator
                      (this lane's part of C); one wave-wide matrix multiply-accumulate; the
                      register layout is the instruction's (target/target.h) */
    FX_LDEXP,      /* ops[0] float x, ops[1] Int32 n (same lanes): x * 2^n rounded once (exact
                      unless the result is subnormal or overflows) */
    FX_FREXP_EXP,  /* ops[0] float x -> Int32 e (same lanes) with |x| in [2^(e-1), 2^e);
                      0 for a zero, an infinity or a NaN */
    FX_WAVE,       /* sub: FxWaveOp; ops[0] this lane's value, ops[1] (Int32) the lane, mask or
                      distance of shuffles and readlane; over the wave's active lanes, exactly as
                      docs/waves.md defines each (the same on every target) */
    FX_WAVE_EXCHANGE, /* ops[0] a value; the active lanes of the wave meet here and the result
                      (Ptr[T], T its type) points at a snapshot of their values, slot l = lane l,
                      valid until this lane's next exchange; the host's wave model only
                      (passes/wave_emulation.c makes them) */
    FX_WAVE_ACTIVE,/* Uint64: the lanes that took part in this lane's last exchange (bit l: lane l) */
    FX_PTR_OFFSET, /* ops[0] Ptr[T], ops[1] integer k: the address k elements of T past ops[0],
                      viewed as `type` (any Ptr type: `p + k`, and `p.cast(Ptr[U])` with k = 0);
                      a const Ptr stays const; sub: FxPtrOffsetKind */
    FX_PRINT,      /* fx.printf: text the canonical format (support/printf_format.h), ops its
                      arguments, each Int64, Uint64 or Float64 as the conversion says */
    FX_ASSERT,     /* fx.assert: ops[0] Boolean; when False the work-item stops with text (the
                      message) and its location; --no-assert makes none */
    FX_FENCE,      /* sub: FxScope; orders this work-item's memory accesses (sequentially consistent) */
    FX_OPCODE_COUNT
} FxOpcode;

typedef enum {
    FXB_ADD, FXB_SUB, FXB_MUL,
    FXB_DIV,        /* floats only (sema turns integer `/` into float division) */
    FXB_FLOORDIV,   /* floored for signed ints and floats, plain for unsigned; x//0 == 0 */
    FXB_MOD,        /* floored modulo; x%0 == 0; floats: Python float modulo */
    FXB_POW,        /* ints: by squaring with wrap (negative exponent -> 0 unless base is +-1); floats: pow */
    FXB_AND, FXB_OR, FXB_XOR,   /* integers and Boolean */
    FXB_SHL, FXB_SHR,           /* guarded: count >= width or negative -> 0 / sign fill */
    FXB_COUNT
} FxBinop;

typedef enum { FXC_LT, FXC_LE, FXC_GT, FXC_GE, FXC_EQ, FXC_NE } FxCmp;
typedef enum { FXU_NEG, FXU_INVERT /* ~ on ints, `not` on Boolean */, FXU_ABS } FxUnop;
typedef enum {
    FXM_EXP, FXM_EXP2, FXM_LOG, FXM_LOG2, FXM_SQRT, FXM_RSQRT, FXM_SIN, FXM_COS,
    FXM_TANH, FXM_FLOOR, FXM_CEIL, FXM_ROUND, FXM_TRUNC,
    FXM_RINT,       /* round to the nearest integer, ties to even */
    FXM_ERF, FXM_ERFC, FXM_LOG1P, FXM_EXPM1, FXM_CBRT, FXM_SIGMOID,
    FXM_COPYSIGN, FXM_HYPOT, FXM_ATAN2,   /* binary: ops[1] of ops[0]'s type (fxmath.h) */
    FXM_COUNT
} FxMathFn;
typedef enum { FXMM_MAX, FXMM_MIN, FXMM_MAXNUM, FXMM_MINNUM } FxMinMax;
typedef enum { FXS_THREAD_IDX, FXS_BLOCK_IDX, FXS_BLOCK_DIM, FXS_GRID_DIM, FXS_LANE_ID } FxSpecial;
typedef enum { FXA_ADD, FXA_MAX, FXA_MIN, FXA_CAS, FXA_SUB, FXA_AND, FXA_OR, FXA_XOR, FXA_XCHG, FXA_COUNT } FxAtomic;
/* The memory scopes of fences (docs/atomics.md). */
typedef enum { FXSC_WORKGROUP, FXSC_AGENT, FXSC_SYSTEM, FXSC_COUNT } FxScope;

/* FX_BARRIER's sub: what the workgroup's memory operations before it are
 * ordered with after it. ALL (printed "barrier"): every address space, as
 * fx.barrier() promises; SHARED ("barrier.shared"): LDS only, for
 * kernels whose work-items share nothing else (program GEMMs), so global
 * loads stay in flight across it and gfx12 needs no cache writeback or
 * invalidate. */
typedef enum { FXBAR_ALL, FXBAR_SHARED, FXBAR_COUNT } FxBarrierKind;
/* FX_PTR_OFFSET's sub. UNIFORM ("ptr_offset.uniform") promises that the
 * address is the same in every work-item of the block: GPU code reads it
 * from the first active lane (readfirstlane), so that LLVM keeps it in
 * scalar registers instead of folding it into each work-item's 64-bit
 * vector addresses (program GEMMs' slices). The host ignores it. */
typedef enum { FXPTR_ANY, FXPTR_UNIFORM, FXPTR_COUNT } FxPtrOffsetKind;
typedef enum {
    FXW_SHUFFLE, FXW_SHUFFLE_XOR, FXW_SHUFFLE_UP, FXW_SHUFFLE_DOWN,   /* ops[1]: lane, mask, distance */
    FXW_READLANE,                   /* ops[1]: the lane (the first active lane's ops[1] counts) */
    FXW_READFIRSTLANE,
    FXW_BALLOT, FXW_ANY, FXW_ALL,   /* Boolean -> Uint64 / Boolean / Boolean */
    FXW_SUM, FXW_MAX, FXW_MIN,      /* pairwise tree in lane order, inactive lanes the identity */
    FXW_COUNT
} FxWaveOp;
typedef enum { FXSPACE_PRIVATE, FXSPACE_SHARED } FxSpace;

/* Fast-math flag bits; the values are LLVM's LLVMFastMathFlags bits. */
enum {
    FMF_REASSOC = 1 << 0, FMF_NNAN = 1 << 1, FMF_NINF = 1 << 2, FMF_NSZ = 1 << 3,
    FMF_ARCP = 1 << 4, FMF_CONTRACT = 1 << 5, FMF_AFN = 1 << 6,
    FMF_FAST = 0x7f, FMF_NBITS = 7
};

/* No-wrap flags on integer add/sub/mul (LLVM's nsw/nuw). The int-ranges
 * pass sets them: NSW/NUW when the operands' ranges prove that the result
 * does not wrap, NSW|PROMISED in an @index_nowrap kernel when it is only
 * the kernel's promise (host code then checks it; passes/int_ranges.c).
 * WRAPS marks the compiler's own arithmetic that may wrap by design (a
 * range loop's limits and last increment): no promise covers it. LAST
 * marks a range loop's increment (with WRAPS): it can wrap only after the
 * last iteration, whose result nothing reads (the loop has stopped), so
 * codegen gives it nsw (signed) or nuw (unsigned) and LLVM may widen the
 * loop variable; sema sets it, passes keep it. INDEX qualifies an NSW the
 * pass derives from the language rather than from ranges: the add is used
 * only as the index of accesses through a kernel's Ptr parameters, and one
 * operand is non-negative, so a wrap could only give a negative index, an
 * out-of-bounds access (GPU code takes the NSW; host code, which checks
 * every index, keeps the wrapping add and reports the access). */
enum { FXNW_NSW = 1 << 0, FXNW_NUW = 1 << 1, FXNW_PROMISED = 1 << 2, FXNW_WRAPS = 1 << 3, FXNW_LAST = 1 << 4,
       FXNW_INDEX = 1 << 5 };

/* A scalar constant: integers as 128-bit two's complement already wrapped to
 * their width (Boolean 0/1); floats (and narrow floats) as their encoding in lo. */
typedef struct FxConst {
    uint64_t lo, hi;
} FxConst;

typedef struct FxInst FxInst;
typedef struct FxFunc FxFunc;

typedef struct FxBlock {
    FxInst *first, *last;
    FxInst *owner;      /* the IF/LOOP this block belongs to; NULL for a function body */
} FxBlock;

struct FxInst {
    FxOpcode op;
    int sub;                /* FxBinop / FxCmp / FxUnop / FxMathFn / FxMinMax / FxSpecial / FxAtomic */
    const Type *type;       /* result type */
    FxInst **ops;
    int nops;
    FxBlock *blocks;
    int nblocks;
    FxConst cval;
    int param_index;
    int dim;
    unsigned fmf;           /* fast-math flags (FMF_*) on float operations */
    unsigned nowrap;        /* FXNW_* on integer add/sub/mul */
    FfRound rounding;       /* FX_CAST float->float */
    FxSpace space;          /* FX_ALLOCA */
    FxFunc *callee;         /* FX_CALL */
    const char *name;       /* source name of a let/var/param, for printing; may be NULL */
    const char *text;       /* FX_PRINT: the format; FX_ASSERT: the message */
    Loc loc;
    int id;                 /* numbering assigned by the printer / passes */
    FxInst *prev, *next;
    FxBlock *parent;
};

typedef enum { FXF_KERNEL, FXF_FN } FxFuncKind;

typedef struct FxParam {
    const char *name;
    const Type *type;
    Loc loc;
} FxParam;

struct FxFunc {
    const char *name;
    FxFuncKind kind;
    int nparams;
    FxParam *params;
    const Type *ret;        /* TY_VOID for kernels */
    FxBlock body;
    int launch_bounds;      /* kernels: max threads per block (default 1024) */
    bool index_nowrap;      /* kernels: @index_nowrap, signed add/sub/mul promised not to overflow */
    bool outlined;          /* a fn called, not inlined, on the host: wave-emulation's matrix
                               instructions, whose loops unrolled at every call made LLVM's
                               optimization several times slower */
    Loc loc;
    long use_scan_visits;   /* instructions visited to count uses: lets tests check passes stay linear */
};

/* ---- programs (spec §7): dataflow graphs of MatMul, Map and Reduce nodes ---- */

/* A whole tensor of a program: a parameter or a transient the plan allocates. */
typedef struct FxTensor {
    const char *name;
    const Type *type;       /* TY_TENSOR (dims static, or -1 with dim_names[i] naming an Int32 parameter) */
    int param_index;        /* index in the program's parameters; -1 for a transient */
    Loc loc;
    struct FxTensor *view_of;   /* a view: this tensor's elements in the same order, with another
                                   shape (size-1 dims added or dropped); it has no buffer of its own */
} FxTensor;

/* A scalar operand of a node: absent, a static value, or a program parameter. */
typedef enum { FXS_NONE, FXS_STATIC, FXS_PARAM } FxScalarKind;
typedef struct FxScalarArg {
    FxScalarKind kind;
    double value;           /* FXS_STATIC (alpha/beta are exactly representable as binary64 here) */
    int param_index;        /* FXS_PARAM */
} FxScalarArg;

typedef enum { FXN_MATMUL, FXN_MAP, FXN_REDUCE } FxNodeKind;
typedef enum {
    FXR_SUM, FXR_MAX, FXR_MIN,
    FXR_MAXABS,     /* max of |x| (NaN-propagating, identity 0): the absmax of a row or column */
    FXR_MINABS_NZ   /* min of |x| over x != 0 (NaN-propagating; +inf or the type's max when all are 0) */
} FxReduceKind;

typedef struct FxNode {
    FxNodeKind kind;
    Loc loc;
    FxTensor *out;
    FxTensor **ins;         /* MATMUL: A, B[, C when beta reads it]; MAP: its tensor inputs; REDUCE: the input,
                               or its body's tensor inputs */
    int nins;
    /* MATMUL: out = alpha * op(A) @ op(B) + beta * C (beta absent: C not read) */
    bool trans_a, trans_b;
    FxScalarArg alpha, beta;
    ScalarId in_type, acc_type, out_type;   /* the contraction types (in_type: A's elements) */
    ScalarId in_type_b;     /* B's elements: in_type, or another 8-bit float format (fp8 by bf8) */
    bool xf32;              /* Float32 inputs read as xf32 (FXP_XF32; printed "xf32") */
    /* MAP: out[idx] = body(ins[0][bcast idx], ..., scalars...). The body is an
     * FXF_FN whose first nins parameters are the tensor elements and whose
     * remaining parameters are the program parameters it reads (scalar_params). */
    FxFunc *body;
    int *scalar_params;
    int nscalars;
    /* REDUCE */
    FxReduceKind reduce;
    int axis;
    /* REDUCE with a body (map-fusion folded the Map that wrote its input):
     * the elements reduced are body(ins[0][bcast idx], ..., scalars...), as
     * a Map's, over the index space of `domain`: a tensor that only gives
     * the shape and element type (not one of the program's; no buffer).
     * Without a body, ins[0] is reduced and domain is NULL. */
    FxTensor *domain;
    /* Any node: it runs only when the first element of `when` (an Int32
     * tensor an earlier node wrote) is zero, or nonzero (when_nonzero); the
     * plan says `note` (with {} replaced by that value) when it runs. */
    FxTensor *when;
    bool when_nonzero;
    const char *note;
    /* MAP: runs in the kernel of the node before it (map-fusion's siblings):
     * a Map of the same shape under the same condition, and neither reads
     * what the other writes, so the group's work-items can compute every
     * member's element of one index in any order. */
    bool with_previous;
} FxNode;

typedef struct FxProgram {
    const char *name;
    int nparams;
    FxParam *params;        /* Tensor and scalar parameters, in source order */
    PtrVec tensors;         /* FxTensor*: parameters first, then transients */
    PtrVec nodes;           /* FxNode*, in execution order */
    const char *precision;  /* @contraction_precision("..."), or NULL for the command line's */
    Loc loc;
} FxProgram;

/* --contraction-precision and @contraction_precision (spec §8.2):
 * native | int2..int8 | ozaki | ozaki1[:s] | ozaki2[:L] | bf16x9 | bf16x6 | xf32 | auto.
 * AUTO: per contraction, native or guarded Ozaki-II at its default moduli,
 * whichever the target's throughput figures estimate faster. XF32: Float32
 * contractions on gfx94x's xf32 instruction (FxNode.xf32). */
typedef enum { FXP_NATIVE, FXP_QUANTIZE, FXP_OZAKI1, FXP_OZAKI2, FXP_BF16, FXP_AUTO, FXP_XF32 } FxPrecisionKind;
typedef struct FxPrecision {
    FxPrecisionKind kind;
    int n;                  /* QUANTIZE: bits; OZAKI1: slices; OZAKI2: moduli (0: the default);
                               BF16: BFloat16 products, 9 or 6 */
} FxPrecision;
bool fxir_parse_precision(const char *spec, FxPrecision *out);
/* What fxir_parse_precision accepts, for error messages. */
const char *fxir_precision_choices(void);
/* The longest valid value of n for OZAKI1 (slices) and OZAKI2 (moduli). */
enum { FXP_MAX_SLICES = 12, FXP_MAX_MODULI = 32 };

/* A constant byte string exported by the artifact (launch plans travel this way). */
typedef struct FxData {
    const char *name;
    const char *bytes;
    size_t len;             /* a NUL is stored after the bytes as well */
} FxData;

typedef struct FxModule {
    Arena *arena;
    const char *source_name;
    PtrVec funcs;           /* FxFunc*: fns first (callees before callers), then kernels */
    PtrVec programs;        /* FxProgram* */
    PtrVec data;            /* FxData*: exported constant globals */
    PtrVec plans;           /* struct FxPlan* (abi/fxplan.h), one per program, made by program lowering */
} FxModule;

FxModule *fxir_module_new(Arena *arena, const char *source_name);
/* The values special value i (thread_idx, block_idx, block_dim, grid_dim,
 * lane id) can take in function f, [*lo, *hi]: thread_idx below f's launch
 * bounds (1024 in a fn, the most any launch has), block_dim in [1, launch
 * bounds], block_idx < 2^31 - 1 and grid_dim < 2^31 (libfxrt refuses larger
 * grids: the language types them Int32), the lane id below wave_size. The
 * one statement of these facts: the int-ranges pass and codegen's range
 * metadata both ask it. */
void fxir_special_range(const FxFunc *f, const FxInst *i, int wave_size, int64_t *lo, int64_t *hi);

/* divergence.c: the barriers of f (an FX_BARRIER, or a call of a fn that
 * reaches one) that only some work-items of a block may reach, because the
 * path to them depends on thread_idx; f's parameters count as uniform. A
 * call is one when its thread-dependent arguments make a barrier of the fn
 * divergent that is not so with uniform arguments. fn, when not NULL, gets
 * each with `why`, the IF, LOOP or jump that makes the path depend on it,
 * or the call's first thread-dependent argument (or NULL).
 * Returns how many there are, one more when the analysis gave up (after 64
 * sweeps of its fixpoint), 0 when f reaches no barrier. Renumbers f's
 * instruction ids. memo (NULL: none) keeps the verdicts on the fns f calls
 * for later calls, allocated in a: it starts NULL and stays valid while no
 * fn's FXIR changes (sema keeps one, codegen another), so a chain of fns
 * costs one analysis per fn, not one per caller. */
typedef void (*FxDivergentBarrierFn)(void *data, const FxInst *barrier, const FxInst *why);
typedef struct FxJudged FxJudged;
int fxir_divergent_barriers(Arena *a, FxJudged **memo, FxFunc *f, FxDivergentBarrierFn fn, void *data);
/* The same analysis, for the `continue`s that only some work-items take
 * out of a loop that reaches a barrier. A barrier after one in the same
 * iteration is divergent; one at the next iteration's start is not (the
 * work-items meet again at the loop's step). The host's regions need them
 * where nothing waits between them and the end of the iteration.
 * Returns how many (one more when the analysis gave up), 0 when f reaches
 * no barrier; fn gets each as `barrier`. *barriers, when not NULL, gets
 * what fxir_divergent_barriers would return, from the same analysis.
 * exchanges: a wave exchange (FX_WAVE_EXCHANGE) counts as a barrier, as the
 * host's wave model needs in waves wider than one lane (the same for
 * every use of one memo). */
int fxir_divergent_continues(Arena *a, FxJudged **memo, bool exchanges, FxFunc *f, FxDivergentBarrierFn fn,
                             void *data, int *barriers);
FxFunc *fxir_func_new(FxModule *m, const char *name, FxFuncKind kind, int nparams,
                      const Type *ret, Loc loc);

/* Low-level editing; new instructions come from the builder (builder.h). */
FxInst *fxir_new(Arena *a, FxOpcode op, const Type *type, int nops, Loc loc);
void fxir_append(FxBlock *block, FxInst *inst);
void fxir_insert_before(FxInst *before, FxInst *inst);
void fxir_remove(FxInst *inst);
/* Uses of `v` anywhere in `f` (counts operands referring to v). */
int fxir_count_uses(FxFunc *f, const FxInst *v);
/* Numbers every instruction of `f` (FxInst.id = 0..n-1, nested blocks
 * included) and returns the uses of each, indexed by id, in one walk: for
 * passes that ask about the readers of many values. Arena-allocated; *n_out
 * gets n. Stale once instructions are added or operands change. */
int *fxir_use_counts(Arena *a, FxFunc *f, int *n_out);
/* Whether `base` is a shared array: a shared FX_ALLOCA, or a fn parameter
 * of Array type (a fn's Array parameter is always a shared array, passed by
 * reference: docs/decisions.md). */
bool fxir_is_shared_array(const FxInst *base);
/* Kernel f's dynamic shared array (`shared s: Array[T, DYN]`), or NULL. */
const FxInst *fxir_dynamic_shared(const FxFunc *f);
/* The FXIR scalar type of a matrix instruction's element type. */
ScalarId fxir_matrix_elem(TgtElem e);
/* The 8-bit float formats a MatMul multiplies (gfx94x's FNUZ pair, gfx12's
 * OCP pair), into Float32. */
bool fxir_float8_operand(ScalarId s);
/* Numbers f's instructions into their ids in walk order (an instruction,
 * the instructions of its blocks, then the next); the count. */
int fxir_number(FxFunc *f);
/* Sharing code (compare.c). Two fns have the same code when they have the
 * same instructions in the same blocks, equal in every field but the name
 * (locations included), and where a reads its k-th parameter b reads its
 * k-th (counting the parameters each reads, in index order). A shape is
 * what comparing needs of one fn, made in one walk (it renumbers f, so
 * shapes compare until f changes). */
typedef struct FxCodeShape {
    FxFunc *f;
    int *rank;              /* per parameter: its place among those read, or -1 */
    int nread;
    uint64_t hash;          /* differs: not the same code */
} FxCodeShape;
void fxir_code_shape(FxFunc *f, FxCodeShape *s);
void fxir_code_shape_free(FxCodeShape *s);
bool fxir_same_code(const FxCodeShape *a, const FxCodeShape *b);
/* Drops the parameters s's fn does not read (FX_PARAM instructions sit at
 * the top of a body); kept[i] = the old index of new parameter i, which
 * must have room for the read ones. The new count. */
int fxir_drop_unread_params(const FxCodeShape *s, int *kept);
/* Replacing the uses of many values in one walk instead of one walk each: a
 * pass numbers f (fxir_forwarding_init), records each value it replaces
 * (fxir_forward) and rewrites the operands of every instruction it reaches
 * afterwards (fxir_forward_operands). A walk that visits an instruction's
 * blocks before the instruction itself reaches every use after its
 * definition (a value is visible after it and in nested blocks; a loop's
 * condition is defined in its blocks[0]), so one walk rewrites them all.
 * Instructions made after the numbering are never forwarded. */
typedef struct FxForwarding {
    FxInst **from, **to;    /* by the id fxir_forwarding_init gave */
    int n;
} FxForwarding;
void fxir_forwarding_init(FxForwarding *fw, Arena *a, FxFunc *f);
void fxir_forward(FxForwarding *fw, FxInst *from, FxInst *to);
void fxir_forward_operands(const FxForwarding *fw, FxInst *i);

/* Names (names.c): the spelling of opcodes, sub-operations (FxBinop, ...;
 * FX_ALLOCA: the FxSpace; FX_MFMA: the matrix instruction's short name),
 * fast-math flag bits, rounding modes and reductions. */
const char *fxir_opcode_name(FxOpcode op);
FxOpcode fxir_opcode_by_name(const char *name, size_t len);   /* FX_OPCODE_COUNT: none */
const char *const *fxir_sub_names(FxOpcode op, int *n);
const char *fxir_sub_name(FxOpcode op, int sub);               /* NULL: the opcode has none */
int fxir_sub_by_name(FxOpcode op, const char *name, size_t len); /* -1: none */
const char *fxir_fmf_name(int bit);
const char *fxir_rounding_name(FfRound r);
int fxir_rounding_by_name(const char *name, size_t len);
const char *fxir_reduce_name(FxReduceKind r);
int fxir_reduce_by_name(const char *name);   /* -1: none */

/* Atomics (atomics.c): NULL when fx.atomic_<op> works on elements of type
 * s, else why not (a static message); sema, the verifier and codegen ask. */
const char *fxir_atomic_type_error(FxAtomic op, ScalarId s);

/* Stable text form (fxcc --print-after). */
void fxir_print_module(FILE *out, FxModule *m);
void fxir_print_func(FILE *out, FxFunc *f);
void fxir_print_program(FILE *out, const FxProgram *p);
/* Reads that text back (read.c): functions, then programs. Instructions are
 * located at their line of f. NULL after located errors. */
FxModule *fxir_read(Arena *a, const SrcFile *f);

#endif
