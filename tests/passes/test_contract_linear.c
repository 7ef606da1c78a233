/* test_contract_linear.c - fp-contraction does work linear in the size of a
 * function: it counts each value's readers once per sweep, not once per add.
 * Checked by counting the instructions its use counting visits
 * (FxFunc.use_scan_visits), not by timing: a chain of N multiply-adds must
 * cost a bounded number of visits per instruction, whatever N is. */
#include "fxtest.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "driver/pipeline.h"
#include "passes/passes.h"

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

/* The whole pipeline with contraction off, so the test runs the pass itself. */
static bool lower_uncontracted(const char *src, FxCompilation *c, FxOptions *o)
{
    char path[256];
    snprintf(path, sizeof path, "/tmp/fxcc-contract-linear-%d.fx", (int)getpid());
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

static const FxtTest tests[] = {
    { "use counting is linear", test_use_counting_is_linear },
    { "single fusion counts readers", test_single_fusion_counts_readers },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "fp-contraction-linear", tests, NULL, NULL }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
