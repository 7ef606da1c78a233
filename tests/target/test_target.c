/* test_target.c - the target descriptions: names, wave sizes, LDS limits
 * and matrix instructions as measured, and every processor accepted by
 * LLVM 19's AMDGPU backend with the facts the table states. */
#include "fxtest.h"
#include <stdio.h>
#include <string.h>
#include <llvm-c/Target.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/TargetMachine.h>
#include "target/target.h"

static void test_lookup(void)
{
    const char *good[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201", "gfx900", "gfx11-generic", "gfx1036" };
    const char *bad[] = { "gfx999", "sm_80", "", "GFX942", "gfx942:xnack+", "tahiti" };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        CU_ASSERT(tgt_lookup(good[i]) && tgt_lookup(good[i])->kind == TGT_AMDGPU);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CU_ASSERT_PTR_NULL(tgt_lookup(bad[i]));
    CU_ASSERT_PTR_NULL(tgt_lookup(NULL));
    CU_ASSERT(tgt_lookup("host") == tgt_host());
    CU_ASSERT(strcmp(tgt_default()->name, "gfx942") == 0);
    CU_ASSERT(strstr(tgt_known_names(), "gfx90a, ") != NULL);
    CU_ASSERT(strstr(tgt_known_names(), "gfx1201") != NULL);
}

static void test_wave_and_lds(void)
{
    static const struct { const char *name; int wave, lds, cov; } want[] = {
        { "gfx600", 64, 32768, 500 }, { "gfx90a", 64, 65536, 500 }, { "gfx942", 64, 65536, 500 },
        { "gfx1100", 32, 65536, 500 }, { "gfx1201", 32, 65536, 500 }, { "gfx10-3-generic", 32, 65536, 600 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const TgtTarget *t = tgt_lookup(want[i].name);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        CU_ASSERT_EQUAL(t->wave_size, want[i].wave);
        CU_ASSERT_EQUAL(t->lds_bytes, want[i].lds);
        CU_ASSERT_EQUAL(t->code_object_version, want[i].cov);
    }
    CU_ASSERT_EQUAL(tgt_host()->wave_size, 1);
    CU_ASSERT_EQUAL(tgt_lane_bits(1), 0);
    CU_ASSERT_EQUAL(tgt_lane_bits(32), 5);
    CU_ASSERT_EQUAL(tgt_lane_bits(64), 6);
}

/* The vendor tables: which processors have which matrix instruction. */
static void test_matrix_instructions(void)
{
    const TgtTarget *g90a = tgt_lookup("gfx90a"), *g942 = tgt_lookup("gfx942");
    const TgtTarget *g1100 = tgt_lookup("gfx1100"), *g1201 = tgt_lookup("gfx1201");
    const TgtMatrixInst *mi = tgt_find_matrix(g942, TGT_E_I8, TGT_E_I32, 16, 16);
    CU_ASSERT(mi && strcmp(mi->mnemonic, "v_mfma_i32_16x16x32_i8") == 0 && mi->k == 32);
    mi = tgt_find_matrix(g90a, TGT_E_I8, TGT_E_I32, 16, 16);
    CU_ASSERT(mi && strcmp(mi->mnemonic, "v_mfma_i32_16x16x16i8") == 0);
    mi = tgt_find_matrix(g1100, TGT_E_I8, TGT_E_I32, 16, 16);
    CU_ASSERT(mi && mi->id == TGT_MI_RDNA3_I8_16X16X16 && mi->wave_size == 32);
    mi = tgt_find_matrix(g1201, TGT_E_I8, TGT_E_I32, 16, 16);
    CU_ASSERT(mi && mi->id == TGT_MI_RDNA4_I8_16X16X16);
    CU_ASSERT_PTR_NULL(tgt_find_matrix(g1100, TGT_E_F64, TGT_E_F64, 16, 16));
    CU_ASSERT_PTR_NULL(tgt_find_matrix(tgt_host(), TGT_E_F64, TGT_E_F64, 16, 16));
    CU_ASSERT_PTR_NULL(tgt_find_matrix(tgt_lookup("gfx908"), TGT_E_F32, TGT_E_F32, 16, 16));
    /* fp8 by bf8: each processor's own pair, in either order; one type asks for the same-format one */
    mi = tgt_find_matrix_ab(g942, TGT_E_F8E5M2FNUZ, TGT_E_F8E4M3FNUZ, TGT_E_F32, 16, 16);
    CU_ASSERT(mi && mi->id == TGT_MI_CDNA3_BF8FP8_16X16X32);
    mi = tgt_find_matrix_ab(g1201, TGT_E_F8E4M3FN, TGT_E_F8E5M2, TGT_E_F32, 16, 16);
    CU_ASSERT(mi && mi->id == TGT_MI_RDNA4_FP8BF8_16X16X16);
    CU_ASSERT_PTR_NULL(tgt_find_matrix_ab(g942, TGT_E_F8E4M3FN, TGT_E_F8E5M2, TGT_E_F32, 16, 16));
    CU_ASSERT_PTR_NULL(tgt_find_matrix_ab(g942, TGT_E_F8E4M3FNUZ, TGT_E_F8E5M2, TGT_E_F32, 16, 16));
    mi = tgt_find_matrix(g942, TGT_E_F8E4M3FNUZ, TGT_E_F32, 16, 16);
    CU_ASSERT(mi && mi->id == TGT_MI_CDNA3_FP8_16X16X32);
    /* xf32: gfx94x only, never for plain Float32 */
    mi = tgt_find_matrix(g942, TGT_E_XF32, TGT_E_F32, 16, 16);
    CU_ASSERT(mi && mi->id == TGT_MI_CDNA3_XF32_16X16X8);
    mi = tgt_find_matrix(g942, TGT_E_F32, TGT_E_F32, 16, 16);
    CU_ASSERT(mi && mi->id == TGT_MI_CDNA3_F32_16X16X4);
    CU_ASSERT_PTR_NULL(tgt_find_matrix(g90a, TGT_E_XF32, TGT_E_F32, 16, 16));
    CU_ASSERT(strcmp(tgt_matrix_targets(TGT_MI_CDNA3_F64_16X16X4), "gfx940, gfx941, gfx942") == 0);
    for (int i = 0; i < TGT_MI_COUNT; i++) {
        const TgtMatrixInst *m = tgt_matrix_inst((TgtMatrixId)i);
        CU_ASSERT(m->id == (TgtMatrixId)i);
        CU_ASSERT(tgt_matrix_by_name(m->name) == m->id);
    }
}

/* The bit formulas lowering uses give the table's position for every lane
 * and element; two cells checked by hand against the vendor's README. */
static void check_formula(const TgtOperandLayout *l, int wave)
{
    for (int lane = 0; lane < wave; lane++)
        for (int e = 0; e < l->per_lane; e++)
            CU_ASSERT_EQUAL(tgt_layout_position(l, wave, lane, e), l->index[lane * l->per_lane + e]);
}

static void test_matrix_layouts(void)
{
    for (int i = 0; i < TGT_MI_COUNT; i++) {
        const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)i);
        const TgtMatrixLayout *l = tgt_matrix_layout(mi->id);
        check_formula(l->a, mi->wave_size);
        check_formula(l->b, mi->wave_size);
        check_formula(l->d, mi->wave_size);
        CU_ASSERT_EQUAL(l->d->per_lane * mi->wave_size, mi->m * mi->n * mi->blocks);
    }
    /* D[9][4]: register 2 of lane 20 for f64, register 1 of lane 36 for f32 */
    const TgtOperandLayout *f64 = tgt_matrix_layout(TGT_MI_CDNA3_F64_16X16X4)->d;
    const TgtOperandLayout *f32 = tgt_matrix_layout(TGT_MI_CDNA3_F32_16X16X4)->d;
    CU_ASSERT_EQUAL(f64->index[20 * 4 + 2], 9 * 16 + 4);
    CU_ASSERT_EQUAL(f32->index[36 * 4 + 1], 9 * 16 + 4);
}

