/* target.c - the target descriptions (see target.h for where each fact
 * comes from). */
#include "target/target.h"
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* ---- matrix instructions (../shared/isa/matrix-layouts.json) ---- */

static const TgtMatrixInst matrix_insts[TGT_MI_COUNT] = {
    { TGT_MI_CDNA2_F64_16X16X4, "CDNA2", "v_mfma_f64_16x16x4f64", "cdna2.f64.16x16x4",
      "llvm.amdgcn.mfma.f64.16x16x4f64", TGT_E_F64, TGT_E_F64, TGT_E_F64, 16, 16, 4, 1, 64, 32 },
    { TGT_MI_CDNA2_F32_16X16X4, "CDNA2", "v_mfma_f32_16x16x4f32", "cdna2.f32.16x16x4",
      "llvm.amdgcn.mfma.f32.16x16x4f32", TGT_E_F32, TGT_E_F32, TGT_E_F32, 16, 16, 4, 1, 64, 32 },
    { TGT_MI_CDNA2_I8_16X16X16, "CDNA2", "v_mfma_i32_16x16x16i8", "cdna2.i8.16x16x16",
      "llvm.amdgcn.mfma.i32.16x16x16i8", TGT_E_I8, TGT_E_I8, TGT_E_I32, 16, 16, 16, 1, 64, 32 },
    { TGT_MI_CDNA2_I8_32X32X8, "CDNA2", "v_mfma_i32_32x32x8i8", "cdna2.i8.32x32x8",
      "llvm.amdgcn.mfma.i32.32x32x8i8", TGT_E_I8, TGT_E_I8, TGT_E_I32, 32, 32, 8, 1, 64, 64 },
    { TGT_MI_CDNA3_F64_16X16X4, "CDNA3", "v_mfma_f64_16x16x4_f64", "cdna3.f64.16x16x4",
      "llvm.amdgcn.mfma.f64.16x16x4f64", TGT_E_F64, TGT_E_F64, TGT_E_F64, 16, 16, 4, 1, 64, 32 },
    { TGT_MI_CDNA3_F32_16X16X4, "CDNA3", "v_mfma_f32_16x16x4_f32", "cdna3.f32.16x16x4",
      "llvm.amdgcn.mfma.f32.16x16x4f32", TGT_E_F32, TGT_E_F32, TGT_E_F32, 16, 16, 4, 1, 64, 32 },
    { TGT_MI_CDNA3_I8_16X16X32, "CDNA3", "v_mfma_i32_16x16x32_i8", "cdna3.i8.16x16x32",
      "llvm.amdgcn.mfma.i32.16x16x32.i8", TGT_E_I8, TGT_E_I8, TGT_E_I32, 16, 16, 32, 1, 64, 16 },
    { TGT_MI_CDNA3_I8_32X32X16, "CDNA3", "v_mfma_i32_32x32x16_i8", "cdna3.i8.32x32x16",
      "llvm.amdgcn.mfma.i32.32x32x16.i8", TGT_E_I8, TGT_E_I8, TGT_E_I32, 32, 32, 16, 1, 64, 32 },
    { TGT_MI_RDNA3_I8_16X16X16, "RDNA3", "v_wmma_i32_16x16x16_iu8", "rdna3.i8.16x16x16",
      "llvm.amdgcn.wmma.i32.16x16x16.iu8", TGT_E_I8, TGT_E_I8, TGT_E_I32, 16, 16, 16, 1, 32, 32 },
    { TGT_MI_RDNA4_I8_16X16X16, "RDNA4", "v_wmma_i32_16x16x16_iu8", "rdna4.i8.16x16x16",
      "llvm.amdgcn.wmma.i32.16x16x16.iu8", TGT_E_I8, TGT_E_I8, TGT_E_I32, 16, 16, 16, 1, 32, 8 },
    /* ../shared/isa/matrix-layouts-ml.json: Float16 and BFloat16 products
     * accumulated in Float32. gfx90a's bfloat16 instructions are the "_1k"
     * ones (4 elements per lane); LLVM names gfx94x's the same way. */
    { TGT_MI_CDNA2_F16_16X16X16, "CDNA2", "v_mfma_f32_16x16x16f16", "cdna2.f16.16x16x16",
      "llvm.amdgcn.mfma.f32.16x16x16f16", TGT_E_F16, TGT_E_F16, TGT_E_F32, 16, 16, 16, 1, 64, 32 },
    { TGT_MI_CDNA2_F16_32X32X8, "CDNA2", "v_mfma_f32_32x32x8f16", "cdna2.f16.32x32x8",
      "llvm.amdgcn.mfma.f32.32x32x8f16", TGT_E_F16, TGT_E_F16, TGT_E_F32, 32, 32, 8, 1, 64, 64 },
    { TGT_MI_CDNA2_BF16_16X16X16, "CDNA2", "v_mfma_f32_16x16x16bf16_1k", "cdna2.bf16.16x16x16",
      "llvm.amdgcn.mfma.f32.16x16x16bf16.1k", TGT_E_BF16, TGT_E_BF16, TGT_E_F32, 16, 16, 16, 1, 64, 32 },
    { TGT_MI_CDNA2_BF16_32X32X8, "CDNA2", "v_mfma_f32_32x32x8bf16_1k", "cdna2.bf16.32x32x8",
      "llvm.amdgcn.mfma.f32.32x32x8bf16.1k", TGT_E_BF16, TGT_E_BF16, TGT_E_F32, 32, 32, 8, 1, 64, 64 },
    { TGT_MI_CDNA3_F16_16X16X16, "CDNA3", "v_mfma_f32_16x16x16_f16", "cdna3.f16.16x16x16",
      "llvm.amdgcn.mfma.f32.16x16x16f16", TGT_E_F16, TGT_E_F16, TGT_E_F32, 16, 16, 16, 1, 64, 16 },
    { TGT_MI_CDNA3_F16_32X32X8, "CDNA3", "v_mfma_f32_32x32x8_f16", "cdna3.f16.32x32x8",
      "llvm.amdgcn.mfma.f32.32x32x8f16", TGT_E_F16, TGT_E_F16, TGT_E_F32, 32, 32, 8, 1, 64, 32 },
    { TGT_MI_CDNA3_BF16_16X16X16, "CDNA3", "v_mfma_f32_16x16x16_bf16", "cdna3.bf16.16x16x16",
      "llvm.amdgcn.mfma.f32.16x16x16bf16.1k", TGT_E_BF16, TGT_E_BF16, TGT_E_F32, 16, 16, 16, 1, 64, 16 },
    { TGT_MI_CDNA3_BF16_32X32X8, "CDNA3", "v_mfma_f32_32x32x8_bf16", "cdna3.bf16.32x32x8",
      "llvm.amdgcn.mfma.f32.32x32x8bf16.1k", TGT_E_BF16, TGT_E_BF16, TGT_E_F32, 32, 32, 8, 1, 64, 32 },
    { TGT_MI_RDNA3_F16_16X16X16, "RDNA3", "v_wmma_f32_16x16x16_f16", "rdna3.f16.16x16x16",
      "llvm.amdgcn.wmma.f32.16x16x16.f16", TGT_E_F16, TGT_E_F16, TGT_E_F32, 16, 16, 16, 1, 32, 32 },
    { TGT_MI_RDNA3_BF16_16X16X16, "RDNA3", "v_wmma_f32_16x16x16_bf16", "rdna3.bf16.16x16x16",
      "llvm.amdgcn.wmma.f32.16x16x16.bf16", TGT_E_BF16, TGT_E_BF16, TGT_E_F32, 16, 16, 16, 1, 32, 32 },
    { TGT_MI_RDNA4_F16_16X16X16, "RDNA4", "v_wmma_f32_16x16x16_f16", "rdna4.f16.16x16x16",
      "llvm.amdgcn.wmma.f32.16x16x16.f16", TGT_E_F16, TGT_E_F16, TGT_E_F32, 16, 16, 16, 1, 32, 16 },
    { TGT_MI_RDNA4_BF16_16X16X16, "RDNA4", "v_wmma_f32_16x16x16_bf16", "rdna4.bf16.16x16x16",
      "llvm.amdgcn.wmma.f32.16x16x16.bf16", TGT_E_BF16, TGT_E_BF16, TGT_E_F32, 16, 16, 16, 1, 32, 16 },
    /* 8-bit floats into Float32: on CDNA3 fp8 is Float8E4M3FNUZ and bf8
     * Float8E5M2FNUZ, on RDNA4 the OCP Float8E4M3FN and Float8E5M2 */
    { TGT_MI_CDNA3_FP8_16X16X32, "CDNA3", "v_mfma_f32_16x16x32_fp8_fp8", "cdna3.fp8.16x16x32",
      "llvm.amdgcn.mfma.f32.16x16x32.fp8.fp8", TGT_E_F8E4M3FNUZ, TGT_E_F8E4M3FNUZ, TGT_E_F32, 16, 16, 32, 1, 64, 16 },
    { TGT_MI_CDNA3_BF8_16X16X32, "CDNA3", "v_mfma_f32_16x16x32_bf8_bf8", "cdna3.bf8.16x16x32",
      "llvm.amdgcn.mfma.f32.16x16x32.bf8.bf8", TGT_E_F8E5M2FNUZ, TGT_E_F8E5M2FNUZ, TGT_E_F32, 16, 16, 32, 1, 64, 16 },
    { TGT_MI_CDNA3_FP8_32X32X16, "CDNA3", "v_mfma_f32_32x32x16_fp8_fp8", "cdna3.fp8.32x32x16",
      "llvm.amdgcn.mfma.f32.32x32x16.fp8.fp8", TGT_E_F8E4M3FNUZ, TGT_E_F8E4M3FNUZ, TGT_E_F32, 32, 32, 16, 1, 64, 32 },
    { TGT_MI_RDNA4_FP8_16X16X16, "RDNA4", "v_wmma_f32_16x16x16_fp8_fp8", "rdna4.fp8.16x16x16",
      "llvm.amdgcn.wmma.f32.16x16x16.fp8.fp8", TGT_E_F8E4M3FN, TGT_E_F8E4M3FN, TGT_E_F32, 16, 16, 16, 1, 32, 8 },
    { TGT_MI_RDNA4_BF8_16X16X16, "RDNA4", "v_wmma_f32_16x16x16_bf8_bf8", "rdna4.bf8.16x16x16",
      "llvm.amdgcn.wmma.f32.16x16x16.bf8.bf8", TGT_E_F8E5M2, TGT_E_F8E5M2, TGT_E_F32, 16, 16, 16, 1, 32, 8 },
    /* Int4 into Int32 (signed, wrapping), packed nibbles */
    { TGT_MI_RDNA3_I4_16X16X16, "RDNA3", "v_wmma_i32_16x16x16_iu4", "rdna3.i4.16x16x16",
      "llvm.amdgcn.wmma.i32.16x16x16.iu4", TGT_E_I4, TGT_E_I4, TGT_E_I32, 16, 16, 16, 1, 32, 16 },
    { TGT_MI_RDNA4_I4_16X16X16, "RDNA4", "v_wmma_i32_16x16x16_iu4", "rdna4.i4.16x16x16",
      "llvm.amdgcn.wmma.i32.16x16x16.iu4", TGT_E_I4, TGT_E_I4, TGT_E_I32, 16, 16, 16, 1, 32, 8 },
    /* xf32 into Float32: --contraction-precision=xf32 only (it changes results) */
    { TGT_MI_CDNA3_XF32_16X16X8, "CDNA3", "v_mfma_f32_16x16x8_xf32", "cdna3.xf32.16x16x8",
      "llvm.amdgcn.mfma.f32.16x16x8.xf32", TGT_E_XF32, TGT_E_XF32, TGT_E_F32, 16, 16, 8, 1, 64, 16 },
    /* 8-bit floats of two formats: A's first, B's second in the name */
    { TGT_MI_CDNA3_FP8BF8_16X16X32, "CDNA3", "v_mfma_f32_16x16x32_fp8_bf8", "cdna3.fp8bf8.16x16x32",
      "llvm.amdgcn.mfma.f32.16x16x32.fp8.bf8", TGT_E_F8E4M3FNUZ, TGT_E_F8E5M2FNUZ, TGT_E_F32, 16, 16, 32, 1, 64, 16 },
    { TGT_MI_CDNA3_BF8FP8_16X16X32, "CDNA3", "v_mfma_f32_16x16x32_bf8_fp8", "cdna3.bf8fp8.16x16x32",
      "llvm.amdgcn.mfma.f32.16x16x32.bf8.fp8", TGT_E_F8E5M2FNUZ, TGT_E_F8E4M3FNUZ, TGT_E_F32, 16, 16, 32, 1, 64, 16 },
    { TGT_MI_RDNA4_FP8BF8_16X16X16, "RDNA4", "v_wmma_f32_16x16x16_fp8_bf8", "rdna4.fp8bf8.16x16x16",
      "llvm.amdgcn.wmma.f32.16x16x16.fp8.bf8", TGT_E_F8E4M3FN, TGT_E_F8E5M2, TGT_E_F32, 16, 16, 16, 1, 32, 8 },
    { TGT_MI_RDNA4_BF8FP8_16X16X16, "RDNA4", "v_wmma_f32_16x16x16_bf8_fp8", "rdna4.bf8fp8.16x16x16",
      "llvm.amdgcn.wmma.f32.16x16x16.bf8.fp8", TGT_E_F8E5M2, TGT_E_F8E4M3FN, TGT_E_F32, 16, 16, 16, 1, 32, 8 },
};

