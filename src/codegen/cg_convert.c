/* cg_convert.c - FX_CAST: value conversions with exactly the results of the
 * constant folder (support/floatfmt.c: ff_from_double, ff_from_big,
 * ff_to_double), on every target.
 *
 *   int -> int      sign- or zero-extension by the source's signedness, or truncation
 *   int -> float    ONE rounding from the exact integer (to nearest even): Float32
 *                   and Float64 by the instruction; the 16-bit and narrow formats
 *                   through an exact Float32 "rounded to odd" (24 significant bits
 *                   and a sticky bit), which a second rounding cannot disturb
 *   float -> int    truncation toward zero, saturating, NaN -> 0 (llvm.fpto[su]i.sat)
 *   float -> float  every pair of Float16/BFloat16/Float32/Float64 and the nine
 *                   narrow formats, all five rounding modes, one rounding; a NaN
 *                   becomes the target's canonical NaN (positive, quiet), unless
 *                   the cast carries `nnan`
 *   -> Boolean      nonzero (NaN is nonzero); Boolean -> number gives 0 / 1.
 *
 * Float-to-float paths (see docs/codegen.md for their cost):
 *   widening (f16/bf16 -> f32/f64, f32 -> f64)   fpext, exact
 *   f32 -> f16/bf16, f64 -> f32, rounding to nearest even   the instruction
 *   f32 -> f16 upward/downward on AMDGPU        llvm.fptrunc.round (mode register)
 *   f64 -> 16-bit or narrow                     f64 -> f32 rounded to odd, then as f32
 *   everything else                             soft_round(): integer arithmetic on
 *                                               the f32 (or f64) bit pattern
 *   narrow -> anything                          narrow_to_f32() (exact), then as f32
 * Narrow floats live in registers as their bit pattern (i8, i6, i4). */
#include "codegen/cg_internal.h"
#include <math.h>
#include <string.h>

static const FloatFormat *fmt_of(ScalarId s)
{
    return type_info(s)->fmt;
}

static LLVMValueRef fabs_of(CgCtx *c, LLVMValueRef v)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    return cg_intrinsic(c, "llvm.fabs", &ty, 1, &v, 1);
}

static LLVMTypeRef int_shape(CgCtx *c, LLVMTypeRef like, int bits)
{
    return cg_same_shape(c, like, LLVMIntTypeInContext(c->C, (unsigned)bits));
}

static LLVMValueRef iconst_u(LLVMTypeRef ty, uint64_t v)
{
    return cg_iconst_words(ty, v, 0);
}

LLVMValueRef cg_f64_to_f32_odd(CgCtx *c, LLVMValueRef v)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
    LLVMTypeRef i32 = int_shape(c, ty, 32);
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

/* ---- the bit patterns of a format (mirrors floatfmt.c) ---- */

static uint64_t low_bits(int n)
{
    return n >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n) - 1;
}

static uint64_t exp_all_ones(const FloatFormat *f)
{
    return low_bits(f->exp_bits) << f->man_bits;
}

static uint64_t max_finite(const FloatFormat *f)
{
    switch (f->nan) {
    case FF_NAN_IEEE: return exp_all_ones(f) - 1;
    case FF_NAN_FN: return low_bits(f->exp_bits + f->man_bits) - 1;
    default: return low_bits(f->exp_bits + f->man_bits);
    }
}

/* The canonical NaN without its sign (what a NaN input becomes). */
static uint64_t canon_nan_bits(const FloatFormat *f)
{
    switch (f->nan) {
    case FF_NAN_IEEE: return exp_all_ones(f) | (UINT64_C(1) << (f->man_bits - 1));
    case FF_NAN_FN: return low_bits(f->exp_bits + f->man_bits);
    case FF_NAN_FNUZ: return UINT64_C(1) << (f->width - 1);
    default: return 0; /* FP6/FP4: +0 */
    }
}

/* The NaN an infinity or an overflow becomes in a format without
 * infinities: FN formats keep the sign (0x7F / 0xFF), FNUZ has one NaN. */
static LLVMValueRef signed_nan(CgCtx *c, const FloatFormat *f, LLVMValueRef sign)
{
    LLVMTypeRef ty = LLVMTypeOf(sign);
    if (f->nan == FF_NAN_FN)
        return LLVMBuildOr(c->B, sign, iconst_u(ty, canon_nan_bits(f)), "");
    return iconst_u(ty, canon_nan_bits(f));
}

