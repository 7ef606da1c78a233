/* cg_hostabi.c - host: the calling convention's context (FxHostCtx,
 * abi/fxhost.h) as LLVM types, and a kernel's entry points and the
 * description the runtime reads: K__fxhost(args, ctx) unpacks args[i] (a
 * pointer to parameter i's value in its storage form) and calls the kernel
 * body "fx.kernel.K"; a kernel that never waits also gets K__fxblock, the
 * same over a whole block (cg_hostblock.c); K__fxshared (i64), K__fxsync and
 * K__fxwave (i32) and K__fxparams (names and Ptr element strides) describe
 * the kernel to the runtime. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include <stddef.h>
#include "abi/fxhost.h"

/* The host ABI's structs as LLVM types, from the same field lists as the C
 * structs of abi/fxhost.h. */
LLVMTypeRef cg_abi_field_type(CgCtx *c, int kind, int count)
{
    LLVMTypeRef t = kind == FX_ABI_I32 ? LLVMInt32TypeInContext(c->C)
                  : kind == FX_ABI_I64 ? LLVMInt64TypeInContext(c->C) : LLVMPointerTypeInContext(c->C, 0);
    return count ? LLVMArrayType2(t, (uint64_t)count) : t;
}

#define FIELD_TYPE(name, ctype, kind, count, suffix) cg_abi_field_type(c, kind, count),
#define FIELD_COUNT(name, ctype, kind, count, suffix) count,

static const int hostctx_counts[FX_HOSTCTX_NFIELDS] = { FX_HOSTCTX_FIELDS(FIELD_COUNT) };

LLVMTypeRef cg_oob_site_type(CgCtx *c)
{
    LLVMTypeRef el[FX_OOBSITE_NFIELDS] = { FX_OOBSITE_FIELDS(FIELD_TYPE) };
    return LLVMStructTypeInContext(c->C, el, FX_OOBSITE_NFIELDS, 0);
}

LLVMTypeRef cg_check_site_type(CgCtx *c)
{
    LLVMTypeRef el[FX_CHECKSITE_NFIELDS] = { FX_CHECKSITE_FIELDS(FIELD_TYPE) };
    return LLVMStructTypeInContext(c->C, el, FX_CHECKSITE_NFIELDS, 0);
}

static LLVMTypeRef param_info_type(CgCtx *c)
{
    LLVMTypeRef el[FX_PARAMINFO_NFIELDS] = { FX_PARAMINFO_FIELDS(FIELD_TYPE) };
    return LLVMStructTypeInContext(c->C, el, FX_PARAMINFO_NFIELDS, 0);
}

LLVMTypeRef cg_host_ctx_type(CgCtx *c)
{
    if (!c->hostctx_ty) {
        LLVMTypeRef el[FX_HOSTCTX_NFIELDS] = { FX_HOSTCTX_FIELDS(FIELD_TYPE) };
        c->hostctx_ty = LLVMStructCreateNamed(c->C, "struct.FxHostCtx");
        LLVMStructSetBody(c->hostctx_ty, el, FX_HOSTCTX_NFIELDS, 0);
    }
    return c->hostctx_ty;
}

/* Address of FxHostCtx field `field` (FX_HOSTCTX_*), element `dim` of an array field. */
LLVMValueRef cg_hostctx_field(CgCtx *c, int field, int dim)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMValueRef idx[3] = { LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, (unsigned)field, 0),
                            LLVMConstInt(i32, (unsigned)dim, 0) };
    return LLVMBuildGEP2(c->B, cg_host_ctx_type(c), c->hostctx, idx, hostctx_counts[field] ? 3 : 2, "");
}

int cg_host_wave_size(const CgCtx *c) { return c->opt.wave_size > 1 ? c->opt.wave_size : 1; }

