/* cg_hostblock.c - host: a kernel's whole block as one function.
 *
 * For a kernel whose work-items never wait for each other (no barrier, no
 * wave exchange among several lanes), the host module also exports
 *   void K__fxblock(void **args, FxHostCtx *ctx);
 * which runs every work-item of the block ctx->block_idx, x fastest, as a
 * loop nest around the kernel body (abi/fxhost.h). The runtime then calls
 * once per block instead of once per work-item, and because the body is
 * inlined into the loop, LLVM sees the work-item loop: the arguments are
 * unpacked once, loop-invariant work (block_idx * block_dim, ...) leaves the
 * loop, and straight-line bodies can be unrolled or vectorized across
 * work-items.
 *
 * The work-item's thread_idx lives in a private copy of ctx, the `item`:
 * the runtime's ctx stays as it was passed, and the stores of the loop
 * counters reach the body's loads of thread_idx directly. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include "abi/fxhost.h"

CgBlockLoop cg_open_block_loop(CgCtx *c, LLVMValueRef w, const char *name)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMBasicBlockRef from = LLVMGetInsertBlock(c->B);
    CgBlockLoop l = { LLVMAppendBasicBlockInContext(c->C, w, name), NULL };
    LLVMBuildBr(c->B, l.head);
    LLVMPositionBuilderAtEnd(c->B, l.head);
    l.phi = LLVMBuildPhi(c->B, i32, name);
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    LLVMAddIncoming(l.phi, &zero, &from, 1);
    return l;
}

/* Counts the loop's counter up to `extent` (at least 1: launches are never
 * empty, so the body runs before the first test). */
void cg_close_block_loop(CgCtx *c, LLVMValueRef w, CgBlockLoop l, LLVMValueRef extent)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMValueRef next = LLVMBuildNUWAdd(c->B, l.phi, LLVMConstInt(i32, 1, 0), "");
    LLVMBasicBlockRef latch = LLVMGetInsertBlock(c->B);
    LLVMAddIncoming(l.phi, &next, &latch, 1);
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->C, w, "");
    LLVMBuildCondBr(c->B, LLVMBuildICmp(c->B, LLVMIntULT, next, extent, ""), l.head, done);
    LLVMPositionBuilderAtEnd(c->B, done);
}

static LLVMValueRef load_field(CgCtx *c, int field, int dim)
{
    LLVMValueRef v = LLVMBuildLoad2(c->B, LLVMInt32TypeInContext(c->C), cg_hostctx_field(c, field, dim), "");
    LLVMSetAlignment(v, 4);
    return v;
}

static void store_field(CgCtx *c, int field, int dim, LLVMValueRef v)
{
    LLVMSetAlignment(LLVMBuildStore(c->B, v, cg_hostctx_field(c, field, dim)), 4);
}

/* The loop nest z, y, x around one call of the kernel body `body`. */
static void emit_block_loops(CgCtx *c, CgFunc *cf, LLVMValueRef body, LLVMValueRef w, LLVMValueRef *av,
                             LLVMValueRef item)
{
    LLVMValueRef extent[3];
    for (int d = 0; d < 3; d++)
        extent[d] = load_field(c, FX_HOSTCTX_block_dim, d);   /* c->hostctx is still the runtime's ctx */
    static const char *names[3] = { "item.x", "item.y", "item.z" };
    CgBlockLoop loop[3];
    c->hostctx = item;
    /* each counter is stored where it changes: the body never writes thread_idx */
    for (int d = 2; d >= 0; d--) {
        loop[d] = cg_open_block_loop(c, w, names[d]);
        store_field(c, FX_HOSTCTX_thread_idx, d, loop[d].phi);
    }
    av[cf->f->nparams] = item;
    LLVMBuildCall2(c->B, cf->fnty, body, av, (unsigned)cf->f->nparams + 1, "");
    for (int d = 0; d < 3; d++)
        cg_close_block_loop(c, w, loop[d], extent[d]);
}

