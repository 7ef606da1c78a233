/* cg_matrix.c - FX_MFMA: one wave-wide matrix multiply-accumulate on the
 * matrix cores (CDNA's MFMA, RDNA's WMMA). The instruction (its LLVM
 * intrinsic, shapes and register layout) is the target description's
 * (target/target.h); program lowering emits only instructions the target
 * has, so anything else here is an internal error rather than a "Cannot
 * select" abort in the backend. Int8 fragments are FXIR vectors of Int8;
 * the intrinsics take them packed into i32/i64 or <N x i32>, the same bytes.
 * BFloat16 fragments (LLVM bfloat) go in as <N x i16> of the same bits, the
 * 8-bit floats (bytes) packed like Int8. */
#include "codegen/cg_internal.h"
#include "codegen/amdgpu/cg_amdgpu.h"
#include <string.h>

/* WMMA takes its fragments as <N x i32> (gfx11 <4 x i32>, gfx12 <2 x i32>). */
static LLVMTypeRef packed_words(CgCtx *c, unsigned long long bytes)
{
    return LLVMVectorType(LLVMInt32TypeInContext(c->C), (unsigned)(bytes / 4));
}

static LLVMValueRef packed(CgCtx *c, LLVMValueRef v, LLVMTypeRef t)
{
    return LLVMTypeOf(v) == t ? v : LLVMBuildBitCast(c->B, v, t, "");
}

/* RDNA: v_wmma_i32_16x16x16_iu8 takes the signedness of A and B and a clamp
 * flag; Int8 is signed, and the Int32 sum wraps (no clamp). */
static LLVMValueRef wmma_iu8(CgCtx *c, const TgtMatrixInst *mi, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc)
{
    LLVMTypeRef i1 = LLVMInt1TypeInContext(c->C);
    LLVMTypeRef ft = packed_words(c, LLVMABISizeOfType(c->TD, LLVMTypeOf(a)));
    LLVMTypeRef over[2] = { LLVMTypeOf(acc), ft };
    LLVMValueRef args[6] = { LLVMConstInt(i1, 1, 0), packed(c, a, ft), LLVMConstInt(i1, 1, 0), packed(c, b, ft), acc,
                             LLVMConstInt(i1, 0, 0) };
    return cg_intrinsic(c, mi->intrinsic, over, 2, args, 6);
}

/* RDNA's float WMMA, overloaded on D and on A/B (Float16 as <N x half>,
 * BFloat16 as <N x i16>, the 8-bit floats packed in <N x i32>): D = A @ B + C,
 * no operand options. */
static LLVMValueRef wmma_float(CgCtx *c, const TgtMatrixInst *mi, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc)
{
    LLVMTypeRef ft = LLVMTypeOf(a);
    if (mi->in == TGT_E_BF16)
        ft = LLVMVectorType(LLVMInt16TypeInContext(c->C), LLVMGetVectorSize(ft));
    else if (mi->in != TGT_E_F16)
        ft = packed_words(c, LLVMABISizeOfType(c->TD, ft));
    LLVMTypeRef over[2] = { LLVMTypeOf(acc), ft };
    LLVMValueRef args[3] = { packed(c, a, ft), packed(c, b, ft), acc };
    return cg_intrinsic(c, mi->intrinsic, over, 2, args, 3);
}

LLVMValueRef cg_mfma(CgCtx *c, FxInst *i)
{
    const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)i->sub);
    if (!mi || !tgt_has_matrix(c->tgt, mi->id)) {
        cg_error(c, i->loc, "internal compiler error: matrix instruction %s requested for %s",
                 mi ? mi->mnemonic : "?", c->tgt->name);
        return NULL;
    }
    LLVMValueRef a = cg_val(c, i->ops[0]), b = cg_val(c, i->ops[1]), acc = cg_val(c, i->ops[2]);
    if (strncmp(mi->family, "RDNA", 4) == 0)
        return mi->in == TGT_E_I8 ? wmma_iu8(c, mi, a, b, acc) : wmma_float(c, mi, a, b, acc);
    unsigned id = LLVMLookupIntrinsicID(mi->intrinsic, strlen(mi->intrinsic));
    LLVMTypeRef fnty = LLVMIntrinsicGetType(c->C, id, NULL, 0);
    LLVMTypeRef pt[6];
    LLVMGetParamTypes(fnty, pt);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    /* cbsz, abid, blgp = 0: no broadcast or lane-group permutation */
    LLVMValueRef args[6] = { packed(c, a, pt[0]), packed(c, b, pt[1]), acc, zero, zero, zero };
    return cg_intrinsic(c, mi->intrinsic, NULL, 0, args, 6);
}
