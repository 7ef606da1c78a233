/* cg_mathfn.c - fx.erf, fx.erfc, fx.log1p, fx.expm1, fx.cbrt, fx.sigmoid,
 * fx.copysign, fx.hypot, fx.atan2 (defined in fxir/fxmath.c; docs/math.md).
 *
 * Each is computed in fxm_compute_type() and rounded once to its type, the
 * same operations the folder performs:
 *   - copysign: llvm.copysign, exact in every format, on every target;
 *   - sigmoid: composed of llvm.exp (the C library's exp/expf on the host,
 *     the native expansion on AMDGPU for Float32, ocml for Float64);
 *   - hypot below Float64: sqrt(x*x + y*y) in Float64 (llvm.sqrt, correctly
 *     rounded on every target);
 *   - the rest: the C library on the host (erff, erf, ...), AMD's ocml on
 *     AMDGPU (__ocml_erf_f32, __ocml_erf_f64, ...; amdgpu/cg_devlib.c), which makes
 *     them a located error on processors ocml does not cover. */
#include "codegen/cg_internal.h"
#include "codegen/amdgpu/cg_amdgpu.h"
#include "fxir/fxmath.h"
#include <stdio.h>

static const char *fn_name(int fn)
{
    switch (fn) {
    case FXM_ERF: return "erf";
    case FXM_ERFC: return "erfc";
    case FXM_LOG1P: return "log1p";
    case FXM_EXPM1: return "expm1";
    case FXM_CBRT: return "cbrt";
    case FXM_SIGMOID: return "sigmoid";
    case FXM_COPYSIGN: return "copysign";
    case FXM_HYPOT: return "hypot";
    case FXM_ATAN2: return "atan2";
    default: return "?";
    }
}

/* The element type of i's result: the type named in diagnostics. */
static ScalarId s_elem(const FxInst *i) { return type_elem_scalar(i->type); }

/* A C library function of nargs arguments, elementwise (host only). */
static LLVMValueRef libm_call(CgCtx *c, const char *fname, LLVMValueRef *args, int nargs, unsigned fmf)
{
    LLVMTypeRef ty = LLVMTypeOf(args[0]);
    LLVMTypeRef ety = cg_elem_llty(ty);
    LLVMTypeRef pt[2] = { ety, ety };
    LLVMTypeRef fty = LLVMFunctionType(ety, pt, (unsigned)nargs, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(c->M, fname);
    if (!fn) {
        fn = LLVMAddFunction(c->M, fname, fty);
        cg_fn_attr(c, fn, "nounwind");
    }
    return cg_call_lanewise(c, fty, fn, args, nargs, ty, fmf);
}

/* The library form of fn in compute type s: erff / erf on the host,
 * __ocml_erf_f32 / __ocml_erf_f64 on AMDGPU. */
static LLVMValueRef library_call(CgCtx *c, FxInst *i, int fn, ScalarId s, LLVMValueRef *args, int nargs)
{
    bool f64 = s == SC_FLOAT64;
    char fname[48], what[48];
    if (c->facts->libm) {
        snprintf(fname, sizeof fname, "%s%s", fn_name(fn), f64 ? "" : "f");
        return libm_call(c, fname, args, nargs, i->fmf);
    }
    snprintf(fname, sizeof fname, "__ocml_%s_%s", fn_name(fn), f64 ? "f64" : "f32");
    snprintf(what, sizeof what, "%s fx.%s", type_info(s_elem(i))->name, fn_name(fn));
    return cg_devlib_call(c, i, what, fname, args, nargs);
}

static LLVMValueRef exp_of(CgCtx *c, FxInst *i, ScalarId s, LLVMValueRef v)
{
    if (!c->facts->libm && s == SC_FLOAT64) {
        char what[48];
        snprintf(what, sizeof what, "%s fx.sigmoid", type_info(s_elem(i))->name);
        return cg_devlib_call(c, i, what, "__ocml_exp_f64", &v, 1);
    }
    LLVMTypeRef ty = LLVMTypeOf(v);
    return cg_fmf(cg_intrinsic(c, "llvm.exp", &ty, 1, &v, 1), i->fmf);
}

/* (x >= 0 ? 1 : e) / (1 + e), e = exp(-|x|): fxmath.c's sigmoid. */
static LLVMValueRef sigmoid(CgCtx *c, FxInst *i, ScalarId s, LLVMValueRef x)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    unsigned fmf = i->fmf;
    LLVMValueRef ax = cg_fmf(cg_intrinsic(c, "llvm.fabs", &ty, 1, &x, 1), fmf);
    LLVMValueRef e = exp_of(c, i, s, cg_fmf(LLVMBuildFNeg(c->B, ax, ""), fmf));
    LLVMValueRef one = cg_fconst(ty, 1.0);
    LLVMValueRef nonneg = cg_fmf(LLVMBuildFCmp(c->B, LLVMRealOGE, x, LLVMConstNull(ty), ""), fmf);
    LLVMValueRef num = LLVMBuildSelect(c->B, nonneg, one, e, "");
    LLVMValueRef den = cg_fmf(LLVMBuildFAdd(c->B, one, e, ""), fmf);
    return cg_fmf(LLVMBuildFDiv(c->B, num, den, ""), fmf);
}

