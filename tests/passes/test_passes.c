/* test_passes.c - the fp-contraction legality matrix (seed 003 FuseFMA) for
 * Float16, BFloat16, Float32, Float64 and a vector type, UnfuseFMA as its
 * inverse, golden FXIR dumps, and the LLVM IR each case produces. */
#include "fxtest.h"
#include "fxsource.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver/pipeline.h"
#include "passes/passes.h"
#include "abi/fxplan.h"
#include "fxir/verify.h"

#ifndef TEST_DIR
#define TEST_DIR "."
#endif

static const char *const types[] = { "Float16", "BFloat16", "Float32", "Float64", "Float32x4" };

typedef struct Case {
    const char *name;
    const char *body;   /* kernel body; T is the element type, p: Ptr[T], a b c: T */
    int fmas;           /* FX_FMA expected after the pass */
    int muls;           /* FX_BINOP mul left after the pass */
} Case;

/* The legality matrix. */
static const Case cases[] = {
    { "mul_add", "p[0] = a * b + c", 1, 0 },
    { "add_mul", "p[0] = c + a * b", 1, 0 },
    { "let_product", "let t = a * b\n    p[0] = t + c", 1, 0 },
    { "mul_sub", "p[0] = a * b - c", 1, 0 },
    { "sub_mul", "p[0] = c - a * b", 1, 0 },
    { "two_products", "p[0] = a * b + c * a + b", 1, 1 },   /* one add, one fma; c*a is the addend */
    { "sum_of_fmas", "let u = a * b + c\n    p[0] = c * a + u", 2, 0 },
    { "second_reader", "let t = a * b\n    p[0] = t + c\n    p[1] = t", 0, 1 },
    { "other_block", "let t = a * b\n    if thread_idx.x == 0 {\n        p[0] = t + c\n    }", 0, 1 },
    { "explicit_fma", "p[0] = fx.fma(a, b, c)", 1, 0 },
    { "mul_only", "p[0] = a * b", 0, 1 },
};

typedef struct Counts {
    int fmas, muls, casts;
} Counts;

static void count_block(const FxBlock *b, Counts *c)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        c->fmas += i->op == FX_FMA;
        c->muls += i->op == FX_BINOP && i->sub == FXB_MUL;
        c->casts += i->op == FX_CAST;
        for (int k = 0; k < i->nblocks; k++)
            count_block(&i->blocks[k], c);
    }
}

static char *kernel_source(const char *t, const char *body)
{
    char *s = NULL;
    size_t n;
    FILE *f = open_memstream(&s, &n);
    fprintf(f, "kernel k(p: Ptr[%s], a: %s, b: %s, c: %s) {\n    %s\n}\n", t, t, t, t, body);
    fclose(f);
    return s;
}

static bool lower_source_to(const char *src, const char *print_after, FILE *out, FxCompilation *c, FxOptions *o,
                            char **diag);

/* Compile `src` to FXIR with the passes; returns the compilation (caller frees). */
static bool lower_source_with(const char *src, bool contract, const char *fastmath, FxCompilation *c, FxOptions *o,
                              char **diag);

static bool lower_source(const char *src, bool contract, FxCompilation *c, FxOptions *o, char **diag)
{
    return lower_source_with(src, contract, NULL, c, o, diag);
}

/* Compiles `src` (the whole pipeline) and prints the FXIR after `print_after` to out. */
static bool lower_source_to(const char *src, const char *print_after, FILE *out, FxCompilation *c, FxOptions *o,
                            char **diag)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/fxcc-passes-rt-%d.fx", (int)getpid());
    fxt_write_file(path, src);
    opt_defaults(o);
    o->input = path;
    o->verify_each = true;
    o->print_after = print_after;
    size_t n;
    FILE *m = open_memstream(diag, &n);
    pipe_init(c, o);
    diag_set_stream(m);
    c->print_out = out;
    bool ok = pipe_parse(c) && pipe_lower(c);
    diag_set_stream(NULL);
    fclose(m);
    remove(path);
    return ok;
}

