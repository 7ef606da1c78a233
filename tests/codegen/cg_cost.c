/* cg_cost.c - the instruction-cost table of docs/codegen.md: every operation
 * whose code carries a guard or a software sequence, compiled at -O3 as a
 * one-op kernel (out[t] = op(a[t], b[t])), against the same kernel written in
 * LLVM IR with the plain, unguarded LLVM operation. Counts are the static
 * instructions of the whole kernel (every block, slow paths included; loads,
 * stores and address arithmetic too, so the difference is the guard's cost).
 *   cg_cost [ARCH]        (default gfx942) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fxk.h"
#include "isa.h"

enum { K_BIN, K_CAST, K_MATH, K_MINMAX, K_FMA, K_CEILDIV };

typedef struct Cost {
    const char *what;
    int kind;
    ScalarId s, to;
    int sub;
    FfRound rm;
    const char *base;   /* the unguarded body: uses %x (%y, %z), defines %r; NULL: none */
} Cost;

static const Cost costs[] = {
    { "Float32 `+` (no guard: the reference)", K_BIN, SC_FLOAT32, 0, FXB_ADD, 0, "%r = fadd float %x, %y" },
    { "Int32 `//` (floor, x//0 = 0, MIN//-1)", K_BIN, SC_INT32, 0, FXB_FLOORDIV, 0, "%r = sdiv i32 %x, %y" },
    { "Int32 `%` (floored, x%0 = 0)", K_BIN, SC_INT32, 0, FXB_MOD, 0, "%r = srem i32 %x, %y" },
    { "Uint32 `//`", K_BIN, SC_UINT32, 0, FXB_FLOORDIV, 0, "%r = udiv i32 %x, %y" },
    { "Uint32 `%`", K_BIN, SC_UINT32, 0, FXB_MOD, 0, "%r = urem i32 %x, %y" },
    { "Int64 `//`", K_BIN, SC_INT64, 0, FXB_FLOORDIV, 0, "%r = sdiv i64 %x, %y" },
    { "Int64 `%`", K_BIN, SC_INT64, 0, FXB_MOD, 0, "%r = srem i64 %x, %y" },
    { "Int8 `//` (in Int32)", K_BIN, SC_INT8, 0, FXB_FLOORDIV, 0, "%r = sdiv i8 %x, %y" },
    { "Int32 fx.ceildiv", K_CEILDIV, SC_INT32, 0, 0, 0, "%r = sdiv i32 %x, %y" },
    { "Int32 `<<` (count >= 32 or < 0 gives 0)", K_BIN, SC_INT32, 0, FXB_SHL, 0, "%r = shl i32 %x, %y" },
    { "Int32 `>>` (sign fill)", K_BIN, SC_INT32, 0, FXB_SHR, 0, "%r = ashr i32 %x, %y" },
    { "Uint32 `>>`", K_BIN, SC_UINT32, 0, FXB_SHR, 0, "%r = lshr i32 %x, %y" },
    { "Int64 `<<`", K_BIN, SC_INT64, 0, FXB_SHL, 0, "%r = shl i64 %x, %y" },
    { "Int16 `>>`", K_BIN, SC_INT16, 0, FXB_SHR, 0, "%r = ashr i16 %x, %y" },
    { "Int32 `**` (loop; no LLVM op)", K_BIN, SC_INT32, 0, FXB_POW, 0, NULL },
    { "Float32 `%` (exact fmod, Python sign)", K_BIN, SC_FLOAT32, 0, FXB_MOD, 0, "%r = frem float %x, %y" },
    { "Float64 `%`", K_BIN, SC_FLOAT64, 0, FXB_MOD, 0, "%r = frem double %x, %y" },
    { "Float16 `/` (in Float32)", K_BIN, SC_FLOAT16, 0, FXB_DIV, 0, "%r = fdiv half %x, %y" },
    { "Float32 fx.maxnumf (-0 < +0)", K_MINMAX, SC_FLOAT32, 0, FXMM_MAXNUM, 0,
      "%r = call float @llvm.maxnum.f32(float %x, float %y)" },
    { "Float16 fx.sqrt (in Float32)", K_MATH, SC_FLOAT16, 0, FXM_SQRT, 0, "%r = call half @llvm.sqrt.f16(half %x)" },
    { "BFloat16 fx.fma (one rounding)", K_FMA, SC_BFLOAT16, 0, 0, 0,
      "%r = call bfloat @llvm.fma.bf16(bfloat %x, bfloat %y, bfloat %z)" },
    { "Float32 fx.tanh (own polynomial)", K_MATH, SC_FLOAT32, 0, FXM_TANH, 0, NULL },
    { "Float64 fx.exp (ocml)", K_MATH, SC_FLOAT64, 0, FXM_EXP, 0, NULL },
    { "Float64 fx.sin (ocml)", K_MATH, SC_FLOAT64, 0, FXM_SIN, 0, NULL },
    { "Float64 `**` (ocml pow)", K_BIN, SC_FLOAT64, 0, FXB_POW, 0, NULL },
    { "Float32 -> Float16, nearest even (NaN canonical)", K_CAST, SC_FLOAT32, SC_FLOAT16, 0, FF_RNE,
      "%r = fptrunc float %x to half" },
    { "Float16 -> Float32 (NaN canonical)", K_CAST, SC_FLOAT16, SC_FLOAT32, 0, FF_RNE, "%r = fpext half %x to float" },
    { "Float64 -> Float32, nearest even", K_CAST, SC_FLOAT64, SC_FLOAT32, 0, FF_RNE, "%r = fptrunc double %x to float" },
    { "Float64 -> Float16, nearest even (via odd)", K_CAST, SC_FLOAT64, SC_FLOAT16, 0, FF_RNE,
      "%r = fptrunc double %x to half" },
    { "Float64 -> BFloat16, nearest even (via odd)", K_CAST, SC_FLOAT64, SC_BFLOAT16, 0, FF_RNE,
      "%r = fptrunc double %x to bfloat" },
    { "Float32 -> Float16, upward (mode register)", K_CAST, SC_FLOAT32, SC_FLOAT16, 0, FF_UP,
      "%r = call half @llvm.fptrunc.round.f16.f32(float %x, metadata !\"round.upward\")" },
    { "Float32 -> Float16, toward zero (nearest even, corrected)", K_CAST, SC_FLOAT32, SC_FLOAT16, 0, FF_TOWARD_ZERO,
      "%r = fptrunc float %x to half" },
    { "Float32 -> Float16, nearest away (software)", K_CAST, SC_FLOAT32, SC_FLOAT16, 0, FF_NEAREST_AWAY,
      "%r = fptrunc float %x to half" },
    { "Float32 -> BFloat16, downward (software)", K_CAST, SC_FLOAT32, SC_BFLOAT16, 0, FF_DOWN,
      "%r = fptrunc float %x to bfloat" },
    { "Float64 -> Float32, downward (software, 64-bit)", K_CAST, SC_FLOAT64, SC_FLOAT32, 0, FF_DOWN,
      "%r = fptrunc double %x to float" },
    { "Float64 -> Float16, upward (odd, then mode register)", K_CAST, SC_FLOAT64, SC_FLOAT16, 0, FF_UP,
      "%r = fptrunc double %x to half" },
    { "Int64 -> Float16 (one rounding)", K_CAST, SC_INT64, SC_FLOAT16, 0, FF_RNE, "%r = sitofp i64 %x to half" },
    { "Int32 -> BFloat16 (one rounding)", K_CAST, SC_INT32, SC_BFLOAT16, 0, FF_RNE, "%r = sitofp i32 %x to bfloat" },
    { "Float16 -> Int16 (saturating, via Float32)", K_CAST, SC_FLOAT16, SC_INT16, 0, FF_RNE,
      "%r = call i16 @llvm.fptosi.sat.i16.f16(half %x)" },
    { "Float32 -> Int32 (saturating)", K_CAST, SC_FLOAT32, SC_INT32, 0, FF_RNE,
      "%r = fptosi float %x to i32" },
    { "Float64 -> Int128 (saturating; no LLVM lowering)", K_CAST, SC_FLOAT64, SC_INT128, 0, FF_RNE, NULL },
    { "Float32 -> Float8E4M3FN, nearest even", K_CAST, SC_FLOAT32, SC_F8E4M3FN, 0, FF_RNE, NULL },
    { "Float32 -> Float8E5M2, nearest even", K_CAST, SC_FLOAT32, SC_F8E5M2, 0, FF_RNE, NULL },
    { "Float32 -> Float8E4M3FNUZ, toward zero", K_CAST, SC_FLOAT32, SC_F8E4M3FNUZ, 0, FF_TOWARD_ZERO, NULL },
    { "Float16 -> Float8E4M3FN, nearest even", K_CAST, SC_FLOAT16, SC_F8E4M3FN, 0, FF_RNE, NULL },
    { "Float64 -> Float8E4M3FN, nearest even", K_CAST, SC_FLOAT64, SC_F8E4M3FN, 0, FF_RNE, NULL },
    { "Float32 -> Float4E2M1FN, nearest even", K_CAST, SC_FLOAT32, SC_F4E2M1FN, 0, FF_RNE, NULL },
    { "Float32 -> Float6E2M3FN, nearest even", K_CAST, SC_FLOAT32, SC_F6E2M3FN, 0, FF_RNE, NULL },
    { "Float32 -> Float8E8M0FNU, upward (64-bit)", K_CAST, SC_FLOAT32, SC_F8E8M0FNU, 0, FF_UP, NULL },
    { "Int32 -> Float8E4M3FN", K_CAST, SC_INT32, SC_F8E4M3FN, 0, FF_RNE, NULL },
    { "Float8E4M3FN -> Float32", K_CAST, SC_F8E4M3FN, SC_FLOAT32, 0, FF_RNE, NULL },
    { "Float8E5M2 -> Float16", K_CAST, SC_F8E5M2, SC_FLOAT16, 0, FF_RNE, NULL },
    { "Float8E4M3FNUZ -> Float32", K_CAST, SC_F8E4M3FNUZ, SC_FLOAT32, 0, FF_RNE, NULL },
    { "Float4E2M1FN -> Float32", K_CAST, SC_F4E2M1FN, SC_FLOAT32, 0, FF_RNE, NULL },
    { "Float8E8M0FNU -> Float32", K_CAST, SC_F8E8M0FNU, SC_FLOAT32, 0, FF_RNE, NULL },
    { "Float8E4M3FN -> Int32", K_CAST, SC_F8E4M3FN, SC_INT32, 0, FF_RNE, NULL },
};

