/* cg_check.c - the checker's calls in host code (fxcc --check, fxrun
 * --check=races,uninit; abi/fxhost.h), and the check of @index_nowrap's
 * promise (every host launch: it is what makes the promise defined there). Before every load from or store to a
 * shared array the code calls ctx->check with the access's site, the
 * array's first element and the element's address; before every barrier it
 * stores the barrier's site in ctx->barrier_site. The runtime keeps the
 * shadow state (runtime/rt_check.c). Atomics are synchronization, not
 * checked accesses. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include "abi/fxhost.h"

/* A private constant FxCheckSite for instruction i. */
static LLVMValueRef check_site(CgCtx *c, FxInst *i, const char *op, const char *array, int64_t elem_bytes)
{
    LLVMTypeRef p = LLVMPointerTypeInContext(c->C, 0), i32 = LLVMInt32TypeInContext(c->C);
    const char *fn = c->cur->f->kind == FXF_FN ? c->cur->f->name : NULL;
    const char *file = i->loc.file ? i->loc.file->name : NULL;
    LLVMValueRef f[FX_CHECKSITE_NFIELDS];
    f[FX_CHECKSITE_op] = cg_cstring(c, op);
    f[FX_CHECKSITE_array] = array ? cg_cstring(c, array) : LLVMConstNull(p);
    f[FX_CHECKSITE_func] = fn ? cg_cstring(c, fn) : LLVMConstNull(p);
    f[FX_CHECKSITE_file] = file ? cg_cstring(c, file) : LLVMConstNull(p);
    f[FX_CHECKSITE_line] = LLVMConstInt(i32, (unsigned)i->loc.line, 0);
    f[FX_CHECKSITE_col] = LLVMConstInt(i32, (unsigned)i->loc.col, 0);
    f[FX_CHECKSITE_elem_bytes] = LLVMConstInt(LLVMInt64TypeInContext(c->C), (unsigned long long)elem_bytes, 0);
    return cg_private_constant(c, LLVMConstNamedStruct(cg_check_site_type(c), f, FX_CHECKSITE_NFIELDS), ".fxcheck");
}

bool cg_checks_access(CgCtx *c, const FxInst *array)
{
    return c->opt.check && cg_host_abi(c) && fxir_is_shared_array(array);
}

void cg_check_access(CgCtx *c, FxInst *i, FxInst *array, LLVMValueRef addr, const Type *elem, bool is_write)
{
    LLVMTypeRef p = LLVMPointerTypeInContext(c->C, 0), i32 = LLVMInt32TypeInContext(c->C);
    int64_t eb = (int64_t)LLVMABISizeOfType(c->TD, cg_stride_type(c, elem));
    LLVMValueRef site = check_site(c, i, is_write ? "store to" : "load from", array->name, eb);
    LLVMValueRef fp = LLVMBuildLoad2(c->B, p, cg_hostctx_field(c, FX_HOSTCTX_check, 0), "checkfn");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(c->C, c->fn, "check");
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(c->C, c->fn, "checked");
    LLVMBuildCondBr(c->B, LLVMBuildIsNull(c->B, fp, ""), cont, call);   /* a launch without checks */
    LLVMPositionBuilderAtEnd(c->B, call);
    LLVMTypeRef pt[5] = { p, p, p, p, i32 };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), pt, 5, 0);
    LLVMValueRef args[5] = { c->hostctx, site, cg_val(c, array), addr, LLVMConstInt(i32, is_write, 0) };
    LLVMBuildCall2(c->B, fty, fp, args, 5, "");
    LLVMBuildBr(c->B, cont);
    LLVMPositionBuilderAtEnd(c->B, cont);
}

void cg_check_barrier(CgCtx *c, FxInst *i)
{
    if (!c->opt.check || !cg_host_abi(c))
        return;
    LLVMBuildStore(c->B, check_site(c, i, "barrier", NULL, 0), cg_hostctx_field(c, FX_HOSTCTX_barrier_site, 0));
}

/* The location text "file:line:col" of instruction i. */
static LLVMValueRef where_text(CgCtx *c, const FxInst *i)
{
    const char *file = i->loc.file ? i->loc.file->name : "<stdin>";
    return cg_cstring(c, arena_printf(c->fm->arena, "%s:%d:%d", file, i->loc.line, i->loc.col));
}

LLVMValueRef cg_check_overflow(CgCtx *c, FxInst *i, LLVMValueRef a, LLVMValueRef b, const char *what)
{
    static const char *const intr[] = { [FXB_ADD] = "llvm.sadd.with.overflow",
                                        [FXB_SUB] = "llvm.ssub.with.overflow",
                                        [FXB_MUL] = "llvm.smul.with.overflow" };
    LLVMTypeRef ty = LLVMTypeOf(a), p = LLVMPointerTypeInContext(c->C, 0);
    LLVMValueRef args[2] = { a, b };
    LLVMValueRef r = cg_intrinsic(c, intr[i->sub], &ty, 1, args, 2);
    LLVMValueRef v = LLVMBuildExtractValue(c->B, r, 0, ""), bad = LLVMBuildExtractValue(c->B, r, 1, "");
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->C, c->fn, "overflow");
    LLVMBasicBlockRef cont = LLVMAppendBasicBlockInContext(c->C, c->fn, "no_overflow");
    LLVMValueRef expect[2] = { bad, LLVMConstInt(LLVMInt1TypeInContext(c->C), 0, 0) };
    LLVMTypeRef i1 = LLVMInt1TypeInContext(c->C);
    LLVMBuildCondBr(c->B, cg_intrinsic(c, "llvm.expect", &i1, 1, expect, 2), fail, cont);
    LLVMPositionBuilderAtEnd(c->B, fail);
    const FxFunc *f = c->cur->f;
    LLVMTypeRef pt[4] = { p, p, p, p };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), pt, 4, 0);
    LLVMValueRef fp = LLVMBuildLoad2(c->B, p, cg_hostctx_field(c, FX_HOSTCTX_overflow, 0), "overflow_fn");
    LLVMValueRef call[4] = { c->hostctx, where_text(c, i),
                             f->kind == FXF_FN ? cg_cstring(c, f->name) : LLVMConstNull(p), cg_cstring(c, what) };
    LLVMBuildCall2(c->B, fty, fp, call, 4, "");
    LLVMBuildUnreachable(c->B);
    LLVMPositionBuilderAtEnd(c->B, cont);
    return v;
}
