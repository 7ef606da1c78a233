/* cg_expr.c - scalar and vector arithmetic with the exact meanings of spec §3.4.
 *
 * Every LLVM instruction that would be undefined (division by zero, MIN / -1,
 * over-wide shifts) is guarded so that the run-time value equals the folded
 * one. All code here is written for scalars and vectors alike: constants are
 * splatted to the operand's shape and guards are elementwise selects. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include <stdio.h>
#include <string.h>

static LLVMValueRef zero_of(LLVMValueRef v) { return LLVMConstNull(LLVMTypeOf(v)); }

/* b, with lanes where `a / b` is undefined replaced by 1:
 * b == 0 always, and (signed only) a == MIN && b == -1. */
static LLVMValueRef safe_divisor(CgCtx *c, LLVMValueRef a, LLVMValueRef b, bool sgn,
                                 LLVMValueRef *bzero)
{
    LLVMTypeRef ty = LLVMTypeOf(b);
    LLVMValueRef bz = LLVMBuildICmp(c->B, LLVMIntEQ, b, zero_of(b), "");
    LLVMValueRef bad = bz;
    if (sgn) {
        LLVMValueRef amin = LLVMBuildICmp(c->B, LLVMIntEQ, a, cg_imin(ty), "");
        LLVMValueRef bm1 = LLVMBuildICmp(c->B, LLVMIntEQ, b, cg_iconst(ty, -1), "");
        bad = LLVMBuildOr(c->B, bz, LLVMBuildAnd(c->B, amin, bm1, ""), "");
    }
    *bzero = bz;
    return LLVMBuildSelect(c->B, bad, cg_iconst(ty, 1), b, "");
}

/* Lanes where a nonzero remainder r and the divisor b have different signs. */
static LLVMValueRef signs_differ(CgCtx *c, LLVMValueRef r, LLVMValueRef b)
{
    LLVMValueRef nz = LLVMBuildICmp(c->B, LLVMIntNE, r, zero_of(r), "");
    LLVMValueRef x = LLVMBuildXor(c->B, r, b, "");
    LLVMValueRef neg = LLVMBuildICmp(c->B, LLVMIntSLT, x, zero_of(x), "");
    return LLVMBuildAnd(c->B, nz, neg, "");
}

/* Signed floored division by a run-time divisor, through the magnitudes:
 * q0 = |a| / |b| unsigned, where |MIN| is 2^(w-1), so MIN // -1 needs no
 * guard, and a divisor 0 becomes 1 with one umax. Where the signs of a and
 * b differ the floor is -q0 - (the remainder != 0), else q0. a % b is
 * a - (a // b) * b (exact in modular arithmetic) when the same block also
 * divides by b, so that the quotient is likely there already (an index split
 * into row and column); alone it is the truncated remainder r0 with a's
 * sign, plus b where the signs differ and r0 != 0. The corrections are
 * integer masks, not Boolean selects, which on the scalar unit cost a
 * lane-mask compare and an exec test each. This is cheaper than sdiv/srem
 * (which take the same magnitudes and fix the signs) plus the MIN / -1
 * guard and the floor correction (gfx942: Int32 `//` 48 instructions
 * against 54, `%` 44 against 50; bench/perf's transpose, which takes `//`
 * and `%` by the same divisor, 83 against 105). widen_div decides where
 * it is used (`mags`). */
typedef struct Magnitudes {
    LLVMValueRef q0;     /* |a| / max(|b|, 1) */
    LLVMValueRef r0;     /* |a| % max(|b|, 1) */
    LLVMValueRef nz;     /* 1 where |a| % max(|b|, 1) != 0, else 0 */
    LLVMValueRef flip;   /* all ones where the signs of a and b differ, else 0 */
} Magnitudes;

static Magnitudes int_magnitudes(CgCtx *c, LLVMValueRef a, LLVMValueRef b)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMValueRef no_poison = LLVMConstInt(LLVMInt1TypeInContext(c->C), 0, 0);
    LLVMValueRef ua = cg_intrinsic(c, "llvm.abs", &ty, 1, (LLVMValueRef[]){ a, no_poison }, 2);
    LLVMValueRef ub = cg_intrinsic(c, "llvm.abs", &ty, 1, (LLVMValueRef[]){ b, no_poison }, 2);
    ub = cg_intrinsic(c, "llvm.umax", &ty, 1, (LLVMValueRef[]){ ub, cg_iconst(ty, 1) }, 2);
    Magnitudes m;
    m.q0 = LLVMBuildUDiv(c->B, ua, ub, "");
    m.r0 = LLVMBuildURem(c->B, ua, ub, "");
    m.nz = cg_intrinsic(c, "llvm.umin", &ty, 1, (LLVMValueRef[]){ m.r0, cg_iconst(ty, 1) }, 2);
    LLVMValueRef width = cg_iconst(ty, LLVMGetIntTypeWidth(cg_elem_llty(ty)) - 1);
    m.flip = LLVMBuildAShr(c->B, LLVMBuildXor(c->B, a, b, ""), width, "");
    return m;
}

/* q0 negated where the signs differ: (q0 ^ flip) - flip. */
static LLVMValueRef mag_signed(CgCtx *c, Magnitudes m)
{
    return LLVMBuildSub(c->B, LLVMBuildXor(c->B, m.q0, m.flip, ""), m.flip, "");
}