static const TgtMatrixId mi_none[] = { TGT_MI_COUNT };
static const TgtMatrixId mi_cdna2[] = { TGT_MI_CDNA2_F64_16X16X4, TGT_MI_CDNA2_F32_16X16X4,
                                        TGT_MI_CDNA2_I8_16X16X16, TGT_MI_CDNA2_I8_32X32X8,
                                        TGT_MI_CDNA2_F16_16X16X16, TGT_MI_CDNA2_F16_32X32X8,
                                        TGT_MI_CDNA2_BF16_16X16X16, TGT_MI_CDNA2_BF16_32X32X8, TGT_MI_COUNT };
static const TgtMatrixId mi_cdna3[] = { TGT_MI_CDNA3_F64_16X16X4, TGT_MI_CDNA3_F32_16X16X4,
                                        TGT_MI_CDNA3_I8_16X16X32, TGT_MI_CDNA3_I8_32X32X16,
                                        TGT_MI_CDNA3_F16_16X16X16, TGT_MI_CDNA3_F16_32X32X8,
                                        TGT_MI_CDNA3_BF16_16X16X16, TGT_MI_CDNA3_BF16_32X32X8,
                                        TGT_MI_CDNA3_FP8_16X16X32, TGT_MI_CDNA3_BF8_16X16X32,
                                        TGT_MI_CDNA3_FP8_32X32X16, TGT_MI_CDNA3_XF32_16X16X8,
                                        TGT_MI_CDNA3_FP8BF8_16X16X32, TGT_MI_CDNA3_BF8FP8_16X16X32, TGT_MI_COUNT };
