/* test_no_spill.c - every matrix product the program lowering puts on the
 * matrix cores keeps its registers: C = op(A) @ op(B) for each element type
 * with a matrix path (Float64, Float32, Int8, Float16, BFloat16, the four
 * 8-bit floats and two pairs of them, Int4, and Float32 as xf32 on
 * gfx942), each of
 * the four transposes, with K static and K a run-time parameter, compiled
 * for gfx90a, gfx942, gfx1100 and gfx1201. The code object's metadata must
 * say no VGPR was spilled and no scratch is used (SGPRs spilled into VGPR
 * lanes cost no memory and are reported, not failed), and the ISA must
 * hold the processor's matrix instruction for the type where the vendor's
 * tables give it one (FMA tiles elsewhere: Float64/Float32 on RDNA, the
 * 8-bit floats of the other convention, Int4 on CDNA). */
#include "fxtest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prog.h"

typedef struct ElemCase {
    const char *in, *out;
    /* the instruction per processor of archs[], NULL: FMA tiles */
    const char *insn[4];
    const char *precision;   /* the program's @contraction_precision, or NULL */
    const char *in_b;        /* B's element type when it is not A's (fp8 by bf8), or NULL */
} ElemCase;

static const char *const archs[4] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };

static const ElemCase elems[] = {
    { "Float64", "Float64", { "v_mfma_f64_16x16x4f64", "v_mfma_f64_16x16x4_f64", NULL, NULL }, NULL, NULL },
    { "Float32", "Float32", { "v_mfma_f32_16x16x4f32", "v_mfma_f32_16x16x4_f32", NULL, NULL }, NULL, NULL },
    { "Int8", "Int32", { "v_mfma_i32_16x16x16i8", "v_mfma_i32_16x16x32_i8", "v_wmma_i32_16x16x16_iu8",
                         "v_wmma_i32_16x16x16_iu8" }, NULL, NULL },
    { "Float16", "Float32", { "v_mfma_f32_16x16x16f16", "v_mfma_f32_16x16x16_f16", "v_wmma_f32_16x16x16_f16",
                              "v_wmma_f32_16x16x16_f16" }, NULL, NULL },
    { "BFloat16", "Float32", { "v_mfma_f32_16x16x16bf16_1k", "v_mfma_f32_16x16x16_bf16", "v_wmma_f32_16x16x16_bf16",
                               "v_wmma_f32_16x16x16_bf16" }, NULL, NULL },
    { "Float8E4M3FNUZ", "Float32", { NULL, "v_mfma_f32_16x16x32_fp8_fp8", NULL, NULL }, NULL, NULL },
    { "Float8E5M2FNUZ", "Float32", { NULL, "v_mfma_f32_16x16x32_bf8_bf8", NULL, NULL }, NULL, NULL },
    { "Float8E4M3FN", "Float32", { NULL, NULL, NULL, "v_wmma_f32_16x16x16_fp8_fp8" }, NULL, NULL },
    { "Float8E5M2", "Float32", { NULL, NULL, NULL, "v_wmma_f32_16x16x16_bf8_bf8" }, NULL, NULL },
    { "Int4", "Int32", { NULL, NULL, "v_wmma_i32_16x16x16_iu4", "v_wmma_i32_16x16x16_iu4" }, NULL, NULL },
    /* xf32 exists on gfx94x only (elsewhere it is an error: test_contraction) */
    { "Float32", "Float32", { NULL, "v_mfma_f32_16x16x8_xf32", NULL, NULL }, "xf32", NULL },
    /* one 8-bit format by the other: gfx94x's and gfx12's own pairs */
    { "Float8E4M3FNUZ", "Float32", { NULL, "v_mfma_f32_16x16x32_fp8_bf8", NULL, NULL }, NULL, "Float8E5M2FNUZ" },
    { "Float8E5M2", "Float32", { NULL, NULL, NULL, "v_wmma_f32_16x16x16_bf8_fp8" }, NULL, "Float8E4M3FN" },
};