static LLVMValueRef mag_floor(CgCtx *c, Magnitudes m)
{
    return LLVMBuildSub(c->B, mag_signed(c, m), LLVMBuildAnd(c->B, m.nz, m.flip, ""), "");
}

/* x, or 0 where b == 0 */
static LLVMValueRef zero_where_zero(CgCtx *c, LLVMValueRef b, LLVMValueRef x)
{
    LLVMValueRef bz = LLVMBuildICmp(c->B, LLVMIntEQ, b, zero_of(b), "");
    return LLVMBuildSelect(c->B, bz, zero_of(x), x, "");
}

static LLVMValueRef int_floordiv(CgCtx *c, LLVMValueRef a, LLVMValueRef b, bool sgn, bool mags)
{
    LLVMValueRef bz;
    if (mags)
        return zero_where_zero(c, b, mag_floor(c, int_magnitudes(c, a, b)));
    LLVMValueRef bs = safe_divisor(c, a, b, sgn, &bz);
    LLVMValueRef q;
    if (sgn) {
        q = LLVMBuildSDiv(c->B, a, bs, "");
        LLVMValueRef r = LLVMBuildSRem(c->B, a, bs, "");
        LLVMValueRef adj = signs_differ(c, r, bs);
        LLVMValueRef q1 = LLVMBuildSub(c->B, q, cg_iconst(LLVMTypeOf(q), 1), "");
        q = LLVMBuildSelect(c->B, adj, q1, q, "");
    } else {
        q = LLVMBuildUDiv(c->B, a, bs, "");
    }
    return LLVMBuildSelect(c->B, bz, zero_of(q), q, "");
}

/* a % b alone: b == 0 leaves r0 == 0 and no adjustment, so no guard */
static LLVMValueRef mag_mod(CgCtx *c, LLVMValueRef a, LLVMValueRef b)
{
    Magnitudes m = int_magnitudes(c, a, b);
    LLVMValueRef sa = LLVMBuildAShr(c->B, a, cg_iconst(LLVMTypeOf(a), LLVMGetIntTypeWidth(cg_elem_llty(LLVMTypeOf(a))) - 1), "");
    LLVMValueRef rt = LLVMBuildSub(c->B, LLVMBuildXor(c->B, m.r0, sa, ""), sa, "");
    LLVMValueRef adj = LLVMBuildAnd(c->B, m.flip, LLVMBuildNeg(c->B, m.nz, ""), "");
    return LLVMBuildAdd(c->B, rt, LLVMBuildAnd(c->B, b, adj, ""), "");
}

static LLVMValueRef int_mod_as(CgCtx *c, LLVMValueRef a, LLVMValueRef b, bool sgn, bool mags, bool paired)
{
    LLVMValueRef bz;
    if (mags && !paired)
        return mag_mod(c, a, b);
    if (mags) {
        LLVMValueRef q = mag_floor(c, int_magnitudes(c, a, b));
        return zero_where_zero(c, b, LLVMBuildSub(c->B, a, LLVMBuildMul(c->B, q, b, ""), ""));
    }
    LLVMValueRef bs = safe_divisor(c, a, b, sgn, &bz);
    LLVMValueRef r;
    if (sgn) {
        r = LLVMBuildSRem(c->B, a, bs, "");
        LLVMValueRef adj = signs_differ(c, r, bs);
        r = LLVMBuildSelect(c->B, adj, LLVMBuildAdd(c->B, r, bs, ""), r, "");
    } else {
        r = LLVMBuildURem(c->B, a, bs, "");
    }
    return LLVMBuildSelect(c->B, bz, zero_of(r), r, "");
}

static LLVMValueRef int_mod(CgCtx *c, LLVMValueRef a, LLVMValueRef b, bool sgn, bool mags)
{
    return int_mod_as(c, a, b, sgn, mags, false);
}

static LLVMValueRef int_mod_paired(CgCtx *c, LLVMValueRef a, LLVMValueRef b, bool sgn, bool mags)
{
    return int_mod_as(c, a, b, sgn, mags, true);
}

/* Division of integers narrower than 32 bits is done in i32 (the operands
 * extended by their signedness, the result truncated): no value overflows
 * there, truncation gives the wrapped result (MIN // -1 == MIN), and AMDGPU
 * cannot select i8/i16 division at -O0.
 * Signed division by a run-time divisor of 32 bits or more goes through the
 * magnitudes (`mags`); a constant divisor keeps sdiv, which LLVM turns into
 * shifts and multiplies, and so do extended narrow operands, where LLVM
 * knows that no MIN / -1 occurs and drops that guard itself (Int8 `//`: 35
 * instructions with sdiv, 38 through the magnitudes). */
typedef LLVMValueRef (*DivFn)(CgCtx *, LLVMValueRef, LLVMValueRef, bool sgn, bool mags);

static LLVMValueRef widen_div(CgCtx *c, DivFn fn, LLVMValueRef a, LLVMValueRef b, bool sgn)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    if (LLVMGetIntTypeWidth(cg_elem_llty(ty)) >= 32)
        return fn(c, a, b, sgn, sgn && !LLVMIsConstant(b));
    LLVMTypeRef wide = cg_same_shape(c, ty, LLVMInt32TypeInContext(c->C));
    LLVMValueRef wa = sgn ? LLVMBuildSExt(c->B, a, wide, "") : LLVMBuildZExt(c->B, a, wide, "");
    LLVMValueRef wb = sgn ? LLVMBuildSExt(c->B, b, wide, "") : LLVMBuildZExt(c->B, b, wide, "");
    return LLVMBuildTrunc(c->B, fn(c, wa, wb, sgn, false), ty, "");
}

