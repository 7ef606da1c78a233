/* cg_wave.c - wave operations (docs/waves.md).
 *
 * AMDGPU: values move between lanes in 32-bit words (a Float64 is two, a
 * Boolean or Float16 one, zero-extended): ds_bpermute for shuffles,
 * readlane/readfirstlane for the uniform reads, ballot for the masks. A
 * lane reads another only when that lane is active (the exec mask, itself a
 * ballot of true); otherwise the operation's fallback (docs/waves.md) is
 * used, so the result never depends on a dead lane's register. Reductions
 * run in whole-wave mode: inactive lanes enter as the identity
 * (set.inactive), ds_swizzle steps combine the lower half of each block of
 * lanes with its upper half within 32 lanes, readlane joins the halves of
 * a wave64, and strict.wwm hands the total back. That is the pairwise tree
 * in lane order the host's wave model computes (host/cg_hostwave.c runs
 * the exchanges it is rewritten into there). */
#include "codegen/cg_internal.h"
#include "codegen/amdgpu/cg_amdgpu.h"

static LLVMTypeRef i32_ty(CgCtx *c) { return LLVMInt32TypeInContext(c->C); }
static LLVMTypeRef i64_ty(CgCtx *c) { return LLVMInt64TypeInContext(c->C); }
static LLVMValueRef c32(CgCtx *c, unsigned long long v) { return LLVMConstInt(i32_ty(c), v, 0); }

/* ---- a scalar as 32-bit words ---- */

enum { MAX_WORDS = 4 };   /* Int128 */

static int scalar_bits(LLVMTypeRef ty)
{
    switch (LLVMGetTypeKind(ty)) {
    case LLVMHalfTypeKind: case LLVMBFloatTypeKind: return 16;
    case LLVMFloatTypeKind: return 32;
    case LLVMDoubleTypeKind: return 64;
    default: return (int)LLVMGetIntTypeWidth(ty);
    }
}

static int to_words(CgCtx *c, LLVMValueRef v, LLVMValueRef *w)
{
    int bits = scalar_bits(LLVMTypeOf(v));
    LLVMValueRef x = LLVMBuildBitCast(c->B, v, LLVMIntTypeInContext(c->C, (unsigned)bits), "");
    int n = (bits + 31) / 32;
    x = LLVMBuildZExt(c->B, x, LLVMIntTypeInContext(c->C, (unsigned)(32 * n)), "");
    if (n == 1) {
        w[0] = x;
        return 1;
    }
    LLVMValueRef vec = LLVMBuildBitCast(c->B, x, LLVMVectorType(i32_ty(c), (unsigned)n), "");
    for (int k = 0; k < n; k++)
        w[k] = LLVMBuildExtractElement(c->B, vec, c32(c, (unsigned)k), "");
    return n;
}

static LLVMValueRef from_words(CgCtx *c, LLVMValueRef *w, int n, LLVMTypeRef ty)
{
    int bits = scalar_bits(ty);
    LLVMValueRef x = w[0];
    if (n > 1) {
        LLVMValueRef vec = LLVMGetUndef(LLVMVectorType(i32_ty(c), (unsigned)n));
        for (int k = 0; k < n; k++)
            vec = LLVMBuildInsertElement(c->B, vec, w[k], c32(c, (unsigned)k), "");
        x = LLVMBuildBitCast(c->B, vec, LLVMIntTypeInContext(c->C, (unsigned)(32 * n)), "");
    }
    x = LLVMBuildTrunc(c->B, x, LLVMIntTypeInContext(c->C, (unsigned)bits), "");
    return LLVMBuildBitCast(c->B, x, ty, "");
}

/* ---- the wave ---- */

static LLVMValueRef lane_id(CgCtx *c)
{
    LLVMValueRef a[2] = { c32(c, 0xffffffffu), c32(c, 0) };
    LLVMValueRef lo = cg_intrinsic(c, "llvm.amdgcn.mbcnt.lo", NULL, 0, a, 2);
    if (c->tgt->wave_size == 32)
        return lo;
    a[1] = lo;
    return cg_intrinsic(c, "llvm.amdgcn.mbcnt.hi", NULL, 0, a, 2);
}

/* The lanes where b is true among the active ones, as an i64 (wave32: zero-extended). */
static LLVMValueRef ballot(CgCtx *c, LLVMValueRef b)
{
    LLVMTypeRef mt = c->tgt->wave_size == 32 ? i32_ty(c) : i64_ty(c);
    LLVMValueRef m = cg_intrinsic(c, "llvm.amdgcn.ballot", &mt, 1, &b, 1);
    return LLVMBuildZExt(c->B, m, i64_ty(c), "");
}

static LLVMValueRef exec_mask(CgCtx *c)
{
    return ballot(c, LLVMConstInt(LLVMInt1TypeInContext(c->C), 1, 0));
}

