/* test_matrix.c - fx.mfma / fx.wmma, instruction by instruction: a kernel
 * places A, B and C in the lanes where the vendor's tables put them (the
 * compiled-in tables, which tests/target/check_layouts.py compares with AMD's
 * JSON cell by cell), runs one matrix instruction, and stores D back by the
 * D table. On the host wave model of a processor that has the instruction
 * the result must be A @ B + C: exactly for Int8 (wrapping Int32), and bit
 * for bit an fma chain in k order for Float64/Float32, and for Float16,
 * BFloat16 and the 8-bit floats into Float32 (their products are exact
 * there). The same kernel's
 * assembly for that processor has the instruction; a processor without it
 * gets a located error naming the ones that have it. */
#include "fxtest.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "prog.h"
#include "fxsource.h"
#include "target/target.h"
#include "support/floatfmt.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A processor that has instruction id. */
static const char *arch_of(TgtMatrixId id)
{
    static char buf[32];
    const char *t = tgt_matrix_targets(id);   /* "gfx940, gfx941, gfx942" */
    const char *last = strrchr(t, ' ');
    snprintf(buf, sizeof buf, "%s", last ? last + 1 : t);
    return buf;
}

static const char *elem_name(TgtElem e)
{
    switch (e) {
    case TGT_E_F64: return "Float64";
    case TGT_E_F32: case TGT_E_XF32: return "Float32";
    case TGT_E_I32: return "Int32";
    case TGT_E_F16: return "Float16";
    case TGT_E_BF16: return "BFloat16";
    case TGT_E_F8E4M3FNUZ: return "Float8E4M3FNUZ";
    case TGT_E_F8E5M2FNUZ: return "Float8E5M2FNUZ";
    case TGT_E_F8E4M3FN: return "Float8E4M3FN";
    case TGT_E_F8E5M2: return "Float8E5M2";
    case TGT_E_I4: return "Int4";
    default: return "Int8";
    }
}

/* The format of an 8-bit float element, NULL for the others. */
static const FloatFormat *float8_format(TgtElem e)
{
    switch (e) {
    case TGT_E_F8E4M3FNUZ: return &ff_f8e4m3fnuz;
    case TGT_E_F8E5M2FNUZ: return &ff_f8e5m2fnuz;
    case TGT_E_F8E4M3FN: return &ff_f8e4m3fn;
    case TGT_E_F8E5M2: return &ff_f8e5m2;
    default: return NULL;
    }
}

static size_t elem_bytes(TgtElem e)
{
    return e == TGT_E_F64 ? 8 : e == TGT_E_F32 || e == TGT_E_XF32 || e == TGT_E_I32 ? 4 : e == TGT_E_F16 || e == TGT_E_BF16 ? 2 : 1;
}

/* A random input element exactly representable in e: Float16 an 11-bit
 * significand, BFloat16 an 8-bit one, one in eight of them subnormal (which
 * gfx90a's instructions flush). */
static double random_input(TgtElem e)
{
    switch (e) {
    case TGT_E_F64: return ldexp((double)(int64_t)next(), -63);
    case TGT_E_F32: case TGT_E_XF32:   /* xf32: all 24 bits, so that dropping 13 shows */
        return (double)(float)ldexp((double)(int64_t)next(), -63);
    case TGT_E_F16:
        if (next() % 8 == 0)
            return ldexp((double)((int)(next() % 2048) - 1024), -24);   /* |x| < 2^-14 */
        return ldexp((double)((int)(next() % 2048) - 1024), -8 - (int)(next() % 4));
    case TGT_E_BF16:
        if (next() % 8 == 0)
            return ldexp((double)((int)(next() % 256) - 128), -133);   /* |x| < 2^-126 */
        return ldexp((double)((int)(next() % 256) - 128), -(int)(next() % 20));
    case TGT_E_F8E4M3FNUZ: case TGT_E_F8E5M2FNUZ: case TGT_E_F8E4M3FN: case TGT_E_F8E5M2:
        for (;;) {   /* any finite encoding, subnormals included */
            double v = ff_to_double(float8_format(e), next() & 0xff);
            if (isfinite(v))
                return v;
        }
    case TGT_E_I4: return (double)((int)(next() % 16) - 8);
    default: return (double)(int8_t)next();
    }
}