static bool lower_source_with(const char *src, bool contract, const char *fastmath, FxCompilation *c, FxOptions *o,
                              char **diag)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/fxcc-passes-%d.fx", (int)getpid());
    FILE *f = fopen(path, "w");
    fputs(src, f);
    fclose(f);
    opt_defaults(o);
    o->input = path;
    o->verify_each = true;
    o->fp_contract = contract;
    o->rpass = o->rpass_missed = ~0u;
    if (fastmath) {
        sema_parse_fastmath(fastmath, &o->fastmath);
        o->fastmath_set = true;
    }
    size_t n;
    FILE *m = open_memstream(diag, &n);
    pipe_init(c, o);
    diag_set_stream(m);
    bool ok = pipe_parse(c) && pipe_lower(c);
    if (ok)
        c->module->source_name = "test.fx";   /* stable golden headers */
    diag_set_stream(NULL);
    fclose(m);
    remove(path);
    return ok;
}

static Counts counts_of(FxCompilation *c)
{
    Counts n = { 0 };
    for (int i = 0; i < c->module->funcs.len; i++)
        count_block(&((FxFunc *)c->module->funcs.items[i])->body, &n);
    return n;
}

static void test_legality_matrix(void)
{
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            char *src = kernel_source(types[t], cases[k].body), *diag = NULL;
            FxCompilation c;
            FxOptions o;
            bool ok = lower_source(src, true, &c, &o, &diag);
            if (!ok)
                fprintf(stderr, "\n  %s/%s does not compile:\n%s", types[t], cases[k].name, diag);
            CU_ASSERT(ok);
            if (ok) {
                Counts n = counts_of(&c);
                bool good = n.fmas == cases[k].fmas && n.muls == cases[k].muls;
                if (!good)
                    fprintf(stderr, "\n  %s/%s: %d fma, %d mul (want %d, %d)\n%s", types[t], cases[k].name, n.fmas,
                            n.muls, cases[k].fmas, cases[k].muls, diag);
                CU_ASSERT(good);
                /* Every candidate left unfused is explained by a remark. */
                if (cases[k].muls && strstr(cases[k].body, "+"))
                    CU_ASSERT(strstr(diag, "not fused") != NULL);
                if (cases[k].fmas && strcmp(cases[k].name, "explicit_fma") != 0)
                    CU_ASSERT(strstr(diag, "fused multiply-add") != NULL);
            }
            pipe_free(&c);
            free(src);
            free(diag);
        }
}

static char *emit(const char *src, bool contract, bool host, CgOutputKind kind, const char *fastmath);
static int count_lines_with(const char *text, const char *a, const char *b);

/* The matrix as LLVM IR: one llvm.fma call per fused pair (BFloat16 has no
 * fma instruction; its exact software fma shows as a double-precision
 * product). The FXIR of every case is a golden file (fxir/matrix_*). */
static void test_matrix_ir(void)
{
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            char *src = kernel_source(types[t], cases[k].body);
            char *ir = emit(src, true, false, CG_OUT_LL, NULL);
            bool bf16 = strcmp(types[t], "BFloat16") == 0;
            int want = cases[k].fmas;
            int got = bf16 ? (strstr(ir, "fmul double") ? want : 0) : count_lines_with(ir, "call ", "@llvm.fma.");
            if (got != want)
                fprintf(stderr, "\n  %s/%s: %d llvm.fma calls, want %d\n", types[t], cases[k].name, got, want);
            CU_ASSERT_EQUAL(got, want);
            free(ir);
            free(src);
        }
    }
}

static void test_mixed_precision_stays_unfused(void)
{
    const char *src = "kernel k(p: Ptr[Float32], a: Float16, b: Float16, c: Float32) {\n"
                      "    p[0] = a * b + c\n}\n";
    FxCompilation c;
    FxOptions o;
    char *diag = NULL;
    CU_ASSERT_FATAL(lower_source(src, true, &c, &o, &diag));
    Counts n = counts_of(&c);
    CU_ASSERT_EQUAL(n.fmas, 0);
    CU_ASSERT_EQUAL(n.muls, 1);
    CU_ASSERT(strstr(diag, "another precision") != NULL);
    pipe_free(&c);
    free(diag);
}

