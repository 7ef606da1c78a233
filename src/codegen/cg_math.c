/* cg_math.c - math builtins (FX_MATH), float pow and Python's float modulo.
 *
 * BFloat16 math is computed in Float32 and rounded once (exact for floor/ceil/
 * round/trunc, correctly rounded for sqrt, the usual libm accuracy for the
 * transcendentals). On AMDGPU the Float64 forms of exp/exp2/log/log2/sin/cos/
 * tanh/pow cannot be lowered by LLVM 19: they call AMD's ocml (cg_devlib.c),
 * or are a located error where it is missing or does not cover the processor;
 * on the host they call the C library. */
#include "codegen/cg_internal.h"
#include "codegen/amdgpu/cg_amdgpu.h"
#include "fxir/fxmath.h"
#include <stdio.h>

static const char *math_name(int fn)
{
    const char *n = fxir_sub_name(FX_MATH, fn);
    return n ? n : "?";
}

/* Float64 transcendentals on AMDGPU come from ocml. */
static bool via_devlib(CgCtx *c, ScalarId s)
{
    return !c->facts->libm && s == SC_FLOAT64;
}

static LLVMValueRef unary_intrinsic(CgCtx *c, const char *name, LLVMValueRef v, unsigned fmf)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    return cg_fmf(cg_intrinsic(c, name, &ty, 1, &v, 1), fmf);
}