/* ---- software rounding ---- */

/* The encoding of v (float or double, scalar or vector) in format tf, rounded
 * once in mode rm exactly as ff_from_double() rounds: an integer of
 * tf->width bits of the same shape. Requirements: the target has fewer
 * significand bits than the source, and its smallest normal exponent is not
 * below the source's (true for every use: f32 sources never go to
 * Float8E8M0FNU, whose 2^-127 is a Float32 subnormal).
 *
 * The source's sign s, unbiased exponent E (subnormals: the minimum, with no
 * hidden bit) and significand M give the magnitude M * 2^(E - sm). The target
 * keeps M >> shift, where shift = sm - tm plus, below the target's smallest
 * normal exponent emin, the distance to it (capped so that all of M may
 * become sticky); the dropped bits decide the increment. The kept significand
 * added to (E - emin) << tm is the encoding: its hidden bit carries into the
 * exponent field, and a rounding carry moves to the next binade by itself. */
static LLVMValueRef soft_round(CgCtx *c, LLVMValueRef v, const FloatFormat *tf, FfRound rm)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    bool dbl = LLVMGetTypeKind(cg_elem_llty(ty)) == LLVMDoubleTypeKind;
    int W = dbl ? 64 : 32, sm = dbl ? 52 : 23, sbias = dbl ? 1023 : 127;
    int tm = tf->man_bits;
    int emin = tf->has_zero ? 1 - tf->bias : -tf->bias;
    LLVMTypeRef it = int_shape(c, ty, W);
    LLVMBuilderRef B = c->B;
    LLVMValueRef zero = LLVMConstNull(it), one = cg_iconst(it, 1);

    LLVMValueRef u = LLVMBuildBitCast(B, v, it, "");
    LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, u, zero, "");
    LLVMValueRef a = LLVMBuildAnd(B, u, iconst_u(it, low_bits(W - 1)), "");
    LLVMValueRef infb = iconst_u(it, low_bits(W - 1 - sm) << sm);
    LLVMValueRef isnan = LLVMBuildICmp(B, LLVMIntUGT, a, infb, "");
    LLVMValueRef isinf = LLVMBuildICmp(B, LLVMIntEQ, a, infb, "");
    LLVMValueRef be = LLVMBuildLShr(B, a, cg_iconst(it, sm), "");
    LLVMValueRef man = LLVMBuildAnd(B, a, iconst_u(it, low_bits(sm)), "");
    LLVMValueRef isnorm = LLVMBuildICmp(B, LLVMIntNE, be, zero, "");
    LLVMValueRef M = LLVMBuildOr(B, man, LLVMBuildSelect(B, isnorm, iconst_u(it, UINT64_C(1) << sm), zero, ""), "");
    LLVMValueRef be1 = LLVMBuildSelect(B, isnorm, be, one, "");
    /* E - emin and emin - E, from the biased exponent (no overflow in W bits) */
    LLVMValueRef up_e = LLVMBuildSub(B, be1, cg_iconst(it, sbias + emin), "");
    LLVMValueRef dn_e = LLVMBuildSub(B, cg_iconst(it, sbias + emin), be1, "");
    LLVMValueRef extra = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, dn_e, zero, ""), dn_e, zero, "");
    LLVMValueRef shift = LLVMBuildAdd(B, extra, cg_iconst(it, sm - tm), "");
    LLVMValueRef capped = LLVMBuildICmp(B, LLVMIntUGT, shift, cg_iconst(it, sm + 2), "");
    shift = LLVMBuildSelect(B, capped, cg_iconst(it, sm + 2), shift, "");
    LLVMValueRef base_e = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSGT, up_e, zero, ""), up_e, zero, "");
    LLVMValueRef base = LLVMBuildShl(B, base_e, cg_iconst(it, tm), "");
    LLVMValueRef k = LLVMBuildLShr(B, M, shift, "");
    LLVMValueRef rem = LLVMBuildAnd(B, M, LLVMBuildSub(B, LLVMBuildShl(B, one, shift, ""), one, ""), "");
    LLVMValueRef half = LLVMBuildShl(B, one, LLVMBuildSub(B, shift, one, ""), "");
    LLVMValueRef inexact = LLVMBuildICmp(B, LLVMIntNE, rem, zero, "");
    LLVMValueRef up;
    switch (rm) {
    case FF_RNE: {
        LLVMValueRef above = LLVMBuildICmp(B, LLVMIntUGT, rem, half, "");
        LLVMValueRef tie = LLVMBuildICmp(B, LLVMIntEQ, rem, half, "");
        LLVMValueRef odd = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, k, one, ""), zero, "");
        up = LLVMBuildOr(B, above, LLVMBuildAnd(B, tie, odd, ""), "");
        break;
    }
    case FF_NEAREST_AWAY: up = LLVMBuildICmp(B, LLVMIntUGE, rem, half, ""); break;
    case FF_UP: up = LLVMBuildAnd(B, inexact, LLVMBuildNot(B, neg, ""), ""); break;
    case FF_DOWN: up = LLVMBuildAnd(B, inexact, neg, ""); break;
    default: up = NULL; break;
    }
    LLVMValueRef enc = LLVMBuildAdd(B, base, k, "");
    if (up)
        enc = LLVMBuildAdd(B, enc, LLVMBuildZExt(B, up, it, ""), "");
    if (!tf->has_zero) {
        /* Float8E8M0FNU: no hidden-bit field; encoding e is 2^(e - 127),
         * and everything below 2^-127 gives 0x00 */
        LLVMValueRef z = LLVMBuildICmp(B, LLVMIntEQ, enc, zero, "");
        enc = LLVMBuildSelect(B, z, zero, LLVMBuildSub(B, enc, one, ""), "");
    }

    LLVMValueRef sign = tf->has_sign
        ? LLVMBuildShl(B, LLVMBuildZExt(B, neg, it, ""), cg_iconst(it, tf->width - 1), "") : zero;
    LLVMValueRef maxv = LLVMBuildOr(B, sign, iconst_u(it, max_finite(tf)), "");
    LLVMValueRef r = LLVMBuildOr(B, sign, enc, "");
    if (!tf->has_neg_zero) /* FNUZ: a result of zero is +0 (0x80 is the NaN) */
        r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, enc, zero, ""), zero, r, "");
    /* finite overflow */
    LLVMValueRef away;
    if (tf->nan == FF_NAN_NONE)
        away = maxv;
    else if (tf->has_inf)
        away = LLVMBuildOr(B, sign, iconst_u(it, exp_all_ones(tf)), "");
    else
        away = signed_nan(c, tf, sign);
    LLVMValueRef ovf_val;
    switch (rm) {
    case FF_TOWARD_ZERO: ovf_val = maxv; break;
    case FF_UP: ovf_val = LLVMBuildSelect(B, neg, maxv, away, ""); break;
    case FF_DOWN: ovf_val = LLVMBuildSelect(B, neg, away, maxv, ""); break;
    default: ovf_val = away; break;
    }
    LLVMValueRef ovf = LLVMBuildICmp(B, LLVMIntUGT, enc, iconst_u(it, max_finite(tf)), "");
    r = LLVMBuildSelect(B, ovf, ovf_val, r, "");
    /* infinities: +-inf, +-max (FP6/FP4) or the NaN, in every mode */
    LLVMValueRef inf_val = tf->has_inf ? LLVMBuildOr(B, sign, iconst_u(it, exp_all_ones(tf)), "")
                         : tf->nan == FF_NAN_NONE ? maxv : signed_nan(c, tf, sign);
    r = LLVMBuildSelect(B, isinf, inf_val, r, "");
    LLVMValueRef nanv = iconst_u(it, canon_nan_bits(tf));
    if (!tf->has_sign) /* Float8E8M0FNU: a negative nonzero value is NaN */
        isnan = LLVMBuildOr(B, isnan, LLVMBuildAnd(B, neg, LLVMBuildICmp(B, LLVMIntNE, a, zero, ""), ""), "");
    r = LLVMBuildSelect(B, isnan, nanv, r, "");
    return LLVMBuildTrunc(B, r, int_shape(c, ty, tf->width), "");
}