static void test_contract_off(void)
{
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        char *src = kernel_source(types[t], "p[0] = a * b + c\n    p[1] = fx.fma(a, b, c)"), *diag = NULL;
        FxCompilation c;
        FxOptions o;
        CU_ASSERT_FATAL(lower_source(src, false, &c, &o, &diag));
        Counts n = counts_of(&c);
        CU_ASSERT_EQUAL(n.fmas, 1);   /* the explicit one is kept */
        CU_ASSERT_EQUAL(n.muls, 1);
        pipe_free(&c);
        free(src);
        free(diag);
    }
}

/* UnfuseFMA inverts FuseFMA: printing after unfuse equals printing before fuse. */
static void test_unfuse_inverts_fuse(void)
{
    /* (A let-bound product is fused too, but unfusing places the new product
     * right before the add, so only its position differs from the source.) */
    static const char *const bodies[] = { "p[0] = a * b + c", "p[0] = a * b - c", "p[0] = c - a * b" };
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t k = 0; k < sizeof bodies / sizeof bodies[0]; k++) {
            char *src = kernel_source(types[t], bodies[k]), *diag = NULL;
            FxCompilation c;
            FxOptions o;
            CU_ASSERT_FATAL(lower_source(src, false, &c, &o, &diag));
            char *before = fxs_fxir_text(c.module);
            PassOptions po = { .fp_contract = true };
            CU_ASSERT_EQUAL(pass_fp_contraction(c.module, &po), 1);
            char *fused = fxs_fxir_text(c.module);
            CU_ASSERT(strcmp(before, fused) != 0);
            CU_ASSERT_EQUAL(pass_unfuse_all(c.module), 1);
            char *after = fxs_fxir_text(c.module);
            bool same = strcmp(before, after) == 0;
            if (!same)
                fprintf(stderr, "\n--- before\n%s--- after unfuse\n%s", before, after);
            CU_ASSERT(same);
            free(before);
            free(fused);
            free(after);
            pipe_free(&c);
            free(src);
            free(diag);
        }
}

/* ---- .fxir in, .fxir out ----
 * fxir/NAME.PASS.fxir is read, verified, run through PASS alone (for the
 * host target), verified again and printed, with the remarks the pass
 * made first; NAME.PASS.expected holds the result. */

/* A .fxir file read with diagnostics captured and located as NAME:LINE:COL. */
typedef struct FxirFile {
    char *text;
    SrcFile *file;
    Arena *arena;
    FxModule *module;   /* NULL when it does not read */
} FxirFile;

static FxirFile read_fxir(const char *path, const char *name)
{
    FxirFile r = { fxt_read_file(path), NULL, arena_new(), NULL };
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.text);
    r.file = diag_file_from_string(name, r.text);
    diag_reset();
    fxt_capture_begin();
    r.module = fxir_read(r.arena, r.file);
    return r;
}

static void free_fxir(FxirFile *r)
{
    arena_free(r->arena);
    diag_free_file(r->file);
    free(r->text);
}

/* A contraction-precision golden names its scheme first: ozaki2_16-gemm.contraction-precision.fxir */
static const char *precision_of(const char *name)
{
    static char spec[32];
    snprintf(spec, sizeof spec, "%.*s", (int)strcspn(name, "-."), name);
    for (char *c = spec; *c; c++)
        if (*c == '_')
            *c = ':';
    return spec;
}

/* A golden whose name holds "-gfxNNN" runs for that processor
 * (auto-gfx942.contraction-precision.fxir); the others for the host. */
static const TgtTarget *target_of(const char *name)
{
    const char *g = strstr(name, "-gfx");
    char proc[16];
    if (!g)
        return tgt_host();
    snprintf(proc, sizeof proc, "%.*s", (int)strcspn(g + 1, "-."), g + 1);
    const TgtTarget *t = tgt_lookup(proc);
    CU_ASSERT_PTR_NOT_NULL(t);
    return t ? t : tgt_host();
}

