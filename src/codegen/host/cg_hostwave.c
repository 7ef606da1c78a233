/* cg_hostwave.c - host: the wave model's exchanges (docs/waves.md, "The
 * host's wave model"). wave-emulation rewrote every wave operation into an
 * exchange; an exchange calls ctx->wave_exchange (abi/fxhost.h) with this
 * lane's value in memory form and gets the wave's snapshot. Inside a kernel
 * run as work-item loops, the region code does it (cg_hostregion.c). */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include "abi/fxhost.h"

LLVMValueRef cg_wave_exchange(CgCtx *c, FxInst *i)
{
    LLVMValueRef in_region = cg_region_exchange(c, i);
    if (in_region)
        return in_region;
    const Type *t = i->ops[0]->type;
    LLVMTypeRef mt = cg_mem_type(c, t), ptr = LLVMPointerTypeInContext(c->C, 0);
    LLVMBuilderRef ab = LLVMCreateBuilderInContext(c->C);
    LLVMPositionBuilderAtEnd(ab, c->entry);
    LLVMValueRef slot = LLVMBuildAlloca(ab, mt, "exchange");
    LLVMDisposeBuilder(ab);
    LLVMBuildStore(c->B, cg_to_mem(c, cg_val(c, i->ops[0]), t), slot);
    LLVMTypeRef pt[4] = { ptr, LLVMInt32TypeInContext(c->C), ptr, LLVMInt64TypeInContext(c->C) };
    LLVMTypeRef fty = LLVMFunctionType(ptr, pt, 4, 0);
    LLVMValueRef fp = LLVMBuildLoad2(c->B, ptr, cg_hostctx_field(c, FX_HOSTCTX_wave_exchange, 0), "exchange_fn");
    LLVMValueRef args[4] = { c->hostctx, LLVMConstInt(LLVMInt32TypeInContext(c->C), (unsigned)c->wave_sites++, 0), slot,
                             LLVMConstInt(LLVMInt64TypeInContext(c->C), LLVMABISizeOfType(c->TD, mt), 0) };
    return LLVMBuildCall2(c->B, fty, fp, args, 4, "snapshot");
}

LLVMValueRef cg_wave_active(CgCtx *c, FxInst *i)
{
    LLVMValueRef in_region = cg_region_wave_active(c, i);
    if (in_region)
        return in_region;
    return LLVMBuildLoad2(c->B, LLVMInt64TypeInContext(c->C), cg_hostctx_field(c, FX_HOSTCTX_wave_active, 0), "wave_active");
}