/* The exact Float32 value of a narrow encoding b (iN, scalar or vector); any
 * NaN encoding gives the canonical 0x7FC00000. Subnormals are computed as
 * m * 2^(1 - bias - man_bits) with normal Float32 arithmetic, so the result
 * does not depend on the denormal mode. */
static LLVMValueRef narrow_to_f32(CgCtx *c, LLVMValueRef b, const FloatFormat *f)
{
    LLVMBuilderRef B = c->B;
    LLVMTypeRef ty = LLVMTypeOf(b);
    LLVMTypeRef i32 = int_shape(c, ty, 32);
    LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
    LLVMValueRef x = LLVMBuildZExt(B, b, i32, "");
    LLVMValueRef zero = LLVMConstNull(i32), qnan = iconst_u(i32, 0x7FC00000);
    int mb = f->man_bits, eb = f->exp_bits;
    LLVMValueRef mag = LLVMBuildAnd(B, x, iconst_u(i32, low_bits(eb + mb)), "");
    LLVMValueRef e = LLVMBuildLShr(B, mag, cg_iconst(i32, mb), "");
    LLVMValueRef ez = LLVMBuildICmp(B, LLVMIntEQ, e, zero, "");
    LLVMValueRef bits;
    if (!f->has_zero) { /* Float8E8M0FNU: 2^(e - 127); 0x00 is the subnormal 2^-127 */
        bits = LLVMBuildSelect(B, ez, iconst_u(i32, 0x00400000), LLVMBuildShl(B, e, cg_iconst(i32, 23), ""), "");
        LLVMValueRef isnan = LLVMBuildICmp(B, LLVMIntEQ, e, iconst_u(i32, 0xFF), "");
        bits = LLVMBuildSelect(B, isnan, qnan, bits, "");
        return LLVMBuildBitCast(B, bits, f32, "");
    }
    LLVMValueRef normal = LLVMBuildAdd(B, LLVMBuildShl(B, mag, cg_iconst(i32, 23 - mb), ""),
                                       cg_iconst(i32, (int64_t)(127 - f->bias) << 23), "");
    LLVMValueRef m = LLVMBuildAnd(B, mag, iconst_u(i32, low_bits(mb)), "");
    LLVMValueRef sub = LLVMBuildFMul(B, LLVMBuildUIToFP(B, m, f32, ""),
                                     cg_fconst(f32, ldexp(1.0, 1 - f->bias - mb)), "");
    bits = LLVMBuildSelect(B, ez, LLVMBuildBitCast(B, sub, i32, ""), normal, "");
    LLVMValueRef sign = zero;
    if (f->has_sign) {
        sign = LLVMBuildShl(B, LLVMBuildLShr(B, x, cg_iconst(i32, f->width - 1), ""), cg_iconst(i32, 31), "");
        bits = LLVMBuildOr(B, bits, sign, "");
    }
    LLVMValueRef isnan = NULL;
    switch (f->nan) {
    case FF_NAN_IEEE: {
        LLVMValueRef emax = LLVMBuildICmp(B, LLVMIntEQ, e, iconst_u(i32, low_bits(eb)), "");
        LLVMValueRef mz = LLVMBuildICmp(B, LLVMIntEQ, m, zero, "");
        bits = LLVMBuildSelect(B, LLVMBuildAnd(B, emax, mz, ""),
                               LLVMBuildOr(B, sign, iconst_u(i32, 0x7F800000), ""), bits, "");
        isnan = LLVMBuildAnd(B, emax, LLVMBuildNot(B, mz, ""), "");
        break;
    }
    case FF_NAN_FN: isnan = LLVMBuildICmp(B, LLVMIntEQ, mag, iconst_u(i32, low_bits(eb + mb)), ""); break;
    case FF_NAN_FNUZ: isnan = LLVMBuildICmp(B, LLVMIntEQ, x, iconst_u(i32, UINT64_C(1) << (f->width - 1)), ""); break;
    default: break;
    }
    if (isnan)
        bits = LLVMBuildSelect(B, isnan, qnan, bits, "");
    return LLVMBuildBitCast(B, bits, f32, "");
}

