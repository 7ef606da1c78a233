/* cg_types.c - FXIR types and constants as LLVM types and constants.
 *
 * Register form vs memory form: Boolean is i1 in registers and i8 (0/1) in
 * memory; Int4 is i4 in registers and a sign-extended byte in memory; narrow
 * floats are their bit pattern (i8/i6/i4) in registers and one byte in memory.
 * Everything else has one form. Index is i64. */
#include "codegen/cg_internal.h"
#include <string.h>

int cg_width(ScalarId s)
{
    return type_info(s)->width;
}

bool cg_is_signed(ScalarId s)
{
    return type_is_int(s) && type_info(s)->is_signed;
}

unsigned cg_global_as(CgCtx *c)
{
    return c->facts->global_as;
}

LLVMTypeRef cg_ptr_type(CgCtx *c, unsigned as)
{
    return LLVMPointerTypeInContext(c->C, as);
}

LLVMTypeRef cg_scalar_reg(CgCtx *c, ScalarId s)
{
    switch (s) {
    case SC_FLOAT16: return LLVMHalfTypeInContext(c->C);
    case SC_BFLOAT16: return LLVMBFloatTypeInContext(c->C);
    case SC_FLOAT32: return LLVMFloatTypeInContext(c->C);
    case SC_FLOAT64: return LLVMDoubleTypeInContext(c->C);
    default: return LLVMIntTypeInContext(c->C, (unsigned)cg_width(s));
    }
}

LLVMTypeRef cg_scalar_mem(CgCtx *c, ScalarId s)
{
    if (cg_width(s) < 8)
        return LLVMInt8TypeInContext(c->C);
    return cg_scalar_reg(c, s);
}

LLVMTypeRef cg_reg_type(CgCtx *c, const Type *t)
{
    switch (t->kind) {
    case TY_SCALAR: return cg_scalar_reg(c, t->scalar);
    case TY_VECTOR: return LLVMVectorType(cg_scalar_reg(c, t->scalar), (unsigned)t->lanes);
    case TY_PTR: return cg_ptr_type(c, c->facts->global_as);
    case TY_VOID: return LLVMVoidTypeInContext(c->C);
    default: return cg_mem_type(c, t);
    }
}

LLVMTypeRef cg_mem_type(CgCtx *c, const Type *t)
{
    switch (t->kind) {
    case TY_SCALAR: return cg_scalar_mem(c, t->scalar);
    case TY_VECTOR: return LLVMVectorType(cg_scalar_mem(c, t->scalar), (unsigned)t->lanes);
    case TY_PTR: return cg_ptr_type(c, c->facts->global_as);
    case TY_ARRAY: {
        uint64_t n = 1;   /* a dynamic array is [0 x T]: its memory comes at launch */
        for (int k = 0; k < t->ndims; k++)
            n *= type_is_dyn_array(t) ? 0 : (uint64_t)t->dims[k];
        return LLVMArrayType2(cg_stride_type(c, t->elem), n);
    }
    case TY_VOID: return LLVMVoidTypeInContext(c->C);
    default:
        return LLVMInt8TypeInContext(c->C);
    }
}

/* The type whose size is one element's stride in memory. Vectors are packed
 * (docs/decisions.md): a 3-lane vector takes 3 elements, as HIP's float3
 * does, where LLVM's <3 x float> would take 16 bytes and want 16-byte
 * alignment; its stride type is the array [3 x T]. */
LLVMTypeRef cg_stride_type(CgCtx *c, const Type *t)
{
    if (t->kind == TY_VECTOR && (t->lanes & (t->lanes - 1)) != 0)
        return LLVMArrayType2(cg_scalar_mem(c, t->scalar), (uint64_t)t->lanes);
    return cg_mem_type(c, t);
}

LLVMTypeRef cg_elem_llty(LLVMTypeRef ty)
{
    return LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? LLVMGetElementType(ty) : ty;
}

LLVMTypeRef cg_same_shape(CgCtx *c, LLVMTypeRef like, LLVMTypeRef elem)
{
    (void)c;
    if (LLVMGetTypeKind(like) == LLVMVectorTypeKind)
        return LLVMVectorType(elem, LLVMGetVectorSize(like));
    return elem;
}

static bool numeric(const Type *t)
{
    return t->kind == TY_SCALAR || t->kind == TY_VECTOR;
}

LLVMValueRef cg_to_mem(CgCtx *c, LLVMValueRef v, const Type *t)
{
    if (!numeric(t))
        return v;
    ScalarId s = t->scalar;
    LLVMTypeRef mt = cg_mem_type(c, t);
    if (s == SC_BOOLEAN || (type_is_narrow(s) && cg_width(s) < 8))
        return LLVMBuildZExt(c->B, v, mt, "");
    if (s == SC_INT4)
        return LLVMBuildSExt(c->B, v, mt, "");
    return v;
}

