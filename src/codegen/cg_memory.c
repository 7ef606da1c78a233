/* cg_memory.c - variable slots, private and shared arrays, loads, stores,
 * atomics and the workgroup barrier.
 *
 * Private slots are allocas (address space 5 on AMDGPU) in the entry block,
 * zero-filled where the FX_ALLOCA stands (so a slot declared in a loop body is
 * fresh on every iteration). Shared arrays are address-space-3 globals on
 * AMDGPU, and on the host a fixed offset into the block's shared memory
 * (FxHostCtx.shared; host/cg_hostshared.c lays them out). Arrays are row-major; indices of any integer type are
 * converted to i64 by their own signedness. On the host every index that is
 * not a compile-time constant is bounds-checked (abi/fxhost.h): Ptr
 * indices against the buffer behind the kernel parameter the Ptr came from,
 * array indices against their dimension. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "abi/fxhost.h"

static const char *llty_str(CgCtx *c, LLVMTypeRef ty)
{
    char *s = LLVMPrintTypeToString(ty);
    const char *r = arena_strdup(c->fm->arena, s);
    LLVMDisposeMessage(s);
    return r;
}

/* ---- slots ---- */

static LLVMValueRef shared_address(CgCtx *c, FxInst *i)
{
    if (cg_host_abi(c)) {
        intptr_t off = (intptr_t)cg_map_get(&c->shared, i);
        if (!off) {
            cg_error(c, i->loc, "internal compiler error: shared array without a layout");
            return LLVMGetPoison(cg_ptr_type(c, 0));
        }
        LLVMTypeRef ptr = cg_ptr_type(c, 0);
        LLVMValueRef base = LLVMBuildLoad2(c->B, ptr, cg_hostctx_field(c, FX_HOSTCTX_shared, 0), "shared");
        LLVMValueRef o = LLVMConstInt(LLVMInt64TypeInContext(c->C), (unsigned long long)(off - 1), 0);
        return LLVMBuildGEP2(c->B, LLVMInt8TypeInContext(c->C), base, &o, 1, "");
    }
    LLVMValueRef g = cg_map_get(&c->shared, i);
    if (!g) {
        LLVMTypeRef mt = cg_mem_type(c, i->type);
        char *name = arena_printf(c->fm->arena, "%s.%s", c->cur->f->name, i->name ? i->name : "shared");
        g = LLVMAddGlobalInAddressSpace(c->M, mt, name, c->facts->lds_as);
        if (type_is_dyn_array(i->type)) {
            /* LLVM's dynamic LDS: an external zero-length array, placed
             * after the kernel's static LDS, as clang does for HIP's
             * `extern __shared__ T s[]` */
            LLVMSetLinkage(g, LLVMExternalLinkage);
        } else {
            LLVMSetLinkage(g, LLVMInternalLinkage);
            LLVMSetInitializer(g, LLVMGetUndef(mt));
        }
        unsigned al = LLVMABIAlignmentOfType(c->TD, mt);
        LLVMSetAlignment(g, al < 16 ? 16 : al);
        cg_map_put(&c->shared, i, g);
    }
    return g;
}

LLVMValueRef cg_alloca(CgCtx *c, FxInst *i)
{
    if (i->space == FXSPACE_SHARED)
        return shared_address(c, i);
    LLVMTypeRef mt = cg_mem_type(c, i->type);
    LLVMBuilderRef ab = LLVMCreateBuilderInContext(c->C);
    LLVMPositionBuilderAtEnd(ab, c->entry);
    LLVMValueRef slot = LLVMBuildAlloca(ab, mt, i->name ? i->name : "");
    LLVMDisposeBuilder(ab);
    unsigned al = LLVMABIAlignmentOfType(c->TD, mt);
    LLVMSetAlignment(slot, al);
    if (i->type->kind == TY_ARRAY) {
        LLVMValueRef size = LLVMConstInt(LLVMInt64TypeInContext(c->C),
                                         LLVMABISizeOfType(c->TD, mt), 0);
        LLVMBuildMemSet(c->B, slot, LLVMConstInt(LLVMInt8TypeInContext(c->C), 0, 0), size, al);
    } else {
        LLVMSetAlignment(LLVMBuildStore(c->B, LLVMConstNull(mt), slot), al);
    }
    return slot;
}

/* ---- bounds checks (host only; abi/fxhost.h) ---- */


LLVMValueRef cg_ptr_origin(CgCtx *c, FxInst *v)
{
    if (!cg_host_abi(c) || !v || v->type->kind != TY_PTR)
        return NULL;
    LLVMValueRef o;
    if (cg_region_param_origin(c, v, &o))
        return o;
    if (v->op == FX_PARAM && v->param_index >= 0 && v->param_index < c->cur->f->nparams)
        return c->origins[v->param_index];
    if (v->op == FX_SELECT) {
        LLVMValueRef a = cg_ptr_origin(c, v->ops[1]), b = cg_ptr_origin(c, v->ops[2]);
        LLVMValueRef m1 = LLVMConstInt(LLVMInt32TypeInContext(c->C), (unsigned long long)-1, 1);
        if (!a && !b)
            return NULL;
        return LLVMBuildSelect(c->B, cg_val(c, v->ops[0]), a ? a : m1, b ? b : m1, "");
    }
    return NULL;
}