static const TgtMatrixId mi_rdna3[] = { TGT_MI_RDNA3_I8_16X16X16, TGT_MI_RDNA3_F16_16X16X16,
                                        TGT_MI_RDNA3_BF16_16X16X16, TGT_MI_RDNA3_I4_16X16X16, TGT_MI_COUNT };
static const TgtMatrixId mi_rdna4[] = { TGT_MI_RDNA4_I8_16X16X16, TGT_MI_RDNA4_F16_16X16X16,
                                        TGT_MI_RDNA4_BF16_16X16X16, TGT_MI_RDNA4_FP8_16X16X16,
                                        TGT_MI_RDNA4_BF8_16X16X16, TGT_MI_RDNA4_I4_16X16X16,
                                        TGT_MI_RDNA4_FP8BF8_16X16X16, TGT_MI_RDNA4_BF8FP8_16X16X16, TGT_MI_COUNT };

/* ---- backend profiles ---- */

static const TgtCodegenFacts amdgpu_facts = {
    .global_as = 1, .lds_as = 3, .private_as = 5, .constant_as = 4,
    .syncscopes = true,
    .fptrunc_round_f16 = true,
    .native_fma_f16 = true,
    .exact_f16_div_sqrt = false,
    .exact_frem = false,
    .max_fp_int_bits = 64,
    .libm = false,
    .maximum_snan_bug = false,
    .lane_permute = true,
};