/* Element i of a buffer of e (value v exactly representable in e). */
static void put_elem(char *buf, size_t i, TgtElem e, double v)
{
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    switch (e) {
    case TGT_E_F64: ((double *)buf)[i] = v; break;
    case TGT_E_F32: case TGT_E_XF32: ((float *)buf)[i] = f; break;
    case TGT_E_I32: ((int32_t *)buf)[i] = (int32_t)v; break;
    case TGT_E_F16: { _Float16 h = (_Float16)f; memcpy(buf + 2 * i, &h, 2); break; }
    case TGT_E_BF16: { uint16_t hi = (uint16_t)(bits >> 16); memcpy(buf + 2 * i, &hi, 2); break; }
    case TGT_E_F8E4M3FNUZ: case TGT_E_F8E5M2FNUZ: case TGT_E_F8E4M3FN: case TGT_E_F8E5M2:
        buf[i] = (char)ff_from_double(float8_format(e), v, FF_RNE);
        break;
    default: buf[i] = (char)(int8_t)v; break;
    }
}

/* The kernel: fragment element e of lane l is X[ix[l * per_lane + e]]. */
static char *kernel_source(const TgtMatrixInst *mi)
{
    const TgtMatrixLayout *l = tgt_matrix_layout(mi->id);
    const char *in = elem_name(mi->in), *in_b = elem_name(mi->in_b), *acc = elem_name(mi->acc);
    bool wmma = strncmp(mi->family, "RDNA", 4) == 0;
    char *s = NULL;
    size_t n;
    FILE *f = open_memstream(&s, &n);
    fprintf(f, "@launch_bounds(%d)\nkernel mm(a: const Ptr[%s], b: const Ptr[%s], c: const Ptr[%s], d: Ptr[%s],\n"
               "          ia: const Ptr[Int32], ib: const Ptr[Int32], id: const Ptr[Int32]) {\n"
               "    let l = fx.lane_id()\n",
            mi->wave_size, in, in_b, acc, acc);
    const struct { const char *name, *src, *ix; int per; const char *type; } frag[3] = {
        { "fa", "a", "ia", l->a->per_lane, in }, { "fb", "b", "ib", l->b->per_lane, in_b },
        { "fc", "c", "id", l->d->per_lane, acc },
    };
    for (int k = 0; k < 3; k++) {
        if (frag[k].per == 1) {
            fprintf(f, "    let %s = %s[ia[l]]\n", frag[k].name, frag[k].src);
            continue;
        }
        fprintf(f, "    let %s = %sx%d(", frag[k].name, frag[k].type, frag[k].per);
        for (int e = 0; e < frag[k].per; e++)
            fprintf(f, "%s%s[%s[l * %d + %d]]", e ? ", " : "", frag[k].src, frag[k].ix, frag[k].per, e);
        fprintf(f, ")\n");
    }
    fprintf(f, "    let r = fx.%s(fa, fb, fc)\n", wmma ? "wmma" : "mfma");
    fprintf(f, "    for e in range(%d) {\n        d[id[l * %d + e]] = r[e]\n    }\n}\n", l->d->per_lane, l->d->per_lane);
    fclose(f);
    /* B's scalar fragment reads ib, not ia */
    char *p = strstr(s, "let fb = b[ia[l]]");
    if (p)
        memcpy(p, "let fb = b[ib[l]]", 17);
    return s;
}

static int32_t *index_table(const TgtOperandLayout *l, int wave)
{
    int32_t *t = malloc(sizeof(int32_t) * (size_t)(wave * l->per_lane));
    for (int i = 0; i < wave * l->per_lane; i++)
        t[i] = l->index[i];
    return t;
}

/* gfx90a's Float16 and BFloat16 instructions flush subnormal inputs and
 * outputs to zero (docs/waves.md): x below the format's least normal
 * magnitude becomes a zero of its sign. */
static bool flushes(const TgtMatrixInst *mi)
{
    return strcmp(mi->family, "CDNA2") == 0 && (mi->in == TGT_E_F16 || mi->in == TGT_E_BF16);
}

