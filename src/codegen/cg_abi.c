/* cg_abi.c - functions, kernels and their calling conventions; the built-in
 * thread/block indices. The host's entry points and context are
 * host/cg_hostabi.c.
 *
 * AMDGPU: a kernel is an amdgpu_kernel named exactly as in the source, its
 * kernarg layout the parameter order (Ptr as `ptr addrspace(1)`, `noalias
 * readonly` when const; Boolean/Int4/narrow-float scalars as one byte each),
 * "amdgpu-flat-work-group-size"="1,N" from @launch_bounds. `fn`s are internal
 * always-inline functions.
 *
 * Host: every function takes a trailing FxHostCtx* (abi/fxhost.h); a fn
 * also takes, before it, one i32 per Ptr parameter: the index of the kernel
 * parameter that Ptr came from (-1: unknown), which its bounds checks need.
 * The kernel body is the internal function "fx.kernel.K"; its entry points
 * and description are host/cg_hostabi.c's. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "abi/fxhost.h"

unsigned cg_attr_kind(const char *name)
{
    return LLVMGetEnumAttributeKindForName(name, strlen(name));
}

void cg_fn_attr(CgCtx *c, LLVMValueRef fn, const char *name)
{
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(c->C, cg_attr_kind(name), 0));
}

static void add_param_attr(CgCtx *c, LLVMValueRef fn, unsigned idx, const char *name)
{
    LLVMAddAttributeAtIndex(fn, idx + 1, LLVMCreateEnumAttribute(c->C, cg_attr_kind(name), 0));
}

LLVMValueRef cg_helper_fn(CgCtx *c, const char *name, LLVMTypeRef fty, bool always_inline, bool *is_new)
{
    LLVMValueRef fn = LLVMGetNamedFunction(c->M, name);
    *is_new = fn == NULL;
    if (fn)
        return fn;
    fn = LLVMAddFunction(c->M, name, fty);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    cg_fn_attr(c, fn, "nounwind");
    if (always_inline)
        cg_fn_attr(c, fn, "alwaysinline");
    return fn;
}

static LLVMTypeRef param_type(CgCtx *c, FxFunc *f, const Type *t)
{
    /* device kernarg: storage form (one byte for Boolean/Int4/narrow floats) */
    if (!cg_host_abi(c) && f->kind == FXF_KERNEL)
        return cg_mem_type(c, t);
    if (t->kind == TY_ARRAY)   /* a fn's shared array, by reference */
        return cg_ptr_type(c, c->facts->lds_as);
    return cg_reg_type(c, t);
}