/* GCN 1 and 2 (gfx600-gfx705) have no 16-bit float instructions: LLVM
 * widens Float16 arithmetic to Float32, cannot select the f32 -> f16
 * conversion under a rounding mode (llvm.fptrunc.round), and an f16 fma
 * widened to an f32 fma rounds twice. fxcc uses the software conversion and
 * the exact fma it uses on the host there. Nor do they have ds_bpermute_b32
 * (the shuffles; docs/waves.md). */
static const TgtCodegenFacts gcn12_facts = {
    .global_as = 1, .lds_as = 3, .private_as = 5, .constant_as = 4,
    .syncscopes = true,
    .fptrunc_round_f16 = false,
    .native_fma_f16 = false,
    .exact_f16_div_sqrt = false,
    .exact_frem = false,
    .max_fp_int_bits = 64,
    .libm = false,
    .maximum_snan_bug = false,
    .lane_permute = false,
};

static const TgtCodegenFacts host_facts = {
    .global_as = 0, .lds_as = 0, .private_as = 0, .constant_as = 0,
    .syncscopes = false,
    .fptrunc_round_f16 = false,
    .native_fma_f16 = false,
    .exact_f16_div_sqrt = true,
    .exact_frem = true,
    .max_fp_int_bits = 128,
    .libm = true,
    .maximum_snan_bug = true,
    .lane_permute = true,
};

