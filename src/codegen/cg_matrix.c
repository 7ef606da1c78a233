/* cg_matrix.c - FX_MFMA: one wave-wide matrix multiply-accumulate on the
 * matrix cores. The instruction (its LLVM intrinsic, shapes and register
 * layout) is the target description's (target/target.h); program lowering
 * emits only instructions the target has, so anything else here is an
 * internal error rather than a "Cannot select" abort in the backend. */
#include "codegen/cg_internal.h"

LLVMValueRef cg_mfma(CgCtx *c, FxInst *i)
{
    const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)i->sub);
    if (!mi || !tgt_has_matrix(c->tgt, mi->id)) {
        cg_error(c, i->loc, "internal compiler error: matrix instruction %s requested for %s",
                 mi ? mi->mnemonic : "?", c->tgt->name);
        return NULL;
    }
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    /* cbsz, abid, blgp = 0: no broadcast or lane-group permutation */
    LLVMValueRef args[6] = { cg_val(c, i->ops[0]), cg_val(c, i->ops[1]), cg_val(c, i->ops[2]), zero, zero, zero };
    return cg_intrinsic(c, mi->intrinsic, NULL, 0, args, 6);
}
