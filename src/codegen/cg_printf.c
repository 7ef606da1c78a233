/* cg_printf.c - FX_PRINT and FX_ASSERT (docs/debugging.md).
 *
 * Host: the arguments (64 bits each, abi/fxprintf.h) go to an array and
 * ctx->print formats them; a failed assert calls ctx->assert_fail, which
 * stops the launch (abi/fxhost.h).
 *
 * AMDGPU: the printf ABI of AMD's device library (ockl), which the HIP
 * runtime serves through the hostcall buffer: __ockl_printf_begin, the
 * format with __ockl_printf_append_string_n, then the arguments seven at a
 * time with __ockl_printf_append_args, the last call saying so. Linking
 * ockl makes the backend give the kernel its hidden_hostcall_buffer
 * argument (amdgpu/cg_devlib.c). A failed assert prints where it failed through
 * the same path and then executes llvm.trap (s_trap). */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include "codegen/amdgpu/cg_amdgpu.h"
#include "abi/fxhost.h"
#include <string.h>

static LLVMTypeRef i64t(CgCtx *c) { return LLVMInt64TypeInContext(c->C); }
static LLVMTypeRef i32t(CgCtx *c) { return LLVMInt32TypeInContext(c->C); }
static LLVMTypeRef ptrt(CgCtx *c) { return LLVMPointerTypeInContext(c->C, 0); }

/* An argument as the 64-bit slot both printf implementations read. */
static LLVMValueRef slot_bits(CgCtx *c, LLVMValueRef v)
{
    return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMDoubleTypeKind ? LLVMBuildBitCast(c->B, v, i64t(c), "") : v;
}

/* ---- AMDGPU: ockl's printf ---- */

static LLVMValueRef ockl_fn(CgCtx *c, const char *name, LLVMTypeRef *params, unsigned n)
{
    LLVMTypeRef fty = LLVMFunctionType(i64t(c), params, n, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(c->M, name);
    return fn ? fn : LLVMAddFunction(c->M, name, fty);
}

/* The format as a constant-address-space string, as a generic pointer. */
static LLVMValueRef device_string(CgCtx *c, const char *s)
{
    LLVMValueRef init = LLVMConstStringInContext(c->C, s, (unsigned)strlen(s), 0);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(c->M, LLVMTypeOf(init), ".fxfmt", 4);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return LLVMConstAddrSpaceCast(g, ptrt(c));
}

static void device_printf(CgCtx *c, FxInst *i, const char *fmt, LLVMValueRef *args, int nargs)
{
    if (!cg_devlib_use_ockl(c, i))
        return;
    LLVMTypeRef i64 = i64t(c), i32 = i32t(c);
    LLVMTypeRef begin_ty[1] = { i64 };
    LLVMTypeRef str_ty[4] = { i64, ptrt(c), i64, i32 };
    LLVMTypeRef args_ty[10] = { i64, i32, i64, i64, i64, i64, i64, i64, i64, i32 };
    LLVMValueRef begin = ockl_fn(c, "__ockl_printf_begin", begin_ty, 1);
    LLVMValueRef append_str = ockl_fn(c, "__ockl_printf_append_string_n", str_ty, 4);
    LLVMValueRef append_args = ockl_fn(c, "__ockl_printf_append_args", args_ty, 10);
    LLVMValueRef zero = LLVMConstInt(i64, 0, 0);
    LLVMValueRef desc = LLVMBuildCall2(c->B, LLVMGlobalGetValueType(begin), begin, &zero, 1, "printf");
    /* the length counts the terminating NUL, as the HIP runtime expects */
    LLVMValueRef sargs[4] = { desc, device_string(c, fmt), LLVMConstInt(i64, strlen(fmt) + 1, 0),
                              LLVMConstInt(i32, nargs == 0, 0) };
    desc = LLVMBuildCall2(c->B, LLVMGlobalGetValueType(append_str), append_str, sargs, 4, "");
    for (int k = 0; k < nargs; k += 7) {
        int n = nargs - k < 7 ? nargs - k : 7;
        LLVMValueRef a[10];
        a[0] = desc;
        a[1] = LLVMConstInt(i32, (unsigned)n, 0);
        for (int j = 0; j < 7; j++)
            a[2 + j] = j < n ? slot_bits(c, args[k + j]) : zero;
        a[9] = LLVMConstInt(i32, k + 7 >= nargs, 0);
        desc = LLVMBuildCall2(c->B, LLVMGlobalGetValueType(append_args), append_args, a, 10, "");
    }
}

/* ---- host ---- */

static void host_printf(CgCtx *c, const char *fmt, LLVMValueRef *args, int nargs)
{
    LLVMValueRef arr = LLVMConstNull(ptrt(c));
    if (nargs > 0) {
        LLVMTypeRef at = LLVMArrayType2(i64t(c), (uint64_t)nargs);
        LLVMBuilderRef ab = LLVMCreateBuilderInContext(c->C);
        LLVMPositionBuilderAtEnd(ab, c->entry);   /* once per frame, not per execution */
        arr = LLVMBuildAlloca(ab, at, "printf_args");
        LLVMDisposeBuilder(ab);
        for (int k = 0; k < nargs; k++) {
            LLVMValueRef idx[2] = { LLVMConstInt(i32t(c), 0, 0), LLVMConstInt(i32t(c), (unsigned)k, 0) };
            LLVMBuildStore(c->B, slot_bits(c, args[k]), LLVMBuildGEP2(c->B, at, arr, idx, 2, ""));
        }
    }
    LLVMTypeRef pt[3] = { ptrt(c), ptrt(c), ptrt(c) };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), pt, 3, 0);
    LLVMValueRef fp = LLVMBuildLoad2(c->B, ptrt(c), cg_hostctx_field(c, FX_HOSTCTX_print, 0), "print_fn");
    LLVMValueRef a[3] = { c->hostctx, cg_cstring(c, fmt), arr };
    LLVMBuildCall2(c->B, fty, fp, a, 3, "");
}