/* A constant FxOobSite describing one access. */
static LLVMValueRef oob_site(CgCtx *c, const char *op, const char *array, int nidx, uint32_t umask,
                             const int64_t *dims)
{
    LLVMTypeRef p = LLVMPointerTypeInContext(c->C, 0), i32 = LLVMInt32TypeInContext(c->C);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->C);
    LLVMValueRef dv = LLVMConstNull(p);
    if (dims) {
        LLVMValueRef *e = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)nidx);
        for (int k = 0; k < nidx; k++)
            e[k] = LLVMConstInt(i64, (unsigned long long)dims[k], 0);
        LLVMValueRef arr = LLVMConstArray2(i64, e, (uint64_t)nidx);
        dv = cg_private_constant(c, arr, ".fxdims");
    }
    const char *fn = c->cur->f->kind == FXF_FN ? arena_printf(c->fm->arena, "fn %s", c->cur->f->name) : NULL;
    LLVMValueRef f[FX_OOBSITE_NFIELDS];
    f[FX_OOBSITE_op] = cg_cstring(c, op);
    f[FX_OOBSITE_array] = array ? cg_cstring(c, array) : LLVMConstNull(p);
    f[FX_OOBSITE_func] = fn ? cg_cstring(c, fn) : LLVMConstNull(p);
    f[FX_OOBSITE_dims] = dv;
    f[FX_OOBSITE_nidx] = LLVMConstInt(i32, (unsigned)nidx, 0);
    f[FX_OOBSITE_unsigned_mask] = LLVMConstInt(i32, umask, 0);
    return cg_private_constant(c, LLVMConstNamedStruct(cg_oob_site_type(c), f, FX_OOBSITE_NFIELDS), ".fxoob");
}

/* What ctx->oob may do, as fxhost.h states it: read its arguments and
 * what the kernel can read (the bounds), write only the runtime's own state
 * (LLVM's "inaccessible" memory), keep none of its pointers. Said at the
 * call, the ctx block and the bounds stay in registers across the cold
 * call instead of being loaded again after it, and the values the work-item
 * loop keeps in the ctx (its indices) need not be treated as escaped. The
 * LLVM 19 encoding of memory(): two bits (1 read, 2 write) per location,
 * argument memory first, then inaccessible memory, then all other. */
static void declare_oob_effects(CgCtx *c, LLVMValueRef call)
{
    enum { MEM_READ = 1, MEM_READWRITE = 3, MEM_ARG = 0, MEM_INACCESSIBLE = 2, MEM_OTHER = 4 };
    const unsigned long long effects =
        (MEM_READ << MEM_ARG) | (MEM_READWRITE << MEM_INACCESSIBLE) | (MEM_READ << MEM_OTHER);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(c->C, cg_attr_kind("memory"), effects));
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(c->C, cg_attr_kind("nounwind"), 0));
    static const unsigned pointer_args[] = { 1, 2, 4 };   /* ctx, site, indices (1-based) */
    for (int k = 0; k < 3; k++) {
        LLVMAddCallSiteAttribute(call, pointer_args[k],
                                 LLVMCreateEnumAttribute(c->C, cg_attr_kind("nocapture"), 0));
        LLVMAddCallSiteAttribute(call, pointer_args[k],
                                 LLVMCreateEnumAttribute(c->C, cg_attr_kind("readonly"), 0));
    }
}

/* if (bad) ctx->oob(ctx, site, param, {indices}); then continue. */
static void oob_branch(CgCtx *c, LLVMValueRef bad, LLVMValueRef site, LLVMValueRef param,
                       LLVMValueRef *ix, int nidx)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->C), p = LLVMPointerTypeInContext(c->C, 0);
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->C, c->fn, "oob");
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(c->C, c->fn, "inbounds");
    LLVMValueRef expect[2] = { bad, LLVMConstInt(LLVMInt1TypeInContext(c->C), 0, 0) };
    LLVMTypeRef i1 = LLVMInt1TypeInContext(c->C);
    bad = cg_intrinsic(c, "llvm.expect", &i1, 1, expect, 2);
    LLVMBuildCondBr(c->B, bad, fail, cont);
    LLVMPositionBuilderAtEnd(c->B, fail);
    LLVMBuilderRef ab = LLVMCreateBuilderInContext(c->C);
    LLVMPositionBuilderAtEnd(ab, c->entry);
    LLVMValueRef buf = LLVMBuildArrayAlloca(ab, i64, LLVMConstInt(LLVMInt32TypeInContext(c->C), (unsigned)nidx, 0),
                                            "oobidx");
    LLVMDisposeBuilder(ab);
    for (int k = 0; k < nidx; k++) {
        LLVMValueRef at = LLVMConstInt(i64, (unsigned)k, 0);
        LLVMBuildStore(c->B, ix[k], LLVMBuildGEP2(c->B, i64, buf, &at, 1, ""));
    }
    LLVMTypeRef pt[4] = { p, p, LLVMInt32TypeInContext(c->C), p };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), pt, 4, 0);
    LLVMValueRef fp = LLVMBuildLoad2(c->B, p, cg_hostctx_field(c, FX_HOSTCTX_oob, 0), "oobfn");
    LLVMValueRef args[4] = { c->hostctx, site, param, buf };
    declare_oob_effects(c, LLVMBuildCall2(c->B, fty, fp, args, 4, ""));
    LLVMBuildBr(c->B, cont);
    LLVMPositionBuilderAtEnd(c->B, cont);
}

/* An index wider than 64 bits is out of range when it does not survive the
 * cut to 64 bits (the address arithmetic uses the low 64). */
static LLVMValueRef wide_index_bad(CgCtx *c, LLVMValueRef raw, ScalarId s)
{
    LLVMTypeRef ty = LLVMTypeOf(raw);
    if (LLVMGetIntTypeWidth(ty) <= 64)
        return NULL;
    LLVMValueRef lo = LLVMBuildTrunc(c->B, raw, LLVMInt64TypeInContext(c->C), "");
    LLVMValueRef back = cg_is_signed(s) ? LLVMBuildSExt(c->B, lo, ty, "") : LLVMBuildZExt(c->B, lo, ty, "");
    return LLVMBuildICmp(c->B, LLVMIntNE, back, raw, "");
}

static bool index_unsigned(FxInst *ix)
{
    ScalarId s = type_elem_scalar(ix->type);
    return s != SC_BOOLEAN && !cg_is_signed(s);
}