/* A NaN in `src` becomes the target's canonical NaN in `r`. */
static LLVMValueRef canonical_nan(CgCtx *c, LLVMValueRef src, LLVMValueRef r, ScalarId to)
{
    LLVMTypeRef rty = LLVMTypeOf(r);
    LLVMTypeRef ity = int_shape(c, rty, cg_width(to));
    LLVMValueRef q = LLVMConstBitCast(iconst_u(ity, canon_nan_bits(fmt_of(to))), rty);
    LLVMValueRef isnan = LLVMBuildFCmp(c->B, LLVMRealUNO, src, src, "");
    return LLVMBuildSelect(c->B, isnan, q, r, "");
}

/* llvm.fptrunc.round (f32 -> f16 with the mode register; AMDGPU selects
 * only upward and downward), lane by lane. */
static LLVMValueRef fptrunc_round(CgCtx *c, LLVMValueRef v, FfRound rm)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef h = LLVMHalfTypeInContext(c->C), f = LLVMFloatTypeInContext(c->C);
    const char *mode = rm == FF_UP ? "round.upward" : "round.downward";
    LLVMValueRef md = LLVMMetadataAsValue(c->C, LLVMMDStringInContext2(c->C, mode, strlen(mode)));
    LLVMTypeRef over[2] = { h, f };
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        return cg_intrinsic(c, "llvm.fptrunc.round", over, 2, (LLVMValueRef[]){ v, md }, 2);
    LLVMTypeRef dst = cg_same_shape(c, ty, h);
    LLVMValueRef r = LLVMGetPoison(dst);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    for (unsigned k = 0; k < LLVMGetVectorSize(ty); k++) {
        LLVMValueRef idx = LLVMConstInt(i32, k, 0);
        LLVMValueRef e = LLVMBuildExtractElement(c->B, v, idx, "");
        e = cg_intrinsic(c, "llvm.fptrunc.round", over, 2, (LLVMValueRef[]){ e, md }, 2);
        r = LLVMBuildInsertElement(c->B, r, e, idx, "");
    }
    return r;
}