static char *run_pass_on_file(const char *path, const char *name, void *ctx)
{
    (void)ctx;
    char pass[64];
    const char *dot = strchr(name, '.');
    snprintf(pass, sizeof pass, "%.*s", (int)(strstr(name, ".fxir") - dot - 1), dot + 1);
    FxirFile in = read_fxir(path, name);
    FxModule *m = in.module;
    bool ok = m && fxir_verify(m);
    PassOptions po = { .target = target_of(name), .fp_contract = true, .remarks = ~0u, .remarks_missed = ~0u };
    fxir_parse_precision(strstr(name, ".contraction-precision.") ? precision_of(name) : "native", &po.precision);
    po.direct_rescaling = strstr(name, "direct") != NULL;
    ok = ok && pass_run_one(m, pass, &po) && fxir_verify(m);
    char *remarks = fxt_capture_end();
    char *out = NULL;
    size_t n;
    FILE *o = open_memstream(&out, &n);
    fputs(remarks, o);
    if (ok) {
        fxir_print_module(o, m);
        for (int k = 0; k < m->programs.len; k++)
            fxir_print_program(o, m->programs.items[k]);
        for (int k = 0; k < m->plans.len; k++)
            fxplan_print(o, m->plans.items[k]);
    }
    fclose(o);
    if (!ok)
        fprintf(stderr, "\n  %s does not read, verify or pass:\n%s", name, remarks);
    CU_ASSERT(ok);
    free(remarks);
    free_fxir(&in);
    return out;
}

static void test_fxir_goldens(void)
{
    CU_ASSERT(fxt_golden_dir("fxir", ".fxir", ".expected", run_pass_on_file, NULL) >= 8);
}

/* The operation counts --contraction-precision=auto estimates with are
 * those of the maps the rewrite builds: Ozaki-II with the guard on a
 * Float64 MatMul, recounted per kind in the straight-line map bodies (the
 * A side's splits per element of A, the combine and the guard's flags per
 * result) for several moduli counts. */
static void count_ops(const FxFunc *f, double *f64, double *other)
{
    for (const FxInst *i = f->body.first; i; i = i->next)
        if (i->op != FX_CONST && i->op != FX_PARAM && i->op != FX_RETURN)
            *(i->type == type_scalar(SC_FLOAT64) ? f64 : other) += 1;
}

static void test_auto_op_counts(void)
{
    static const char text[] =
        "program g(%A: Tensor[Float64, 64, 256], %B: Tensor[Float64, 256, 64], %C: Tensor[Float64, 64, 64]) {\n"
        "  node0: %C = matmul %A @ %B alpha=1 types(in=Float64, acc=Float64, out=Float64) : Tensor[Float64, 64, 64]\n"
        "}\n";
    static const int Ls[] = { 3, 8, 16, 20 };
    for (size_t k = 0; k < sizeof Ls / sizeof Ls[0]; k++) {
        Arena *a = arena_new();
        SrcFile *file = diag_file_from_string("ops.fxir", text);
        FxModule *m = fxir_read(a, file);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        PassOptions po = { .target = tgt_host(), .precision = { FXP_OZAKI2, Ls[k] }, .guard_fallback = true };
        CU_ASSERT(pass_run_one(m, "contraction-precision", &po));
        PassMapOps got = { 0, 0, 0, 0 }, want = pass_ozaki2_map_ops(Ls[k]);
        int abssplits = 0;   /* the guard's split of A comes first, then B's */
        for (int f = 0; f < m->funcs.len; f++) {
            const FxFunc *fn = m->funcs.items[f];
            if (strstr(fn->name, "__splitA") || (strstr(fn->name, "__abssplit") && abssplits++ == 0))
                count_ops(fn, &got.split_f64, &got.split_other);
            else if (strstr(fn->name, "__combine") || strstr(fn->name, "__guard"))
                count_ops(fn, &got.combine_f64, &got.combine_other);
        }
        if (memcmp(&got, &want, sizeof got) != 0)
            fprintf(stderr, "\n  L = %d: split %g + %g, combine %g + %g; the estimate assumes %g + %g, %g + %g", Ls[k],
                    got.split_f64, got.split_other, got.combine_f64, got.combine_other, want.split_f64,
                    want.split_other, want.combine_f64, want.combine_other);
        CU_ASSERT(memcmp(&got, &want, sizeof got) == 0);
        arena_free(a);
        diag_free_file(file);
    }
}