/* ctx->bounds. In a kernel whose ctx is its argument (not the work-item
 * loops' copy) it is loaded once, in the entry block, and marked as
 * pointing to one bound per parameter (fxhost.h): LLVM may then read a
 * bound before the branch that needs it, and so hoist it out of the
 * work-item loop. Elsewhere (a fn: the kernel is not known) it is loaded
 * where it is used. */
static LLVMValueRef bounds_array(CgCtx *c)
{
    LLVMTypeRef p = LLVMPointerTypeInContext(c->C, 0);
    const FxFunc *f = c->cur->f;
    if (f->kind != FXF_KERNEL || f->nparams == 0 || !LLVMIsAArgument(c->hostctx))
        return LLVMBuildLoad2(c->B, p, cg_hostctx_field(c, FX_HOSTCTX_bounds, 0), "bounds");
    if (!c->host_bounds) {
        LLVMBasicBlockRef at = LLVMGetInsertBlock(c->B);
        LLVMPositionBuilderAtEnd(c->B, c->entry);
        c->host_bounds = LLVMBuildLoad2(c->B, p, cg_hostctx_field(c, FX_HOSTCTX_bounds, 0), "bounds");
        LLVMPositionBuilderAtEnd(c->B, at);
        LLVMMetadataRef bytes = LLVMValueAsMetadata(
            LLVMConstInt(LLVMInt64TypeInContext(c->C), 8 * (unsigned long long)f->nparams, 0));
        LLVMMetadataRef align = LLVMValueAsMetadata(LLVMConstInt(LLVMInt64TypeInContext(c->C), 8, 0));
        LLVMSetMetadata(c->host_bounds, LLVMGetMDKindIDInContext(c->C, "dereferenceable", 15),
                        LLVMMetadataAsValue(c->C, LLVMMDNodeInContext2(c->C, &bytes, 1)));
        LLVMSetMetadata(c->host_bounds, LLVMGetMDKindIDInContext(c->C, "align", 5),
                        LLVMMetadataAsValue(c->C, LLVMMDNodeInContext2(c->C, &align, 1)));
    }
    return c->host_bounds;
}

/* The elements behind the kernel parameter `origin` names (all ones when
 * origin is -1, a fn's pointer of unknown origin). */
static LLVMValueRef origin_bound(CgCtx *c, LLVMValueRef origin)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->C);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMValueRef bounds = bounds_array(c);
    LLVMValueRef neg = NULL, slot = origin;
    if (!LLVMIsConstant(origin)) { /* a fn's parameter: -1 means unknown */
        neg = LLVMBuildICmp(c->B, LLVMIntSLT, origin, LLVMConstNull(i32), "");
        slot = LLVMBuildSelect(c->B, neg, LLVMConstNull(i32), origin, "");
    }
    LLVMValueRef s64 = LLVMBuildSExt(c->B, slot, i64, "");
    LLVMValueRef bound = LLVMBuildLoad2(c->B, i64, LLVMBuildGEP2(c->B, i64, bounds, &s64, 1, ""), "bound");
    /* the runtime fills the bounds before the launch and never changes them
     * during it; nothing the kernel stores can reach them */
    LLVMSetMetadata(bound, LLVMGetMDKindIDInContext(c->C, "invariant.load", 14),
                    LLVMMetadataAsValue(c->C, LLVMMDNodeInContext2(c->C, NULL, 0)));
    if (neg)
        bound = LLVMBuildSelect(c->B, neg, LLVMConstAllOnes(i64), bound, "");
    return bound;
}

/* The parameter-rooted Ptr a chain of ptr_offset starts from. */
static FxInst *ptr_root(FxInst *v)
{
    while (v->op == FX_PTR_OFFSET)
        v = v->ops[0];
    return v;
}

static LLVMValueRef elem_bytes(CgCtx *c, const Type *elem, LLVMTypeRef ty)
{
    return LLVMConstInt(ty, LLVMABISizeOfType(c->TD, cg_stride_type(c, elem)), 0);
}

/* How many bytes past its root a derived Ptr points, as an i128 (exact:
 * each step is a 64-bit index times a small element size). */
static LLVMValueRef ptr_byte_offset(CgCtx *c, FxInst *v)
{
    LLVMTypeRef i128 = LLVMIntTypeInContext(c->C, 128);
    LLVMValueRef sum = LLVMConstNull(i128);
    for (; v->op == FX_PTR_OFFSET; v = v->ops[0]) {
        LLVMValueRef k = cg_index64(c, cg_val(c, v->ops[1]), type_elem_scalar(v->ops[1]->type));
        LLVMValueRef step = LLVMBuildMul(c->B, LLVMBuildSExt(c->B, k, i128, ""),
                                         elem_bytes(c, v->ops[0]->type->elem, i128), "");
        sum = LLVMBuildAdd(c->B, sum, step, "");
    }
    return sum;
}

/* An access through a derived Ptr (p + k, p.cast(...)): the bytes it
 * touches must lie inside its root parameter's buffer, counted in bytes
 * since the views' element sizes differ. */
static void check_derived_index(CgCtx *c, FxInst *base, FxInst *idx, LLVMValueRef raw, LLVMValueRef ix,
                                const char *op)
{
    FxInst *root = ptr_root(base);
    LLVMValueRef origin = cg_ptr_origin(c, root);
    if (!origin)
        return;
    LLVMTypeRef i128 = LLVMIntTypeInContext(c->C, 128);
    LLVMValueRef size = elem_bytes(c, base->type->elem, i128);
    LLVMValueRef start = LLVMBuildAdd(c->B, ptr_byte_offset(c, base),
                                      LLVMBuildMul(c->B, LLVMBuildSExt(c->B, ix, i128, ""), size, ""), "");
    LLVMValueRef limit = LLVMBuildMul(c->B, LLVMBuildZExt(c->B, origin_bound(c, origin), i128, ""),
                                      elem_bytes(c, root->type->elem, i128), "");
    LLVMValueRef before = LLVMBuildICmp(c->B, LLVMIntSLT, start, LLVMConstNull(i128), "");
    LLVMValueRef past = LLVMBuildICmp(c->B, LLVMIntSGT, LLVMBuildAdd(c->B, start, size, ""), limit, "");
    LLVMValueRef bad = LLVMBuildOr(c->B, before, past, "");
    LLVMValueRef wide = wide_index_bad(c, raw, type_elem_scalar(idx->type));
    if (wide)
        bad = LLVMBuildOr(c->B, bad, wide, "");
    LLVMValueRef site = oob_site(c, op, NULL, 1, index_unsigned(idx) ? 1u : 0u, NULL);
    oob_branch(c, bad, site, origin, &ix, 1);
}