/* Float32 -> Float16 rounded upward, downward or toward zero without a mode
 * change: the nearest-even conversion h is one of the two Float16 neighbours
 * of v, so when h lies on the wrong side of v (checked exactly: h widens back
 * to Float32 without rounding) the answer is the other neighbour, one step
 * of the encoding away. Stepping the bits by +-1 moves the magnitude by one
 * ulp in every binade, across the normal/subnormal boundary, from the largest
 * finite value to infinity and back, and from zero to the smallest
 * subnormal; the sign of h says which way the magnitude must move. A NaN
 * compares false and keeps the conversion's NaN (the caller makes it
 * canonical). */
static LLVMValueRef f16_directed(CgCtx *c, LLVMValueRef v, LLVMTypeRef dst, FfRound rm)
{
    LLVMBuilderRef B = c->B;
    LLVMTypeRef i16 = int_shape(c, dst, 16);
    LLVMValueRef h = LLVMBuildFPTrunc(B, v, dst, "");
    LLVMValueRef back = LLVMBuildFPExt(B, h, LLVMTypeOf(v), "");
    LLVMValueRef hb = LLVMBuildBitCast(B, h, i16, "");
    LLVMValueRef one = cg_iconst(i16, 1), minus = cg_iconst(i16, -1), none = LLVMConstNull(i16);
    LLVMValueRef hneg = LLVMBuildICmp(B, LLVMIntSLT, hb, none, "");
    LLVMValueRef wrong, step;
    switch (rm) {
    case FF_UP: /* below v: one step up in value */
        wrong = LLVMBuildFCmp(B, LLVMRealOLT, back, v, "");
        step = LLVMBuildSelect(B, hneg, minus, one, "");
        break;
    case FF_DOWN: /* above v: one step down in value */
        wrong = LLVMBuildFCmp(B, LLVMRealOGT, back, v, "");
        step = LLVMBuildSelect(B, hneg, one, minus, "");
        break;
    default: /* toward zero: larger in magnitude than v, one step toward zero */
        wrong = LLVMBuildFCmp(B, LLVMRealOGT, fabs_of(c, back), fabs_of(c, v), "");
        step = minus;
        break;
    }
    LLVMValueRef fixed = LLVMBuildAdd(B, hb, LLVMBuildSelect(B, wrong, step, none, ""), "");
    return LLVMBuildBitCast(B, fixed, dst, "");
}

/* Encoding bits (from soft_round) as the register form of `to`. */
static LLVMValueRef bits_as(CgCtx *c, LLVMValueRef bits, ScalarId to)
{
    if (type_is_narrow(to))
        return bits;
    return LLVMBuildBitCast(c->B, bits, cg_same_shape(c, LLVMTypeOf(bits), cg_scalar_reg(c, to)), "");
}

/* A 16-bit float widened to Float32. BFloat16 by integer shift: LLVM 19's
 * x86 backend loses the sign of a BFloat16 whose absolute value is also
 * taken (instcombine turns the `and` of soft_round into llvm.fabs.bf16, which
 * x86 lowers through __truncsfbf2, and the other use of the value then reads
 * the wrong register), so no floating-point operation touches the BFloat16. */