/* ---- the processors ---- */

/* the last column: the target-id features the processor takes (LLVM 19
 * marks exactly these as supported in the code object's flags) */
#define GPU(n, fam, wave, lds, cov, isa, dot, mi, idf) \
    { n, TGT_AMDGPU, fam, wave, lds, cov, isa, dot, mi, &amdgpu_facts, idf }
#define GPU_GCN12(n, fam, wave, lds, cov, isa, dot, mi, idf) \
    { n, TGT_AMDGPU, fam, wave, lds, cov, isa, dot, mi, &gcn12_facts, idf }
#define XN TGT_ID_XNACK
#define XS (TGT_ID_XNACK | TGT_ID_SRAMECC)
#define S4 TGT_DOT_SDOT4
#define SU4 (TGT_DOT_SDOT4 | TGT_DOT_SUDOT4)

static const TgtTarget gpus[] = {
    GPU_GCN12("gfx600", "GCN1", 64, 32768, 500, 6000, 0, mi_none, 0),
    GPU_GCN12("gfx601", "GCN1", 64, 32768, 500, 6001, 0, mi_none, 0),
    GPU_GCN12("gfx602", "GCN1", 64, 32768, 500, 6002, 0, mi_none, 0),
    GPU_GCN12("gfx700", "GCN2", 64, 65536, 500, 7000, 0, mi_none, 0),
    GPU_GCN12("gfx701", "GCN2", 64, 65536, 500, 7001, 0, mi_none, 0),
    GPU_GCN12("gfx702", "GCN2", 64, 65536, 500, 7002, 0, mi_none, 0),
    GPU_GCN12("gfx703", "GCN2", 64, 65536, 500, 7003, 0, mi_none, 0),
    GPU_GCN12("gfx704", "GCN2", 64, 65536, 500, 7004, 0, mi_none, 0),
    GPU_GCN12("gfx705", "GCN2", 64, 65536, 500, 7005, 0, mi_none, 0),
    GPU("gfx801", "GCN3", 64, 65536, 500, 8001, 0, mi_none, XN),
    GPU("gfx802", "GCN3", 64, 65536, 500, 8002, 0, mi_none, 0),
    GPU("gfx803", "GCN4", 64, 65536, 500, 8003, 0, mi_none, 0),
    GPU("gfx805", "GCN4", 64, 65536, 500, 8005, 0, mi_none, 0),
    GPU("gfx810", "GCN3", 64, 65536, 500, 8100, 0, mi_none, XN),
    GPU("gfx9-generic", "GCN5", 64, 65536, 600, 9000, 0, mi_none, XN),
    GPU("gfx900", "GCN5", 64, 65536, 500, 9000, 0, mi_none, XN),
    GPU("gfx902", "GCN5", 64, 65536, 500, 9002, 0, mi_none, XN),
    GPU("gfx904", "GCN5", 64, 65536, 500, 9004, 0, mi_none, XN),
    GPU("gfx906", "GCN5", 64, 65536, 500, 9006, S4, mi_none, XS),
    /* gfx908 (CDNA1) has MFMA, but the vendor tables this project tests
     * against do not cover it: no matrix instructions are used there. */
    GPU("gfx908", "CDNA1", 64, 65536, 500, 9008, S4, mi_none, XS),
    GPU("gfx909", "GCN5", 64, 65536, 500, 9009, 0, mi_none, XN),
    GPU("gfx90a", "CDNA2", 64, 65536, 500, 9010, S4, mi_cdna2, XS),
    GPU("gfx90c", "GCN5", 64, 65536, 500, 9012, 0, mi_none, XN),
    GPU("gfx940", "CDNA3", 64, 65536, 500, 9400, S4, mi_cdna3, XS),
    GPU("gfx941", "CDNA3", 64, 65536, 500, 9401, S4, mi_cdna3, XS),
    GPU("gfx942", "CDNA3", 64, 65536, 500, 9402, S4, mi_cdna3, XS),
    GPU("gfx10-1-generic", "RDNA1", 32, 65536, 600, 10100, 0, mi_none, XN),
    GPU("gfx1010", "RDNA1", 32, 65536, 500, 10100, 0, mi_none, XN),
    GPU("gfx1011", "RDNA1", 32, 65536, 500, 10101, S4, mi_none, XN),
    GPU("gfx1012", "RDNA1", 32, 65536, 500, 10102, S4, mi_none, XN),
    GPU("gfx1013", "RDNA1", 32, 65536, 500, 10103, 0, mi_none, XN),
    GPU("gfx10-3-generic", "RDNA2", 32, 65536, 600, 10300, 0, mi_none, 0),
    GPU("gfx1030", "RDNA2", 32, 65536, 500, 10300, S4, mi_none, 0),
    GPU("gfx1031", "RDNA2", 32, 65536, 500, 10301, S4, mi_none, 0),
    GPU("gfx1032", "RDNA2", 32, 65536, 500, 10302, S4, mi_none, 0),
    GPU("gfx1033", "RDNA2", 32, 65536, 500, 10303, S4, mi_none, 0),
    GPU("gfx1034", "RDNA2", 32, 65536, 500, 10304, S4, mi_none, 0),
    GPU("gfx1035", "RDNA2", 32, 65536, 500, 10305, S4, mi_none, 0),
    GPU("gfx1036", "RDNA2", 32, 65536, 500, 10306, S4, mi_none, 0),
    /* The vendor tables list WMMA for gfx1100-1102 and gfx1200-1201 only. */
    GPU("gfx11-generic", "RDNA3", 32, 65536, 600, 11000, 0, mi_none, 0),
    GPU("gfx1100", "RDNA3", 32, 65536, 500, 11000, SU4, mi_rdna3, 0),
    GPU("gfx1101", "RDNA3", 32, 65536, 500, 11001, SU4, mi_rdna3, 0),
    GPU("gfx1102", "RDNA3", 32, 65536, 500, 11002, SU4, mi_rdna3, 0),
    GPU("gfx1103", "RDNA3", 32, 65536, 500, 11003, SU4, mi_none, 0),
    GPU("gfx1150", "RDNA3.5", 32, 65536, 500, 11500, SU4, mi_none, 0),
    GPU("gfx1151", "RDNA3.5", 32, 65536, 500, 11501, SU4, mi_none, 0),
    GPU("gfx1152", "RDNA3.5", 32, 65536, 500, 11502, SU4, mi_none, 0),
    GPU("gfx12-generic", "RDNA4", 32, 65536, 600, 12000, 0, mi_none, 0),
    GPU("gfx1200", "RDNA4", 32, 65536, 500, 12000, SU4, mi_rdna4, 0),
    GPU("gfx1201", "RDNA4", 32, 65536, 500, 12001, SU4, mi_rdna4, 0),
};
enum { NUM_GPUS = sizeof gpus / sizeof gpus[0] };