static void check_ptr_index(CgCtx *c, FxInst *base, FxInst *idx, LLVMValueRef raw, LLVMValueRef ix, const char *op)
{
    LLVMValueRef origin = cg_ptr_origin(c, base);
    if (!origin || cg_proof_covers(c, base, &idx, 1))
        return;   /* unknown origin, or proved in bounds for the whole block (host/cg_hostproof.c) */
    LLVMValueRef bound = origin_bound(c, origin);
    LLVMValueRef bad = LLVMBuildICmp(c->B, LLVMIntUGE, ix, bound, "");
    LLVMValueRef wide = wide_index_bad(c, raw, type_elem_scalar(idx->type));
    if (wide)
        bad = LLVMBuildOr(c->B, bad, wide, "");
    LLVMValueRef site = oob_site(c, op, NULL, 1, index_unsigned(idx) ? 1u : 0u, NULL);
    oob_branch(c, bad, site, origin, &ix, 1);
}

static void check_array_index(CgCtx *c, FxInst *base, const Type *bt, FxInst **idx, LLVMValueRef *raw,
                              LLVMValueRef *ix, int nidx, const char *op)
{
    int64_t *dims = arena_alloc(c->fm->arena, sizeof(int64_t) * (size_t)(nidx + 1));
    if (nidx == bt->ndims) {
        for (int k = 0; k < nidx; k++)
            dims[k] = bt->dims[k];
    } else {
        dims[0] = 1;
        for (int k = 0; k < bt->ndims; k++)
            dims[0] *= bt->dims[k];
    }
    if (cg_proof_covers(c, base, idx, nidx))
        return;   /* proved in bounds for the whole block (host/cg_hostproof.c) */
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->C);
    bool dyn = type_is_dyn_array(bt);   /* its length is this launch's (FxHostCtx.dyn_count) */
    LLVMValueRef dyn_count = dyn ? LLVMBuildLoad2(c->B, i64, cg_hostctx_field(c, FX_HOSTCTX_dyn_count, 0), "") : NULL;
    LLVMValueRef bad = NULL;
    for (int k = 0; k < nidx; k++) {
        if (!dyn && LLVMIsAConstantInt(raw[k]) && LLVMConstIntGetZExtValue(ix[k]) < (uint64_t)dims[k])
            continue; /* a compile-time index, checked by sema */
        LLVMValueRef limit = dyn ? dyn_count : LLVMConstInt(i64, (unsigned long long)dims[k], 0);
        LLVMValueRef b = LLVMBuildICmp(c->B, LLVMIntUGE, ix[k], limit, "");
        LLVMValueRef wide = wide_index_bad(c, raw[k], type_elem_scalar(idx[k]->type));
        if (wide)
            b = LLVMBuildOr(c->B, b, wide, "");
        bad = bad ? LLVMBuildOr(c->B, bad, b, "") : b;
    }
    if (!bad)
        return;
    uint32_t umask = 0;
    for (int k = 0; k < nidx && k < 32; k++)
        if (index_unsigned(idx[k]))
            umask |= 1u << k;
    bool shared = fxir_is_shared_array(base);
    const char *array = arena_printf(c->fm->arena, "%s array '%s'", shared ? "shared" : "private",
                                     base->name ? base->name : "?");
    LLVMValueRef site = oob_site(c, op, array, nidx, umask, dims);
    oob_branch(c, bad, site, LLVMConstInt(LLVMInt32TypeInContext(c->C), (unsigned long long)-1, 1), ix, nidx);
}

/* p[i] for a kernel's Ptr parameter p in GPU code. The index is in
 * [0, len) in a program without out-of-bounds accesses (host code checks
 * it), so a signed index is non-negative, and a 2-byte element at a signed
 * index of at most 32 bits lies below 2^32 bytes from p: its byte offset
 * i << 1 is computed in 32 bits and zero-extended, which the backend turns
 * into global_load/store with an SGPR base and a 32-bit VGPR offset (one
 * VGPR per offset instead of a 64-bit address pair per buffer: cvt_f16's
 * four Float16 stores share one). Other elements keep the sign-extended
 * index, which tells loop analyses more (measured in docs/decisions.md). */
static LLVMValueRef param_element(CgCtx *c, LLVMValueRef p, const Type *elem, LLVMValueRef raw, ScalarId s)
{
    LLVMTypeRef st = cg_stride_type(c, elem);
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(raw));
    if (!cg_is_signed(s) || w > 32 || LLVMABISizeOfType(c->TD, st) != 2) {
        LLVMValueRef ix = cg_index64(c, raw, s);
        return LLVMBuildGEP2(c->B, st, p, &ix, 1, "");
    }
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    if (w < 32)
        raw = LLVMBuildSExt(c->B, raw, i32, "");
    LLVMValueRef off = LLVMBuildShl(c->B, raw, LLVMConstInt(i32, 1, 0), "");
    LLVMSetNUW(off, 1);
    LLVMValueRef z = LLVMBuildZExt(c->B, off, LLVMInt64TypeInContext(c->C), "");
    return LLVMBuildGEP2(c->B, LLVMInt8TypeInContext(c->C), p, &z, 1, "");
}

/* a[i0, i1, ...] as a GEP through nested LLVM arrays (row-major, as the
 * storage is), inbounds: every index is in its dimension's range in a
 * program without out-of-bounds accesses (host code has checked them by
 * now). The structure, unlike one linear index, lets LLVM separate each
 * index's constant part into the instruction's offset: the rows a
 * work-item writes at ty + 16 * q share one address. */