/* Call a C library function elementwise (host only). */
static LLVMValueRef libm_call(CgCtx *c, const char *fname, LLVMValueRef v, unsigned fmf)
{
    LLVMTypeRef ty = LLVMTypeOf(v);
    LLVMTypeRef ety = cg_elem_llty(ty);
    LLVMTypeRef fty = LLVMFunctionType(ety, &ety, 1, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(c->M, fname);
    if (!fn) {
        fn = LLVMAddFunction(c->M, fname, fty);
        cg_fn_attr(c, fn, "nounwind");
    }
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        return cg_fmf(LLVMBuildCall2(c->B, fty, fn, &v, 1, ""), fmf);
    LLVMValueRef r = LLVMGetPoison(ty);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    for (unsigned k = 0; k < LLVMGetVectorSize(ty); k++) {
        LLVMValueRef idx = LLVMConstInt(i32, k, 0);
        LLVMValueRef e = LLVMBuildExtractElement(c->B, v, idx, "");
        e = cg_fmf(LLVMBuildCall2(c->B, fty, fn, &e, 1, ""), fmf);
        r = LLVMBuildInsertElement(c->B, r, e, idx, "");
    }
    return r;
}

/* tanh for AMDGPU in Float32: odd Taylor polynomial for |x| < 0.55 (error below
 * 2^-24 relative), 1 - 2/(exp(2|x|)+1) above, with the sign of x. */
static LLVMValueRef device_tanh_f32(CgCtx *c, LLVMValueRef x, unsigned fmf)
{
    static const double coef[] = { /* x^3 .. x^17 */
        -1.0 / 3.0, 2.0 / 15.0, -17.0 / 315.0, 62.0 / 2835.0, -1382.0 / 155925.0,
        21844.0 / 6081075.0, -929569.0 / 638512875.0, 6404582.0 / 10854718875.0 };
    LLVMTypeRef ty = LLVMTypeOf(x);
    LLVMValueRef ax = unary_intrinsic(c, "llvm.fabs", x, fmf);
    LLVMValueRef x2 = cg_fmf(LLVMBuildFMul(c->B, x, x, ""), fmf);
    LLVMValueRef p = cg_fconst(ty, coef[7]);
    for (int k = 6; k >= 0; k--)
        p = cg_fmf(LLVMBuildFAdd(c->B, cg_fconst(ty, coef[k]),
                                 cg_fmf(LLVMBuildFMul(c->B, x2, p, ""), fmf), ""), fmf);
    LLVMValueRef x3 = cg_fmf(LLVMBuildFMul(c->B, x, x2, ""), fmf);
    LLVMValueRef small = cg_fmf(LLVMBuildFAdd(c->B, x, cg_fmf(LLVMBuildFMul(c->B, x3, p, ""), fmf), ""), fmf);
    LLVMValueRef e = unary_intrinsic(c, "llvm.exp", cg_fmf(LLVMBuildFAdd(c->B, ax, ax, ""), fmf), fmf);
    LLVMValueRef q = cg_fmf(LLVMBuildFDiv(c->B, cg_fconst(ty, 2.0),
                                          cg_fmf(LLVMBuildFAdd(c->B, e, cg_fconst(ty, 1.0), ""), fmf), ""), fmf);
    LLVMValueRef big = cg_fmf(LLVMBuildFSub(c->B, cg_fconst(ty, 1.0), q, ""), fmf);
    LLVMValueRef args[2] = { big, x };
    big = cg_fmf(cg_intrinsic(c, "llvm.copysign", &ty, 1, args, 2), fmf);
    LLVMValueRef is_small = cg_fmf(LLVMBuildFCmp(c->B, LLVMRealOLT, ax, cg_fconst(ty, 0.55), ""), fmf);
    return LLVMBuildSelect(c->B, is_small, small, big, "");
}

static LLVMValueRef math_f(CgCtx *c, FxInst *i, LLVMValueRef v, ScalarId s)
{
    unsigned fmf = i->fmf;
    switch (i->sub) {
    case FXM_EXP: return unary_intrinsic(c, "llvm.exp", v, fmf);
    case FXM_EXP2: return unary_intrinsic(c, "llvm.exp2", v, fmf);
    case FXM_LOG: return unary_intrinsic(c, "llvm.log", v, fmf);
    case FXM_LOG2: return unary_intrinsic(c, "llvm.log2", v, fmf);
    case FXM_SQRT: return unary_intrinsic(c, "llvm.sqrt", v, fmf);
    case FXM_RSQRT: {
        LLVMValueRef r = unary_intrinsic(c, "llvm.sqrt", v, fmf);
        return cg_fmf(LLVMBuildFDiv(c->B, cg_fconst(LLVMTypeOf(v), 1.0), r, ""), fmf);
    }
    case FXM_SIN: return unary_intrinsic(c, "llvm.sin", v, fmf);
    case FXM_COS: return unary_intrinsic(c, "llvm.cos", v, fmf);
    case FXM_TANH:
        if (c->facts->libm)
            return libm_call(c, s == SC_FLOAT64 ? "tanh" : "tanhf", v, fmf);
        return device_tanh_f32(c, v, fmf);
    case FXM_FLOOR: return unary_intrinsic(c, "llvm.floor", v, fmf);
    case FXM_CEIL: return unary_intrinsic(c, "llvm.ceil", v, fmf);
    case FXM_ROUND: return unary_intrinsic(c, "llvm.round", v, fmf);
    case FXM_TRUNC: return unary_intrinsic(c, "llvm.trunc", v, fmf);
    case FXM_RINT: return unary_intrinsic(c, "llvm.roundeven", v, fmf);
    default:
        cg_error(c, i->loc, "internal compiler error: math function %d", i->sub);
        return LLVMGetPoison(LLVMTypeOf(v));
    }
}

LLVMValueRef cg_math(CgCtx *c, FxInst *i)
{
    LLVMValueRef v = cg_val(c, i->ops[0]);
    ScalarId s = type_elem_scalar(i->type);
    if (!type_is_float(s)) {
        cg_error(c, i->loc, "fx.%s on %s: a float type is required", math_name(i->sub),
                 cg_tyname(c, i->type));
        return LLVMGetPoison(LLVMTypeOf(v));
    }
    if (fxm_is_defined_here(i->sub))
        return cg_mathfn(c, i);
    switch (i->sub) {
    case FXM_EXP: case FXM_EXP2: case FXM_LOG: case FXM_LOG2:
    case FXM_SIN: case FXM_COS: case FXM_TANH:
        if (via_devlib(c, s)) {
            char what[32], fname[48];
            snprintf(what, sizeof what, "Float64 fx.%s", math_name(i->sub));
            snprintf(fname, sizeof fname, "__ocml_%s_f64", math_name(i->sub));
            return cg_devlib_call(c, i, what, fname, &v, 1);
        }
        break;
    default:
        break;
    }
    /* BFloat16 always; Float16 for tanh and rsqrt (1/sqrt in Float32, as the
     * folder computes it), and on AMDGPU for sqrt unless afn allows the
     * approximate native instruction: compute in Float32 (a correctly
     * rounded sqrt there), round once */
    bool f16_via_f32 = s == SC_FLOAT16 &&
        (i->sub == FXM_TANH || i->sub == FXM_RSQRT ||
         (!c->facts->exact_f16_div_sqrt && i->sub == FXM_SQRT && !(i->fmf & FMF_AFN)));
    if (s == SC_BFLOAT16 || f16_via_f32) {
        LLVMTypeRef f32 = cg_same_shape(c, LLVMTypeOf(v), LLVMFloatTypeInContext(c->C));
        LLVMValueRef r = math_f(c, i, LLVMBuildFPExt(c->B, v, f32, ""), SC_FLOAT32);
        return LLVMBuildFPTrunc(c->B, r, LLVMTypeOf(v), "");
    }
    return math_f(c, i, v, s);
}

LLVMValueRef cg_fpow(CgCtx *c, FxInst *i, LLVMValueRef a, LLVMValueRef b)
{
    ScalarId s = type_elem_scalar(i->type);
    if (via_devlib(c, s))
        return cg_devlib_call(c, i, "Float64 '**'", "__ocml_pow_f64", (LLVMValueRef[]){ a, b }, 2);
    LLVMTypeRef ty = LLVMTypeOf(a);
    if (s == SC_BFLOAT16) {
        LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
        LLVMValueRef args[2] = { LLVMBuildFPExt(c->B, a, f32, ""), LLVMBuildFPExt(c->B, b, f32, "") };
        LLVMValueRef r = cg_fmf(cg_intrinsic(c, "llvm.pow", &f32, 1, args, 2), i->fmf);
        return LLVMBuildFPTrunc(c->B, r, ty, "");
    }
    LLVMValueRef args[2] = { a, b };
    return cg_fmf(cg_intrinsic(c, "llvm.pow", &ty, 1, args, 2), i->fmf);
}

/* Exact fmod for AMDGPU, whose frem lowering (x - trunc(x/y)*y) is inexact
 * once the quotient exceeds the significand. An internal function per type:
 *   r = |x|; while r >= |y|: t = |y| scaled to r's binade (halved if above r);
 *   r -= t   (exact: t <= r < 2t)
 * Each step at least halves r, so it ends within the exponent range. */
static LLVMValueRef fmod_func(CgCtx *c, LLVMTypeRef fty_el)
{
    bool dbl = LLVMGetTypeKind(fty_el) == LLVMDoubleTypeKind;
    const char *name = dbl ? "__fx_fmod_f64" : "__fx_fmod_f32";
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMTypeRef pt[2] = { fty_el, fty_el };
    bool is_new;
    LLVMValueRef fn = cg_helper_fn(c, name, LLVMFunctionType(fty_el, pt, 2, 0), false, &is_new);
    if (!is_new)
        return fn;

    LLVMBuilderRef saved = c->B;
    c->B = LLVMCreateBuilderInContext(c->C);
    LLVMValueRef x = LLVMGetParam(fn, 0), y = LLVMGetParam(fn, 1);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->C, fn, "entry");
    LLVMBasicBlockRef special = LLVMAppendBasicBlockInContext(c->C, fn, "special");
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->C, fn, "head");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->C, fn, "body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->C, fn, "done");
    LLVMPositionBuilderAtEnd(c->B, entry);
    LLVMValueRef ax = cg_intrinsic(c, "llvm.fabs", &fty_el, 1, &x, 1);
    LLVMValueRef ay = cg_intrinsic(c, "llvm.fabs", &fty_el, 1, &y, 1);
    LLVMValueRef inf = cg_fconst(fty_el, __builtin_inf());
    /* NaN when y is 0 or NaN, or x is infinite or NaN */
    LLVMValueRef ybad = LLVMBuildFCmp(c->B, LLVMRealUGE, LLVMConstNull(fty_el), ay, "");
    LLVMValueRef xbad = LLVMBuildFCmp(c->B, LLVMRealUGE, ax, inf, "");
    LLVMBuildCondBr(c->B, LLVMBuildOr(c->B, ybad, xbad, ""), special, head);
    LLVMPositionBuilderAtEnd(c->B, special);
    LLVMBuildRet(c->B, cg_fconst(fty_el, __builtin_nan("")));

    LLVMPositionBuilderAtEnd(c->B, head);
    LLVMValueRef r = LLVMBuildPhi(c->B, fty_el, "r");
    LLVMValueRef more = LLVMBuildFCmp(c->B, LLVMRealOGE, r, ay, "");
    LLVMBuildCondBr(c->B, more, body, done);

    LLVMPositionBuilderAtEnd(c->B, body);
    LLVMTypeRef fx[2] = { fty_el, i32 };
    LLVMValueRef fr = cg_intrinsic(c, "llvm.frexp", fx, 2, &r, 1);
    LLVMValueRef fyv = cg_intrinsic(c, "llvm.frexp", fx, 2, &ay, 1);
    LLVMValueRef er = LLVMBuildExtractValue(c->B, fr, 1, "");
    LLVMValueRef ey = LLVMBuildExtractValue(c->B, fyv, 1, "");
    LLVMValueRef d = LLVMBuildSub(c->B, er, ey, "");
    LLVMValueRef la[2] = { ay, d };
    LLVMValueRef t = cg_intrinsic(c, "llvm.ldexp", fx, 2, la, 2);
    LLVMValueRef over = LLVMBuildFCmp(c->B, LLVMRealOGT, t, r, "");
    la[1] = LLVMBuildSub(c->B, d, LLVMConstInt(i32, 1, 0), "");
    LLVMValueRef t2 = cg_intrinsic(c, "llvm.ldexp", fx, 2, la, 2);
    t = LLVMBuildSelect(c->B, over, t2, t, "");
    LLVMValueRef rn = LLVMBuildFSub(c->B, r, t, "");
    LLVMBuildBr(c->B, head);
    LLVMValueRef iv[2] = { ax, rn };
    LLVMBasicBlockRef from[2] = { entry, body };
    LLVMAddIncoming(r, iv, from, 2);

    LLVMPositionBuilderAtEnd(c->B, done);
    LLVMValueRef cs[2] = { r, x };
    LLVMBuildRet(c->B, cg_intrinsic(c, "llvm.copysign", &fty_el, 1, cs, 2));
    LLVMDisposeBuilder(c->B);
    c->B = saved;
    return fn;
}

