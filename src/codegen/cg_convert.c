/* cg_convert.c - FX_CAST: value conversions with the rounding spec §3.4 asks for.
 *
 *   int -> int      sign- or zero-extension by the source's signedness, or truncation
 *   int -> float    round to nearest even (Float16/BFloat16 targets go through an
 *                   exact Float32 rounded to odd, so there is only one rounding)
 *   float -> int    truncation toward zero, saturating, NaN -> 0 (llvm.fpto[su]i.sat)
 *   float -> float  round to nearest even; f64 -> Float16/BFloat16 goes through
 *                   Float32 rounded to odd (one rounding in effect)
 *   -> Boolean      nonzero (NaN is nonzero); Boolean -> number gives 0 / 1.
 * Other rounding modes and the narrow storage floats come in a later stage and
 * are reported as "not supported yet". */
#include "codegen/cg_internal.h"
#include <math.h>

static LLVMValueRef fabs_of(CgCtx *c, LLVMValueRef v)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    return cg_intrinsic(c, "llvm.fabs", &ty, 1, &v, 1);
}

LLVMValueRef cg_f64_to_f32_odd(CgCtx *c, LLVMValueRef v)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
    LLVMTypeRef i32 = cg_same_shape(c, ty, LLVMInt32TypeInContext(c->C));
    LLVMValueRef r = LLVMBuildFPTrunc(c->B, v, f32, "");
    LLVMValueRef back = LLVMBuildFPExt(c->B, r, ty, "");
    LLVMValueRef inexact = LLVMBuildFCmp(c->B, LLVMRealONE, back, v, "");
    LLVMValueRef toobig = LLVMBuildFCmp(c->B, LLVMRealOGT, fabs_of(c, back), fabs_of(c, v), "");
    LLVMValueRef bits = LLVMBuildBitCast(c->B, r, i32, "");
    bits = LLVMBuildSelect(c->B, toobig, LLVMBuildSub(c->B, bits, cg_iconst(i32, 1), ""), bits, "");
    bits = LLVMBuildSelect(c->B, inexact, LLVMBuildOr(c->B, bits, cg_iconst(i32, 1), ""), bits, "");
    return LLVMBuildBitCast(c->B, bits, f32, "");
}

LLVMValueRef cg_fconvert(CgCtx *c, LLVMValueRef v, ScalarId from, ScalarId to)
{
    if (from == to)
        return v;
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef dst = cg_same_shape(c, ty, cg_scalar_reg(c, to));
    LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
    int rf = type_info(from)->float_rank, rt = type_info(to)->float_rank;
    if (rf == rt) /* Float16 <-> BFloat16: exact in Float32, then one rounding */
        return LLVMBuildFPTrunc(c->B, LLVMBuildFPExt(c->B, v, f32, ""), dst, "");
    if (rf < rt)
        return LLVMBuildFPExt(c->B, v, dst, "");
    if (from == SC_FLOAT64 && to != SC_FLOAT32)
        v = cg_f64_to_f32_odd(c, v);
    return LLVMBuildFPTrunc(c->B, v, dst, "");
}

/* An integer to Float16/BFloat16 with a single rounding: values of more than
 * 24 significant bits are first cut to 24 bits with a sticky bit (Float32
 * rounded to odd, exact), then rounded once to the 16-bit format. */