LLVMValueRef cg_from_mem(CgCtx *c, LLVMValueRef v, const Type *t)
{
    if (!numeric(t))
        return v;
    ScalarId s = t->scalar;
    if (s == SC_BOOLEAN)
        return LLVMBuildICmp(c->B, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    if (cg_width(s) < 8)
        return LLVMBuildTrunc(c->B, v, cg_reg_type(c, t), "");
    return v;
}

LLVMValueRef cg_splat_const(LLVMTypeRef ty, LLVMValueRef scalar)
{
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        return scalar;
    unsigned n = LLVMGetVectorSize(ty);
    LLVMValueRef elems[64];
    for (unsigned k = 0; k < n && k < 64; k++)
        elems[k] = scalar;
    return LLVMConstVector(elems, n);
}

LLVMValueRef cg_splat_value(CgCtx *c, LLVMTypeRef vecty, LLVMValueRef scalar)
{
    if (LLVMGetTypeKind(vecty) != LLVMVectorTypeKind)
        return scalar;
    if (LLVMIsConstant(scalar))
        return cg_splat_const(vecty, scalar);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMValueRef v = LLVMBuildInsertElement(c->B, LLVMGetPoison(vecty), scalar,
                                            LLVMConstInt(i32, 0, 0), "");
    LLVMValueRef mask = LLVMConstNull(LLVMVectorType(i32, LLVMGetVectorSize(vecty)));
    return LLVMBuildShuffleVector(c->B, v, LLVMGetPoison(vecty), mask, "");
}

static LLVMValueRef int_words(LLVMTypeRef elem, uint64_t lo, uint64_t hi)
{
    unsigned w = LLVMGetIntTypeWidth(elem);
    if (w > 64) {
        uint64_t words[2] = { lo, hi };
        return LLVMConstIntOfArbitraryPrecision(elem, 2, words);
    }
    if (w < 64)
        lo &= (UINT64_C(1) << w) - 1;
    return LLVMConstInt(elem, lo, 0);
}

LLVMValueRef cg_iconst_words(LLVMTypeRef ty, uint64_t lo, uint64_t hi)
{
    return cg_splat_const(ty, int_words(cg_elem_llty(ty), lo, hi));
}

LLVMValueRef cg_iconst(LLVMTypeRef ty, int64_t v)
{
    return cg_iconst_words(ty, (uint64_t)v, v < 0 ? ~UINT64_C(0) : 0);
}

LLVMValueRef cg_imin(LLVMTypeRef ty)
{
    unsigned w = LLVMGetIntTypeWidth(cg_elem_llty(ty));
    if (w > 64)
        return cg_iconst_words(ty, 0, UINT64_C(1) << (w - 65));
    return cg_iconst_words(ty, UINT64_C(1) << (w - 1), 0);
}

LLVMValueRef cg_fconst(LLVMTypeRef ty, double v)
{
    return cg_splat_const(ty, LLVMConstReal(cg_elem_llty(ty), v));
}

LLVMValueRef cg_const(CgCtx *c, const Type *t, FxConst k)
{
    if (!numeric(t)) {
        cg_error(c, (Loc){0}, "internal compiler error: constant of type %s", cg_tyname(c, t));
        return LLVMGetPoison(cg_reg_type(c, t));
    }
    ScalarId s = t->scalar;
    LLVMTypeRef ety = cg_scalar_reg(c, s);
    LLVMValueRef e;
    if (type_is_float(s)) {
        LLVMTypeRef ity = LLVMIntTypeInContext(c->C, (unsigned)cg_width(s));
        e = LLVMConstBitCast(int_words(ity, k.lo, 0), ety);
    } else {
        e = int_words(ety, k.lo, k.hi);
    }
    return cg_splat_const(cg_reg_type(c, t), e);
}

LLVMValueRef cg_intrinsic(CgCtx *c, const char *name, LLVMTypeRef *over, int nover,
                          LLVMValueRef *args, int nargs)
{
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    if (!id) {
        cg_error(c, (Loc){0}, "internal compiler error: unknown intrinsic %s", name);
        return NULL;
    }
    LLVMValueRef fn = LLVMGetIntrinsicDeclaration(c->M, id, over, (size_t)nover);
    LLVMTypeRef fnty = LLVMIntrinsicGetType(c->C, id, over, (size_t)nover);
    return LLVMBuildCall2(c->B, fnty, fn, args, (unsigned)nargs, "");
}

LLVMValueRef cg_fmf(LLVMValueRef v, unsigned fmf)
{
    if (fmf && v && LLVMIsAInstruction(v) && LLVMCanValueUseFastMathFlags(v))
        LLVMSetFastMathFlags(v, (LLVMFastMathFlags)fmf);
    return v;
}

LLVMValueRef cg_index64(CgCtx *c, LLVMValueRef idx, ScalarId s)
{
    LLVMTypeRef i64 = LLVMInt64TypeInContext(c->C);
    unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(idx));
    if (w == 64)
        return idx;
    if (w > 64)
        return LLVMBuildTrunc(c->B, idx, i64, "");
    if (cg_is_signed(s))
        return LLVMBuildSExt(c->B, idx, i64, "");
    return LLVMBuildZExt(c->B, idx, i64, "");
}

LLVMValueRef cg_private_constant(CgCtx *c, LLVMValueRef init, const char *name)
{
    LLVMValueRef g = LLVMAddGlobal(c->M, LLVMTypeOf(init), name);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    return g;
}

LLVMValueRef cg_cstring(CgCtx *c, const char *s)
{
    LLVMValueRef init = LLVMConstStringInContext(c->C, s, (unsigned)strlen(s), 0);
    LLVMValueRef g = cg_private_constant(c, init, ".fxstr");
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return g;
}