/* The number after `key` in the metadata (-1 when absent). */
static long metadata(const char *s, const char *key)
{
    const char *at = strstr(s, key);
    return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

static char *product_source(const ElemCase *e, bool ta, bool tb, bool static_k)
{
    const char *k = static_k ? "256" : "K";
    char a[32], b[32];
    snprintf(a, sizeof a, ta ? "%s, M" : "M, %s", k);
    snprintf(b, sizeof b, tb ? "N, %s" : "%s, N", k);
    char *src = NULL;
    size_t n;
    FILE *f = open_memstream(&src, &n);
    if (e->precision)
        fprintf(f, "@contraction_precision(\"%s\")\n", e->precision);
    fprintf(f, "program g(A: Tensor[%s, %s], B: Tensor[%s, %s], C: Tensor[%s, M, N], M: Int32, N: Int32%s) {\n"
               "    C = A%s @ B%s\n}\n",
            e->in, a, e->in_b ? e->in_b : e->in, b, e->out, static_k ? "" : ", K: Int32", ta ? ".T" : "", tb ? ".T" : "");
    fclose(f);
    return src;
}

static void check_one(const ElemCase *e, int arch, bool ta, bool tb, bool static_k)
{
    char *src = product_source(e, ta, tb, static_k);
    char *s = prog_assembly(src, archs[arch], NULL);
    CU_ASSERT_PTR_NOT_NULL(s);
    if (!s) {
        free(src);
        return;
    }
    long vspill = metadata(s, ".vgpr_spill_count: "), sspill = metadata(s, ".sgpr_spill_count: ");
    long scratch = metadata(s, ".private_segment_fixed_size: ");
    const char *want = e->insn[arch];
    bool insn_ok = want ? strstr(s, want) != NULL : !strstr(s, "v_mfma") && !strstr(s, "v_wmma");
    bool ok = vspill == 0 && scratch == 0 && insn_ok;
    CU_ASSERT(ok);
    if (!ok)
        fprintf(stderr, "\n  %s A%s @ B%s, K %s, on %s: %ld VGPRs and %ld SGPRs spilled, %ld bytes of scratch%s",
                e->in, ta ? ".T" : "", tb ? ".T" : "", static_k ? "static" : "at run time", archs[arch], vspill,
                sspill, scratch, insn_ok ? "" : ", not the expected instruction");
    free(s);
    free(src);
}

static void sweep(const ElemCase *e)
{
    for (int arch = 0; arch < 4; arch++)
        for (int t = 0; t < 4; t++)
            for (int static_k = 0; static_k < 2; static_k++)
                check_one(e, arch, t & 1, t >> 1, static_k);
}

static void test_float64(void) { sweep(&elems[0]); }
static void test_float32(void) { sweep(&elems[1]); }
static void test_int8(void) { sweep(&elems[2]); }
static void test_float16(void) { sweep(&elems[3]); }
static void test_bfloat16(void) { sweep(&elems[4]); }
static void test_float8(void)
{
    for (int i = 5; i < 9; i++)
        sweep(&elems[i]);
    sweep(&elems[11]);
    sweep(&elems[12]);
}
static void test_int4(void) { sweep(&elems[9]); }
static void test_xf32(void)
{
    for (int t = 0; t < 4; t++)
        for (int static_k = 0; static_k < 2; static_k++)
            check_one(&elems[10], 1, t & 1, t >> 1, static_k);
}

static const FxtTest tests[] = {
    { "Float64: four transposes, static and run-time K, four processors", test_float64 },
    { "Float32: four transposes, static and run-time K, four processors", test_float32 },
    { "Int8 -> Int32: four transposes, static and run-time K, four processors", test_int8 },
    { "Float16 -> Float32: four transposes, static and run-time K, four processors", test_float16 },
    { "BFloat16 -> Float32: four transposes, static and run-time K, four processors", test_bfloat16 },
    { "the 8-bit floats -> Float32: four transposes, static and run-time K, four processors", test_float8 },
    { "Int4 -> Int32: four transposes, static and run-time K, four processors", test_int4 },
    { "Float32 as xf32: four transposes, static and run-time K, gfx942", test_xf32 },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "matrix products without spills", tests, NULL, NULL },
                                       { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