void cg_declare_funcs(CgCtx *c)
{
    for (int k = 0; k < c->fm->funcs.len; k++) {
        FxFunc *f = c->fm->funcs.items[k];
        CgFunc *cf = arena_alloc(c->fm->arena, sizeof *cf);
        cf->f = f;
        /* host fns: after the parameters, for each Ptr parameter the index of
         * the kernel parameter it came from (-1: unknown), for bounds checks */
        int nptr = 0;
        if (cg_host_abi(c) && f->kind == FXF_FN)
            for (int p = 0; p < f->nparams; p++)
                nptr += f->params[p].type->kind == TY_PTR;
        cf->nhidden = nptr;
        int np = f->nparams + nptr + (cg_host_abi(c) ? 1 : 0);
        LLVMTypeRef *pt = arena_alloc(c->fm->arena, sizeof(LLVMTypeRef) * (size_t)(np + 1));
        for (int p = 0; p < f->nparams; p++)
            pt[p] = param_type(c, f, f->params[p].type);
        for (int h = 0; h < nptr; h++)
            pt[f->nparams + h] = LLVMInt32TypeInContext(c->C);
        if (cg_host_abi(c))
            pt[np - 1] = LLVMPointerTypeInContext(c->C, 0);
        LLVMTypeRef ret = (f->kind == FXF_KERNEL || !f->ret) ? LLVMVoidTypeInContext(c->C)
                                                             : cg_reg_type(c, f->ret);
        cf->fnty = LLVMFunctionType(ret, pt, (unsigned)np, 0);
        const char *name = f->name;
        if (f->kind == FXF_FN)
            name = arena_printf(c->fm->arena, "fx.fn.%s", f->name);
        else if (cg_host_abi(c))
            name = arena_printf(c->fm->arena, "fx.kernel.%s", f->name);
        if (LLVMGetNamedFunction(c->M, name))
            cg_error(c, f->loc, "'%s' is defined twice", f->name);
        cf->fn = LLVMAddFunction(c->M, name, cf->fnty);
        cg_fn_attr(c, cf->fn, "nounwind");
        if (f->kind == FXF_FN || cg_host_abi(c))
            LLVMSetLinkage(cf->fn, LLVMInternalLinkage);
        if (f->kind == FXF_FN)
            cg_fn_attr(c, cf->fn, f->outlined ? "noinline" : "alwaysinline");
        if (!cg_host_abi(c)) {
            cg_fn_attr(c, cf->fn, "convergent");
            if (f->kind == FXF_KERNEL) {
                LLVMSetFunctionCallConv(cf->fn, LLVMAMDGPUKERNELCallConv);
                char v[32];
                snprintf(v, sizeof v, "1,%d", f->launch_bounds > 0 ? f->launch_bounds : 1024);
                LLVMAddAttributeAtIndex(cf->fn, LLVMAttributeFunctionIndex,
                    LLVMCreateStringAttribute(c->C, "amdgpu-flat-work-group-size", 27, v,
                                              (unsigned)strlen(v)));
                /* at least 2 waves per SIMD: at most 256 VGPRs, so matrix
                 * accumulators stay in VGPRs (target.h) */
                if (tgt_unified_agprs(c->tgt))
                    LLVMAddAttributeAtIndex(cf->fn, LLVMAttributeFunctionIndex,
                        LLVMCreateStringAttribute(c->C, "amdgpu-waves-per-eu", 19, "2", 1));
                /* hardware float atomics on global memory: fns are inlined,
                 * so the kernel's attribute covers theirs (docs/atomics.md) */
                if (tgt_hw_float_atomics(c->tgt))
                    LLVMAddAttributeAtIndex(cf->fn, LLVMAttributeFunctionIndex,
                        LLVMCreateStringAttribute(c->C, "amdgpu-unsafe-fp-atomics", 24, "true", 4));
            }
        }
        for (int p = 0; p < f->nparams; p++) {
            const Type *t = f->params[p].type;
            if (f->params[p].name)
                LLVMSetValueName2(LLVMGetParam(cf->fn, (unsigned)p), f->params[p].name,
                                  strlen(f->params[p].name));
            if (t->kind == TY_PTR && t->is_const) {
                add_param_attr(c, cf->fn, (unsigned)p, "noalias");
                add_param_attr(c, cf->fn, (unsigned)p, "readonly");
            }
        }
        if (cg_host_abi(c))
            LLVMSetValueName2(LLVMGetParam(cf->fn, (unsigned)(np - 1)), "fxctx", 5);
        cg_map_put(&c->funcs, f, cf);
    }
    /* waiting, through calls, to a fixed point */
    for (bool changed = true; changed;) {
        changed = false;
        for (int k = 0; k < c->fm->funcs.len; k++) {
            CgFunc *cf = cg_map_get(&c->funcs, c->fm->funcs.items[k]);
            if (!cf->waits && cg_block_waits(c, &cf->f->body))
                cf->waits = changed = true;
        }
    }
    for (int k = 0; k < c->fm->funcs.len; k++) {
        CgFunc *cf = cg_map_get(&c->funcs, c->fm->funcs.items[k]);
        cf->regions = cg_region_plan(c, cf);
    }
}

void cg_begin_func(CgCtx *c, CgFunc *cf)
{
    FxFunc *f = cf->f;
    c->cur = cf;
    c->fn = cf->fn;
    c->loop = NULL;
    cg_map_clear(&c->values);
    c->entry = LLVMAppendBasicBlockInContext(c->C, cf->fn, "entry");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->C, cf->fn, "body");
    LLVMPositionBuilderAtEnd(c->B, body);
    c->params = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)(f->nparams + 1));
    c->origins = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)(f->nparams + 1));
    int hidden = 0;
    for (int p = 0; p < f->nparams; p++) {
        LLVMValueRef v = LLVMGetParam(cf->fn, (unsigned)p);
        if (!cg_host_abi(c) && f->kind == FXF_KERNEL)
            v = cg_from_mem(c, v, f->params[p].type);
        c->params[p] = v;
        c->origins[p] = NULL;
        if (cg_host_abi(c) && f->params[p].type->kind == TY_PTR)
            c->origins[p] = f->kind == FXF_KERNEL
                ? LLVMConstInt(LLVMInt32TypeInContext(c->C), (unsigned long long)p, 0)
                : LLVMGetParam(cf->fn, (unsigned)(f->nparams + hidden++));
    }
    c->hostctx = cg_host_abi(c) ? LLVMGetParam(cf->fn, (unsigned)(f->nparams + cf->nhidden)) : NULL;
    c->host_bounds = NULL;
}

void cg_end_func(CgCtx *c)
{
    LLVMBasicBlockRef cur = LLVMGetInsertBlock(c->B);
    if (!LLVMGetBasicBlockTerminator(cur)) {
        LLVMTypeRef rt = LLVMGetReturnType(c->cur->fnty);
        if (LLVMGetTypeKind(rt) == LLVMVoidTypeKind)
            LLVMBuildRetVoid(c->B);
        else /* only reachable if a fn can fall off its end: give a defined value */
            LLVMBuildRet(c->B, LLVMConstNull(rt));
    }
    LLVMPositionBuilderAtEnd(c->B, c->entry);
    LLVMBuildBr(c->B, LLVMGetNextBasicBlock(c->entry));
}