static LLVMValueRef int_to_half(CgCtx *c, LLVMValueRef v, ScalarId fs, LLVMTypeRef dst)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
    LLVMTypeRef i32 = cg_same_shape(c, ty, LLVMInt32TypeInContext(c->C));
    bool sgn = cg_is_signed(fs);
    int w = cg_width(fs);
    if (w <= 24) {
        LLVMValueRef f = sgn ? LLVMBuildSIToFP(c->B, v, f32, "") : LLVMBuildUIToFP(c->B, v, f32, "");
        return LLVMBuildFPTrunc(c->B, f, dst, "");
    }
    LLVMValueRef zero = LLVMConstNull(ty), neg = NULL, u = v;
    if (sgn) {
        neg = LLVMBuildICmp(c->B, LLVMIntSLT, v, zero, "");
        u = LLVMBuildSelect(c->B, neg, LLVMBuildSub(c->B, zero, v, ""), v, "");
    }
    LLVMValueRef args[2] = { u, LLVMConstInt(LLVMInt1TypeInContext(c->C), 0, 0) };
    LLVMValueRef lz = cg_intrinsic(c, "llvm.ctlz", &ty, 1, args, 2);
    LLVMValueRef nbits = LLVMBuildSub(c->B, cg_iconst(ty, w), lz, "");
    LLVMValueRef big = LLVMBuildICmp(c->B, LLVMIntUGT, nbits, cg_iconst(ty, 24), "");
    LLVMValueRef s = LLVMBuildSelect(c->B, big, LLVMBuildSub(c->B, nbits, cg_iconst(ty, 24), ""), zero, "");
    LLVMValueRef m = LLVMBuildLShr(c->B, u, s, "");
    LLVMValueRef low = LLVMBuildSub(c->B, LLVMBuildShl(c->B, cg_iconst(ty, 1), s, ""), cg_iconst(ty, 1), "");
    LLVMValueRef sticky = LLVMBuildICmp(c->B, LLVMIntNE, LLVMBuildAnd(c->B, u, low, ""), zero, "");
    m = LLVMBuildOr(c->B, m, LLVMBuildZExt(c->B, sticky, ty, ""), "");
    LLVMValueRef f = LLVMBuildUIToFP(c->B, LLVMBuildTrunc(c->B, m, i32, ""), f32, "");
    LLVMValueRef e = LLVMBuildAdd(c->B, LLVMBuildTrunc(c->B, s, i32, ""), cg_iconst(i32, 127), "");
    LLVMValueRef scale = LLVMBuildBitCast(c->B, LLVMBuildShl(c->B, e, cg_iconst(i32, 23), ""), f32, "");
    f = LLVMBuildFMul(c->B, f, scale, "");
    if (neg)
        f = LLVMBuildSelect(c->B, neg, LLVMBuildFNeg(c->B, f, ""), f, "");
    return LLVMBuildFPTrunc(c->B, f, dst, "");
}

/* float -> Int128/Uint128, truncating and saturating, NaN -> 0, for AMDGPU
 * (whose backend cannot legalize llvm.fpto[su]i.sat to i128). In f64 (exact
 * for every source format) the truncated magnitude m < 2^128 splits exactly
 * into hi = trunc(m / 2^64) and lo = m - hi * 2^64, both below 2^64. */
static LLVMValueRef float_to_wide_int(CgCtx *c, LLVMValueRef v, ScalarId ts, LLVMTypeRef dst)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef d = cg_same_shape(c, ty, LLVMDoubleTypeInContext(c->C));
    LLVMTypeRef i64 = cg_same_shape(c, ty, LLVMInt64TypeInContext(c->C));
    bool sgn = cg_is_signed(ts);
    int w = cg_width(ts);
    if (LLVMGetTypeKind(cg_elem_llty(ty)) != LLVMDoubleTypeKind)
        v = LLVMBuildFPExt(c->B, v, d, "");
    LLVMValueRef t = cg_intrinsic(c, "llvm.trunc", &d, 1, &v, 1);
    LLVMValueRef zero = LLVMConstNull(d);
    LLVMValueRef neg = LLVMBuildFCmp(c->B, LLVMRealOLT, t, zero, "");
    LLVMValueRef m = sgn ? fabs_of(c, t) : t;
    /* clamp the magnitude into range first so that the split is defined */
    double lim = ldexp(1.0, sgn ? w - 1 : w);
    LLVMValueRef big = LLVMBuildFCmp(c->B, LLVMRealOGE, m, cg_fconst(d, lim), "");
    LLVMValueRef bad = LLVMBuildFCmp(c->B, LLVMRealUNO, t, t, "");
    if (!sgn)
        bad = LLVMBuildOr(c->B, bad, LLVMBuildFCmp(c->B, LLVMRealOLE, t, zero, ""), "");
    LLVMValueRef mm = LLVMBuildSelect(c->B, LLVMBuildOr(c->B, big, bad, ""), zero, m, "");
    LLVMValueRef hi = cg_intrinsic(c, "llvm.trunc", &d, 1, (LLVMValueRef[]){
        LLVMBuildFMul(c->B, mm, cg_fconst(d, 0x1p-64), "") }, 1);
    LLVMValueRef lo = LLVMBuildFSub(c->B, mm, LLVMBuildFMul(c->B, hi, cg_fconst(d, 0x1p64), ""), "");
    LLVMValueRef hi_i = LLVMBuildZExt(c->B, LLVMBuildFPToUI(c->B, hi, i64, ""), dst, "");
    LLVMValueRef lo_i = LLVMBuildZExt(c->B, LLVMBuildFPToUI(c->B, lo, i64, ""), dst, "");
    LLVMValueRef r = LLVMBuildOr(c->B, LLVMBuildShl(c->B, hi_i, cg_iconst(dst, 64), ""), lo_i, "");
    LLVMValueRef maxv = sgn ? LLVMBuildSub(c->B, cg_imin(dst), cg_iconst(dst, 1), "") : LLVMConstAllOnes(dst);
    if (sgn) {
        r = LLVMBuildSelect(c->B, neg, LLVMBuildSub(c->B, LLVMConstNull(dst), r, ""), r, "");
        LLVMValueRef sat = LLVMBuildSelect(c->B, neg, cg_imin(dst), maxv, "");
        r = LLVMBuildSelect(c->B, big, sat, r, "");
    } else {
        r = LLVMBuildSelect(c->B, big, maxv, r, "");
    }
    return LLVMBuildSelect(c->B, LLVMBuildFCmp(c->B, LLVMRealUNO, t, t, ""), LLVMConstNull(dst), r, "");
}

