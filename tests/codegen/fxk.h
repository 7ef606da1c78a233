/* fxk.h - FXIR for the codegen and runtime tests without sema: fixed
 * kernels read from .fxir files (kernels/), and kernels generated per
 * operation and type with the builder. */
#ifndef FX_TEST_FXK_H
#define FX_TEST_FXK_H
#include "fxir/builder.h"

typedef struct Kb {
    Arena *a;
    FxModule *m;
    FxFunc *f;
    FxBuilder b;    /* where instructions go */
} Kb;

extern const Loc fxk_noloc;

FxFunc *fxk_func(Kb *k, const char *name, FxFuncKind kind, int nparams, const Type *ret);
void fxk_param_decl(Kb *k, int i, const char *name, const Type *t);
FxInst *fxk_param(Kb *k, int i);
FxInst *fxk_int(Kb *k, ScalarId s, int64_t v);
FxInst *fxk_int128(Kb *k, ScalarId s, uint64_t lo, uint64_t hi);
FxInst *fxk_f32(Kb *k, float v);
FxInst *fxk_op(Kb *k, FxOpcode op, int sub, const Type *t, int nops, ...);
FxInst *fxk_special(Kb *k, FxSpecial s, int dim);
const Type *fxk_s(ScalarId s);
const Type *fxk_ptr(Kb *k, ScalarId s, bool is_const);

/* The fixed test kernels, read from the .fxir files of tests/codegen/kernels. */
FxFunc *fxk_saxpy(Kb *k, const char *name);          /* the spec's saxpy, @launch_bounds(256) */
FxFunc *fxk_saxpy_call(Kb *k);                       /* saxpy through fn axpy1(a, x, y) -> a*x + y */
FxFunc *fxk_loop(Kb *k);                             /* loop with break/continue and var slots */
FxFunc *fxk_reverse(Kb *k);                          /* reverse each block of 64 through shared memory */
/* every function of kernels/FILE.fxir; returns the one called name */
FxFunc *fxk_read(Kb *k, const char *file, const char *name);
/* out[i] = a[i] OP b[i] over type s; op is an FxBinop or -1 for fx.ceildiv */
FxFunc *fxk_binop_kernel(Kb *k, const char *name, ScalarId s, int op);
/* a[i] % b[i] over type s beside q = a[i] // b[i], by the same divisor in
 * the same block; src/codegen/cg_expr.c computes the % as a - q * b when
 * something uses q. */
typedef enum {
    FXK_Q_UNUSED,   /* out[i] = a % b */
    FXK_Q_STORED,   /* out[i] = q, then out[i] = a % b (the output is the %) */
    FXK_Q_XOR,      /* out[i] = q ^ (a % b) */
} FxkQuotient;
FxFunc *fxk_pmod_kernel(Kb *k, const char *name, ScalarId s, FxkQuotient q_use);
/* out[i] = CAST(a[i]) from -> to */
FxFunc *fxk_cast_kernel(Kb *k, const char *name, ScalarId from, ScalarId to);
/* out[i] = fma(a[i], b[i], c[i]) */
FxFunc *fxk_fma_kernel(Kb *k, const char *name, ScalarId s);
/* out[i] = atomic_add(counter, 0, 1) over a Ptr (device scope) */
FxFunc *fxk_atomic_kernel(Kb *k, const char *name);

/* out[i] = fx.<fn>(a[i]) (FxMathFn) */
FxFunc *fxk_math_kernel(Kb *k, const char *name, ScalarId s, int fn);
/* out[i] = minmax(a[i], b[i]) (FxMinMax) */
FxFunc *fxk_minmax_kernel(Kb *k, const char *name, ScalarId s, int which);
/* out[i] = cmp(a[i], b[i]) as Boolean (FxCmp) */
FxFunc *fxk_cmp_kernel(Kb *k, const char *name, ScalarId s, int cmp);
/* out[i] = unop(a[i]) (FxUnop) */
FxFunc *fxk_unop_kernel(Kb *k, const char *name, ScalarId s, int unop);
/* old = atomic op on p[idx] (a Ptr) or a shared array, written to out[thread] */
FxFunc *fxk_atomic_op_kernel(Kb *k, const char *name, ScalarId s, int op, bool shared);
/* vector ops on Float32x4: splat, select on a lane compare, max, extract, insert */
FxFunc *fxk_vector_kernel(Kb *k, const char *name);
/* Int4 and Boolean storage, a Boolean parameter */
FxFunc *fxk_narrow_int_kernel(Kb *k, const char *name);
/* a private 4x8 Array: zero-initialized, row-major */
FxFunc *fxk_array_kernel(Kb *k, const char *name);
/* reads every special value: out[16*g + j] */
FxFunc *fxk_specials_kernel(Kb *k, const char *name);

/* out[i] = a[i] OP b[i] over any scalar/vector type t (FxBinop, or -1 for ceildiv) */
FxFunc *fxk_vbinop_kernel(Kb *k, const char *name, const Type *t, int op);
/* out[i] = CAST or BITCAST of a[i] between any scalar/vector types */
FxFunc *fxk_vconv_kernel(Kb *k, const char *name, const Type *from, const Type *to, FxOpcode op);
/* out[i] = a[i].to(to, rounding_mode=rm) */
FxFunc *fxk_round_kernel(Kb *k, const char *name, const Type *from, const Type *to, FfRound rm);
/* fn relu(x: Int32) -> Int32 with an early return, and
 * kernel early(out: Ptr[Int32], n: Int32): returns early when thread_idx.x >= n,
 * else out[t] = relu(t - 5) */
FxFunc *fxk_early_return(Kb *k);

Kb fxk_begin(const char *source_name);
/* Verifies the module (fxir_verify) and frees it; a module that does not
 * verify counts in fxk_unverified, which the suites check last. */
void fxk_end(Kb *k);
extern int fxk_unverified;

#endif