bool cg_inst_waits(CgCtx *c, const FxInst *i)
{
    if (i->op == FX_BARRIER || (i->op == FX_WAVE_EXCHANGE && cg_host_wave_size(c) > 1))
        return true;
    if (i->op == FX_CALL && i->callee) {
        CgFunc *callee = cg_map_get(&c->funcs, i->callee);
        if (callee && callee->waits)
            return true;
    }
    for (int k = 0; k < i->nblocks; k++)
        if (cg_block_waits(c, &i->blocks[k]))
            return true;
    return false;
}

bool cg_block_waits(CgCtx *c, const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next)
        if (cg_inst_waits(c, i))
            return true;
    return false;
}

static LLVMValueRef global_const(CgCtx *c, const char *name, LLVMTypeRef ty, unsigned long long v)
{
    LLVMValueRef g = LLVMAddGlobal(c->M, ty, name);
    LLVMSetInitializer(g, LLVMConstInt(ty, v, 0));
    LLVMSetGlobalConstant(g, 1);
    return g;
}

/* The kernel's arguments from args (abi/fxhost.h), in register form; room
 * for one more value after them (the context). */
LLVMValueRef *cg_host_unpack_args(CgCtx *c, const FxFunc *f, LLVMValueRef args)
{
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c->C, 0), i64 = LLVMInt64TypeInContext(c->C);
    LLVMValueRef *av = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)(f->nparams + 1));
    for (int p = 0; p < f->nparams; p++) {
        LLVMValueRef ix = LLVMConstInt(i64, (unsigned long long)p, 0);
        LLVMValueRef slot = LLVMBuildGEP2(c->B, ptr, args, &ix, 1, "");
        LLVMValueRef vp = LLVMBuildLoad2(c->B, ptr, slot, "");
        const Type *t = f->params[p].type;
        LLVMTypeRef mt = cg_mem_type(c, t);
        LLVMValueRef v = LLVMBuildLoad2(c->B, mt, vp, f->params[p].name ? f->params[p].name : "");
        /* the caller's buffer holds the value with its natural C alignment at most */
        LLVMSetAlignment(v, 1);
        av[p] = cg_from_mem(c, v, t);
    }
    return av;
}

static void host_kernel_info(CgCtx *c, CgFunc *cf);

/* Calls the kernel, or with a proof (cg_hostproof.c) its twin without the
 * proved checks when the proof holds for this block. */
static void call_kernel(CgCtx *c, CgFunc *cf, LLVMValueRef w, LLVMValueRef *av, const CgProof *proof,
                        LLVMValueRef twin)
{
    unsigned n = (unsigned)cf->f->nparams + 1;
    if (!proof) {
        LLVMBuildCall2(c->B, cf->fnty, cf->fn, av, n, "");
        return;
    }
    LLVMValueRef saved = c->hostctx;
    LLVMValueRef holds = cg_proof_holds(c, proof, av, av[n - 1]);
    c->hostctx = saved;
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(c->C, w, "proved");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(c->C, w, "checked");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->C, w, "done");
    LLVMBuildCondBr(c->B, holds, fast, slow);
    LLVMPositionBuilderAtEnd(c->B, fast);
    LLVMBuildCall2(c->B, cf->fnty, twin, av, n, "");
    LLVMBuildBr(c->B, done);
    LLVMPositionBuilderAtEnd(c->B, slow);
    LLVMBuildCall2(c->B, cf->fnty, cf->fn, av, n, "");
    LLVMBuildBr(c->B, done);
    LLVMPositionBuilderAtEnd(c->B, done);
}

/* K<suffix>(args, ctx): the kernel called with its arguments unpacked.
 * With a proof, the twin is generated here too. */