/* A work-item's private copy of the runtime's ctx: the alloca in the
 * entry block, where LLVM's SROA takes allocas apart. */
static LLVMValueRef item_alloca(CgCtx *c)
{
    return LLVMBuildAlloca(c->B, cg_host_ctx_type(c), "item");
}

/* ... filled from ctx where the loops that use it start. */
static void fill_item(CgCtx *c, LLVMValueRef item, LLVMValueRef ctx)
{
    LLVMBuildMemCpy(c->B, item, 8, ctx, 8, LLVMSizeOf(cg_host_ctx_type(c)));
}

static LLVMValueRef item_copy(CgCtx *c, LLVMValueRef ctx)
{
    LLVMValueRef item = item_alloca(c);
    fill_item(c, item, ctx);
    return item;
}

/* With accesses proved once per block (cg_hostproof.c): the proof, then
 * the loops of the body without their checks when it holds, else of the
 * checked body. Each loop has its own copy of ctx, made where it starts:
 * in the unchecked one nothing lets the copy escape, so it can live in
 * registers, and the checked one's whole copy (which wide loads make,
 * right after the runtime's narrow stores of block_idx) is not paid for
 * by the blocks that do not take it. */
static void emit_proved_loops(CgCtx *c, CgFunc *cf, const CgProof *p, LLVMValueRef w, LLVMValueRef *av,
                              LLVMValueRef ctx)
{
    LLVMValueRef fast_item = item_alloca(c), item = item_alloca(c);
    LLVMValueRef twin = cg_proof_body(c, cf, p);   /* emitting it moved c's function state */
    c->hostctx = ctx;
    LLVMValueRef holds = cg_proof_holds(c, p, av, ctx);
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(c->C, w, "proved");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(c->C, w, "checked");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->C, w, "done");
    LLVMBuildCondBr(c->B, holds, fast, slow);
    LLVMPositionBuilderAtEnd(c->B, fast);
    fill_item(c, fast_item, ctx);
    emit_block_loops(c, cf, twin, w, av, fast_item);
    LLVMBuildBr(c->B, done);
    c->hostctx = ctx;   /* emit_block_loops leaves the item in it */
    LLVMPositionBuilderAtEnd(c->B, slow);
    fill_item(c, item, ctx);
    emit_block_loops(c, cf, cf->fn, w, av, item);
    LLVMBuildBr(c->B, done);
    LLVMPositionBuilderAtEnd(c->B, done);
}

void cg_host_block_entry(CgCtx *c, CgFunc *cf)
{
    FxFunc *f = cf->f;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c->C, 0);
    LLVMTypeRef pt[2] = { ptr, ptr };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), pt, 2, 0);
    LLVMValueRef w = LLVMAddFunction(c->M, arena_printf(c->fm->arena, "%s__fxblock", f->name), fty);
    cg_fn_attr(c, w, "nounwind");
    /* the body is inlined into both entry points, here inside the loop */
    cg_fn_attr(c, cf->fn, "alwaysinline");
    LLVMBuilderRef saved_b = c->B;
    LLVMValueRef saved_ctx = c->hostctx;
    c->B = LLVMCreateBuilderInContext(c->C);
    LLVMPositionBuilderAtEnd(c->B, LLVMAppendBasicBlockInContext(c->C, w, "entry"));
    cg_debug_wrapper(c, w, f);
    LLVMValueRef *av = cg_host_unpack_args(c, f, LLVMGetParam(w, 0));
    LLVMValueRef ctx = LLVMGetParam(w, 1);
    c->hostctx = ctx;
    const CgProof *proof = cg_proof_plan(c, cf);
    if (proof)
        emit_proved_loops(c, cf, proof, w, av, ctx);
    else
        emit_block_loops(c, cf, cf->fn, w, av, item_copy(c, ctx));
    LLVMBuildRetVoid(c->B);
    LLVMDisposeBuilder(c->B);
    c->B = saved_b;
    c->hostctx = saved_ctx;
}