/* !range [lo, hi + 1) on the instruction that reads special value i, from
 * fxir_special_range (the facts the int-ranges pass uses too): LLVM's
 * middle end does not know that block ids and sizes are non-negative, so
 * without it `block_idx // n` keeps its MIN // -1 guard and floor
 * correction (transpose: 105 instructions on gfx942, 89 with it).
 * thread_idx gets none: measured, a !range on llvm.amdgcn.workitem.id
 * makes InstCombine turn sgemm's LDS index adds into `or disjoint`, after
 * which fewer LDS reads pair up (486 -> 522 instructions, 70 -> 84 VGPRs);
 * the backend already knows the range from amdgpu-flat-work-group-size, and
 * the int-ranges pass uses it for nsw/nuw in FXIR. */
static LLVMValueRef with_range(CgCtx *c, FxInst *i, LLVMValueRef v)
{
    int64_t lo, hi;
    fxir_special_range(c->cur->f, i, c->tgt->wave_size, &lo, &hi);
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMMetadataRef md[2] = { LLVMValueAsMetadata(LLVMConstInt(ty, (unsigned long long)lo, 0)),
                              LLVMValueAsMetadata(LLVMConstInt(ty, (unsigned long long)hi + 1, 0)) };
    LLVMSetMetadata(v, LLVMGetMDKindIDInContext(c->C, "range", 5),
                    LLVMMetadataAsValue(c->C, LLVMMDNodeInContext2(c->C, md, 2)));
    return v;
}

LLVMValueRef cg_special(CgCtx *c, FxInst *i)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    int dim = i->dim < 0 || i->dim > 2 ? 0 : i->dim;
    static const char xyz[] = "xyz";
    if (cg_host_abi(c)) {
        if (i->sub == FXS_LANE_ID) {   /* wave-emulation computes it on the host */
            cg_error(c, i->loc, "internal compiler error: fx.lane_id() reached host code generation");
            return LLVMGetPoison(i32);
        }
        int field = i->sub == FXS_THREAD_IDX ? FX_HOSTCTX_thread_idx : i->sub == FXS_BLOCK_IDX ? FX_HOSTCTX_block_idx
                  : i->sub == FXS_BLOCK_DIM ? FX_HOSTCTX_block_dim : FX_HOSTCTX_grid_dim;
        LLVMValueRef v = LLVMBuildLoad2(c->B, i32, cg_hostctx_field(c, field, dim), "");
        LLVMSetAlignment(v, 4);
        return i->sub == FXS_THREAD_IDX ? v : with_range(c, i, v);   /* as on the GPU: with_range() */
    }
    char name[48];
    switch (i->sub) {
    case FXS_THREAD_IDX:
        snprintf(name, sizeof name, "llvm.amdgcn.workitem.id.%c", xyz[dim]);
        return cg_intrinsic(c, name, NULL, 0, NULL, 0);   /* no !range: see with_range() */
    case FXS_BLOCK_IDX:
        snprintf(name, sizeof name, "llvm.amdgcn.workgroup.id.%c", xyz[dim]);
        return with_range(c, i, cg_intrinsic(c, name, NULL, 0, NULL, 0));
    case FXS_BLOCK_DIM:
    case FXS_GRID_DIM: {
        /* code object v5 implicit arguments: hidden_block_count_{x,y,z} (u32)
         * at 0/4/8, hidden_group_size_{x,y,z} (u16) at 12/14/16 */
        LLVMValueRef ia = cg_intrinsic(c, "llvm.amdgcn.implicitarg.ptr", NULL, 0, NULL, 0);
        bool bd = i->sub == FXS_BLOCK_DIM;
        LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(c->C),
                                        (unsigned long long)(bd ? 12 + 2 * dim : 4 * dim), 0);
        LLVMValueRef p = LLVMBuildGEP2(c->B, LLVMInt8TypeInContext(c->C), ia, &off, 1, "");
        LLVMTypeRef lt = bd ? LLVMInt16TypeInContext(c->C) : i32;
        LLVMValueRef v = LLVMBuildLoad2(c->B, lt, p, bd ? "block_dim" : "grid_dim");
        LLVMSetAlignment(v, bd ? 2 : 4);
        with_range(c, i, v);   /* block_dim's bounds fit its 16 bits (at most 1024) */
        return bd ? LLVMBuildZExt(c->B, v, i32, "") : v;
    }
    case FXS_LANE_ID: {
        LLVMValueRef a[2] = { LLVMConstInt(i32, 0xffffffffu, 0), LLVMConstInt(i32, 0, 0) };
        LLVMValueRef lo = cg_intrinsic(c, "llvm.amdgcn.mbcnt.lo", NULL, 0, a, 2);
        if (c->tgt->wave_size == 32)
            return lo;
        a[1] = lo;
        return cg_intrinsic(c, "llvm.amdgcn.mbcnt.hi", NULL, 0, a, 2);
    }
    default:
        cg_error(c, i->loc, "internal compiler error: special value %d", i->sub);
        return LLVMGetPoison(i32);
    }
}
