/* cg_matrix.c - FX_MFMA: one wave-wide 16x16x4 matrix multiply-accumulate on
 * the CDNA matrix cores. Program lowering emits it only for processors that
 * have these instructions (gfx90a, gfx940/941/942); anywhere else it is an
 * internal error rather than a "Cannot select" abort in the backend. */
#include "codegen/cg_internal.h"
#include <string.h>

static bool has_mfma(const CgCtx *c)
{
    const char *a = c->opt.arch ? c->opt.arch : "";
    return !c->host && (!strcmp(a, "gfx90a") || !strcmp(a, "gfx940") || !strcmp(a, "gfx941") ||
                        !strcmp(a, "gfx942"));
}

LLVMValueRef cg_mfma(CgCtx *c, FxInst *i)
{
    if (!has_mfma(c)) {
        cg_error(c, i->loc, "internal compiler error: matrix instructions requested for %s",
                 c->host ? "the host" : c->opt.arch);
        return NULL;
    }
    const char *name = i->sub == FXMFMA_F64_16X16X4 ? "llvm.amdgcn.mfma.f64.16x16x4f64"
                                                   : "llvm.amdgcn.mfma.f32.16x16x4f32";
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    /* cbsz, abid, blgp = 0: no broadcast or lane-group permutation */
    LLVMValueRef args[6] = { cg_val(c, i->ops[0]), cg_val(c, i->ops[1]), cg_val(c, i->ops[2]), zero, zero, zero };
    return cg_intrinsic(c, name, NULL, 0, args, 6);
}
