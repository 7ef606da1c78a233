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

/* WMMA takes its fragments as <N x i32> (Int8: gfx11 <4 x i32>, gfx12
 * <2 x i32>), or one i32 (gfx12's Int4: 8 nibbles). */
static LLVMTypeRef packed_words(CgCtx *c, unsigned long long bytes)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    return bytes == 4 ? i32 : LLVMVectorType(i32, (unsigned)(bytes / 4));
}

static LLVMValueRef packed(CgCtx *c, LLVMValueRef v, LLVMTypeRef t)
{
    return LLVMTypeOf(v) == t ? v : LLVMBuildBitCast(c->B, v, t, "");
}

/* An Int4 fragment (<N x i4>) as the words the instruction takes: element e
 * in bits 4(e mod 8).. of word e / 8. A bitcast of the i4 vector would be
 * legalized through the stack, and widening it element by element costs
 * several instructions per nibble; but program lowering and most kernels
 * build a fragment by inserting Int4 values truncated from bytes (Int4's
 * form in memory). So the bytes are taken from before the truncation where
 * there is one, four of them make an i32, and masks and shifts squeeze its
 * four low nibbles together. */
static LLVMValueRef element_byte(CgCtx *c, LLVMValueRef v, unsigned e)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C), i8 = LLVMInt8TypeInContext(c->C);
    LLVMValueRef x = NULL;
    for (LLVMValueRef at = v; at && LLVMIsAInsertElementInst(at); at = LLVMGetOperand(at, 0)) {
        LLVMValueRef idx = LLVMGetOperand(at, 2);
        if (!LLVMIsAConstantInt(idx))
            break;
        if (LLVMConstIntGetZExtValue(idx) == e) {
            x = LLVMGetOperand(at, 1);
            break;
        }
    }
    if (x && LLVMIsATruncInst(x) && LLVMTypeOf(LLVMGetOperand(x, 0)) == i8)
        return LLVMGetOperand(x, 0);
    return LLVMBuildZExt(c->B, LLVMBuildExtractElement(c->B, v, LLVMConstInt(i32, e, 0), ""), i8, "");
}

static LLVMValueRef squeeze_word(CgCtx *c, LLVMValueRef w)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    static const struct { unsigned shift, mask; } steps[] = { { 0, 0x0F0F0F0Fu }, { 4, 0x00FF00FFu }, { 8, 0x0000FFFFu } };
    for (int s = 0; s < 3; s++) {
        if (steps[s].shift)
            w = LLVMBuildOr(c->B, w, LLVMBuildLShr(c->B, w, LLVMConstInt(i32, steps[s].shift, 0), ""), "");
        w = LLVMBuildAnd(c->B, w, LLVMConstInt(i32, steps[s].mask, 0), "");
    }
    return w;   /* the four low nibbles of the bytes, in bits 0..15 */
}

static LLVMValueRef byte_quad(CgCtx *c, LLVMValueRef v, unsigned first)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C), v4i8 = LLVMVectorType(LLVMInt8TypeInContext(c->C), 4);
    LLVMValueRef q = LLVMGetUndef(v4i8);
    for (unsigned e = 0; e < 4; e++)
        q = LLVMBuildInsertElement(c->B, q, element_byte(c, v, first + e), LLVMConstInt(i32, e, 0), "");
    return squeeze_word(c, LLVMBuildBitCast(c->B, q, i32, ""));
}

static LLVMValueRef packed_nibbles(CgCtx *c, LLVMValueRef v, LLVMTypeRef words)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
    LLVMValueRef out = LLVMGetUndef(words);
    for (unsigned e = 0; e < n; e += 8) {
        LLVMValueRef word = LLVMBuildOr(c->B, byte_quad(c, v, e),
                                        LLVMBuildShl(c->B, byte_quad(c, v, e + 4), LLVMConstInt(i32, 16, 0), ""), "");
        out = LLVMGetTypeKind(words) == LLVMVectorTypeKind
                  ? LLVMBuildInsertElement(c->B, out, word, LLVMConstInt(i32, e / 8, 0), "") : word;
    }
    return out;
}

/* RDNA: v_wmma_i32_16x16x16_iu8 (and _iu4) takes the signedness of A and B
 * and a clamp flag; Int8 and Int4 are signed, and the Int32 sum wraps (no
 * clamp). */
static LLVMValueRef wmma_iu8(CgCtx *c, const TgtMatrixInst *mi, LLVMValueRef a, LLVMValueRef b, LLVMValueRef acc)
{
    LLVMTypeRef i1 = LLVMInt1TypeInContext(c->C);
    LLVMTypeRef ft = packed_words(c, LLVMSizeOfTypeInBits(c->TD, LLVMTypeOf(a)) / 8);
    if (mi->in == TGT_E_I4) {
        a = packed_nibbles(c, a, ft);
        b = packed_nibbles(c, b, ft);
    }
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
        return mi->in == TGT_E_I8 || mi->in == TGT_E_I4 ? wmma_iu8(c, mi, a, b, acc) : wmma_float(c, mi, a, b, acc);
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