/* Shifts: a count >= width (unsigned compare, so negative counts too) gives 0,
 * or the sign fill for a signed >>. Widths are powers of two, so masking the
 * count keeps every shift defined. */
static LLVMValueRef int_shift(CgCtx *c, int op, LLVMValueRef a, LLVMValueRef b, bool sgn)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    int w = (int)LLVMGetIntTypeWidth(cg_elem_llty(ty));
    LLVMValueRef in = LLVMBuildICmp(c->B, LLVMIntULT, b, cg_iconst(ty, w), "");
    LLVMValueRef bm = LLVMBuildAnd(c->B, b, cg_iconst(ty, w - 1), "");
    if (op == FXB_SHR && sgn) {
        LLVMValueRef cnt = LLVMBuildSelect(c->B, in, bm, cg_iconst(ty, w - 1), "");
        return LLVMBuildAShr(c->B, a, cnt, "");
    }
    LLVMValueRef s = op == FXB_SHL ? LLVMBuildShl(c->B, a, bm, "") : LLVMBuildLShr(c->B, a, bm, "");
    return LLVMBuildSelect(c->B, in, s, zero_of(s), "");
}

/* Integer power by squaring with wrap-around, as an internal always-inline
 * function per scalar type: __fx_ipow_{s,u}<w>(base, exp). A negative exponent
 * gives 0 unless the base is 1 (-> 1) or -1 (-> +-1 by parity). */
static LLVMValueRef ipow_func(CgCtx *c, LLVMTypeRef ity, bool sgn)
{
    char name[64];
    snprintf(name, sizeof name, "__fx_ipow_%c%u", sgn ? 's' : 'u', LLVMGetIntTypeWidth(ity));
    LLVMTypeRef pt[2] = { ity, ity };
    bool is_new;
    LLVMValueRef fn = cg_helper_fn(c, name, LLVMFunctionType(ity, pt, 2, 0), true, &is_new);
    if (!is_new)
        return fn;

    LLVMBuilderRef B = LLVMCreateBuilderInContext(c->C);
    LLVMValueRef base = LLVMGetParam(fn, 0), ex = LLVMGetParam(fn, 1);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->C, fn, "entry");
    LLVMBasicBlockRef negb = LLVMAppendBasicBlockInContext(c->C, fn, "negexp");
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->C, fn, "head");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->C, fn, "body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->C, fn, "done");
    LLVMValueRef zero = LLVMConstNull(ity), one = cg_iconst(ity, 1), m1 = cg_iconst(ity, -1);

    LLVMPositionBuilderAtEnd(B, entry);
    if (sgn) {
        LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, ex, zero, "");
        LLVMBuildCondBr(B, neg, negb, head);
    } else {
        LLVMBuildBr(B, head);
    }
    LLVMPositionBuilderAtEnd(B, negb);
    if (sgn) {
        LLVMValueRef is1 = LLVMBuildICmp(B, LLVMIntEQ, base, one, "");
        LLVMValueRef ism1 = LLVMBuildICmp(B, LLVMIntEQ, base, m1, "");
        LLVMValueRef odd = LLVMBuildTrunc(B, ex, LLVMInt1TypeInContext(c->C), "");
        LLVMValueRef pm = LLVMBuildSelect(B, odd, m1, one, "");
        LLVMValueRef r = LLVMBuildSelect(B, ism1, pm, LLVMBuildSelect(B, is1, one, zero, ""), "");
        LLVMBuildRet(B, r);
    } else {
        LLVMBuildUnreachable(B);
    }
    LLVMPositionBuilderAtEnd(B, head);
    LLVMValueRef pr = LLVMBuildPhi(B, ity, "r");
    LLVMValueRef pb = LLVMBuildPhi(B, ity, "b");
    LLVMValueRef pe = LLVMBuildPhi(B, ity, "e");
    LLVMValueRef isz = LLVMBuildICmp(B, LLVMIntEQ, pe, zero, "");
    LLVMBuildCondBr(B, isz, done, body);
    LLVMPositionBuilderAtEnd(B, body);
    LLVMValueRef bit = LLVMBuildTrunc(B, pe, LLVMInt1TypeInContext(c->C), "");
    LLVMValueRef r2 = LLVMBuildSelect(B, bit, LLVMBuildMul(B, pr, pb, ""), pr, "");
    LLVMValueRef b2 = LLVMBuildMul(B, pb, pb, "");
    LLVMValueRef e2 = LLVMBuildLShr(B, pe, one, "");
    LLVMBuildBr(B, head);
    LLVMValueRef iv_r[2] = { one, r2 }, iv_b[2] = { base, b2 }, iv_e[2] = { ex, e2 };
    LLVMBasicBlockRef from[2] = { entry, body };
    LLVMAddIncoming(pr, iv_r, from, 2);
    LLVMAddIncoming(pb, iv_b, from, 2);
    LLVMAddIncoming(pe, iv_e, from, 2);
    LLVMPositionBuilderAtEnd(B, done);
    LLVMBuildRet(B, pr);
    LLVMDisposeBuilder(B);
    return fn;
}

