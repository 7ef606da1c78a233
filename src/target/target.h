/* target.h - one description per target, as data: the host CPU and every
 * AMDGPU processor LLVM 19 knows. Codegen, program lowering, sema
 * (fx.wave_size) and the drivers ask this module; no other file of src/
 * names an architecture.
 *
 * Every fact here was measured on LLVM 19 (llc-19) or read from AMD's own
 * tables (../shared/isa/matrix-layouts.json), never guessed:
 *  - lds_bytes: the largest LDS allocation llc accepts for a kernel
 *    (32 KiB on gfx6, 64 KiB on everything else LLVM 19 knows);
 *  - dot: the processors on which llvm.amdgcn.sdot4/sudot4 select;
 *  - matrix: exactly the instructions of the vendor tables, per processor. */
#ifndef FX_TARGET_H
#define FX_TARGET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { TGT_HOST, TGT_AMDGPU } TgtKind;

/* Element types of matrix instructions (the target layer sits below the
 * type tower, so it names them itself). */
typedef enum {
    TGT_E_F64, TGT_E_F32, TGT_E_I8, TGT_E_I32, TGT_E_F16, TGT_E_BF16,
    /* 8-bit floats: CDNA3's fp8/bf8 are the FNUZ formats, RDNA4's the OCP ones */
    TGT_E_F8E4M3FNUZ, TGT_E_F8E5M2FNUZ, TGT_E_F8E4M3FN, TGT_E_F8E5M2,
    TGT_E_I4,
    /* CDNA3's xf32: Float32 registers read with the low 13 significand bits
     * dropped (docs/waves.md) */
    TGT_E_XF32
} TgtElem;

/* The matrix instructions of ../shared/isa/matrix-layouts.json and those of
 * matrix-layouts-ml.json fxcc compiles in, one per (instruction,
 * architecture family): the register layout belongs to the pair, so two
 * families never share an id. */
typedef enum {
    TGT_MI_CDNA2_F64_16X16X4, TGT_MI_CDNA2_F32_16X16X4, TGT_MI_CDNA2_I8_16X16X16, TGT_MI_CDNA2_I8_32X32X8,
    TGT_MI_CDNA3_F64_16X16X4, TGT_MI_CDNA3_F32_16X16X4, TGT_MI_CDNA3_I8_16X16X32, TGT_MI_CDNA3_I8_32X32X16,
    TGT_MI_RDNA3_I8_16X16X16, TGT_MI_RDNA4_I8_16X16X16,
    TGT_MI_CDNA2_F16_16X16X16, TGT_MI_CDNA2_F16_32X32X8, TGT_MI_CDNA2_BF16_16X16X16, TGT_MI_CDNA2_BF16_32X32X8,
    TGT_MI_CDNA3_F16_16X16X16, TGT_MI_CDNA3_F16_32X32X8, TGT_MI_CDNA3_BF16_16X16X16, TGT_MI_CDNA3_BF16_32X32X8,
    TGT_MI_RDNA3_F16_16X16X16, TGT_MI_RDNA3_BF16_16X16X16, TGT_MI_RDNA4_F16_16X16X16, TGT_MI_RDNA4_BF16_16X16X16,
    TGT_MI_CDNA3_FP8_16X16X32, TGT_MI_CDNA3_BF8_16X16X32, TGT_MI_CDNA3_FP8_32X32X16,
    TGT_MI_RDNA4_FP8_16X16X16, TGT_MI_RDNA4_BF8_16X16X16,
    TGT_MI_RDNA3_I4_16X16X16, TGT_MI_RDNA4_I4_16X16X16,
    TGT_MI_CDNA3_XF32_16X16X8,
    /* one 8-bit format by the other */
    TGT_MI_CDNA3_FP8BF8_16X16X32, TGT_MI_CDNA3_BF8FP8_16X16X32,
    TGT_MI_RDNA4_FP8BF8_16X16X16, TGT_MI_RDNA4_BF8FP8_16X16X16,
    TGT_MI_COUNT
} TgtMatrixId;

typedef struct TgtMatrixInst {
    TgtMatrixId id;
    const char *family;       /* "CDNA3" */
    const char *mnemonic;     /* "v_mfma_f64_16x16x4_f64", as the ISA prints it */
    const char *name;         /* short name in FXIR text: "cdna3.f64.16x16x4" */
    const char *intrinsic;    /* "llvm.amdgcn.mfma.f64.16x16x4f64" */
    TgtElem in, in_b, acc;    /* A's elements, B's (the same but for fp8 x bf8), C's and D's */
    int m, n, k, blocks;
    int wave_size;
    int cycles;               /* issue-to-issue cycles from the vendor's detail text */
} TgtMatrixInst;