/* LLVM's AMDGPU target, able to write code objects; NULL when missing. */
static LLVMTargetRef amdgpu_target(void)
{
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMTargetRef t;
    char *err = NULL;
    bool bad = LLVMGetTargetFromTriple("amdgcn-amd-amdhsa", &t, &err);
    LLVMDisposeMessage(err);
    return bad ? NULL : t;
}

/* Every processor of the table is one LLVM 19 can create a target machine
 * for, and its wave size is the one the backend defaults to. */
static void test_llvm_accepts_every_processor(void)
{
    LLVMTargetRef t = amdgpu_target();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (int i = 0; i < tgt_count(); i++) {
        const TgtTarget *g = tgt_at(i);
        LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, "amdgcn-amd-amdhsa", g->name, "",
                                                          LLVMCodeGenLevelDefault, LLVMRelocPIC,
                                                          LLVMCodeModelDefault);
        CU_ASSERT_PTR_NOT_NULL(tm);
        bool rdna = strncmp(g->name, "gfx1", 4) == 0 && strlen(g->name) >= 6;
        CU_ASSERT_EQUAL(g->wave_size, strstr(g->name, "gfx10") || strstr(g->name, "gfx11") ||
                                      strstr(g->name, "gfx12") || rdna ? 32 : 64);
        if (tm)
            LLVMDisposeTargetMachine(tm);
    }
}