/* sqrt(x*x + y*y) in Float64, +inf when either operand is infinite. */
static LLVMValueRef hypot_f64(CgCtx *c, FxInst *i, LLVMValueRef x, LLVMValueRef y)
{
    LLVMTypeRef ty = LLVMTypeOf(x);
    unsigned fmf = i->fmf;
    LLVMValueRef xx = cg_fmf(LLVMBuildFMul(c->B, x, x, ""), fmf);
    LLVMValueRef yy = cg_fmf(LLVMBuildFMul(c->B, y, y, ""), fmf);
    LLVMValueRef sum = cg_fmf(LLVMBuildFAdd(c->B, xx, yy, ""), fmf);
    LLVMValueRef r = cg_fmf(cg_intrinsic(c, "llvm.sqrt", &ty, 1, &sum, 1), fmf);
    LLVMValueRef inf = cg_fconst(ty, __builtin_inf());
    LLVMValueRef ax = cg_intrinsic(c, "llvm.fabs", &ty, 1, &x, 1);
    LLVMValueRef ay = cg_intrinsic(c, "llvm.fabs", &ty, 1, &y, 1);
    LLVMValueRef any_inf = LLVMBuildOr(c->B, LLVMBuildFCmp(c->B, LLVMRealOEQ, ax, inf, ""),
                                       LLVMBuildFCmp(c->B, LLVMRealOEQ, ay, inf, ""), "");
    return LLVMBuildSelect(c->B, any_inf, inf, r, "");
}

static LLVMValueRef compute(CgCtx *c, FxInst *i, ScalarId cs, LLVMValueRef *v, int nargs)
{
    switch (i->sub) {
    case FXM_COPYSIGN: {
        LLVMTypeRef ty = LLVMTypeOf(v[0]);
        return cg_fmf(cg_intrinsic(c, "llvm.copysign", &ty, 1, v, 2), i->fmf);
    }
    case FXM_SIGMOID:
        return sigmoid(c, i, cs, v[0]);
    case FXM_HYPOT:
        if (cs == SC_FLOAT64 && type_elem_scalar(i->type) != SC_FLOAT64)
            return hypot_f64(c, i, v[0], v[1]);
        return library_call(c, i, i->sub, cs, v, nargs);
    default:
        return library_call(c, i, i->sub, cs, v, nargs);
    }
}

LLVMValueRef cg_mathfn(CgCtx *c, FxInst *i)
{
    ScalarId s = type_elem_scalar(i->type);
    ScalarId cs = fxm_compute_type(i->sub, s);
    int nargs = fxm_is_binary(i->sub) ? 2 : 1;
    LLVMValueRef v[2];
    for (int k = 0; k < nargs; k++)
        v[k] = cg_fconvert(c, cg_val(c, i->ops[k]), s, cs);
    return cg_fconvert(c, compute(c, i, cs, v, nargs), cs, s);
}

/* One call of fn per lane of a vector (ocml and the C library take scalars). */
LLVMValueRef cg_call_lanewise(CgCtx *c, LLVMTypeRef fty, LLVMValueRef fn, LLVMValueRef *args, int nargs,
                              LLVMTypeRef ty, unsigned fmf)
{
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind)
        return cg_fmf(LLVMBuildCall2(c->B, fty, fn, args, (unsigned)nargs, ""), fmf);
    LLVMValueRef r = LLVMGetPoison(ty);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    for (unsigned k = 0; k < LLVMGetVectorSize(ty); k++) {
        LLVMValueRef idx = LLVMConstInt(i32, k, 0);
        LLVMValueRef lane[2];
        for (int a = 0; a < nargs && a < 2; a++)
            lane[a] = LLVMBuildExtractElement(c->B, args[a], idx, "");
        LLVMValueRef e = cg_fmf(LLVMBuildCall2(c->B, fty, fn, lane, (unsigned)nargs, ""), fmf);
        r = LLVMBuildInsertElement(c->B, r, e, idx, "");
    }
    return r;
}