static LLVMValueRef int_pow(CgCtx *c, LLVMValueRef a, LLVMValueRef b, bool sgn)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMTypeRef ity = cg_elem_llty(ty);
    LLVMValueRef fn = ipow_func(c, ity, sgn);
    LLVMTypeRef pt[2] = { ity, ity };
    LLVMTypeRef fty = LLVMFunctionType(ity, pt, 2, 0);
    if (LLVMGetTypeKind(ty) != LLVMVectorTypeKind) {
        LLVMValueRef args[2] = { a, b };
        return LLVMBuildCall2(c->B, fty, fn, args, 2, "");
    }
    LLVMValueRef r = LLVMGetPoison(ty);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    for (unsigned k = 0; k < LLVMGetVectorSize(ty); k++) {
        LLVMValueRef idx = LLVMConstInt(i32, k, 0);
        LLVMValueRef args[2] = { LLVMBuildExtractElement(c->B, a, idx, ""),
                                 LLVMBuildExtractElement(c->B, b, idx, "") };
        LLVMValueRef e = LLVMBuildCall2(c->B, fty, fn, args, 2, "");
        r = LLVMBuildInsertElement(c->B, r, e, idx, "");
    }
    return r;
}

static const char *binop_name(int op)
{
    static const char *n[] = { "+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>" };
    return op >= 0 && op < FXB_COUNT ? n[op] : "?";
}

/* Integer add, sub and mul with the no-wrap flags the int-ranges pass
 * decided (codegen decides none itself). A promised nsw (@index_nowrap) is
 * checked in host code, so fxrun reports a broken promise instead of
 * running undefined code; on the GPU it is taken on trust. An index nsw
 * is left off in host code: there the wrapped, negative index reaches the
 * bounds check, which reports it. */
static LLVMValueRef int_arith(CgCtx *c, FxInst *i, LLVMValueRef a, LLVMValueRef b)
{
    if ((i->nowrap & FXNW_PROMISED) && cg_host_abi(c)) {
        const char *what = arena_printf(c->fm->arena, "%s '%s'", cg_tyname(c, i->type), binop_name(i->sub));
        return cg_check_overflow(c, i, a, b, what);
    }
    LLVMValueRef v = i->sub == FXB_ADD ? LLVMBuildAdd(c->B, a, b, "")
                   : i->sub == FXB_SUB ? LLVMBuildSub(c->B, a, b, "") : LLVMBuildMul(c->B, a, b, "");
    if (LLVMIsAInstruction(v)) {   /* the builder folds constants */
        bool last = (i->nowrap & FXNW_LAST) != 0, sgn = type_info(type_elem_scalar(i->type))->is_signed;
        bool nsw = (i->nowrap & FXNW_NSW) && !((i->nowrap & FXNW_INDEX) && cg_host_abi(c));
        LLVMSetNSW(v, nsw || (last && sgn));
        LLVMSetNUW(v, (i->nowrap & FXNW_NUW) != 0 || (last && !sgn));
    }
    return v;
}

/* Float16 division on AMDGPU: the backend's native sequence is not always
 * correctly rounded; a correctly rounded Float32 quotient rounded once more to
 * Float16 is (24 >= 2*11 + 2 bits). Kept native under arcp/afn. */
static LLVMValueRef fdiv(CgCtx *c, LLVMValueRef a, LLVMValueRef b, unsigned fmf)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    if (!c->facts->exact_f16_div_sqrt && LLVMGetTypeKind(cg_elem_llty(ty)) == LLVMHalfTypeKind &&
        !(fmf & (FMF_ARCP | FMF_AFN))) {
        LLVMTypeRef f32 = cg_same_shape(c, ty, LLVMFloatTypeInContext(c->C));
        LLVMValueRef q = cg_fmf(LLVMBuildFDiv(c->B, LLVMBuildFPExt(c->B, a, f32, ""),
                                              LLVMBuildFPExt(c->B, b, f32, ""), ""), fmf);
        return LLVMBuildFPTrunc(c->B, q, ty, "");
    }
    return cg_fmf(LLVMBuildFDiv(c->B, a, b, ""), fmf);
}

static bool is_floordiv(const FxInst *i)
{
    return i && i->op == FX_BINOP && i->sub == FXB_FLOORDIV;
}

/* Notes the floor divisions of b and of the blocks nested in it, and those
 * used there. */
static void find_floordivs(CgCtx *c, FxBlock *b)
{
    for (FxInst *j = b->first; j; j = j->next) {
        if (is_floordiv(j)) {
            PtrVec *divs = cg_map_get(&c->floordivs, j->ops[1]);
            if (!divs) {
                divs = arena_alloc(c->fm->arena, sizeof *divs);
                memset(divs, 0, sizeof *divs);
                cg_map_put(&c->floordivs, j->ops[1], divs);
            }
            ptrvec_push(c->fm->arena, divs, j);
        }
        for (int k = 0; k < j->nops; k++)
            if (is_floordiv(j->ops[k]))
                cg_map_put(&c->floordivs_used, j->ops[k], j->ops[k]);
        for (int k = 0; k < j->nblocks; k++)
            find_floordivs(c, &j->blocks[k]);
    }
}