/* broken/NAME.fxir: the reader or the verifier rejects it with located
 * errors, which NAME.expected holds. */
static char *verify_file(const char *path, const char *name, void *ctx)
{
    (void)ctx;
    FxirFile in = read_fxir(path, name);
    bool ok = in.module && fxir_verify(in.module);
    char *out = fxt_capture_end();
    CU_ASSERT(!ok);
    CU_ASSERT(diag_error_count() > 0);
    CU_ASSERT(strstr(out, name) == out);   /* located: starts with NAME.fxir:LINE:COL */
    free_fxir(&in);
    return out;
}

static void test_broken_fxir(void)
{
    CU_ASSERT(fxt_golden_dir("broken", ".fxir", ".expected", verify_file, NULL) >= 8);
}

/* print -> read -> print is the identity on every stage's FXIR of real sources. */
static void test_reader_round_trip(void)
{
    static const char *const dirs[] = { "/../driver/run", "/../driver/diag", "/../../examples" };
    static const char *const stages[] = { "sema", "fp-contraction", "map-fusion", "program-lowering" };
    int checked = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s%s", fxt_dir, dirs[d]);
        int n;
        char **names = fxt_list(dir, ".fx", &n);
        for (int i = 0; i < n; i++)
            for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++) {
                char path[1300], *printed = NULL;
                snprintf(path, sizeof path, "%s/%s", dir, names[i]);
                char *src = fxt_read_file(path);
                FxCompilation c;
                FxOptions o;
                char *diag = NULL;
                size_t len;
                FILE *out = open_memstream(&printed, &len);
                bool ok = src && lower_source_to(src, stages[s], out, &c, &o, &diag);
                fclose(out);
                if (ok) {
                    SrcFile *f = diag_file_from_string("printed.fxir", printed);
                    Arena *a = arena_new();
                    FxModule *m = fxir_read(a, f);
                    char *again = NULL;
                    FILE *o2 = open_memstream(&again, &len);
                    if (m) {
                        fxir_print_module(o2, m);
                        for (int k = 0; k < m->programs.len; k++)
                            fxir_print_program(o2, m->programs.items[k]);
                    }
                    fclose(o2);
                    bool same = m && strcmp(printed, again) == 0;
                    if (!same)
                        fprintf(stderr, "\n  %s after %s does not read back the same\n", names[i], stages[s]);
                    CU_ASSERT(same);
                    checked++;
                    free(again);
                    arena_free(a);
                    diag_free_file(f);
                }
                if (src)
                    pipe_free(&c);
                free(printed);
                free(diag);
                free(src);
            }
        fxt_free_list(names, n);
    }
    CU_ASSERT(checked >= 40);
}

/* ---- what reaches LLVM and the ISA ---- */

/* Compile to LLVM IR text or gfx942 assembly (kind) and return it. */
static char *emit(const char *src, bool contract, bool host, CgOutputKind kind, const char *fastmath)
{
    FxCompilation c;
    FxOptions o;
    char *diag = NULL, *text = NULL;
    bool ok = lower_source_with(src, contract, fastmath, &c, &o, &diag);
    CU_ASSERT(ok);
    if (ok) {
        o.target = host ? tgt_host() : tgt_default();
        CgModule *m = pipe_codegen(&c);
        CU_ASSERT_PTR_NOT_NULL(m);
        char path[128];
        snprintf(path, sizeof path, "/tmp/fxcc-passes-out-%d", (int)getpid());
        if (m && cg_write(m, kind, path))
            text = fxt_read_file(path);
        remove(path);
        if (m)
            cg_free(m);
    }
    pipe_free(&c);
    free(diag);
    return text ? text : calloc(1, 1);
}

/* Lines holding both a and b. */
static int count_lines_with(const char *text, const char *a, const char *b)
{
    int n = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[4096];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        n += strstr(buf, a) && strstr(buf, b);
        line = end ? end + 1 : NULL;
    }
    return n;
}