static LLVMValueRef nested_element(CgCtx *c, const Type *bt, LLVMValueRef p, LLVMValueRef *ix)
{
    LLVMTypeRef at = cg_stride_type(c, bt->elem);
    for (int k = bt->ndims - 1; k >= 0; k--)
        at = LLVMArrayType2(at, (uint64_t)bt->dims[k]);
    LLVMValueRef *gi = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)(bt->ndims + 1));
    gi[0] = LLVMConstInt(LLVMInt64TypeInContext(c->C), 0, 0);
    for (int k = 0; k < bt->ndims; k++)
        gi[k + 1] = ix[k];
    return LLVMBuildInBoundsGEP2(c->B, at, p, gi, (unsigned)bt->ndims + 1, "");
}

/* The address of the element that `base` [indices] names, and its type.
 * op ("load from", "store to", ...) names the access for bounds-check
 * messages (host). */
static LLVMValueRef element_address(CgCtx *c, FxInst *at, FxInst *base, FxInst **idx, int nidx,
                                    const Type **elem, const char *op)
{
    LLVMValueRef p = cg_val(c, base);
    const Type *bt = base->type;
    if (base->op == FX_ALLOCA && bt->kind != TY_ARRAY) {
        if (nidx != 0)
            cg_error(c, at->loc, "internal compiler error: indexed access to a %s variable",
                     cg_tyname(c, bt));
        *elem = bt;
        return p;
    }
    if (bt->kind == TY_PTR) {
        if (nidx != 1) {
            cg_error(c, at->loc, "internal compiler error: Ptr access with %d indices", nidx);
            *elem = bt->elem;
            return p;
        }
        *elem = bt->elem;
        LLVMValueRef raw = cg_val(c, idx[0]);
        if (!cg_host_abi(c) && c->cur->f->kind == FXF_KERNEL && base->op == FX_PARAM)
            return param_element(c, p, bt->elem, raw, type_elem_scalar(idx[0]->type));
        LLVMValueRef ix = cg_index64(c, raw, type_elem_scalar(idx[0]->type));
        if (cg_host_abi(c) && base->op == FX_PTR_OFFSET)
            check_derived_index(c, base, idx[0], raw, ix, op);
        else if (cg_host_abi(c))
            check_ptr_index(c, base, idx[0], raw, ix, op);
        return LLVMBuildGEP2(c->B, cg_stride_type(c, bt->elem), p, &ix, 1, "");
    }
    if (bt->kind == TY_ARRAY) {
        *elem = bt->elem;
        if (nidx != bt->ndims && nidx != 1) {
            cg_error(c, at->loc, "internal compiler error: %d indices into %s", nidx, cg_tyname(c, bt));
            return p;
        }
        LLVMValueRef *raw = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)nidx);
        LLVMValueRef *ix = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)nidx);
        for (int k = 0; k < nidx; k++) {
            raw[k] = cg_val(c, idx[k]);
            ix[k] = cg_index64(c, raw[k], type_elem_scalar(idx[k]->type));
        }
        if (cg_host_abi(c))
            check_array_index(c, base, bt, idx, raw, ix, nidx, op);
        if (nidx == 1) /* one index, into any array, is the linear one */
            return LLVMBuildGEP2(c->B, cg_stride_type(c, bt->elem), p, ix, 1, "");
        return nested_element(c, bt, p, ix);
    }
    cg_error(c, at->loc, "internal compiler error: memory access through %s", cg_tyname(c, bt));
    *elem = bt;
    return p;
}

/* A Ptr p + k, or p viewed as another Ptr type (opaque pointers: only
 * the address moves). */
LLVMValueRef cg_ptr_offset(CgCtx *c, FxInst *i)
{
    LLVMValueRef k = cg_index64(c, cg_val(c, i->ops[1]), type_elem_scalar(i->ops[1]->type));
    LLVMValueRef p = LLVMBuildGEP2(c->B, cg_stride_type(c, i->ops[0]->type->elem), cg_val(c, i->ops[0]), &k, 1, "");
    if (i->sub != FXPTR_UNIFORM || cg_host_abi(c))
        return p;
    /* the same in every lane: an opaque scalar to LLVM's loop strength
     * reduction, which otherwise adds it into each lane's 64-bit address */
    LLVMTypeRef pt = LLVMTypeOf(p);
    return cg_intrinsic(c, "llvm.amdgcn.readfirstlane", &pt, 1, &p, 1);
}

/* The alignment a load or store assumes: its type's, except through a
 * derived Ptr on the host, where nothing promises it (x86 vector moves
 * that assume alignment would fault; the GPU keeps the type's, which
 * docs/language.md asks of a cast). */
static unsigned access_alignment(CgCtx *c, FxInst *base, const Type *elem)
{
    if (cg_host_abi(c) && base->op == FX_PTR_OFFSET)
        return 1;
    return LLVMABIAlignmentOfType(c->TD, cg_stride_type(c, elem));
}

LLVMValueRef cg_load(CgCtx *c, FxInst *i)
{
    const Type *elem;
    LLVMValueRef addr = element_address(c, i, i->ops[0], i->ops + 1, i->nops - 1, &elem, "load from");
    if (cg_checks_access(c, i->ops[0]))
        cg_check_access(c, i, i->ops[0], addr, elem, false);
    LLVMTypeRef mt = cg_mem_type(c, elem);
    LLVMValueRef v = LLVMBuildLoad2(c->B, mt, addr, "");
    LLVMSetAlignment(v, access_alignment(c, i->ops[0], elem));
    return cg_from_mem(c, v, elem);
}