/* Whether i's block also divides by i's divisor, for a quotient something
 * uses (int_mod_as; beside a dead one the lone remainder is shorter): only
 * the divisor is compared, since each `block_idx.x` or parameter read of
 * the dividend is its own instruction until LLVM merges them. A wrong guess
 * costs instructions, never correctness. The module's floor divisions are
 * found once: scanning i's block at every remainder was quadratic (15% of
 * -O1's time on examples/dgemm_ozaki.fx, whose lowered matrix products are
 * long blocks of them). */
static bool floordiv_twin(CgCtx *c, const FxInst *i)
{
    if (!c->floordivs_found) {
        for (int k = 0; k < c->fm->funcs.len; k++)
            find_floordivs(c, &((FxFunc *)c->fm->funcs.items[k])->body);
        c->floordivs_found = true;
    }
    const PtrVec *divs = cg_map_get(&c->floordivs, i->ops[1]);
    for (int k = 0; divs && k < divs->len; k++) {
        const FxInst *d = divs->items[k];
        if (d->parent == i->parent && cg_map_get(&c->floordivs_used, d))
            return true;
    }
    return false;
}

LLVMValueRef cg_binop(CgCtx *c, FxInst *i)
{
    LLVMValueRef a = cg_val(c, i->ops[0]), b = cg_val(c, i->ops[1]);
    ScalarId s = type_elem_scalar(i->type);
    unsigned fmf = i->fmf;
    if (type_is_float(s)) {
        switch (i->sub) {
        case FXB_ADD: return cg_fmf(LLVMBuildFAdd(c->B, a, b, ""), fmf);
        case FXB_SUB: return cg_fmf(LLVMBuildFSub(c->B, a, b, ""), fmf);
        case FXB_MUL: return cg_fmf(LLVMBuildFMul(c->B, a, b, ""), fmf);
        case FXB_DIV: return fdiv(c, a, b, fmf);
        case FXB_FLOORDIV: {
            LLVMValueRef q = fdiv(c, a, b, fmf);
            LLVMTypeRef ty = LLVMTypeOf(q);
            return cg_fmf(cg_intrinsic(c, "llvm.floor", &ty, 1, &q, 1), fmf);
        }
        case FXB_MOD: return cg_fmod_py(c, a, b, fmf);
        case FXB_POW: return cg_fpow(c, i, a, b);
        default: break;
        }
    } else if (type_is_int(s) || s == SC_BOOLEAN) {
        bool sgn = cg_is_signed(s);
        bool boolean = s == SC_BOOLEAN;
        switch (i->sub) {
        case FXB_AND: return LLVMBuildAnd(c->B, a, b, "");
        case FXB_OR: return LLVMBuildOr(c->B, a, b, "");
        case FXB_XOR: return LLVMBuildXor(c->B, a, b, "");
        case FXB_SHL:
        case FXB_SHR: return int_shift(c, i->sub, a, b, sgn);
        default: break;
        }
        if (!boolean) {
            switch (i->sub) {
            case FXB_ADD: case FXB_SUB: case FXB_MUL: return int_arith(c, i, a, b);
            case FXB_FLOORDIV: return widen_div(c, int_floordiv, a, b, sgn);
            case FXB_MOD: return widen_div(c, floordiv_twin(c, i) ? int_mod_paired : int_mod, a, b, sgn);
            case FXB_POW: return int_pow(c, a, b, sgn);
            default: break;
            }
        }
    }
    cg_error(c, i->loc, "internal compiler error: operator '%s' on %s reached code generation",
             binop_name(i->sub), cg_tyname(c, i->type));
    return LLVMGetPoison(cg_reg_type(c, i->type));
}

LLVMValueRef cg_cmp(CgCtx *c, FxInst *i)
{
    LLVMValueRef a = cg_val(c, i->ops[0]), b = cg_val(c, i->ops[1]);
    ScalarId s = type_elem_scalar(i->ops[0]->type);
    if (type_is_float(s)) {
        static const LLVMRealPredicate fp[] = { LLVMRealOLT, LLVMRealOLE, LLVMRealOGT,
                                                LLVMRealOGE, LLVMRealOEQ, LLVMRealUNE };
        return cg_fmf(LLVMBuildFCmp(c->B, fp[i->sub], a, b, ""), i->fmf);
    }
    if (type_is_narrow(s)) {
        cg_error(c, i->loc, "comparison of %s values: convert to Float32 first",
                 cg_tyname(c, i->ops[0]->type));
        return LLVMGetPoison(cg_reg_type(c, i->type));
    }
    static const LLVMIntPredicate sp[] = { LLVMIntSLT, LLVMIntSLE, LLVMIntSGT,
                                           LLVMIntSGE, LLVMIntEQ, LLVMIntNE };
    static const LLVMIntPredicate up[] = { LLVMIntULT, LLVMIntULE, LLVMIntUGT,
                                           LLVMIntUGE, LLVMIntEQ, LLVMIntNE };
    return LLVMBuildICmp(c->B, cg_is_signed(s) ? sp[i->sub] : up[i->sub], a, b, "");
}