static LLVMValueRef device_fmod(CgCtx *c, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMTypeRef ety = cg_elem_llty(ty);
    if (LLVMGetTypeKind(ety) == LLVMHalfTypeKind) { /* exact in Float32, and representable back */
        LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
        LLVMValueRef r = device_fmod(c, LLVMBuildFPExt(c->B, a, f32, ""), LLVMBuildFPExt(c->B, b, f32, ""));
        return LLVMBuildFPTrunc(c->B, r, ty, "");
    }
    LLVMValueRef fn = fmod_func(c, ety);
    LLVMTypeRef pt[2] = { ety, ety };
    LLVMTypeRef fty = LLVMFunctionType(ety, pt, 2, 0);
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        return LLVMBuildCall2(c->B, fty, fn, (LLVMValueRef[]){ a, b }, 2, "");
    LLVMValueRef r = LLVMGetPoison(ty);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    for (unsigned k = 0; k < LLVMGetVectorSize(ty); k++) {
        LLVMValueRef idx = LLVMConstInt(i32, k, 0);
        LLVMValueRef args[2] = { LLVMBuildExtractElement(c->B, a, idx, ""),
                                 LLVMBuildExtractElement(c->B, b, idx, "") };
        r = LLVMBuildInsertElement(c->B, r, LLVMBuildCall2(c->B, fty, fn, args, 2, ""), idx, "");
    }
    return r;
}