static const TgtTarget host = { "host", TGT_HOST, "host", 1, 65536, 0, 0, 0, mi_none, &host_facts, 0 };

const TgtTarget *tgt_lookup(const char *name)
{
    if (!name)
        return NULL;
    if (strcmp(name, "host") == 0)
        return &host;
    for (int i = 0; i < NUM_GPUS; i++)
        if (strcmp(gpus[i].name, name) == 0)
            return &gpus[i];
    return NULL;
}

/* ---- target ids: gfx90a:sramecc-:xnack+ ---- */

static const struct { const char *name; unsigned bit; } id_features[] = {
    { "sramecc", TGT_ID_SRAMECC },   /* alphabetical: the canonical order */
    { "xnack", TGT_ID_XNACK },
};
enum { NUM_ID_FEATURES = sizeof id_features / sizeof id_features[0] };

/* One ":feature+" or ":feature-" of a target id into id; false with *why. */
static bool parse_id_feature(const char *f, size_t n, TgtTargetId *id, const char **why)
{
    for (int k = 0; k < NUM_ID_FEATURES; k++) {
        size_t fn = strlen(id_features[k].name);
        if (n != fn + 1 || strncmp(f, id_features[k].name, fn) != 0 || (f[fn] != '+' && f[fn] != '-'))
            continue;
        if (!(id->proc->id_features & id_features[k].bit)) {
            *why = id_features[k].bit == TGT_ID_XNACK ? "the processor has no xnack setting"
                                                        : "the processor has no sramecc setting";
            return false;
        }
        if (id->on & id_features[k].bit || id->off & id_features[k].bit) {
            *why = "a feature is given twice";
            return false;
        }
        *(f[fn] == '+' ? &id->on : &id->off) |= id_features[k].bit;
        return true;
    }
    *why = "the features are xnack+, xnack-, sramecc+ and sramecc-";
    return false;
}