static LLVMValueRef bf16_safe_ext(CgCtx *c, LLVMValueRef v, ScalarId from)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
    if (from != SC_BFLOAT16)
        return LLVMBuildFPExt(c->B, v, f32, "");
    LLVMTypeRef i32 = int_shape(c, ty, 32);
    LLVMValueRef b = LLVMBuildZExt(c->B, LLVMBuildBitCast(c->B, v, int_shape(c, ty, 16), ""), i32, "");
    return LLVMBuildBitCast(c->B, LLVMBuildShl(c->B, b, cg_iconst(i32, 16), ""), f32, "");
}

/* Float-to-float conversion of v (register form of `from`) to `to`, both
 * float or narrow types, rounded once in mode rm, as ff_from_double(to,
 * ff_to_double(from, v), rm) computes it. canon: make NaNs canonical where
 * an instruction might not (false under nnan). */
static LLVMValueRef fconvert_rm(CgCtx *c, LLVMValueRef v, ScalarId from, ScalarId to, FfRound rm, bool canon)
{
    if (type_is_narrow(from)) {
        v = narrow_to_f32(c, v, fmt_of(from));
        from = SC_FLOAT32;
        canon = false; /* its NaN is canonical already, and every path below keeps that */
    }
    if (from == to)
        return v;
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
    LLVMTypeRef f64 = cg_same_shape(c, ty, LLVMDoubleTypeInContext(c->C));
    bool tnarrow = type_is_narrow(to);
    int rf = type_info(from)->float_rank, rt = type_info(to)->float_rank;
    if (!tnarrow && rf < rt) { /* widening: exact in every mode */
        LLVMValueRef r = LLVMBuildFPExt(c->B, v, cg_same_shape(c, ty, cg_scalar_reg(c, to)), "");
        return canon ? canonical_nan(c, v, r, to) : r;
    }
    if (rf == 1) { /* Float16/BFloat16 to the other one or to a narrow format: exact in Float32 */
        v = bf16_safe_ext(c, v, from);
        from = SC_FLOAT32;
    }
    if (to == SC_F8E8M0FNU) /* its 2^-127 is below Float32's normal range: work in Float64 */
        return soft_round(c, from == SC_FLOAT64 ? v : LLVMBuildFPExt(c->B, v, f64, ""), fmt_of(to), rm);
    if (from == SC_FLOAT64) {
        if (to == SC_FLOAT32) {
            if (rm != FF_RNE)
                return bits_as(c, soft_round(c, v, fmt_of(to), rm), to);
            LLVMValueRef r = LLVMBuildFPTrunc(c->B, v, f32, "");
            return canon ? canonical_nan(c, v, r, to) : r;
        }
        /* rounding to odd keeps 24 bits >= p + 2 for every remaining target:
         * the second rounding below gives the correctly rounded result */
        v = cg_f64_to_f32_odd(c, v);
    }
    /* v is Float32; `to` is Float16, BFloat16 or a narrow format */
    LLVMTypeRef dst = cg_same_shape(c, ty, cg_scalar_reg(c, to));
    if ((to == SC_FLOAT16 || to == SC_BFLOAT16) && rm == FF_RNE) {
        LLVMValueRef r = LLVMBuildFPTrunc(c->B, v, dst, "");
        return canon ? canonical_nan(c, v, r, to) : r;
    }
    if (to == SC_FLOAT16 && (rm == FF_UP || rm == FF_DOWN) && c->facts->fptrunc_round_f16) {
        LLVMValueRef r = fptrunc_round(c, v, rm);
        return canon ? canonical_nan(c, v, r, to) : r;
    }
    if (to == SC_FLOAT16 && (rm == FF_UP || rm == FF_DOWN || rm == FF_TOWARD_ZERO)) {
        LLVMValueRef r = f16_directed(c, v, dst, rm);
        return canon ? canonical_nan(c, v, r, to) : r;
    }
    return bits_as(c, soft_round(c, v, fmt_of(to), rm), to);
}

/* An integer as an exact Float32 "rounded to odd": values of more than 24
 * significant bits are cut to 24 bits plus a sticky bit, so that one more
 * rounding to any format of at most 22 bits is the correct rounding of the
 * integer itself. */
static LLVMValueRef int_to_f32_odd(CgCtx *c, LLVMValueRef v, ScalarId fs)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
    LLVMTypeRef i32 = int_shape(c, ty, 32);
    bool sgn = cg_is_signed(fs);
    int w = cg_width(fs);
    if (w <= 24)
        return sgn ? LLVMBuildSIToFP(c->B, v, f32, "") : LLVMBuildUIToFP(c->B, v, f32, "");
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
    return f;
}