LLVMValueRef cg_unop(CgCtx *c, FxInst *i)
{
    LLVMValueRef a = cg_val(c, i->ops[0]);
    ScalarId s = type_elem_scalar(i->type);
    LLVMTypeRef ty = LLVMTypeOf(a);
    if (type_is_float(s)) {
        switch (i->sub) {
        case FXU_NEG: return cg_fmf(LLVMBuildFNeg(c->B, a, ""), i->fmf);
        case FXU_ABS: return cg_fmf(cg_intrinsic(c, "llvm.fabs", &ty, 1, &a, 1), i->fmf);
        default: break;
        }
    } else if (type_is_int(s) || s == SC_BOOLEAN) {
        switch (i->sub) {
        case FXU_NEG: return LLVMBuildSub(c->B, zero_of(a), a, "");
        case FXU_INVERT: return LLVMBuildXor(c->B, a, LLVMConstAllOnes(ty), "");
        case FXU_ABS:
            if (s == SC_BOOLEAN || !cg_is_signed(s))
                return a;
            {
                LLVMValueRef args[2] = { a, LLVMConstInt(LLVMInt1TypeInContext(c->C), 0, 0) };
                return cg_intrinsic(c, "llvm.abs", &ty, 1, args, 2);
            }
        default: break;
        }
    }
    cg_error(c, i->loc, "internal compiler error: unary operator %d on %s reached code generation",
             i->sub, cg_tyname(c, i->type));
    return LLVMGetPoison(ty);
}

LLVMValueRef cg_minmax_values(CgCtx *c, FxMinMax which, ScalarId s, unsigned fmf, LLVMValueRef a, LLVMValueRef b)
{
    LLVMValueRef args[2] = { a, b };
    LLVMTypeRef ty = LLVMTypeOf(a);
    if (type_is_float(s)) {
        static const char *fn[] = { "llvm.maximum", "llvm.minimum", "llvm.maxnum", "llvm.minnum" };
        LLVMValueRef r = cg_fmf(cg_intrinsic(c, fn[which & 3], &ty, 1, args, 2), fmf);
        if ((which == FXMM_MAX || which == FXMM_MIN) && c->facts->maximum_snan_bug && !(fmf & FMF_NNAN)) {
            /* LLVM 19's x86 backend returns the number from llvm.maximum/
             * minimum(x, sNaN) when x is known not to be NaN (e.g. an
             * integer converted to float): propagate the NaN explicitly */
            LLVMValueRef uno = LLVMBuildFCmp(c->B, LLVMRealUNO, args[0], args[1], "");
            r = LLVMBuildSelect(c->B, uno, LLVMBuildFAdd(c->B, args[0], args[1], ""), r, "");
        }
        if ((which == FXMM_MAXNUM || which == FXMM_MINNUM) && !(fmf & FMF_NSZ)) {
            /* llvm.maxnum/minnum may return either zero for (-0, +0); the
             * folder orders -0 < +0 as fx.max does. Equal operands: the
             * bitwise AND (max) or OR (min) picks the right zero and leaves
             * equal nonzero values alone. BFloat16 is compared as integers
             * (both zero) to keep floating-point operations off it. */
            LLVMTypeRef ity = cg_same_shape(c, ty, LLVMIntTypeInContext(c->C, (unsigned)cg_width(s)));
            LLVMValueRef ia = LLVMBuildBitCast(c->B, args[0], ity, "");
            LLVMValueRef ib = LLVMBuildBitCast(c->B, args[1], ity, "");
            LLVMValueRef eq;
            if (s == SC_BFLOAT16)
                eq = LLVMBuildICmp(c->B, LLVMIntEQ, LLVMBuildShl(c->B, LLVMBuildOr(c->B, ia, ib, ""),
                                                                 cg_iconst(ity, 1), ""), LLVMConstNull(ity), "");
            else
                eq = LLVMBuildFCmp(c->B, LLVMRealOEQ, args[0], args[1], "");
            LLVMValueRef z = which == FXMM_MAXNUM ? LLVMBuildAnd(c->B, ia, ib, "") : LLVMBuildOr(c->B, ia, ib, "");
            r = LLVMBuildSelect(c->B, eq, LLVMBuildBitCast(c->B, z, ty, ""), r, "");
        }
        return r;
    }
    if (type_is_int(s) || s == SC_BOOLEAN) {
        bool max = which == FXMM_MAX || which == FXMM_MAXNUM;
        const char *fn = cg_is_signed(s) ? (max ? "llvm.smax" : "llvm.smin")
                                         : (max ? "llvm.umax" : "llvm.umin");
        return cg_intrinsic(c, fn, &ty, 1, args, 2);
    }
    return NULL;
}

LLVMValueRef cg_minmax(CgCtx *c, FxInst *i)
{
    LLVMValueRef r = cg_minmax_values(c, (FxMinMax)i->sub, type_elem_scalar(i->type), i->fmf, cg_val(c, i->ops[0]),
                                      cg_val(c, i->ops[1]));
    if (r)
        return r;
    cg_error(c, i->loc, "fx.max/fx.min on %s: convert to Float32 first", cg_tyname(c, i->type));
    return LLVMGetPoison(cg_reg_type(c, i->type));
}

/* Ceiling division without overflowing intermediates:
 * signed: q = a/b (truncating) + 1 when the remainder is nonzero and a, b have
 * the same sign; unsigned: a/b + (a%b != 0); b == 0 -> 0; MIN / -1 -> MIN.
 * Through the magnitudes: -q0 where the signs differ, else q0 + (the
 * remainder != 0). */