static int count_of(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

static void test_llvm_ir(void)
{
    static const char *const llvm_types[] = { "half", "bfloat", "float", "double", "<4 x float>" };
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        char *src = kernel_source(types[t], "p[0] = a * b + c");
        char *fused = emit(src, true, false, CG_OUT_LL, NULL);
        char *plain = emit(src, false, false, CG_OUT_LL, NULL);
        char want[64];
        snprintf(want, sizeof want, "@llvm.fma.");
        /* BFloat16 has no fma instruction: codegen computes it exactly in
         * double with round-to-odd before the final rounding. */
        bool bf16 = strcmp(types[t], "BFloat16") == 0;
        CU_ASSERT(bf16 ? strstr(fused, "fmul double") != NULL : strstr(fused, want) != NULL);
        CU_ASSERT(strstr(plain, want) == NULL);
        CU_ASSERT(strcmp(fused, plain) != 0);
        /* With contraction off and no contract flag, LLVM gets no licence to fuse. */
        CU_ASSERT(strstr(plain, "contract") == NULL);
        CU_ASSERT(strstr(plain, "fmul") != NULL && strstr(plain, llvm_types[t]) != NULL);
        free(fused);
        free(plain);
        free(src);
    }
}

static void test_gfx942_isa(void)
{
    static const struct { const char *type, *fma, *mul; } isa[] = {
        { "Float32", "v_fma", "v_mul_f32" }, { "Float64", "v_fma_f64", "v_mul_f64" },
    };
    for (int i = 0; i < 2; i++) {
        char *src = kernel_source(isa[i].type, "p[0] = a * b + c");
        char *fused = emit(src, true, false, CG_OUT_ASM, NULL);
        char *plain = emit(src, false, false, CG_OUT_ASM, NULL);
        CU_ASSERT(strstr(fused, isa[i].fma) != NULL || strstr(fused, "v_fmac") != NULL);
        CU_ASSERT(strstr(fused, isa[i].mul) == NULL);
        CU_ASSERT(strstr(plain, "v_fma") == NULL && strstr(plain, "v_fmac") == NULL);
        CU_ASSERT(strstr(plain, isa[i].mul) != NULL);
        CU_ASSERT(strstr(plain, i == 0 ? "v_add_f32" : "v_add_f64") != NULL);
        free(fused);
        free(plain);
        free(src);
    }
    /* A contract flag from `with fx.fastmath` lets LLVM fuse what the pass left alone. */
    char *src = kernel_source("Float32", "with fx.fastmath(fx.FastMathFlags.contract) {\n        p[0] = a * b + c\n    }");
    char *isa_text = emit(src, false, false, CG_OUT_ASM, NULL);
    CU_ASSERT(count_of(isa_text, "v_fma") + count_of(isa_text, "v_fmac") >= 1);
    free(isa_text);
    free(src);
}

/* The fma keeps the fast-math flags its multiply and add share. */
static void test_fastmath_intersection(void)
{
    const char *src = "kernel k(p: Ptr[Float32], a: Float32, b: Float32, c: Float32) {\n"
                      "    let t = a * b\n"
                      "    with fx.fastmath(\"nnan,ninf\") {\n"
                      "        p[0] = t + c\n"
                      "    }\n}\n";
    FxCompilation c;
    FxOptions o;
    char *diag = NULL;
    CU_ASSERT_FATAL(lower_source_with(src, true, "nnan,arcp", &c, &o, &diag));
    char *text = fxs_fxir_text(c.module);
    CU_ASSERT(strstr(text, "fma") != NULL);
    const FxFunc *k = c.module->funcs.items[0];
    const FxInst *fma = NULL;
    for (const FxInst *i = k->body.first; i; i = i->next)
        if (i->op == FX_FMA)
            fma = i;
    CU_ASSERT_PTR_NOT_NULL_FATAL(fma);
    CU_ASSERT_EQUAL(fma->fmf, FMF_NNAN);
    free(text);
    free(diag);
    pipe_free(&c);
}

/* Fast-math precedence, as LLVM flags: explicit fastmath= > innermost with >
 * --fastmath; integer operations get none. */