/* float -> Int128/Uint128, truncating and saturating, NaN -> 0, for AMDGPU
 * (whose backend cannot legalize llvm.fpto[su]i.sat to i128). In f64 (exact
 * for every source format) the truncated magnitude m < 2^128 splits exactly
 * into hi = trunc(m / 2^64) and lo = m - hi * 2^64, both below 2^64. */
static LLVMValueRef float_to_wide_int(CgCtx *c, LLVMValueRef v, ScalarId ts, LLVMTypeRef dst)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef d = cg_same_shape(c, ty, LLVMDoubleTypeInContext(c->C));
    LLVMTypeRef i64 = int_shape(c, ty, 64);
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

/* Boolean -> 1.0 / 0.0 as a select, not uitofp: at -O0 the AMDGPU backend
 * cannot select `uitofp i1 to bfloat` when the i1 comes from another block
 * (a register copy of i1, which -O3 would have folded into the compare). */
static LLVMValueRef bool_to_float(CgCtx *c, LLVMValueRef v, LLVMTypeRef dst)
{
    return LLVMBuildSelect(c->B, v, cg_fconst(dst, 1.0), cg_fconst(dst, 0.0), "");
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
    bool ffloat = fmt_of(fs) != NULL, tfloat = fmt_of(ts) != NULL; /* narrow formats included */
    if (i->rounding != FF_RNE && !(ffloat && tfloat)) {
        cg_error(c, i->loc, "a rounding mode applies only to float-to-float conversions");
        return LLVMGetPoison(dst);
    }
    if (fs == ts)
        return v;
    if (ffloat && type_is_narrow(fs) && !tfloat) { /* narrow -> integer/Boolean: via its exact Float32 */
        v = narrow_to_f32(c, v, fmt_of(fs));
        fs = SC_FLOAT32;
    }
    if (ts == SC_BOOLEAN) {
        if (ffloat)
            return LLVMBuildFCmp(c->B, LLVMRealUNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
        return LLVMBuildICmp(c->B, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
    }
    if (fs == SC_BOOLEAN) {
        if (!tfloat)
            return LLVMBuildZExt(c->B, v, dst, "");
        if (!type_is_narrow(ts))
            return bool_to_float(c, v, dst);
        LLVMValueRef f = bool_to_float(c, v, cg_same_shape(c, LLVMTypeOf(v), LLVMFloatTypeInContext(c->C)));
        return fconvert_rm(c, f, SC_FLOAT32, ts, FF_RNE, false);
    }
    if (!ffloat && !tfloat) {
        int wf = cg_width(fs), wt = cg_width(ts);
        if (wf == wt)
            return v;
        if (wf > wt)
            return LLVMBuildTrunc(c->B, v, dst, "");
        return cg_is_signed(fs) ? LLVMBuildSExt(c->B, v, dst, "") : LLVMBuildZExt(c->B, v, dst, "");
    }
    if (!ffloat) {
        if (ts == SC_FLOAT32 || ts == SC_FLOAT64)
            return cg_is_signed(fs) ? LLVMBuildSIToFP(c->B, v, dst, "") : LLVMBuildUIToFP(c->B, v, dst, "");
        /* Float16, BFloat16, narrow: one rounding from the exact integer */
        return fconvert_rm(c, int_to_f32_odd(c, v, fs), SC_FLOAT32, ts, FF_RNE, false);
    }
    if (!tfloat) {
        /* 16-bit floats through their exact Float32: LLVM 19's x86 lowering of
         * llvm.fptosi.sat.i16.f16 (AVX512-FP16) turns NaN into -32768 */
        if (type_info(fs)->float_rank == 1) {
            v = bf16_safe_ext(c, v, fs);
            fs = SC_FLOAT32;
        }
        if (cg_width(ts) > c->facts->max_fp_int_bits)
            return float_to_wide_int(c, v, ts, dst);
        LLVMTypeRef over[2] = { dst, LLVMTypeOf(v) };
        return cg_intrinsic(c, cg_is_signed(ts) ? "llvm.fptosi.sat" : "llvm.fptoui.sat", over, 2, &v, 1);
    }
    return fconvert_rm(c, v, fs, ts, i->rounding, !(i->fmf & FMF_NNAN));
}