static LLVMValueRef int_ceildiv(CgCtx *c, LLVMValueRef a, LLVMValueRef b, bool sgn, bool mags)
{
    LLVMValueRef bz;
    if (mags) {
        Magnitudes m = int_magnitudes(c, a, b);
        LLVMValueRef up = LLVMBuildAnd(c->B, m.nz, LLVMBuildNot(c->B, m.flip, ""), "");
        return zero_where_zero(c, b, LLVMBuildAdd(c->B, mag_signed(c, m), up, ""));
    }
    LLVMValueRef bs = safe_divisor(c, a, b, sgn, &bz);
    LLVMValueRef q, r, up;
    if (sgn) {
        q = LLVMBuildSDiv(c->B, a, bs, "");
        r = LLVMBuildSRem(c->B, a, bs, "");
        LLVMValueRef x = LLVMBuildXor(c->B, a, bs, "");
        LLVMValueRef same = LLVMBuildICmp(c->B, LLVMIntSGE, x, zero_of(x), "");
        LLVMValueRef nz = LLVMBuildICmp(c->B, LLVMIntNE, r, zero_of(r), "");
        up = LLVMBuildAnd(c->B, same, nz, "");
    } else {
        q = LLVMBuildUDiv(c->B, a, bs, "");
        r = LLVMBuildURem(c->B, a, bs, "");
        up = LLVMBuildICmp(c->B, LLVMIntNE, r, zero_of(r), "");
    }
    q = LLVMBuildAdd(c->B, q, LLVMBuildZExt(c->B, up, LLVMTypeOf(q), ""), "");
    return LLVMBuildSelect(c->B, bz, zero_of(q), q, "");
}

LLVMValueRef cg_ceildiv(CgCtx *c, FxInst *i)
{
    LLVMValueRef a = cg_val(c, i->ops[0]), b = cg_val(c, i->ops[1]);
    ScalarId s = type_elem_scalar(i->type);
    if (!type_is_int(s)) {
        cg_error(c, i->loc, "fx.ceildiv on %s: integers only", cg_tyname(c, i->type));
        return LLVMGetPoison(LLVMTypeOf(a));
    }
    return widen_div(c, int_ceildiv, a, b, cg_is_signed(s));
}

/* Correctly rounded a*b+c for Float16/BFloat16 where the target would
 * otherwise compute it in Float32 and round twice: in f64 the product is exact,
 * the sum is rounded to odd (TwoSum error term), and the f64 -> narrow
 * conversion (which goes through f32 rounded to odd) rounds once more to
 * nearest even, which is exact for round-to-odd intermediates. */
static LLVMValueRef narrow_fma(CgCtx *c, ScalarId s, LLVMValueRef a, LLVMValueRef b, LLVMValueRef cc)
{
    LLVMTypeRef ty = LLVMTypeOf(a);
    LLVMTypeRef d = cg_same_shape(c, ty, LLVMDoubleTypeInContext(c->C));
    LLVMTypeRef i64 = cg_same_shape(c, ty, LLVMInt64TypeInContext(c->C));
    LLVMValueRef ad = LLVMBuildFPExt(c->B, a, d, "");
    LLVMValueRef bd = LLVMBuildFPExt(c->B, b, d, "");
    LLVMValueRef cd = LLVMBuildFPExt(c->B, cc, d, "");
    LLVMValueRef p = LLVMBuildFMul(c->B, ad, bd, "");     /* exact: 2x8 or 2x11 bits */
    LLVMValueRef sum = LLVMBuildFAdd(c->B, p, cd, "");
    LLVMValueRef bv = LLVMBuildFSub(c->B, sum, p, "");
    LLVMValueRef av = LLVMBuildFSub(c->B, sum, bv, "");
    LLVMValueRef err = LLVMBuildFAdd(c->B, LLVMBuildFSub(c->B, p, av, ""),
                                     LLVMBuildFSub(c->B, cd, bv, ""), "");
    /* round to odd: an inexact sum with an even last bit moves one ulp toward the error */
    LLVMValueRef bits = LLVMBuildBitCast(c->B, sum, i64, "");
    LLVMValueRef inexact = LLVMBuildFCmp(c->B, LLVMRealONE, err, LLVMConstNull(d), "");
    LLVMValueRef even = LLVMBuildICmp(c->B, LLVMIntEQ,
                                      LLVMBuildAnd(c->B, bits, cg_iconst(i64, 1), ""),
                                      LLVMConstNull(i64), "");
    LLVMValueRef fin = LLVMBuildFCmp(c->B, LLVMRealOLT,
                                     cg_intrinsic(c, "llvm.fabs", &d, 1, &sum, 1),
                                     cg_fconst(d, __builtin_inf()), "");
    LLVMValueRef errneg = LLVMBuildFCmp(c->B, LLVMRealOLT, err, LLVMConstNull(d), "");
    LLVMValueRef sumneg = LLVMBuildFCmp(c->B, LLVMRealOLT, sum, LLVMConstNull(d), "");
    LLVMValueRef away = LLVMBuildICmp(c->B, LLVMIntEQ, errneg, sumneg, "");
    LLVMValueRef step = LLVMBuildSelect(c->B, away, cg_iconst(i64, 1), cg_iconst(i64, -1), "");
    LLVMValueRef fix = LLVMBuildAnd(c->B, LLVMBuildAnd(c->B, inexact, even, ""), fin, "");
    bits = LLVMBuildSelect(c->B, fix, LLVMBuildAdd(c->B, bits, step, ""), bits, "");
    LLVMValueRef odd = LLVMBuildBitCast(c->B, bits, d, "");
    return cg_fconvert(c, odd, SC_FLOAT64, s);
}