static void test_fastmath_precedence(void)
{
    const char *src = "kernel k(p: Ptr[Float32], q: Ptr[Int32], a: Float32, b: Float32, i: Int32) {\n"
                      "    p[0] = a * b\n"
                      "    with fx.fastmath(\"nnan\") {\n"
                      "        with fx.fastmath(fx.FastMathFlags.ninf) {\n"
                      "            p[1] = a / b\n"
                      "        }\n"
                      "        p[2] = fx.sqrt(a, fastmath=fx.FastMathFlags.afn) - b\n"
                      "        q[0] = i * i + 1\n"
                      "    }\n}\n";
    char *ir = emit(src, false, false, CG_OUT_LL, "nsz");
    CU_ASSERT(strstr(ir, "fmul nsz float") != NULL);              /* --fastmath */
    CU_ASSERT(strstr(ir, "fdiv ninf float") != NULL);             /* innermost with */
    CU_ASSERT(strstr(ir, "call afn float @llvm.sqrt") != NULL);   /* explicit keyword */
    CU_ASSERT(strstr(ir, "fsub nnan float") != NULL);             /* the enclosing with */
    CU_ASSERT(count_lines_with(ir, " nnan ", "mul i32") + count_lines_with(ir, " nsw ", "nnan") == 0);
    free(ir);
    /* --fast-fp-math means "fast" when --fastmath is absent */
    FxOptions o;
    opt_defaults(&o);
    o.fast_fp_math = true;
    o.arch = "gfx942";
    CU_ASSERT(opt_finish(&o));
    CU_ASSERT_EQUAL(o.fastmath, FMF_FAST);
    opt_defaults(&o);
    o.fast_fp_math = true;
    o.fastmath_set = true;
    o.fastmath = FMF_NNAN;
    CU_ASSERT(opt_finish(&o));
    CU_ASSERT_EQUAL(o.fastmath, FMF_NNAN);
}

static bool split_doubles(const FxInst *fma, void *ctx)
{
    (*(int *)ctx)++;
    return fma->type->kind == TY_SCALAR && fma->type->scalar == SC_FLOAT64;
}

/* A target hook splits the fmas it prefers unfused, after contraction. */
static void test_target_hook(void)
{
    const char *src = "kernel k(p: Ptr[Float32], q: Ptr[Float64], a: Float32, b: Float64) {\n"
                      "    p[0] = a * a + a\n    q[0] = b * b + b\n}\n";
    FxCompilation c;
    FxOptions o;
    char *diag = NULL;
    CU_ASSERT_FATAL(lower_source(src, false, &c, &o, &diag));
    int asked = 0;
    PassOptions po = { .fp_contract = true, .prefers_split_fma = split_doubles, .hook_ctx = &asked };
    CU_ASSERT_TRUE(pass_run_pipeline(c.module, &po));
    Counts n = counts_of(&c);
    CU_ASSERT_EQUAL(asked, 2);
    CU_ASSERT_EQUAL(n.fmas, 1);
    CU_ASSERT_EQUAL(n.muls, 1);
    free(diag);
    pipe_free(&c);
}

static const FxtTest tests[] = {
    { "legality matrix x 5 types", test_legality_matrix },
    { "matrix: llvm.fma per case", test_matrix_ir },
    { "mixed precision stays unfused", test_mixed_precision_stays_unfused },
    { "--fp-contract=off keeps explicit fma only", test_contract_off },
    { "unfuse inverts fuse", test_unfuse_inverts_fuse },
    { ".fxir in, .fxir out, per pass", test_fxir_goldens },
    { "auto's operation counts are the rewrite's", test_auto_op_counts },
    { "broken FXIR: located reader and verifier errors", test_broken_fxir },
    { "reader: print -> read -> print on every stage of real sources", test_reader_round_trip },
    { "fast-math flags: the fma keeps what both share", test_fastmath_intersection },
    { "target hook unfuses what it prefers split", test_target_hook },
    { "fast-math precedence reaches LLVM", test_fastmath_precedence },
    { "LLVM IR: llvm.fma when fused, no contract flags when off", test_llvm_ir },
    { "gfx942 ISA: v_fma where fused, v_mul + v_add where not", test_gfx942_isa },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "fp-contraction", tests, NULL, NULL }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