static const char *llty(ScalarId s)
{
    switch (s) {
    case SC_FLOAT16: return "half";
    case SC_BFLOAT16: return "bfloat";
    case SC_FLOAT32: return "float";
    case SC_FLOAT64: return "double";
    default: break;
    }
    static char buf[8][16];
    static int k;
    int w = type_info(s)->width;
    snprintf(buf[k & 7], 16, "i%d", w < 8 ? 8 : w);
    return buf[k++ & 7];
}

static int align_of(ScalarId s)
{
    int w = type_info(s)->width;
    return w < 8 ? 1 : w > 64 ? 8 : w / 8;
}

/* The kernel with the unguarded operation, shaped like the FXIR one. */
static char *baseline(const Cost *c, int nin)
{
    ScalarId in = c->s, out = c->kind == K_CAST ? c->to : c->s;
    const char *ti = llty(in), *to = llty(out);
    static char ir[4096];
    int n = snprintf(ir, sizeof ir,
        "target triple = \"amdgcn-amd-amdhsa\"\n"
        "declare i32 @llvm.amdgcn.workitem.id.x()\n"
        "define amdgpu_kernel void @k(");
    static const char *names[] = { "a", "b", "c" };
    for (int k = 0; k < nin; k++)
        n += snprintf(ir + n, sizeof ir - (size_t)n, "ptr addrspace(1) noalias readonly %%%s, ", names[k]);
    n += snprintf(ir + n, sizeof ir - (size_t)n,
        "ptr addrspace(1) %%out) #0 {\n"
        "  %%t = call i32 @llvm.amdgcn.workitem.id.x()\n"
        "  %%i = sext i32 %%t to i64\n");
    static const char *vals[] = { "x", "y", "z" };
    for (int k = 0; k < nin; k++)
        n += snprintf(ir + n, sizeof ir - (size_t)n,
            "  %%p%s = getelementptr %s, ptr addrspace(1) %%%s, i64 %%i\n"
            "  %%%s = load %s, ptr addrspace(1) %%p%s, align %d\n",
            names[k], ti, names[k], vals[k], ti, names[k], align_of(in));
    n += snprintf(ir + n, sizeof ir - (size_t)n,
        "  %s\n"
        "  %%po = getelementptr %s, ptr addrspace(1) %%out, i64 %%i\n"
        "  store %s %%r, ptr addrspace(1) %%po, align %d\n"
        "  ret void\n}\n"
        "attributes #0 = { nounwind convergent \"amdgpu-flat-work-group-size\"=\"1,1024\" }\n",
        c->base, to, to, align_of(out));
    return ir;
}