/* Python's float modulo: r = fmod(a, b); r += b when r is nonzero and its sign
 * differs from b's; a zero r takes the sign of b. BFloat16 is computed in
 * Float32 (fmod is exact, the one addition is rounded once). */
LLVMValueRef cg_fmod_py(CgCtx *c, LLVMValueRef a, LLVMValueRef b, unsigned fmf)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    if (LLVMGetTypeKind(cg_elem_llty(ty)) == LLVMBFloatTypeKind) {
        LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
        LLVMValueRef r = cg_fmod_py(c, LLVMBuildFPExt(c->B, a, f32, ""), LLVMBuildFPExt(c->B, b, f32, ""), fmf);
        return LLVMBuildFPTrunc(c->B, r, ty, "");
    }
    LLVMValueRef zero = LLVMConstNull(ty);
    LLVMValueRef r = c->facts->exact_frem ? cg_fmf(LLVMBuildFRem(c->B, a, b, ""), fmf) : device_fmod(c, a, b);
    LLVMValueRef nz = cg_fmf(LLVMBuildFCmp(c->B, LLVMRealUNE, r, zero, ""), fmf);
    LLVMValueRef bneg = cg_fmf(LLVMBuildFCmp(c->B, LLVMRealOLT, b, zero, ""), fmf);
    LLVMValueRef rneg = cg_fmf(LLVMBuildFCmp(c->B, LLVMRealOLT, r, zero, ""), fmf);
    LLVMValueRef differ = LLVMBuildXor(c->B, bneg, rneg, "");
    LLVMValueRef adj = cg_fmf(LLVMBuildFAdd(c->B, r, b, ""), fmf);
    LLVMValueRef res = LLVMBuildSelect(c->B, differ, adj, r, "");
    LLVMValueRef args[2] = { zero, b };
    LLVMValueRef sz = cg_fmf(cg_intrinsic(c, "llvm.copysign", &ty, 1, args, 2), fmf);
    return LLVMBuildSelect(c->B, nz, res, sz, "");
}