static double flushed(double x, double least_normal)
{
    return fabs(x) < least_normal ? copysign(0.0, x) : x;
}

/* D = A @ B + C in the instruction's arithmetic. */
static void reference(const TgtMatrixInst *mi, const double *A, const double *B, const double *C, double *D,
                      const int8_t *A8, const int8_t *B8, const int32_t *C32, int32_t *D32)
{
    int M = mi->m, N = mi->n, K = mi->k;
    for (int blk = 0; blk < mi->blocks; blk++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                int o = blk * M * N + i * N + j;
                if (mi->in == TGT_E_I8 || mi->in == TGT_E_I4) {
                    uint32_t s = (uint32_t)C32[o];
                    for (int k = 0; k < K; k++)
                        s += (uint32_t)(A8[blk * M * K + i * K + k] * B8[blk * K * N + k * N + j]);
                    D32[o] = (int32_t)s;
                } else if (mi->in == TGT_E_XF32) {
                    float s = (float)C[o];
                    for (int k = 0; k < K; k++)
                        s = fmaf(fxt_xf32(A[blk * M * K + i * K + k]), fxt_xf32(B[blk * K * N + k * N + j]), s);
                    D[o] = s;
                } else if (mi->acc == TGT_E_F32) {   /* Float32, Float16, BFloat16 inputs */
                    bool fl = flushes(mi);
                    double in_min = mi->in == TGT_E_F16 ? 0x1p-14 : 0x1p-126, out_min = fl ? 0x1p-126 : 0;
                    float s = (float)flushed(C[o], out_min);
                    for (int k = 0; k < K; k++) {
                        double x = A[blk * M * K + i * K + k], y = B[blk * K * N + k * N + j];
                        s = fmaf((float)(fl ? flushed(x, in_min) : x), (float)(fl ? flushed(y, in_min) : y), s);
                    }
                    D[o] = flushed(s, out_min);
                } else {
                    double s = C[o];
                    for (int k = 0; k < K; k++)
                        s = fma(A[blk * M * K + i * K + k], B[blk * K * N + k * N + j], s);
                    D[o] = s;
                }
            }
}

/* wave-emulation's fn for the instruction is called, not inlined (FXIR
 * `@outlined`, kept through the text form): inlined at every call its
 * unrolled loops made the host's optimization several times slower. */
static void helper_outlined(FxModule *m, const TgtMatrixInst *mi)
{
    char *text = fxs_fxir_text(m);
    char want[96];
    snprintf(want, sizeof want, "@outlined\nfn __fx_emulate_%s(", mi->mnemonic);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
    CU_ASSERT(fxs_fxir_round_trips(text));
    free(text);
}