static const char *round_desc(FfRound r)
{
    return r == FF_RNE ? "to_nearest_even" : "a directed or ties-away";
}

LLVMValueRef cg_cast(CgCtx *c, FxInst *i)
{
    const Type *ft = i->ops[0]->type, *tt = i->type;
    LLVMValueRef v = cg_val(c, i->ops[0]);
    LLVMTypeRef dst = cg_reg_type(c, tt);
    if (!type_is_numeric_value(ft) || !type_is_numeric_value(tt)) {
        cg_error(c, i->loc, "internal compiler error: cast from %s to %s",
                 cg_tyname(c, ft), cg_tyname(c, tt));
        return LLVMGetPoison(dst);
    }
    ScalarId fs = ft->scalar, ts = tt->scalar;
    bool ffloat = type_is_float(fs), tfloat = type_is_float(ts);
    if (i->rounding != FF_RNE && !(ffloat && tfloat)) {
        cg_error(c, i->loc, "a rounding mode applies only to float-to-float conversions");
        return LLVMGetPoison(dst);
    }
    if (fs == ts)
        return v;
    if (type_is_narrow(fs) || type_is_narrow(ts)) {
        cg_error(c, i->loc, "conversion from %s to %s is not supported yet",
                 cg_tyname(c, ft), cg_tyname(c, tt));
        return LLVMGetPoison(dst);
    }
    if (ts == SC_BOOLEAN) {
        if (ffloat)
            return LLVMBuildFCmp(c->B, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
        return LLVMBuildICmp(c->B, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    }
    if (fs == SC_BOOLEAN)
        return tfloat ? LLVMBuildUIToFP(c->B, v, dst, "") : LLVMBuildZExt(c->B, v, dst, "");
    if (!ffloat && !tfloat) {
        int wf = cg_width(fs), wt = cg_width(ts);
        if (wf == wt)
            return v;
        if (wf > wt)
            return LLVMBuildTrunc(c->B, v, dst, "");
        return cg_is_signed(fs) ? LLVMBuildSExt(c->B, v, dst, "") : LLVMBuildZExt(c->B, v, dst, "");
    }
    if (!ffloat) {
        if (ts == SC_FLOAT16 || ts == SC_BFLOAT16)
            return int_to_half(c, v, fs, dst);
        return cg_is_signed(fs) ? LLVMBuildSIToFP(c->B, v, dst, "") : LLVMBuildUIToFP(c->B, v, dst, "");
    }
    if (!tfloat) {
        if (!c->host && cg_width(ts) > 64)
            return float_to_wide_int(c, v, ts, dst);
        LLVMTypeRef over[2] = { dst, LLVMTypeOf(v) };
        return cg_intrinsic(c, cg_is_signed(ts) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", over, 2, &v, 1);
    }
    /* widening is exact whatever the mode; narrowing honours only RNE so far */
    if (i->rounding != FF_RNE && type_info(fs)->float_rank >= type_info(ts)->float_rank) {
        cg_error(c, i->loc, "conversion from %s to %s with rounding mode %s is not supported yet",
                 cg_tyname(c, ft), cg_tyname(c, tt), round_desc(i->rounding));
        return LLVMGetPoison(dst);
    }
    return cg_fconvert(c, v, fs, ts);
}