static void host_wrapper(CgCtx *c, CgFunc *cf, const char *suffix, const CgProof *proof)
{
    FxFunc *f = cf->f;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c->C, 0);
    LLVMTypeRef pt[2] = { ptr, ptr };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), pt, 2, 0);
    LLVMValueRef twin = proof ? cg_proof_body(c, cf, proof) : NULL;
    char *name = arena_printf(c->fm->arena, "%s%s", f->name, suffix);
    LLVMValueRef w = LLVMAddFunction(c->M, name, fty);
    cg_fn_attr(c, w, "nounwind");
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(c->C, w, "entry");
    LLVMBuilderRef saved = c->B;
    c->B = LLVMCreateBuilderInContext(c->C);
    LLVMPositionBuilderAtEnd(c->B, bb);
    cg_debug_wrapper(c, w, f);   /* the kernel inlined here keeps its lines */
    LLVMValueRef *av = cg_host_unpack_args(c, f, LLVMGetParam(w, 0));
    av[f->nparams] = LLVMGetParam(w, 1);
    call_kernel(c, cf, w, av, proof, twin);
    LLVMBuildRetVoid(c->B);
    LLVMDisposeBuilder(c->B);
    c->B = saved;
}

void cg_host_entry_points(CgCtx *c, CgFunc *cf)
{
    if (cf->regions) {
        /* the kernel runs the whole block, its accesses proved once for it */
        host_wrapper(c, cf, "__fxblock", cg_proof_plan(c, cf));
    } else {
        host_wrapper(c, cf, "__fxhost", NULL);
        if (!cf->waits)
            cg_host_block_entry(c, cf);
    }
    host_kernel_info(c, cf);
}

/* K__fxparams, K__fxshared, K__fxsync, K__fxwave, K__fxstate and
 * K__fxcheck: the kernel described to the runtime. */
static void host_kernel_info(CgCtx *c, CgFunc *cf)
{
    FxFunc *f = cf->f;
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->C);
    /* K__fxparams: { name, Ptr element bytes } per parameter, then { NULL, 0 } */
    LLVMTypeRef info = param_info_type(c);
    LLVMValueRef *rows = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)(f->nparams + 1));
    for (int p = 0; p <= f->nparams; p++) {
        const Type *t = p < f->nparams ? f->params[p].type : NULL;
        unsigned long long eb = t && t->kind == TY_PTR ? LLVMABISizeOfType(c->TD, cg_stride_type(c, t->elem)) : 0;
        LLVMValueRef fv[FX_PARAMINFO_NFIELDS];
        fv[FX_PARAMINFO_name] = t ? cg_cstring(c, f->params[p].name ? f->params[p].name : "?")
                                  : LLVMConstNull(LLVMPointerTypeInContext(c->C, 0));
        fv[FX_PARAMINFO_elem_bytes] = LLVMConstInt(i64, eb, 0);
        rows[p] = LLVMConstNamedStruct(info, fv, FX_PARAMINFO_NFIELDS);
    }
    LLVMValueRef tab = LLVMConstArray2(info, rows, (uint64_t)f->nparams + 1);
    LLVMValueRef pg = LLVMAddGlobal(c->M, LLVMTypeOf(tab), arena_printf(c->fm->arena, "%s__fxparams", f->name));
    LLVMSetInitializer(pg, tab);
    LLVMSetGlobalConstant(pg, 1);

    global_const(c, arena_printf(c->fm->arena, "%s__fxshared", f->name), i64,
                 (unsigned long long)cg_host_static_shared(c, cf));
    global_const(c, arena_printf(c->fm->arena, "%s__fxdyn", f->name), i64, (unsigned long long)cf->dyn_elem_bytes);
    global_const(c, arena_printf(c->fm->arena, "%s__fxsync", f->name), LLVMInt32TypeInContext(c->C),
                 cf->waits && !cf->regions ? 1 : 0);
    global_const(c, arena_printf(c->fm->arena, "%s__fxwave", f->name), LLVMInt32TypeInContext(c->C),
                 (unsigned long long)cg_host_wave_size(c));
    int64_t state = cg_region_heap_bytes(cf->regions);
    if (state > 0)   /* optional too: only kernels whose copies do not fit a stack */
        global_const(c, arena_printf(c->fm->arena, "%s__fxstate", f->name), i64, (unsigned long long)state);
    if (c->opt.check)   /* only checked modules export it: the runtime looks it up as optional */
        global_const(c, arena_printf(c->fm->arena, "%s__fxcheck", f->name), LLVMInt32TypeInContext(c->C), 1);
}