void cg_store(CgCtx *c, FxInst *i)
{
    const Type *elem;
    LLVMValueRef addr = element_address(c, i, i->ops[0], i->ops + 2, i->nops - 2, &elem, "store to");
    if (cg_checks_access(c, i->ops[0]))
        cg_check_access(c, i, i->ops[0], addr, elem, true);
    LLVMValueRef v = cg_to_mem(c, cg_val(c, i->ops[1]), elem);
    LLVMSetAlignment(LLVMBuildStore(c->B, v, addr), access_alignment(c, i->ops[0], elem));
}

/* ---- atomics: relaxed, device scope on Ptr, workgroup scope on shared arrays.
 * LLVM 19's C API cannot set a sync scope, so each (op, type, space) gets a
 * small always-inline helper written as IR text. Which element types each
 * operation takes is fxir_atomic_type_error's to say (fxir/atomics.c). */

/* The atomicrmw operation of fx.atomic_<op> on elements of type s. */
static const char *atomicrmw_op(FxAtomic op, ScalarId s)
{
    bool fl = type_is_float(s), sg = cg_is_signed(s);
    switch (op) {
    case FXA_ADD: return fl ? "fadd" : "add";
    case FXA_SUB: return fl ? "fsub" : "sub";
    case FXA_MAX: return fl ? "fmax" : sg ? "max" : "umax";
    case FXA_MIN: return fl ? "fmin" : sg ? "min" : "umin";
    case FXA_AND: return "and";
    case FXA_OR: return "or";
    case FXA_XOR: return "xor";
    default: return "xchg";
    }
}

/* cmpxchg compares integers: floats are compared by their bits. */
static const char *cas_helper_text(CgCtx *c, const char *name, const char *tys, const char *ptrs, int width,
                                   const char *scope, unsigned al)
{
    const char *its = arena_printf(c->fm->arena, "i%d", width);
    return arena_printf(c->fm->arena,
        "define %s @%s(%s %%p, %s %%e, %s %%n) alwaysinline nounwind {\n"
        "  %%ei = bitcast %s %%e to %s\n"
        "  %%ni = bitcast %s %%n to %s\n"
        "  %%x = cmpxchg %s %%p, %s %%ei, %s %%ni%s monotonic monotonic, align %u\n"
        "  %%ri = extractvalue { %s, i1 } %%x, 0\n"
        "  %%r = bitcast %s %%ri to %s\n"
        "  ret %s %%r\n}\n",
        tys, name, ptrs, tys, tys, tys, its, tys, its, ptrs, its, its, scope, al, its, its, tys, tys);
}

LLVMValueRef cg_atomic(CgCtx *c, FxInst *i)
{
    const char *opname = fxir_sub_name(FX_ATOMIC, i->sub);
    FxInst *base = i->ops[0];
    const Type *elem;
    bool shared = fxir_is_shared_array(base);
    LLVMTypeRef rty = cg_reg_type(c, i->type);
    if (!(base->type->kind == TY_PTR || shared)) {
        cg_error(c, i->loc, "atomics need a Ptr or a shared array, not %s", cg_tyname(c, base->type));
        return LLVMGetPoison(rty);
    }
    LLVMValueRef addr = element_address(c, i, base, i->ops + 1, 1, &elem,
                                        arena_printf(c->fm->arena, "fx.atomic_%s on", opname));
    ScalarId s = elem->kind == TY_SCALAR ? elem->scalar : SC_COUNT;
    const char *why = s == SC_COUNT ? "atomics work on scalar elements" : fxir_atomic_type_error(i->sub, s);
    if (why) {
        cg_error(c, i->loc, "fx.atomic_%s on %s elements is not supported: %s", opname, cg_tyname(c, elem), why);
        return LLVMGetPoison(rty);
    }
    LLVMTypeRef ty = cg_scalar_reg(c, s);
    unsigned as = shared ? c->facts->lds_as : c->facts->global_as;
    const char *scope = !c->facts->syncscopes ? "" : shared ? " syncscope(\"workgroup\")" : " syncscope(\"agent\")";
    const char *tys = llty_str(c, ty);
    const char *ptrs = llty_str(c, LLVMTypeOf(addr));
    unsigned al = LLVMABIAlignmentOfType(c->TD, ty);
    /* the LLVM type names the helper: Float16 (half) and BFloat16 (bfloat) differ */
    const char *name = arena_printf(c->fm->arena, "__fx_atomic_%s_%s%s_as%u", opname,
                                    type_is_float(s) ? "" : cg_is_signed(s) ? "s" : "u", tys, as);
    LLVMTypeRef pt[3] = { LLVMTypeOf(addr), ty, ty };
    LLVMValueRef args[3] = { addr, cg_val(c, i->ops[2]), NULL };
    unsigned nargs = 2;
    const char *def;
    if (i->sub == FXA_CAS) {
        def = cas_helper_text(c, name, tys, ptrs, cg_width(s), scope, al);
        args[2] = cg_val(c, i->ops[3]);
        nargs = 3;
    } else {
        def = arena_printf(c->fm->arena,
            "define %s @%s(%s %%p, %s %%v) alwaysinline nounwind {\n"
            "  %%r = atomicrmw %s %s %%p, %s %%v%s monotonic, align %u\n"
            "  ret %s %%r\n}\n",
            tys, name, ptrs, tys, atomicrmw_op(i->sub, s), ptrs, tys, scope, al, tys);
    }
    LLVMTypeRef fty = LLVMFunctionType(ty, pt, nargs, 0);
    LLVMValueRef fn = cg_text_helper(c, name, fty, def);
    return LLVMBuildCall2(c->B, fty, fn, args, nargs, "");
}

/* fx.threadfence(scope): a sequentially consistent fence, as HIP's
 * __threadfence family. The system scope is LLVM's default (no syncscope);
 * the host has one scope. */