void cg_print(CgCtx *c, FxInst *i)
{
    LLVMValueRef *args = arena_alloc(c->fm->arena, sizeof(LLVMValueRef) * (size_t)(i->nops + 1));
    for (int k = 0; k < i->nops; k++)
        args[k] = cg_val(c, i->ops[k]);
    if (cg_host_abi(c))
        host_printf(c, i->text, args, i->nops);
    else
        device_printf(c, i, i->text, args, i->nops);
}

/* ---- fx.assert ---- */

/* s with every '%' doubled, for a format's literal text. */
static const char *literal(CgCtx *c, const char *s)
{
    char *out = arena_alloc(c->fm->arena, 2 * strlen(s) + 1), *o = out;
    for (; *s; s++) {
        if (*s == '%')
            *o++ = '%';
        *o++ = *s;
    }
    *o = 0;
    return out;
}

/* The work-item's block and thread indices, x y z, as 64-bit slots. */
static void device_ids(CgCtx *c, LLVMValueRef ids[6])
{
    static const char *const names[6] = {
        "llvm.amdgcn.workgroup.id.x", "llvm.amdgcn.workgroup.id.y", "llvm.amdgcn.workgroup.id.z",
        "llvm.amdgcn.workitem.id.x", "llvm.amdgcn.workitem.id.y", "llvm.amdgcn.workitem.id.z",
    };
    for (int k = 0; k < 6; k++)
        ids[k] = LLVMBuildZExt(c->B, cg_intrinsic(c, names[k], NULL, 0, NULL, 0), i64t(c), "");
}

static void device_assert_fail(CgCtx *c, FxInst *i, const char *where)
{
    const FxFunc *f = c->cur->f;
    const char *in = arena_printf(c->fm->arena, "%s %s", f->kind == FXF_KERNEL ? "kernel" : "fn", f->name);
    const char *fmt = arena_printf(c->fm->arena, "%s: assertion failed in %s, block (%%lu,%%lu,%%lu), thread "
                                   "(%%lu,%%lu,%%lu)%s%s\n", literal(c, where), literal(c, in),
                                   i->text[0] ? ": " : "", literal(c, i->text));
    LLVMValueRef ids[6];
    device_ids(c, ids);
    device_printf(c, i, fmt, ids, 6);
    cg_intrinsic(c, "llvm.trap", NULL, 0, NULL, 0);
}

static void host_assert_fail(CgCtx *c, FxInst *i, const char *where)
{
    const FxFunc *f = c->cur->f;
    LLVMTypeRef pt[4] = { ptrt(c), ptrt(c), ptrt(c), ptrt(c) };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), pt, 4, 0);
    LLVMValueRef fp = LLVMBuildLoad2(c->B, ptrt(c), cg_hostctx_field(c, FX_HOSTCTX_assert_fail, 0), "assert_fn");
    LLVMValueRef a[4] = { c->hostctx, cg_cstring(c, where),
                          f->kind == FXF_FN ? cg_cstring(c, f->name) : LLVMConstNull(ptrt(c)),
                          cg_cstring(c, i->text) };
    LLVMBuildCall2(c->B, fty, fp, a, 4, "");
}

void cg_assert(CgCtx *c, FxInst *i)
{
    const char *file = i->loc.file ? i->loc.file->name : "<stdin>";
    const char *where = arena_printf(c->fm->arena, "%s:%d:%d", file, i->loc.line, i->loc.col);
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->C, c->fn, "assert_failed");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(c->C, c->fn, "assert_ok");
    LLVMValueRef br = LLVMBuildCondBr(c->B, cg_val(c, i->ops[0]), ok, fail);
    /* a failing assert is the unlikely path */
    LLVMMetadataRef md[3] = { LLVMMDStringInContext2(c->C, "branch_weights", 14),
                              LLVMValueAsMetadata(LLVMConstInt(i32t(c), 1048575, 0)),
                              LLVMValueAsMetadata(LLVMConstInt(i32t(c), 1, 0)) };
    LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c->C, "prof", 4),
                    LLVMMetadataAsValue(c->C, LLVMMDNodeInContext2(c->C, md, 3)));
    LLVMPositionBuilderAtEnd(c->B, fail);
    if (cg_host_abi(c))
        host_assert_fail(c, i, where);
    else
        device_assert_fail(c, i, where);
    LLVMBuildUnreachable(c->B);
    LLVMPositionBuilderAtEnd(c->B, ok);
}