/* ---- ldexp and frexp's exponent ----
 * Float32 and Float64 use llvm.ldexp / llvm.frexp directly. The 16-bit
 * floats go through Float64, where x * 2^n is exact over their whole range,
 * and are rounded once back (cg_fconvert). */

static LLVMTypeRef int32_like(CgCtx *c, LLVMTypeRef ty)
{
    return cg_same_shape(c, ty, LLVMInt32TypeInContext(c->C));
}

LLVMValueRef cg_ldexp(CgCtx *c, FxInst *i)
{
    LLVMValueRef x = cg_val(c, i->ops[0]), n = cg_val(c, i->ops[1]);
    ScalarId s = type_elem_scalar(i->type);
    if (s == SC_FLOAT32 || s == SC_FLOAT64) {
        LLVMTypeRef over[2] = { LLVMTypeOf(x), LLVMTypeOf(n) };
        LLVMValueRef args[2] = { x, n };
        return cg_intrinsic(c, "llvm.ldexp", over, 2, args, 2);
    }
    LLVMTypeRef f64 = cg_same_shape(c, LLVMTypeOf(x), LLVMDoubleTypeInContext(c->C));
    LLVMValueRef wide = cg_fconvert(c, x, s, SC_FLOAT64);
    LLVMTypeRef over[2] = { f64, LLVMTypeOf(n) };
    LLVMValueRef args[2] = { wide, n };
    return cg_fconvert(c, cg_intrinsic(c, "llvm.ldexp", over, 2, args, 2), SC_FLOAT64, s);
}

LLVMValueRef cg_frexp_exp(CgCtx *c, FxInst *i)
{
    LLVMValueRef x = cg_val(c, i->ops[0]);
    ScalarId s = type_elem_scalar(i->ops[0]->type);
    if (s != SC_FLOAT32 && s != SC_FLOAT64) {   /* the 16-bit floats: their exact Float32 */
        x = cg_fconvert(c, x, s, SC_FLOAT32);
        s = SC_FLOAT32;
    }
    LLVMTypeRef ty = LLVMTypeOf(x), ity = int32_like(c, ty);
    LLVMTypeRef over[2] = { ty, ity };
    LLVMValueRef pair = cg_intrinsic(c, "llvm.frexp", over, 2, &x, 1);
    LLVMValueRef e = LLVMBuildExtractValue(c->B, pair, 1, "exp");
    /* llvm.frexp leaves the exponent of inf and NaN unspecified: FXIR says 0 */
    LLVMValueRef ax = unary_intrinsic(c, "llvm.fabs", x, 0);
    LLVMValueRef finite = LLVMBuildFCmp(c->B, LLVMRealOLT, ax, cg_fconst(ty, __builtin_inf()), "");
    return LLVMBuildSelect(c->B, finite, e, LLVMConstNull(ity), "");
}