bool tgt_parse_target_id(const char *s, TgtTargetId *id, const char **why)
{
    memset(id, 0, sizeof *id);
    size_t n = strcspn(s, ":");
    char name[64];
    if (n >= sizeof name) {
        *why = "no such processor";
        return false;
    }
    memcpy(name, s, n);
    name[n] = 0;
    id->proc = tgt_lookup(name);
    if (!id->proc || id->proc->kind != TGT_AMDGPU) {
        *why = "no such processor";
        return false;
    }
    for (const char *f = s + n; *f == ':';) {
        size_t fn = strcspn(f + 1, ":");
        if (!parse_id_feature(f + 1, fn, id, why))
            return false;
        f += 1 + fn;
    }
    int len = snprintf(id->canonical, sizeof id->canonical, "%s", id->proc->name);
    for (int k = 0; k < NUM_ID_FEATURES; k++)
        if ((id->on | id->off) & id_features[k].bit)
            len += snprintf(id->canonical + len, sizeof id->canonical - (size_t)len, ":%s%c", id_features[k].name,
                            id->on & id_features[k].bit ? '+' : '-');
    return true;
}

void tgt_llvm_features(const TgtTargetId *id, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int k = 0; k < NUM_ID_FEATURES && len < n; k++)
        if ((id->on | id->off) & id_features[k].bit)
            len += (size_t)snprintf(buf + len, n - len, "%s%c%s", len ? "," : "",
                                    id->on & id_features[k].bit ? '+' : '-', id_features[k].name);
}