static LLVMValueRef lane_active(CgCtx *c, LLVMValueRef exec, LLVMValueRef s)
{
    LLVMValueRef bit = LLVMBuildLShr(c->B, exec, LLVMBuildZExt(c->B, s, i64_ty(c), ""), "");
    return LLVMBuildTrunc(c->B, bit, LLVMInt1TypeInContext(c->C), "");
}

static LLVMValueRef bpermute(CgCtx *c, LLVMValueRef v, LLVMValueRef lane)
{
    LLVMValueRef w[MAX_WORDS];
    int n = to_words(c, v, w);
    LLVMValueRef addr = LLVMBuildShl(c->B, lane, c32(c, 2), "");
    for (int k = 0; k < n; k++) {
        LLVMValueRef a[2] = { addr, w[k] };
        w[k] = cg_intrinsic(c, "llvm.amdgcn.ds.bpermute", NULL, 0, a, 2);
    }
    return from_words(c, w, n, LLVMTypeOf(v));
}

static LLVMValueRef word_intrinsic(CgCtx *c, const char *name, LLVMValueRef v, LLVMValueRef lane)
{
    LLVMValueRef w[MAX_WORDS];
    int n = to_words(c, v, w);
    LLVMTypeRef t = i32_ty(c);
    for (int k = 0; k < n; k++) {
        LLVMValueRef a[2] = { w[k], lane };
        w[k] = cg_intrinsic(c, name, &t, 1, a, lane ? 2 : 1);
    }
    return from_words(c, w, n, LLVMTypeOf(v));
}

/* Lane s's value when 0 <= s < W and s is active, else `own` (s an i32). */
static LLVMValueRef from_lane_or(CgCtx *c, LLVMValueRef v, LLVMValueRef s, LLVMValueRef own, LLVMValueRef exec)
{
    LLVMValueRef in_range = LLVMBuildICmp(c->B, LLVMIntULT, s, c32(c, (unsigned)c->tgt->wave_size), "");
    LLVMValueRef safe = LLVMBuildSelect(c->B, in_range, s, lane_id(c), "");
    LLVMValueRef ok = LLVMBuildAnd(c->B, in_range, lane_active(c, exec, safe), "");
    return LLVMBuildSelect(c->B, ok, bpermute(c, v, safe), own, "");
}

/* ---- reductions ---- */

static LLVMValueRef identity(CgCtx *c, FxWaveOp op, ScalarId s, LLVMTypeRef ty)
{
    if (type_is_float(s)) {
        if (op == FXW_SUM)
            return LLVMConstReal(ty, -0.0);
        return LLVMConstReal(ty, op == FXW_MAX ? -__builtin_inf() : __builtin_inf());
    }
    if (op == FXW_SUM)
        return LLVMConstNull(ty);
    bool sgn = cg_is_signed(s), max = op == FXW_MAX;
    LLVMValueRef zero = LLVMConstNull(ty), ones = LLVMConstAllOnes(ty);
    if (!sgn)
        return max ? zero : ones;
    LLVMValueRef imin = cg_imin(ty);
    return max ? imin : LLVMConstNot(imin);
}

static LLVMValueRef combine(CgCtx *c, FxWaveOp op, ScalarId s, LLVMValueRef lo, LLVMValueRef hi)
{
    if (op == FXW_SUM)
        return type_is_float(s) ? LLVMBuildFAdd(c->B, lo, hi, "") : LLVMBuildAdd(c->B, lo, hi, "");
    return cg_minmax_values(c, op == FXW_MAX ? FXMM_MAX : FXMM_MIN, s, 0, lo, hi);
}

/* The word of lane (l & and_mask) | or_mask within each group of 32 lanes,
 * l the reading lane: ds_swizzle in its bit-mask mode (offset bits 0-4 the
 * and mask, 5-9 the or mask), which needs no lane address. */
static LLVMValueRef swizzle(CgCtx *c, LLVMValueRef v, unsigned and_mask, unsigned or_mask)
{
    LLVMValueRef w[MAX_WORDS];
    int n = to_words(c, v, w);
    for (int k = 0; k < n; k++) {
        LLVMValueRef a[2] = { w[k], c32(c, (and_mask & 31u) | (or_mask & 31u) << 5) };
        w[k] = cg_intrinsic(c, "llvm.amdgcn.ds.swizzle", NULL, 0, a, 2);
    }
    return from_words(c, w, n, LLVMTypeOf(v));
}

/* The whole-wave part of a reduction computes nothing from a lane id and
 * no lane address: values that GVN could merge with another reduction's
 * into a phi, which strict.wwm leaves undefined (docs/waves.md, "Whole-wave
 * mode"). At step s every lane combines the partial of the lower half of
 * its block of 2s lanes (lane l & ~s) with that of the upper half (l | s),
 * so all lanes of the block hold the same pairwise sum in lane order; the
 * two halves of a wave64 meet through readlane 0 and 32. */