static FxFunc *guarded(Kb *k, const Cost *c)
{
    switch (c->kind) {
    case K_BIN: return fxk_binop_kernel(k, "k", c->s, c->sub);
    case K_CEILDIV: return fxk_binop_kernel(k, "k", c->s, -1);
    case K_CAST: return fxk_round_kernel(k, "k", type_scalar(c->s), type_scalar(c->to), c->rm);
    case K_MATH: return fxk_math_kernel(k, "k", c->s, c->sub);
    case K_MINMAX: return fxk_minmax_kernel(k, "k", c->s, c->sub);
    default: return fxk_fma_kernel(k, "k", c->s);
    }
}

int main(int argc, char **argv)
{
    const char *arch = argc > 1 ? argv[1] : "gfx942";
    cg_install_fatal_handler();
    printf("| operation (%s, -O3) | fxcc | plain LLVM op | extra |\n|---|---:|---:|---:|\n", arch);
    int rc = 0;
    for (size_t i = 0; i < sizeof costs / sizeof costs[0]; i++) {
        const Cost *c = &costs[i];
        Kb k = fxk_begin("cost.fx");
        guarded(&k, c);
        char *as = isa_module_asm(k.m, arch, 3);
        int ng = -1, nb = -1;
        if (as) {
            free(isa_kernel(as, "k", &ng));
            free(as);
        }
        if (c->base) {
            int nin = c->kind == K_CAST || c->kind == K_MATH ? 1 : c->kind == K_FMA ? 3 : 2;
            char *bs = isa_ir_asm(baseline(c, nin), arch, 3);
            if (bs) {
                free(isa_kernel(bs, "k", &nb));
                free(bs);
            }
        }
        if (ng < 0)
            rc = 1;
        if (nb >= 0)
            printf("| %s | %d | %d | %+d |\n", c->what, ng, nb, ng - nb);
        else
            printf("| %s | %d | — | — |\n", c->what, ng);
        fxk_end(&k);
    }
    return rc;
}