/* Where each lane holds each element of an operand (generated from the
 * vendor tables: src/target/matrix_layouts.c). A is rows=M x cols=K, B is
 * K x N, D (and C) is M x N; a position is block*rows*cols + row*cols + col. */
typedef struct TgtOperandLayout {
    int rows, cols;
    int per_lane;             /* elements of the intrinsic's vector operand per lane */
    int elem_bits;
    const uint16_t *index;    /* [lane * per_lane + e]: the position held there */
    int nbits;                /* bits of a position */
    signed char bit_src[16];  /* bit b of the position is bit bit_src[b] of (e << lane_bits | lane); -1: 0 */
} TgtOperandLayout;

typedef struct TgtMatrixLayout {
    const TgtOperandLayout *a, *b, *d;
} TgtMatrixLayout;

extern const TgtMatrixLayout tgt_matrix_layouts[TGT_MI_COUNT];
const TgtMatrixLayout *tgt_matrix_layout(TgtMatrixId id);
/* The position operand element e of lane `lane` holds, from the bit formula
 * (program lowering builds the same formula as index arithmetic). */
int tgt_layout_position(const TgtOperandLayout *l, int wave_size, int lane, int e);
/* The bits of a lane number in waves of wave_size lanes (a power of two):
 * log2 of it, 0 for the host's waves of one. */
int tgt_lane_bits(int wave_size);

/* Dot-product instructions (bit set). */
enum { TGT_DOT_SDOT4 = 1 << 0, TGT_DOT_SUDOT4 = 1 << 1 };

/* What LLVM 19's backend for a kind of target computes exactly, and what the
 * code generator therefore must build itself. One profile per backend. */
typedef struct TgtCodegenFacts {
    unsigned global_as, lds_as, private_as, constant_as;   /* address spaces (all 0 on the host) */
    bool syncscopes;          /* "workgroup"/"agent" atomic scopes exist */
    bool fptrunc_round_f16;   /* llvm.fptrunc.round f32->f16 upward/downward selects */
    bool native_fma_f16;      /* llvm.fma.f16 is one rounding (x86 has no f16 fma) */
    bool exact_f16_div_sqrt;  /* native f16 fdiv/sqrt correctly rounded */
    bool exact_frem;          /* frem is an exact fmod (AMDGPU's is not) */
    int max_fp_int_bits;      /* widest integer llvm.fpto[su]i.sat lowers for */
    bool libm;                /* the C library's math functions can be called */
    bool maximum_snan_bug;    /* llvm.maximum/minimum(x, sNaN) may return x (x86) */
    bool lane_permute;        /* ds_bpermute_b32 (tgt_has_lane_permute) */
} TgtCodegenFacts;

typedef struct TgtTarget {
    const char *name;         /* "gfx942", "host" */
    TgtKind kind;
    const char *family;       /* "CDNA3", "RDNA3", "GCN5", "host" */
    int wave_size;            /* 64 (GCN, CDNA), 32 (RDNA); 1 on the host */
    int lds_bytes;            /* shared memory a workgroup may allocate */
    int code_object_version;  /* 500; 600 for the generic processors */
    /* the processor's number in AMD's device library (ocml's
     * __oclc_ISA_version): major * 1000 + minor * 100 + stepping, gfx90a
     * 9010; a generic target takes its oldest member's; 0 on the host */
    int devlib_isa_version;
    unsigned dot;             /* TGT_DOT_* */
    const TgtMatrixId *matrix;/* matrix instructions, ended by TGT_MI_COUNT */
    const TgtCodegenFacts *cg;
    unsigned id_features;     /* TGT_ID_*: the target-id settings it takes */
} TgtTarget;

/* Target-id features (clang's gfx90a:sramecc-:xnack+): on, off, or
 * unsaid (any: the code runs either way). */
enum { TGT_ID_XNACK = 1, TGT_ID_SRAMECC = 2 };

typedef struct TgtTargetId {
    const TgtTarget *proc;
    unsigned on, off;         /* TGT_ID_* said + and said - */
    char canonical[96];       /* processor, then the features said, alphabetically */
} TgtTargetId;

/* Parses a target id as clang spells it ("gfx942", "gfx942:xnack+",
 * "gfx90a:xnack-:sramecc+"); false with *why (a static message). */