static LLVMValueRef reduce(CgCtx *c, FxWaveOp op, ScalarId s, LLVMValueRef v)
{
    LLVMTypeRef ty = LLVMTypeOf(v), i32 = i32_ty(c);
    LLVMValueRef w[MAX_WORDS], idw[MAX_WORDS];
    int n = to_words(c, v, w);
    to_words(c, identity(c, op, s, ty), idw);
    for (int k = 0; k < n; k++) {
        LLVMValueRef a[2] = { w[k], idw[k] };
        w[k] = cg_intrinsic(c, "llvm.amdgcn.set.inactive", &i32, 1, a, 2);
    }
    LLVMValueRef x = from_words(c, w, n, ty);
    int W = c->tgt->wave_size, group = W < 32 ? W : 32;
    for (int step = 1; step < group; step *= 2) {
        LLVMValueRef lo = swizzle(c, x, 31u & ~(unsigned)step, 0);
        LLVMValueRef hi = swizzle(c, x, 31u, (unsigned)step);
        x = combine(c, op, s, lo, hi);
    }
    if (W > 32) {
        LLVMValueRef lo = word_intrinsic(c, "llvm.amdgcn.readlane", x, c32(c, 0));
        LLVMValueRef hi = word_intrinsic(c, "llvm.amdgcn.readlane", x, c32(c, 32));
        x = combine(c, op, s, lo, hi);
    }
    n = to_words(c, x, w);
    for (int k = 0; k < n; k++)
        w[k] = cg_intrinsic(c, "llvm.amdgcn.strict.wwm", &i32, 1, &w[k], 1);
    return from_words(c, w, n, ty);
}

/* ---- one scalar lane of an operation ---- */

static LLVMValueRef wave_scalar(CgCtx *c, FxWaveOp op, ScalarId s, LLVMValueRef v, LLVMValueRef arg,
                                LLVMValueRef exec)
{
    int W = c->tgt->wave_size;
    switch (op) {
    case FXW_SHUFFLE:
        return from_lane_or(c, v, LLVMBuildAnd(c->B, arg, c32(c, (unsigned)W - 1), ""), v, exec);
    case FXW_SHUFFLE_XOR:
        return from_lane_or(c, v, LLVMBuildXor(c->B, lane_id(c), arg, ""), v, exec);
    case FXW_SHUFFLE_UP:
        return from_lane_or(c, v, LLVMBuildSub(c->B, lane_id(c), arg, ""), v, exec);
    case FXW_SHUFFLE_DOWN:
        return from_lane_or(c, v, LLVMBuildAdd(c->B, lane_id(c), arg, ""), v, exec);
    case FXW_READLANE: {   /* the index of the first active lane decides */
        LLVMValueRef sidx = LLVMBuildAnd(c->B, word_intrinsic(c, "llvm.amdgcn.readfirstlane", arg, NULL),
                                         c32(c, (unsigned)W - 1), "");
        LLVMValueRef got = word_intrinsic(c, "llvm.amdgcn.readlane", v, sidx);
        LLVMValueRef first = word_intrinsic(c, "llvm.amdgcn.readfirstlane", v, NULL);
        return LLVMBuildSelect(c->B, lane_active(c, exec, sidx), got, first, "");
    }
    case FXW_READFIRSTLANE:
        return word_intrinsic(c, "llvm.amdgcn.readfirstlane", v, NULL);
    case FXW_SUM: case FXW_MAX: case FXW_MIN:
        return reduce(c, op, s, v);
    default:
        return NULL;
    }
}

LLVMValueRef cg_wave(CgCtx *c, FxInst *i)
{
    if (cg_host_abi(c)) {
        cg_error(c, i->loc, "internal compiler error: a wave operation reached host code generation");
        return LLVMGetPoison(cg_reg_type(c, i->type));
    }
    FxWaveOp op = (FxWaveOp)i->sub;
    LLVMValueRef v = cg_val(c, i->ops[0]), arg = i->nops > 1 ? cg_val(c, i->ops[1]) : NULL;
    LLVMValueRef exec = exec_mask(c);
    if (op == FXW_BALLOT || op == FXW_ANY || op == FXW_ALL) {
        LLVMValueRef m = ballot(c, v);
        if (op == FXW_BALLOT)
            return m;
        if (op == FXW_ANY)
            return LLVMBuildICmp(c->B, LLVMIntNE, m, LLVMConstNull(i64_ty(c)), "");
        return LLVMBuildICmp(c->B, LLVMIntEQ, m, exec, "");
    }
    ScalarId s = type_elem_scalar(i->type);
    if (i->type->kind != TY_VECTOR)
        return wave_scalar(c, op, s, v, arg, exec);
    LLVMValueRef r = LLVMGetUndef(LLVMTypeOf(v));
    for (int k = 0; k < i->type->lanes; k++) {
        LLVMValueRef e = LLVMBuildExtractElement(c->B, v, c32(c, (unsigned)k), "");
        r = LLVMBuildInsertElement(c->B, r, wave_scalar(c, op, s, e, arg, exec), c32(c, (unsigned)k), "");
    }
    return r;
}