void cg_fence(CgCtx *c, FxInst *i)
{
    static const char *const scopes[FXSC_COUNT] = { " syncscope(\"workgroup\")", " syncscope(\"agent\")", "" };
    if (!c->facts->syncscopes) {
        LLVMBuildFence(c->B, LLVMAtomicOrderingSequentiallyConsistent, 0, "");
        return;
    }
    const char *sname = fxir_sub_name(FX_FENCE, i->sub);
    const char *name = arena_printf(c->fm->arena, "__fx_fence_%s", sname);
    const char *def = arena_printf(c->fm->arena,
        "define void @%s() alwaysinline nounwind {\n"
        "  fence%s seq_cst\n"
        "  ret void\n}\n", name, scopes[i->sub]);
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), NULL, 0, 0);
    LLVMBuildCall2(c->B, fty, cg_text_helper(c, name, fty, def), NULL, 0, "");
}

void cg_barrier(CgCtx *c, FxInst *i)
{
    if (cg_host_abi(c)) {
        cg_check_barrier(c, i);
        LLVMTypeRef ptr = cg_ptr_type(c, 0);
        LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), &ptr, 1, 0);
        LLVMValueRef fp = LLVMBuildLoad2(c->B, ptr, cg_hostctx_field(c, FX_HOSTCTX_barrier, 0), "barrier");
        LLVMBuildCall2(c->B, fty, fp, &c->hostctx, 1, "");
        return;
    }
    /* Both barriers come from one helper text (it declares the intrinsic
     * once); the one limited to LDS annotates its fences with the
     * "amdgpu-as" memory model relaxation (LLVM's AMDGPUUsage). */
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), NULL, 0, 0);
    LLVMValueRef fn = cg_text_helper(c, "__fx_barrier", fty,
        "define void @__fx_barrier() alwaysinline nounwind convergent {\n"
        "  fence syncscope(\"workgroup\") release\n"
        "  call void @llvm.amdgcn.s.barrier()\n"
        "  fence syncscope(\"workgroup\") acquire\n"
        "  ret void\n}\n"
        "define void @__fx_barrier_shared() alwaysinline nounwind convergent {\n"
        "  fence syncscope(\"workgroup\") release, !mmra !0\n"
        "  call void @llvm.amdgcn.s.barrier()\n"
        "  fence syncscope(\"workgroup\") acquire, !mmra !0\n"
        "  ret void\n}\n"
        "declare void @llvm.amdgcn.s.barrier() nounwind convergent\n"
        "!0 = !{!\"amdgpu-as\", !\"local\"}\n");
    LLVMValueRef shared = cg_text_helper_sibling(c, "__fx_barrier_shared", fty);   /* internal, even unused */
    if (i->sub == FXBAR_SHARED)
        fn = shared;
    LLVMBuildCall2(c->B, fty, fn, NULL, 0, "");
}

/* ---- memory limits (docs/limits.md) ----
 *
 * fns are inlined, and every inlined call brings its own copy of the fn's
 * private arrays (at -O0 nothing overlaps them; at -O3 LLVM may overlap or
 * remove some, so the count is an upper bound that holds at every -O). A
 * shared array is one LDS variable however often its fn is inlined. Both are
 * counted through the call graph with memoization: walking the inlined call
 * tree itself can take exponential time. */

static int64_t sat_add(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static int64_t sat_mul(int64_t a, int64_t b)
{
    return a && b > INT64_MAX / a ? INT64_MAX : a * b;
}

static int64_t array_bytes(CgCtx *c, const FxInst *i)
{
    return (int64_t)LLVMABISizeOfType(c->TD, cg_mem_type(c, i->type));
}

static bool is_array_in(const FxInst *i, FxSpace space)
{
    return i->op == FX_ALLOCA && i->type->kind == TY_ARRAY && (i->space == FXSPACE_SHARED) == (space == FXSPACE_SHARED);
}

/* A memo of int64 per FxFunc (arena-allocated slots). */
static int64_t *memo_slot(CgCtx *c, CgMap *memo, const FxFunc *f, bool *fresh)
{
    int64_t *m = cg_map_get(memo, f);
    *fresh = m == NULL;
    if (!m) {
        m = arena_alloc(c->fm->arena, sizeof *m);
        *m = 0;   /* while being computed: a recursive call (sema rejects them) counts 0 */
        cg_map_put(memo, f, m);
    }
    return m;
}

static int64_t private_bytes_fn(CgCtx *c, const FxFunc *f, CgMap *memo);

static int64_t private_bytes_block(CgCtx *c, const FxBlock *b, CgMap *memo)
{
    int64_t n = 0;
    for (const FxInst *i = b->first; i; i = i->next) {
        if (is_array_in(i, FXSPACE_PRIVATE))
            n = sat_add(n, array_bytes(c, i));
        if (i->op == FX_CALL && i->callee)
            n = sat_add(n, private_bytes_fn(c, i->callee, memo));
        for (int k = 0; k < i->nblocks; k++)
            n = sat_add(n, private_bytes_block(c, &i->blocks[k], memo));
    }
    return n;
}

/* Bytes of private arrays one call of f allocates, its inlined calls' included. */
static int64_t private_bytes_fn(CgCtx *c, const FxFunc *f, CgMap *memo)
{
    bool fresh;
    int64_t *m = memo_slot(c, memo, f, &fresh);
    if (fresh)
        *m = private_bytes_block(c, &f->body, memo);
    return *m;
}

static int64_t copies_fn(CgCtx *c, const FxFunc *f, const FxFunc *g, CgMap *memo);

static int64_t copies_block(CgCtx *c, const FxBlock *b, const FxFunc *g, CgMap *memo)
{
    int64_t n = 0;
    for (const FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_CALL && i->callee)
            n = sat_add(n, copies_fn(c, i->callee, g, memo));
        for (int k = 0; k < i->nblocks; k++)
            n = sat_add(n, copies_block(c, &i->blocks[k], g, memo));
    }
    return n;
}

/* How many copies of g's body inlining leaves in f: its call paths from f to g. */
static int64_t copies_fn(CgCtx *c, const FxFunc *f, const FxFunc *g, CgMap *memo)
{
    if (f == g)
        return 1;
    bool fresh;
    int64_t *m = memo_slot(c, memo, f, &fresh);
    if (fresh)
        *m = copies_block(c, &f->body, g, memo);
    return *m;
}