bool tgt_parse_target_id(const char *s, TgtTargetId *id, const char **why);
/* The LLVM target-machine features of the id's settings ("+xnack,-sramecc"). */
void tgt_llvm_features(const TgtTargetId *id, char *buf, size_t n);

/* The processor `name` ("gfx942"), or NULL. */
const TgtTarget *tgt_lookup(const char *name);
const TgtTarget *tgt_host(void);
const TgtTarget *tgt_default(void);         /* the default --offload-arch: gfx942 */
/* "gfx600, gfx601, ..., gfx1201": every AMDGPU processor, for messages. */
const char *tgt_known_names(void);
int tgt_count(void);                        /* AMDGPU processors */
const TgtTarget *tgt_at(int i);

const TgtMatrixInst *tgt_matrix_inst(TgtMatrixId id);
/* The target's matrix instruction with these element types (A's in, B's
 * in_b) and M, N (any K; the largest K wins); NULL when it has none. */
const TgtMatrixInst *tgt_find_matrix_ab(const TgtTarget *t, TgtElem in, TgtElem in_b, TgtElem acc, int m, int n);
/* The same with A and B of one type. */
const TgtMatrixInst *tgt_find_matrix(const TgtTarget *t, TgtElem in, TgtElem acc, int m, int n);
bool tgt_has_matrix(const TgtTarget *t, TgtMatrixId id);
/* Whether lanes read other lanes' registers at a per-lane index
 * (ds_bpermute_b32, the shuffles' instruction): GCN 3 (gfx801) and later;
 * GCN 1 and 2 (gfx600-gfx705) have only the fixed patterns of ds_swizzle.
 * The host (its wave model) always. */
bool tgt_has_lane_permute(const TgtTarget *t);
/* CDNA2/CDNA3 (gfx90a, gfx94x): one 512-register file holds VGPRs and
 * AGPRs; a kernel allowed more than 256 makes LLVM keep MFMA accumulators in
 * AGPRs and copy them to VGPRs and back around every loop iteration. */
bool tgt_unified_agprs(const TgtTarget *t);
/* Float atomics on global memory (docs/atomics.md). The processors whose
 * global_atomic_add_f32 returns the old value (gfx90a, gfx94x, gfx11xx,
 * gfx12xx; measured with llc-19). LLVM 19 selects it (and the other global
 * float atomics the processor has) only when the function says
 * "amdgpu-unsafe-fp-atomics"="true", which promises that the memory is not
 * fine-grained or remote; fxcc makes that promise on these processors. */
/* gfx90a's global_atomic_add_f32 flushes subnormal inputs and results to
 * zero (LLVM: its FP mode is fixed, without f32 denormals); the others keep
 * them. */
bool tgt_hw_float_atomics(const TgtTarget *t);
/* The short name "cdna3.f64.16x16x4" back to an id; TGT_MI_COUNT if none. */
TgtMatrixId tgt_matrix_by_name(const char *name);
/* "gfx90a, gfx940, gfx941, gfx942": the processors having the instruction. */
const char *tgt_matrix_targets(TgtMatrixId id);

/* ---- throughput (throughput.c) ----
 * Peak rates per compute unit and clock cycle, for estimates that compare
 * ways of computing one thing (--contraction-precision=auto). Matrix rates
 * come from the vendor's instruction tables (operations of one instruction
 * over its issue-to-issue cycles, times the SIMDs of a CU); vector rates
 * from the vendor's per-CU figures; memory rates from one product's peak
 * bandwidth over its CUs and clock (throughput.c cites each). */
typedef struct TgtThroughput {
    const char *family;       /* "CDNA3" */
    const char *product;      /* the product the vector and memory figures are of */
    int simds_per_cu;         /* SIMDs a CU issues matrix instructions on */
    double vec_f64, vec_f32;  /* vector flops per CU per cycle (an FMA counts 2) */
    double mem_bytes;         /* DRAM bytes per CU per cycle */
} TgtThroughput;

/* The figures of t's family, or NULL (the host, and families without them). */
const TgtThroughput *tgt_throughput(const TgtTarget *t);
/* Operations per CU per cycle of t's fastest matrix instruction taking `in`
 * and accumulating in `acc` (an FMA counts 2); 0 when it has none or no
 * figures are known. */
double tgt_matrix_rate(const TgtTarget *t, TgtElem in, TgtElem acc);

#endif