const TgtTarget *tgt_host(void) { return &host; }
const TgtTarget *tgt_default(void) { return tgt_lookup("gfx942"); }
int tgt_count(void) { return NUM_GPUS; }
const TgtTarget *tgt_at(int i) { return i >= 0 && i < NUM_GPUS ? &gpus[i] : NULL; }

const char *tgt_known_names(void)
{
    static char buf[1024];
    if (!buf[0]) {
        size_t n = 0;
        for (int i = 0; i < NUM_GPUS && n < sizeof buf; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", gpus[i].name);
    }
    return buf;
}

const TgtMatrixInst *tgt_matrix_inst(TgtMatrixId id)
{
    return (int)id >= 0 && id < TGT_MI_COUNT ? &matrix_insts[id] : NULL;
}

const TgtMatrixLayout *tgt_matrix_layout(TgtMatrixId id)
{
    return (int)id >= 0 && id < TGT_MI_COUNT ? &tgt_matrix_layouts[id] : NULL;
}

int tgt_lane_bits(int wave_size)
{
    int bits = 0;
    while ((1 << bits) < wave_size)
        bits++;
    return bits;
}

int tgt_layout_position(const TgtOperandLayout *l, int wave_size, int lane, int e)
{
    int src = e << tgt_lane_bits(wave_size) | lane, pos = 0;
    for (int b = 0; b < l->nbits; b++)
        if (l->bit_src[b] >= 0)
            pos |= (src >> l->bit_src[b] & 1) << b;
    return pos;
}

bool tgt_unified_agprs(const TgtTarget *t)
{
    return t->kind == TGT_AMDGPU && (strcmp(t->family, "CDNA2") == 0 || strcmp(t->family, "CDNA3") == 0);
}

bool tgt_has_lane_permute(const TgtTarget *t)
{
    return t->cg->lane_permute;
}

bool tgt_has_matrix(const TgtTarget *t, TgtMatrixId id)
{
    for (const TgtMatrixId *m = t->matrix; *m != TGT_MI_COUNT; m++)
        if (*m == id)
            return true;
    return false;
}

const TgtMatrixInst *tgt_find_matrix_ab(const TgtTarget *t, TgtElem in, TgtElem in_b, TgtElem acc, int m, int n)
{
    const TgtMatrixInst *best = NULL;
    for (const TgtMatrixId *id = t->matrix; *id != TGT_MI_COUNT; id++) {
        const TgtMatrixInst *mi = &matrix_insts[*id];
        if (mi->in == in && mi->in_b == in_b && mi->acc == acc && mi->m == m && mi->n == n &&
            (!best || mi->k > best->k))
            best = mi;
    }
    return best;
}

const TgtMatrixInst *tgt_find_matrix(const TgtTarget *t, TgtElem in, TgtElem acc, int m, int n)
{
    return tgt_find_matrix_ab(t, in, in, acc, m, n);
}

TgtMatrixId tgt_matrix_by_name(const char *name)
{
    for (int i = 0; i < TGT_MI_COUNT; i++)
        if (strcmp(matrix_insts[i].name, name) == 0)
            return (TgtMatrixId)i;
    return TGT_MI_COUNT;
}

const char *tgt_matrix_targets(TgtMatrixId id)
{
    static char buf[TGT_MI_COUNT][256];
    char *b = buf[id];
    if (!b[0]) {
        size_t n = 0;
        for (int i = 0; i < NUM_GPUS && n < sizeof buf[id]; i++)
            if (tgt_has_matrix(&gpus[i], id))
                n += (size_t)snprintf(b + n, sizeof buf[id] - n, "%s%s", n ? ", " : "", gpus[i].name);
    }
    return b;
}

/* ---- float atomics ---- */

bool tgt_hw_float_atomics(const TgtTarget *t)
{
    static const char *const with[] = { "gfx90a", "gfx940", "gfx941", "gfx942", "gfx1100", "gfx1101", "gfx1102",
                                        "gfx1103", "gfx1150", "gfx1151", "gfx1152", "gfx1200", "gfx1201" };
    for (size_t k = 0; t && k < sizeof with / sizeof with[0]; k++)
        if (strcmp(t->name, with[k]) == 0)
            return true;
    return false;
}