/* The ELF flags of an empty kernel compiled for g with `features`. */
static unsigned code_object_flags(LLVMTargetRef t, const TgtTarget *g, const char *features)
{
    char ir[512];
    snprintf(ir, sizeof ir, "define amdgpu_kernel void @k() { ret void }\n!llvm.module.flags = !{!0}\n"
             "!0 = !{i32 1, !\"amdhsa_code_object_version\", i32 %d}\n", g->code_object_version);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef src = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "k.ll");
    LLVMModuleRef m = NULL;
    char *err = NULL;
    unsigned flags = ~0u;
    if (!LLVMParseIRInContext(ctx, src, &m, &err)) {
        LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, "amdgcn-amd-amdhsa", g->name, features,
                                                          LLVMCodeGenLevelDefault, LLVMRelocPIC, LLVMCodeModelDefault);
        LLVMMemoryBufferRef obj = NULL;
        if (tm && !LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, &obj)) {
            const unsigned char *b = (const unsigned char *)LLVMGetBufferStart(obj);
            flags = (unsigned)b[48] | (unsigned)b[49] << 8 | (unsigned)b[50] << 16 | (unsigned)b[51] << 24;
            LLVMDisposeMemoryBuffer(obj);
        }
        if (tm)
            LLVMDisposeTargetMachine(tm);
        LLVMDisposeModule(m);
    }
    LLVMDisposeMessage(err);
    LLVMContextDispose(ctx);
    return flags;
}

/* Each processor's target-id features, cell by cell, against what LLVM 19
 * writes into the code object: xnack/sramecc "any" (0x100/0x400) exactly
 * where the table says the processor takes the setting, and on/off where
 * an id says so. */
static void test_target_id_features(void)
{
    LLVMTargetRef t = amdgpu_target();
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (int i = 0; i < tgt_count(); i++) {
        const TgtTarget *g = tgt_at(i);
        unsigned f = code_object_flags(t, g, "");
        CU_ASSERT(f != ~0u);
        bool xnack = (f & 0x300) == 0x100, sramecc = (f & 0xc00) == 0x400;
        if (xnack != !!(g->id_features & TGT_ID_XNACK) || sramecc != !!(g->id_features & TGT_ID_SRAMECC))
            fprintf(stderr, "\n  %s: LLVM's flags 0x%x", g->name, f);
        CU_ASSERT_EQUAL(xnack, !!(g->id_features & TGT_ID_XNACK));
        CU_ASSERT_EQUAL(sramecc, !!(g->id_features & TGT_ID_SRAMECC));
    }
    TgtTargetId id;
    const char *why = NULL;
    char feats[64];
    CU_ASSERT_FATAL(tgt_parse_target_id("gfx90a:xnack+:sramecc-", &id, &why));
    CU_ASSERT_STRING_EQUAL(id.canonical, "gfx90a:sramecc-:xnack+");
    tgt_llvm_features(&id, feats, sizeof feats);
    CU_ASSERT_STRING_EQUAL(feats, "-sramecc,+xnack");
    CU_ASSERT_EQUAL(code_object_flags(t, id.proc, feats) & 0xf00, 0x300 | 0x800);
    CU_ASSERT(tgt_parse_target_id("gfx942", &id, &why) && strcmp(id.canonical, "gfx942") == 0 && !id.on && !id.off);
    CU_ASSERT(tgt_parse_target_id("gfx942:xnack-", &id, &why) && id.off == TGT_ID_XNACK);
    static const char *const bad[][2] = {
        { "gfx1100:xnack+", "no xnack setting" }, { "gfx900:sramecc+", "no sramecc setting" },
        { "gfx942:xnack+:xnack-", "twice" }, { "gfx942:xnack", "the features are" },
        { "gfx942:tgsplit+", "the features are" }, { "gfx999", "no such processor" }, { "host", "no such processor" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        why = NULL;
        CU_ASSERT(!tgt_parse_target_id(bad[k][0], &id, &why) && why && strstr(why, bad[k][1]));
    }
}

static const FxtTest tests[] = {
    { "processor names", test_lookup },
    { "wave sizes, LDS, code object versions", test_wave_and_lds },
    { "matrix instructions as the vendor tables list them", test_matrix_instructions },
    { "matrix layouts: bit formulas and the f64/f32 difference", test_matrix_layouts },
    { "LLVM 19 knows every processor of the table", test_llvm_accepts_every_processor },
    { "target-id features per processor as LLVM 19 writes them; ids parsed", test_target_id_features },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "target", tests, NULL, NULL }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
