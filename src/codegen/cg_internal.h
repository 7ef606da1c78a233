/* cg_internal.h - what every code generation file shares: the state of a
 * compilation (CgCtx) and the helpers both targets use (not part of the
 * public API). What only host code generation offers is in host/cg_host.h,
 * what only AMDGPU's is in amdgpu/cg_amdgpu.h (docs/architecture.md,
 * "Code generation"): the files of the shared core include either, the
 * files of one group never include the other's. */
#ifndef FX_CG_INTERNAL_H
#define FX_CG_INTERNAL_H
#include <stddef.h>
#include <stdint.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include "codegen/codegen.h"


/* A pointer-keyed hash map (open addressing). */
typedef struct CgMap {
    const void **keys;
    void **vals;
    size_t cap, len;
} CgMap;
void cg_map_put(CgMap *m, const void *key, void *val);
void *cg_map_get(const CgMap *m, const void *key);
void cg_map_clear(CgMap *m);
void cg_map_free(CgMap *m);

typedef struct CgRegionPlan CgRegionPlan;
typedef struct CgProof CgProof;   /* host/cg_hostproof.c */

typedef struct CgLoop {
    LLVMBasicBlockRef cont, brk;
    struct CgLoop *outer;
} CgLoop;

/* What codegen knows about one FXIR function. */
typedef struct CgFunc {
    FxFunc *f;
    LLVMValueRef fn;
    LLVMTypeRef fnty;
    bool waits;             /* host: may wait for other work-items (a barrier, or an exchange in
                               waves wider than one lane), directly or through calls */
    int64_t shared_own;     /* host: bytes of this function's own shared arrays */
    int64_t shared_base;    /* host: offset of its first shared array in ctx->shared */
    int64_t dyn_elem_bytes; /* host kernels: the element stride of its dynamic shared
                               array (Array[T, DYN]), 0 without one */
    int nhidden;            /* host fns: trailing i32 origins, one per Ptr parameter */
    CgRegionPlan *regions;  /* host kernels that wait: run as work-item loops between their
                               barriers (host/cg_hostregion.c), or NULL: on fibers */
} CgFunc;

typedef struct CgArrayNote {
    Loc loc;
    const char *text;
} CgArrayNote;

/* A kernel's private memory, as cg_check_memory_limits() counted it. */
typedef struct CgKernelInfo {
    const FxFunc *f;
    int64_t private_bytes, shared_bytes;
    CgArrayNote *notes, *shared_notes;
    int nnotes, nshared_notes;
} CgKernelInfo;

struct CgModule {
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMTargetMachineRef tm;
    bool host;
    int opt_level;
    char *what;             /* "kernel(s) a, b" for internal-error messages */
    char *backend_error;    /* first error LLVM reported through the context */
    const TgtTarget *target;
    const FxModule *fm;     /* for the crash note (cg_crash.c); outlives the writes */
    CgKernelInfo *kernels;  /* in the FxModule's arena, which outlives the writes */
    int nkernels;
};

typedef struct CgCtx {
    FxModule *fm;
    CgOptions opt;
    const TgtTarget *tgt;           /* what is compiled for */
    const TgtCodegenFacts *facts;   /* what its LLVM backend computes exactly */
    LLVMContextRef C;
    LLVMModuleRef M;
    LLVMTargetMachineRef TM;
    LLVMTargetDataRef TD;
    LLVMBuilderRef B;
    int errors;
    LLVMDIBuilderRef dib;           /* -g (cg_debug.c); NULL without */
    LLVMMetadataRef di_file, di_scope;

    CgMap funcs;            /* FxFunc* -> CgFunc* */
    CgMap shared;           /* FxInst* (shared ALLOCA) -> device: global; host: (offset + 1) */
    CgMap floordivs;        /* divisor FxInst* -> PtrVec* of the floor divisions by it (cg_expr.c) */
    CgMap floordivs_used;   /* the floor divisions something uses */
    bool floordivs_found;   /* both are filled (once per module, when first asked) */
    int64_t fn_shared_total;/* host: bytes of all fns' shared arrays (laid out first) */

    /* helper definitions written as IR text (syncscoped atomics/fences) */
    char *helper_ir;
    size_t helper_len, helper_cap;
    PtrVec helper_names;

    LLVMTypeRef hostctx_ty; /* struct FxHostCtx */

    /* the function being emitted */
    CgFunc *cur;
    LLVMValueRef fn;
    LLVMBasicBlockRef entry; /* holds the allocas only; branches to the body */
    LLVMValueRef *params;    /* register-form parameter values */
    LLVMValueRef hostctx;    /* host: the FxHostCtx* argument */
    LLVMValueRef host_bounds; /* host kernel: ctx->bounds, loaded in the entry block (cg_memory.c) */
    const CgProof *proved;   /* host: the accesses whose checks the body emitted now leaves out */
    LLVMValueRef *origins;   /* host: per Ptr parameter, the kernel parameter index it came from (i32) */
    CgMap values;            /* FxInst* -> LLVMValueRef */
    CgRegionPlan *regions;   /* host: the kernel emitted as work-item loops, or NULL */
    FxJudged *divergence;    /* verdicts on fns (fxir_divergent_barriers): FXIR does not change here */
    int wave_sites;          /* host: exchanges numbered so far, in program order */
    CgLoop *loop;

    /* AMD's device math library (amdgpu/cg_devlib.c) */
    int devlib_state;        /* 0: not looked for yet */
    const char *devlib_dir;  /* where ocml.bc is, or NULL */
    const char *devlib_searched;
    bool devlib_used;
    bool ockl_used;          /* fx.printf/fx.assert: ockl.bc's printf (cg_printf.c) */
} CgCtx;