static void run_instruction(const TgtMatrixInst *mi)
{
    const TgtMatrixLayout *l = tgt_matrix_layout(mi->id);
    int W = mi->wave_size, na = mi->blocks * mi->m * mi->k, nb = mi->blocks * mi->k * mi->n;
    int nd = mi->blocks * mi->m * mi->n;
    char *src = kernel_source(mi);
    prog_wave_arch = arch_of(mi->id);
    Prog p;
    bool ok = prog_lower(&p, src, NULL, true, NULL);
    if (ok)
        helper_outlined(p.c.module, mi);
    char *err = NULL;
    p.hm = ok ? pipe_jit(&p.c, &err) : NULL;
    CU_ASSERT_PTR_NOT_NULL(p.hm);
    if (!p.hm) {
        fprintf(stderr, "\n%s: %s\n%s", mi->mnemonic, err ? err : "does not compile", src);
        free(err);
        prog_close(&p);
        prog_wave_arch = NULL;
        free(src);
        return;
    }
    bool is_int = mi->in == TGT_E_I8 || mi->in == TGT_E_I4, is_f32 = mi->acc == TGT_E_F32;
    size_t ein = elem_bytes(mi->in), ein_b = elem_bytes(mi->in_b), eacc = elem_bytes(mi->acc);
    double *A = calloc((size_t)na, 8), *B = calloc((size_t)nb, 8), *C = calloc((size_t)nd, 8), *D = calloc((size_t)nd, 8);
    int8_t *A8 = calloc((size_t)na, 1), *B8 = calloc((size_t)nb, 1);
    int32_t *C32 = calloc((size_t)nd, 4), *D32 = calloc((size_t)nd, 4);
    char *ba = calloc((size_t)na, ein), *bb = calloc((size_t)nb, ein_b), *bc = calloc((size_t)nd, eacc);
    char *bd = calloc((size_t)nd, eacc);
    for (int i = 0; i < na; i++) {
        A[i] = random_input(mi->in);
        A8[i] = is_int ? (int8_t)A[i] : 0;
        put_elem(ba, (size_t)i, mi->in, A[i]);
    }
    for (int i = 0; i < nb; i++) {
        B[i] = random_input(mi->in_b);
        B8[i] = is_int ? (int8_t)B[i] : 0;
        put_elem(bb, (size_t)i, mi->in_b, B[i]);
    }
    for (int i = 0; i < nd; i++) {
        C32[i] = (int32_t)next();
        C[i] = is_int ? C32[i] : is_f32 ? (double)(float)ldexp((double)(int64_t)next(), -60)
                                        : ldexp((double)(int64_t)next(), -60);
        put_elem(bc, (size_t)i, mi->acc, C[i]);
    }
    reference(mi, A, B, C, D, A8, B8, C32, D32);
    int32_t *ia = index_table(l->a, W), *ib = index_table(l->b, W), *id = index_table(l->d, W);
    void *pa = ba, *pb = bb, *pc = bc, *pd = bd, *pia = ia, *pib = ib, *pid = id;
    void *args[] = { &pa, &pb, &pc, &pd, &pia, &pib, &pid };
    unsigned grid[3] = { 1, 1, 1 }, block[3] = { (unsigned)W, 1, 1 };
    CU_ASSERT_EQUAL(rt_host_launch(p.hm, "mm", grid, block, args, &err), 0);
    int bad = 0;
    for (int i = 0; i < nd; i++) {
        bool same = is_int ? ((int32_t *)bd)[i] == D32[i]
                  : is_f32 ? ((float *)bd)[i] == (float)D[i] : ((double *)bd)[i] == D[i];
        if (!same && bad++ < 3)
            fprintf(stderr, "\n  %s on %s: D element %d differs", mi->mnemonic, prog_wave_arch, i);
    }
    CU_ASSERT_EQUAL(bad, 0);
    free(A), free(B), free(C), free(D), free(A8), free(B8), free(C32), free(D32);
    free(ba), free(bb), free(bc), free(bd), free(ia), free(ib), free(id);
    free(err);
    prog_close(&p);
    prog_wave_arch = NULL;
    free(src);
}

static void test_every_instruction_on_the_wave_model(void)
{
    for (int id = 0; id < TGT_MI_COUNT; id++)
        run_instruction(tgt_matrix_inst((TgtMatrixId)id));
}

static void test_isa_and_errors(void)
{
    for (int id = 0; id < TGT_MI_COUNT; id++) {
        const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)id);
        char *src = kernel_source(mi);
        char *s = prog_assembly(src, arch_of(mi->id), NULL);
        CU_ASSERT(s && strstr(s, mi->mnemonic));
        if (!s || !strstr(s, mi->mnemonic))
            fprintf(stderr, "\n  %s: not in the %s assembly", mi->mnemonic, arch_of(mi->id));
        free(s);
        /* a processor of the other family has no such instruction */
        const char *other = strncmp(mi->family, "RDNA", 4) == 0 ? "gfx942" : "gfx1100";
        fxt_capture_begin();
        s = prog_assembly(src, other, NULL);
        char *cap = fxt_capture_end();
        CU_ASSERT_PTR_NULL(s);
        CU_ASSERT(cap && strstr(cap, "error: fx.") && strstr(cap, tgt_matrix_targets(mi->id)));
        CU_ASSERT(cap && strstr(cap, "kernel mm") == NULL && strstr(cap, ":") != NULL);
        free(cap);
        free(s);
        free(src);
    }
}

static const FxtTest tests[] = {
    { "every MFMA/WMMA instruction on its processor's wave model", test_every_instruction_on_the_wave_model },
    { "the instruction in the assembly; elsewhere a located error", test_isa_and_errors },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "fx.mfma / fx.wmma", tests, NULL, NULL }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