/* The distinct arrays of one space in a kernel and the fns it calls. */
enum { MEM_NOTES = 16 };
typedef struct ArrayList {
    const FxInst *array[MEM_NOTES];
    const FxFunc *owner[MEM_NOTES];
    int n, more;
    int64_t bytes;      /* of every distinct array, one copy each */
} ArrayList;

static void list_block(CgCtx *c, const FxBlock *b, const FxFunc *owner, FxSpace space, CgMap *seen,
                       ArrayList *l)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (is_array_in(i, space)) {
            l->bytes = sat_add(l->bytes, array_bytes(c, i));
            if (l->n < MEM_NOTES) {
                l->array[l->n] = i;
                l->owner[l->n++] = owner;
            } else {
                l->more++;
            }
        }
        if (i->op == FX_CALL && i->callee && !cg_map_get(seen, i->callee)) {
            cg_map_put(seen, i->callee, (void *)i->callee);
            list_block(c, &i->callee->body, i->callee, space, seen, l);
        }
        for (int k = 0; k < i->nblocks; k++)
            list_block(c, &i->blocks[k], owner, space, seen, l);
    }
}

static ArrayList list_arrays(CgCtx *c, const FxFunc *k, FxSpace space)
{
    ArrayList l = { 0 };
    CgMap seen = { 0 };
    cg_map_put(&seen, k, (void *)k);
    list_block(c, &k->body, k, space, &seen, &l);
    cg_map_free(&seen);
    return l;
}

/* One note per array: its size, and for a private array in an inlined fn the
 * number of copies the kernel gets. */
static CgArrayNote *array_notes(CgCtx *c, const FxFunc *k, const ArrayList *l, FxSpace space, int *n)
{
    CgArrayNote *notes = arena_alloc(c->fm->arena, sizeof *notes * (MEM_NOTES + 1));
    *n = 0;
    for (int a = 0; a < l->n; a++) {
        const FxInst *i = l->array[a];
        const char *name = i->name ? i->name : "?";
        int64_t bytes = array_bytes(c, i), copies = 1;
        if (space == FXSPACE_PRIVATE && l->owner[a] != k) {
            CgMap memo = { 0 };
            copies = copies_fn(c, k, l->owner[a], &memo);
            cg_map_free(&memo);
        }
        notes[*n].loc = i->loc;
        notes[*n].text = copies > 1
            ? arena_printf(c->fm->arena, "'%s' takes %lld bytes; fn '%s' is inlined %lld times, so %lld bytes",
                           name, (long long)bytes, l->owner[a]->name, (long long)copies,
                           (long long)sat_mul(bytes, copies))
            : arena_printf(c->fm->arena, "'%s' takes %lld bytes", name, (long long)bytes);
        (*n)++;
    }
    if (l->more) {
        notes[*n].loc = k->loc;
        notes[*n].text = arena_printf(c->fm->arena, "and %d more arrays", l->more);
        (*n)++;
    }
    return notes;
}

static void over_limit(CgCtx *c, const FxFunc *k, FxSpace space, int64_t used, int64_t limit, const char *what)
{
    const char *whose = space == FXSPACE_SHARED ? arena_printf(c->fm->arena, "%s has per workgroup", c->tgt->name)
                                                : "a work-item may have";
    cg_error(c, k->loc, "kernel '%s' needs %lld bytes of %s, more than the %lld bytes %s (docs/limits.md)", k->name,
             (long long)used, what, (long long)limit, whose);
    ArrayList l = list_arrays(c, k, space);
    int n;
    CgArrayNote *notes = array_notes(c, k, &l, space, &n);
    for (int a = 0; a < n; a++)
        diag_note(notes[a].loc, "%s", notes[a].text);
}

bool cg_check_memory_limits(CgCtx *c)
{
    int errors = c->errors;
    CgMap memo = { 0 };
    for (int k = 0; k < c->fm->funcs.len; k++) {
        const FxFunc *f = c->fm->funcs.items[k];
        if (f->kind != FXF_KERNEL)
            continue;
        int64_t shared = list_arrays(c, f, FXSPACE_SHARED).bytes;
        int64_t priv = private_bytes_fn(c, f, &memo);
        if (shared > c->tgt->lds_bytes)
            over_limit(c, f, FXSPACE_SHARED, shared, c->tgt->lds_bytes, "shared memory");
        if (priv > CG_PRIVATE_ARRAY_BYTES)
            over_limit(c, f, FXSPACE_PRIVATE, priv, CG_PRIVATE_ARRAY_BYTES, "private arrays");
    }
    cg_map_free(&memo);
    return c->errors == errors;
}

CgKernelInfo *cg_kernel_infos(CgCtx *c, int *n)
{
    CgKernelInfo *info = arena_alloc(c->fm->arena, sizeof *info * (size_t)(c->fm->funcs.len + 1));
    CgMap memo = { 0 };
    *n = 0;
    for (int k = 0; k < c->fm->funcs.len; k++) {
        const FxFunc *f = c->fm->funcs.items[k];
        if (f->kind != FXF_KERNEL)
            continue;
        CgKernelInfo *ki = &info[(*n)++];
        ki->f = f;
        ki->private_bytes = private_bytes_fn(c, f, &memo);
        ki->nnotes = 0;
        ki->notes = NULL;
        if (ki->private_bytes > 0) {
            ArrayList l = list_arrays(c, f, FXSPACE_PRIVATE);
            ki->notes = array_notes(c, f, &l, FXSPACE_PRIVATE, &ki->nnotes);
        }
        ArrayList sh = list_arrays(c, f, FXSPACE_SHARED);
        ki->shared_bytes = sh.bytes;
        ki->nshared_notes = 0;
        ki->shared_notes = sh.n ? array_notes(c, f, &sh, FXSPACE_SHARED, &ki->nshared_notes) : NULL;
    }
    cg_map_free(&memo);
    return info;
}