LLVMValueRef cg_fma(CgCtx *c, FxInst *i)
{
    LLVMValueRef args[3] = { cg_val(c, i->ops[0]), cg_val(c, i->ops[1]), cg_val(c, i->ops[2]) };
    LLVMTypeRef ty = LLVMTypeOf(args[0]);
    ScalarId s = type_elem_scalar(i->type);
    if (type_is_int(s)) /* an integer multiply-add wraps like * and + */
        return LLVMBuildAdd(c->B, LLVMBuildMul(c->B, args[0], args[1], ""), args[2], "");
    if (!type_is_float(s)) {
        cg_error(c, i->loc, "fx.fma on %s: convert to Float32 first", cg_tyname(c, i->type));
        return LLVMGetPoison(ty);
    }
    if (s == SC_BFLOAT16 || (s == SC_FLOAT16 && !c->facts->native_fma_f16))
        return narrow_fma(c, s, args[0], args[1], args[2]);
    return cg_fmf(cg_intrinsic(c, "llvm.fma", &ty, 1, args, 3), i->fmf);
}

/* A vector of 3 lanes padded to 4 (the extra lane poison) for a run-time
 * lane index: at -O0 the AMDGPU backend cannot select extract_vector_elt or
 * insert_vector_elt with a variable index on v3i32/v3f32/v3i64/v3f64 ("Cannot
 * select"); -O3 happens to rewrite them first. Power-of-two lane counts are
 * returned as they are. */
static LLVMValueRef widen_lanes(CgCtx *c, LLVMValueRef v)
{
    unsigned n = LLVMGetVectorSize(LLVMTypeOf(v));
    if ((n & (n - 1)) == 0)
        return v;
    unsigned wide = 1;
    while (wide < n)
        wide *= 2;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMValueRef mask[64];
    for (unsigned k = 0; k < wide; k++)
        mask[k] = k < n ? LLVMConstInt(i32, k, 0) : LLVMGetPoison(i32);
    return LLVMBuildShuffleVector(c->B, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(mask, wide), "");
}

/* The first n lanes of a vector widened by widen_lanes. */
static LLVMValueRef narrow_lanes(CgCtx *c, LLVMValueRef v, unsigned n)
{
    if (LLVMGetVectorSize(LLVMTypeOf(v)) == n)
        return v;
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMValueRef mask[64];
    for (unsigned k = 0; k < n; k++)
        mask[k] = LLVMConstInt(i32, k, 0);
    return LLVMBuildShuffleVector(c->B, v, LLVMGetPoison(LLVMTypeOf(v)), LLVMConstVector(mask, n), "");
}

LLVMValueRef cg_vector_op(CgCtx *c, FxInst *i)
{
    LLVMTypeRef ty = cg_reg_type(c, i->type);
    switch (i->op) {
    case FX_SPLAT:
        return cg_splat_value(c, ty, cg_val(c, i->ops[0]));
    /* a run-time lane index out of range gives an unspecified value (frozen,
     * so it cannot turn into undefined behaviour further on) */
    case FX_EXTRACT: {
        LLVMValueRef idx = cg_index64(c, cg_val(c, i->ops[1]), type_elem_scalar(i->ops[1]->type));
        if (LLVMIsConstant(idx))
            return LLVMBuildExtractElement(c->B, cg_val(c, i->ops[0]), idx, "");
        LLVMValueRef v = LLVMBuildExtractElement(c->B, widen_lanes(c, cg_val(c, i->ops[0])), idx, "");
        return LLVMBuildFreeze(c->B, v, "");
    }
    case FX_INSERT: {
        LLVMValueRef idx = cg_index64(c, cg_val(c, i->ops[2]), type_elem_scalar(i->ops[2]->type));
        LLVMValueRef vec = cg_val(c, i->ops[0]);
        if (LLVMIsConstant(idx))
            return LLVMBuildInsertElement(c->B, vec, cg_val(c, i->ops[1]), idx, "");
        LLVMValueRef v = LLVMBuildInsertElement(c->B, widen_lanes(c, vec), cg_val(c, i->ops[1]), idx, "");
        return LLVMBuildFreeze(c->B, narrow_lanes(c, v, LLVMGetVectorSize(LLVMTypeOf(vec))), "");
    }
    case FX_SELECT: {
        LLVMValueRef v = LLVMBuildSelect(c->B, cg_val(c, i->ops[0]), cg_val(c, i->ops[1]),
                                         cg_val(c, i->ops[2]), "");
        return type_is_float(type_elem_scalar(i->type)) ? cg_fmf(v, i->fmf) : v;
    }
    case FX_BITCAST: {
        LLVMValueRef v = cg_val(c, i->ops[0]);
        if (LLVMTypeOf(v) == ty)
            return v;
        if (LLVMSizeOfTypeInBits(c->TD, LLVMTypeOf(v)) != LLVMSizeOfTypeInBits(c->TD, ty)) {
            cg_error(c, i->loc, "bitcast from %s to %s changes the width",
                     cg_tyname(c, i->ops[0]->type), cg_tyname(c, i->type));
            return LLVMGetPoison(ty);
        }
        return LLVMBuildBitCast(c->B, v, ty, "");
    }
    default:
        return LLVMGetPoison(ty);
    }
}