/* The host's calling convention differs from a kernel's: every function
 * takes an FxHostCtx (abi/fxhost.h) and shared memory lives in it. */
static inline bool cg_host_abi(const CgCtx *c) { return c->tgt->kind == TGT_HOST; }

/* ---- cg_module.c ---- */
void cg_error(CgCtx *c, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
const char *cg_tyname(CgCtx *c, const Type *t);
/* A function defined by IR text, linked in at the end of cg_build. `def` is
 * the whole definition (plus any declarations it needs); it gets internal
 * linkage after linking. Returns the declaration in c->M. */
LLVMValueRef cg_text_helper(CgCtx *c, const char *name, LLVMTypeRef fnty, const char *def);
/* Another function the text of an earlier cg_text_helper defines. */
LLVMValueRef cg_text_helper_sibling(CgCtx *c, const char *name, LLVMTypeRef fnty);

/* ---- cg_types.c ---- */
int cg_width(ScalarId s);
bool cg_is_signed(ScalarId s);   /* signed integers (Index included); false for Boolean/unsigned */
LLVMTypeRef cg_scalar_reg(CgCtx *c, ScalarId s);
LLVMTypeRef cg_scalar_mem(CgCtx *c, ScalarId s);
LLVMTypeRef cg_reg_type(CgCtx *c, const Type *t);
LLVMTypeRef cg_mem_type(CgCtx *c, const Type *t);
LLVMTypeRef cg_stride_type(CgCtx *c, const Type *t);
LLVMTypeRef cg_ptr_type(CgCtx *c, unsigned as);
unsigned cg_global_as(CgCtx *c);
LLVMValueRef cg_to_mem(CgCtx *c, LLVMValueRef v, const Type *t);
LLVMValueRef cg_from_mem(CgCtx *c, LLVMValueRef v, const Type *t);
LLVMValueRef cg_const(CgCtx *c, const Type *t, FxConst k);
LLVMValueRef cg_splat_const(LLVMTypeRef ty, LLVMValueRef scalar);  /* ty scalar or vector */
LLVMValueRef cg_splat_value(CgCtx *c, LLVMTypeRef vecty, LLVMValueRef scalar);
LLVMValueRef cg_iconst(LLVMTypeRef ty, int64_t v);                  /* sign-extended, splat */
LLVMValueRef cg_iconst_words(LLVMTypeRef ty, uint64_t lo, uint64_t hi);
LLVMValueRef cg_imin(LLVMTypeRef ty);                                /* signed minimum */
LLVMValueRef cg_fconst(LLVMTypeRef ty, double v);
LLVMTypeRef cg_elem_llty(LLVMTypeRef ty);
LLVMTypeRef cg_same_shape(CgCtx *c, LLVMTypeRef like, LLVMTypeRef elem);
LLVMValueRef cg_intrinsic(CgCtx *c, const char *name, LLVMTypeRef *over, int nover,
                          LLVMValueRef *args, int nargs);
LLVMValueRef cg_fmf(LLVMValueRef v, unsigned fmf);
LLVMValueRef cg_index64(CgCtx *c, LLVMValueRef idx, ScalarId s);
LLVMValueRef cg_cstring(CgCtx *c, const char *s);   /* a private constant C string */
LLVMValueRef cg_private_constant(CgCtx *c, LLVMValueRef init, const char *name);   /* a module-private constant */

/* ---- cg_expr.c ---- */
LLVMValueRef cg_binop(CgCtx *c, FxInst *i);
LLVMValueRef cg_cmp(CgCtx *c, FxInst *i);
LLVMValueRef cg_unop(CgCtx *c, FxInst *i);
/* fx.max/min (FxMinMax) of two values of scalar (element) type s; NULL
 * when s has no order codegen supports. */
LLVMValueRef cg_minmax_values(CgCtx *c, FxMinMax which, ScalarId s, unsigned fmf, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cg_minmax(CgCtx *c, FxInst *i);
LLVMValueRef cg_ceildiv(CgCtx *c, FxInst *i);
LLVMValueRef cg_fma(CgCtx *c, FxInst *i);
LLVMValueRef cg_vector_op(CgCtx *c, FxInst *i);   /* SPLAT, EXTRACT, INSERT, SELECT, BITCAST */

/* ---- cg_convert.c ---- */
LLVMValueRef cg_cast(CgCtx *c, FxInst *i);
/* Float-to-float conversion of v (scalar/vector) rounding to nearest even. */
LLVMValueRef cg_fconvert(CgCtx *c, LLVMValueRef v, ScalarId from, ScalarId to);
/* f64 (scalar/vector) to f32 rounding to odd (so that a second rounding is exact). */
LLVMValueRef cg_f64_to_f32_odd(CgCtx *c, LLVMValueRef v);

/* ---- cg_math.c ---- */
LLVMValueRef cg_math(CgCtx *c, FxInst *i);
LLVMValueRef cg_fpow(CgCtx *c, FxInst *i, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cg_fmod_py(CgCtx *c, LLVMValueRef a, LLVMValueRef b, unsigned fmf);
LLVMValueRef cg_ldexp(CgCtx *c, FxInst *i);        /* FX_LDEXP */
LLVMValueRef cg_frexp_exp(CgCtx *c, FxInst *i);    /* FX_FREXP_EXP */

/* ---- cg_mathfn.c ---- */
/* FX_MATH for the functions of fxir/fxmath.h (erf ... atan2). */
LLVMValueRef cg_mathfn(CgCtx *c, FxInst *i);
/* fn (of type fty, on scalars) applied to args of type ty: one call, or one
 * per lane of a vector (at most two operands). */
LLVMValueRef cg_call_lanewise(CgCtx *c, LLVMTypeRef fty, LLVMValueRef fn, LLVMValueRef *args, int nargs,
                              LLVMTypeRef ty, unsigned fmf);

/* ---- cg_crash.c: "currently compiling" for fatal errors and crashes ---- */
void cg_crash_begin(const FxModule *m);                     /* cg_build starts */
void cg_crash_func(const FxFunc *f);                        /* its LLVM IR is built next */
void cg_crash_line(int line);                               /* the source line being built */
void cg_crash_phase(const FxModule *m, const char *phase);  /* LLVM works on every kernel */
void cg_crash_end(void);                                    /* the module is freed or handed over */

/* ---- cg_memory.c ---- */
LLVMValueRef cg_alloca(CgCtx *c, FxInst *i);
LLVMValueRef cg_load(CgCtx *c, FxInst *i);
LLVMValueRef cg_ptr_offset(CgCtx *c, FxInst *i);
void cg_store(CgCtx *c, FxInst *i);
LLVMValueRef cg_atomic(CgCtx *c, FxInst *i);
void cg_fence(CgCtx *c, FxInst *i);
/* host: the kernel parameter index (i32) a Ptr value came from, or NULL */
LLVMValueRef cg_ptr_origin(CgCtx *c, FxInst *v);
void cg_barrier(CgCtx *c, FxInst *i);
/* docs/limits.md: every kernel's shared arrays (its own and its fns') fit
 * the target's LDS, and its private arrays CG_PRIVATE_ARRAY_BYTES; located
 * errors naming the arrays otherwise. */
enum { CG_PRIVATE_ARRAY_BYTES = 65536 };
bool cg_check_memory_limits(CgCtx *c);
/* Per kernel, its private arrays (inlined fns' copies included) and its
 * shared arrays, with a located note for each, for the error when LLVM
 * finds the kernel's scratch or LDS over the target's limit; in the
 * FxModule's arena. */
CgKernelInfo *cg_kernel_infos(CgCtx *c, int *n);

/* ---- cg_abi.c ---- */
unsigned cg_attr_kind(const char *name);                         /* LLVM's kind number of an attribute */
void cg_fn_attr(CgCtx *c, LLVMValueRef fn, const char *name);   /* an enum attribute, e.g. "nounwind" */
/* The module's internal nounwind function `name`: the existing one, or a new
 * empty one (*is_new) for the caller to define. */
LLVMValueRef cg_helper_fn(CgCtx *c, const char *name, LLVMTypeRef fty, bool always_inline, bool *is_new);
void cg_declare_funcs(CgCtx *c);
void cg_begin_func(CgCtx *c, CgFunc *cf);
void cg_end_func(CgCtx *c);
LLVMValueRef cg_special(CgCtx *c, FxInst *i);
/* -g (cg_debug.c): the compile unit, a subprogram per function, a source
 * position per FXIR instruction. */
void cg_debug_begin(CgCtx *c);
void cg_debug_func(CgCtx *c, CgFunc *cf);
void cg_debug_loc(CgCtx *c, const FxInst *i);
void cg_debug_wrapper(CgCtx *c, LLVMValueRef w, const FxFunc *f);
void cg_debug_end_func(CgCtx *c);
void cg_debug_finish(CgCtx *c);

/* ---- cg_control.c ---- */
LLVMValueRef cg_val(CgCtx *c, FxInst *i);
void cg_emit_body(CgCtx *c, FxBlock *b);
/* Instructions from `from` up to (not including) `to` (NULL: the block's end). */
void cg_emit_range(CgCtx *c, FxInst *from, FxInst *to);

/* cg_printf.c: fx.printf and fx.assert (docs/debugging.md). */
void cg_print(CgCtx *c, FxInst *i);
void cg_assert(CgCtx *c, FxInst *i);

/* cg_data.c: the module's exported constant byte strings (launch plans). */
void cg_emit_data(CgCtx *c);

#endif
