/* test_passes_linear.c - passes do work linear in the size of a function:
 * fp-contraction counts each value's readers once per sweep, not once per
 * add; wave emulation replaces the uses of every emulated operation in one
 * walk, not one walk each. Checked by counting the instructions whole-function
 * scans visit (FxFunc.use_scan_visits), not by timing: N operations must cost
 * a bounded number of visits per instruction, whatever N is. */
#include "fxtest.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "driver/pipeline.h"
#include "passes/passes.h"
#include "fxir/verify.h"

/* p[0] = c + p[1] * p[2] + p[3] * p[4] + ...: n products, each read by one add. */
static char *chain_source(int n)
{
    char *s = NULL;
    size_t len;
    FILE *f = open_memstream(&s, &len);
    fputs("kernel k(p: Ptr[Float32], c: Float32) {\n    p[0] = c", f);
    for (int i = 0; i < n; i++)
        fprintf(f, " + p[%d] * p[%d]", 2 * i + 1, 2 * i + 2);
    fputs("\n}\n", f);
    fclose(f);
    return s;
}

/* The whole pipeline with contraction off, for gfx942 (the default, so no
 * wave emulation): each test runs its pass itself. */
static bool lower_uncontracted(const char *src, FxCompilation *c, FxOptions *o)
{
    char path[256];
    snprintf(path, sizeof path, "/tmp/fxcc-passes-linear-%d.fx", (int)getpid());
    CU_ASSERT_FATAL(fxt_write_file(path, src));
    opt_defaults(o);
    o->input = path;
    o->verify_each = true;
    o->fp_contract = false;
    pipe_init(c, o);
    fxt_capture_begin();
    bool ok = pipe_parse(c) && pipe_lower(c);
    free(fxt_capture_end());
    remove(path);
    return ok;
}

static long count_insts(const FxBlock *b)
{
    long n = 0;
    for (const FxInst *i = b->first; i; i = i->next) {
        n++;
        for (int k = 0; k < i->nblocks; k++)
            n += count_insts(&i->blocks[k]);
    }
    return n;
}

/* Visits per instruction stay under a constant as the chain grows 16-fold;
 * counting uses per add (the quadratic form) makes them grow with n. */
static void test_use_counting_is_linear(void)
{
    static const int lengths[] = { 16, 64, 256 };
    for (size_t t = 0; t < sizeof lengths / sizeof lengths[0]; t++) {
        char *src = chain_source(lengths[t]);
        FxCompilation c;
        FxOptions o;
        CU_ASSERT_FATAL(lower_uncontracted(src, &c, &o));
        FxFunc *f = c.module->funcs.items[0];
        long insts = count_insts(&f->body);
        f->use_scan_visits = 0;
        PassOptions po = { .fp_contract = true, .remarks_missed = ~0u };
        fxt_capture_begin();
        int fused = pass_fp_contraction(c.module, &po);
        free(fxt_capture_end());
        CU_ASSERT_EQUAL(fused, lengths[t]);
        /* A fusing sweep, the sweep that finds nothing more and the one that
         * explains: three counts of two walks each. */
        if (f->use_scan_visits > 6 * insts) {
            fprintf(stderr, "\nchain of %d: %ld use-scan visits for %ld instructions\n", lengths[t],
                    f->use_scan_visits, insts);
            CU_FAIL("fp-contraction's use counting is not linear");
        }
        pipe_free(&c);
        free(src);
    }
}

/* The single-rewrite entry point still sees a product with two readers. */
static void test_single_fusion_counts_readers(void)
{
    FxCompilation c;
    FxOptions o;
    CU_ASSERT_FATAL(lower_uncontracted("kernel k(p: Ptr[Float32], a: Float32, b: Float32) {\n"
                                       "    let t = a * b\n    p[0] = t + a\n    p[1] = t + b\n}\n", &c, &o));
    FxFunc *f = c.module->funcs.items[0];
    PassOptions po = { .fp_contract = true };
    int fused = 0;
    for (FxInst *i = f->body.first, *next; i; i = next) {
        next = i->next;
        fused += pass_fuse_fma(c.module, f, i, &po);
    }
    CU_ASSERT_EQUAL(fused, 0);
    pipe_free(&c);
}

/* n wave operations for gfx942's waves, each reading the one before, so
 * every emulated result is an operand of the next emulation; the chain runs
 * through an if and a loop whose condition is itself a wave operation (the
 * loop's condition value is defined in its blocks[0]). */
static char *wave_chain_source(int n)
{
    char *s = NULL;
    size_t len;
    FILE *f = open_memstream(&s, &len);
    fputs("kernel k(p: Ptr[Int32]) {\n    var v = p[thread_idx.x] + fx.lane_id()\n", f);
    for (int i = 0; i < n; i++) {
        if (i == n / 3)
            fputs("    if fx.any(v > 2) {\n", f);
        if (i == 2 * n / 3)
            fputs("    }\n    while fx.all(v < 1000) {\n", f);
        fprintf(f, "        v = fx.shuffle_xor(v, %d) + fx.lane_id()\n", 1 + i % 31);
    }
    fputs("        v = v + 1\n    }\n    p[thread_idx.x] = fx.wave_sum(v)\n}\n", f);
    fclose(f);
    return s;
}

static long count_op(const FxBlock *b, FxOpcode op)
{
    long n = 0;
    for (const FxInst *i = b->first; i; i = i->next) {
        n += i->op == op;
        for (int k = 0; k < i->nblocks; k++)
            n += count_op(&i->blocks[k], op);
    }
    return n;
}

/* Lowered for gfx942 (no emulation), then emulated here as host code on its
 * waves: every operation is emulated, the FXIR verifies (no operand left
 * pointing at a removed operation), and the scans stay linear. */
static void test_wave_emulation_is_linear(void)
{
    static const int lengths[] = { 24, 96, 384 };
    for (size_t t = 0; t < sizeof lengths / sizeof lengths[0]; t++) {
        char *src = wave_chain_source(lengths[t]);
        FxCompilation c;
        FxOptions o;
        CU_ASSERT_FATAL(lower_uncontracted(src, &c, &o));
        FxFunc *f = c.module->funcs.items[0];
        long waves = count_op(&f->body, FX_WAVE);
        CU_ASSERT_EQUAL(waves, lengths[t] + 3);   /* the shuffles, any, all, the sum */
        f->use_scan_visits = 0;
        PassOptions po = { .target = tgt_lookup("gfx942"), .host_codegen = true };
        int emulated = pass_wave_emulation(c.module, &po);
        CU_ASSERT_EQUAL(emulated, waves + lengths[t] + 1);   /* and every lane_id */
        CU_ASSERT_EQUAL(count_op(&f->body, FX_WAVE), 0);
        CU_ASSERT(fxir_verify(c.module));
        long insts = count_insts(&f->body);
        if (f->use_scan_visits > 2 * insts) {
            fprintf(stderr, "\nchain of %d: %ld use-scan visits for %ld instructions\n", lengths[t],
                    f->use_scan_visits, insts);
            CU_FAIL("wave emulation's replacement of uses is not linear");
        }
        pipe_free(&c);
        free(src);
    }
}

static const FxtTest tests[] = {
    { "use counting is linear", test_use_counting_is_linear },
    { "single fusion counts readers", test_single_fusion_counts_readers },
    { "wave emulation is linear", test_wave_emulation_is_linear },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "passes-linear", tests, NULL, NULL }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
