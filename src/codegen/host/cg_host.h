/* cg_host.h - what host code generation offers the shared core: the host's
 * calling convention and entry points (cg_hostabi.c), the layout of shared
 * memory (cg_hostshared.c), a block as a work-item loop (cg_hostblock.c) or
 * as work-item loops between barriers (cg_hostregion.c), the wave model's
 * exchanges (cg_hostwave.c) and the checker's calls (cg_check.c). Only the
 * shared core and the files of src/codegen/host include it. */
#ifndef FX_CG_HOST_H
#define FX_CG_HOST_H
#include "codegen/cg_internal.h"

/* ---- cg_hostabi.c ---- */
LLVMValueRef cg_hostctx_field(CgCtx *c, int field, int dim);  /* address */
LLVMTypeRef cg_host_ctx_type(CgCtx *c);
LLVMTypeRef cg_abi_field_type(CgCtx *c, int kind, int count);
LLVMTypeRef cg_oob_site_type(CgCtx *c);
/* K__fxhost (or K__fxblock) and the kernel's description for the runtime. */
void cg_host_entry_points(CgCtx *c, CgFunc *cf);
LLVMValueRef *cg_host_unpack_args(CgCtx *c, const FxFunc *f, LLVMValueRef args);
/* The lanes of a wave in the host's code: the emulated GPU's (--arch), else 1. */
int cg_host_wave_size(const CgCtx *c);
/* Whether i (or b) may wait for other work-items: a barrier, an exchange in
 * waves wider than one lane, a call of a fn that waits. */
bool cg_inst_waits(CgCtx *c, const FxInst *i);
bool cg_block_waits(CgCtx *c, const FxBlock *b);

/* ---- cg_check.c ---- */
/* The checker: whether an access to `array` is checked, the
 * call before it, and the barrier's site. */
LLVMTypeRef cg_check_site_type(CgCtx *c);
bool cg_checks_access(CgCtx *c, const FxInst *array);
void cg_check_access(CgCtx *c, FxInst *i, FxInst *array, LLVMValueRef addr, const Type *elem, bool is_write);
void cg_check_barrier(CgCtx *c, FxInst *i);
/* Host code of an add/sub/mul an @index_nowrap kernel promises does not
 * overflow (FXNW_PROMISED): computes a op b (i->sub) and calls
 * ctx->overflow, which does not return, when the signed result wraps.
 * `what` names the operation ("Int32 '+'"). */
LLVMValueRef cg_check_overflow(CgCtx *c, FxInst *i, LLVMValueRef a, LLVMValueRef b, const char *what);

/* ---- cg_hostblock.c ---- */
/* K__fxblock, the block's work-items as a loop */
void cg_host_block_entry(CgCtx *c, CgFunc *cf);
/* One loop of a block's work-items over one dimension: opened with its
 * counter (i32, from 0) in `phi`, closed after the body when the counter
 * reaches extent (at least 1: the body runs before the first test). */
typedef struct CgBlockLoop {
    LLVMBasicBlockRef head;
    LLVMValueRef phi;
} CgBlockLoop;
CgBlockLoop cg_open_block_loop(CgCtx *c, LLVMValueRef fn, const char *name);
void cg_close_block_loop(CgCtx *c, LLVMValueRef fn, CgBlockLoop l, LLVMValueRef extent);

/* ---- cg_hostproof.c ---- */
/* The kernel's accesses to Ptr parameters and static arrays whose indices
 * are affine in the thread ids, to be proved in bounds once per block; NULL
 * when there are none. */
CgProof *cg_proof_plan(CgCtx *c, CgFunc *cf);
/* i1: every access of p is in bounds for every work-item of the block
 * (emitted at the builder, with the kernel's unpacked args and the
 * runtime's ctx). */
LLVMValueRef cg_proof_holds(CgCtx *c, const CgProof *p, LLVMValueRef *args, LLVMValueRef ctx);
/* The kernel's body generated again without p's checks (a new function). */
LLVMValueRef cg_proof_body(CgCtx *c, CgFunc *cf, const CgProof *p);
/* While that body is emitted: whether base[index...] is one of the proved. */
bool cg_proof_covers(const CgCtx *c, const FxInst *base, FxInst *const *index, int nidx);

/* ---- cg_hostregion.c ---- */
/* A kernel with barriers as work-item loops between them.
 * The plan (NULL: the kernel stays on fibers), then the kernel's body; the
 * hooks cg_val and cg_inst call while one is emitted. */
enum { CG_REGION_STATE_BYTES = 256 << 10 };  /* per-work-item copies of one block on the stack of
                                                the thread running it, at most; more go to ctx->state */
enum { CG_REGION_HEAP_BYTES = 64 << 20 };    /* ... which the runtime allocates per thread, at most */
/* Wave exchanges a kernel run as work-item loops may have, at most: each
 * is a loop over the block of its own, which LLVM optimizes on its own.
 * Measured on gfx942's wave model (docs/host-execution.md): the Float64
 * GEMM's 36 cost 0.15 s more of JIT than fibers and run 512^3 0.73 s
 * faster (256^3: 0.09 s); the Int8 GEMM's 68 cost 1.0 s more and save
 * 0.14 s at 512^3. */
enum { CG_REGION_MAX_EXCHANGES = 48 };
CgRegionPlan *cg_region_plan(CgCtx *c, CgFunc *cf);
void cg_emit_regions(CgCtx *c, CgFunc *cf);
LLVMValueRef cg_region_value(CgCtx *c, FxInst *v);
LLVMValueRef cg_region_alloca(CgCtx *c, FxInst *i);
void cg_region_define(CgCtx *c, FxInst *i, LLVMValueRef v);
bool cg_region_return(CgCtx *c, FxInst *ret);
bool cg_region_jump(CgCtx *c, FxInst *jump);
LLVMValueRef cg_region_exchange(CgCtx *c, FxInst *x);
LLVMValueRef cg_region_wave_active(CgCtx *c, FxInst *active);
LLVMValueRef cg_region_param(CgCtx *c, FxInst *param);
bool cg_region_param_origin(CgCtx *c, FxInst *param, LLVMValueRef *origin);
void cg_region_plan_free(CgRegionPlan *p);   /* its maps (the plan is in the arena) */
/* K__fxstate: bytes of ctx->state per lane the plan's block needs (0: none). */
int64_t cg_region_heap_bytes(const CgRegionPlan *p);

/* ---- cg_hostshared.c ---- */
/* Lays out every shared array (fns first, then each kernel's own). */
void cg_layout_shared(CgCtx *c);
/* The bytes of static shared memory kernel cf's block needs
 * (K__fxshared), a multiple of 16; its dynamic array starts there. */
int64_t cg_host_static_shared(CgCtx *c, const CgFunc *cf);

/* ---- cg_hostwave.c: the wave model's exchanges (wave-emulation's FXIR) ---- */
LLVMValueRef cg_wave_exchange(CgCtx *c, FxInst *i);
LLVMValueRef cg_wave_active(CgCtx *c, FxInst *i);

#endif
