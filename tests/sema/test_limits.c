/* test_limits.c - sema's limits (docs/limits.md, issue 15): each hostile
 * input of the issue, generated here at the limit (it compiles) and one
 * above (one located error, and no crash: the suite also runs under ASan).
 * Sizes are the limits themselves, so every case takes well under a second. */
#include "fxtest.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sema/sema.h"

/* The limits as documented (src/sema/sema_int.h holds them for sema). */
enum { MAX_NESTING = 4000, MAX_CONST_DEPTH = 1000, MAX_CALL_DEPTH = 500, MAX_KERNEL_SIZE = 32768 };

typedef struct Source {
    char *text;
    size_t len;
    FILE *f;
} Source;

static void src_open(Source *s)
{
    s->f = open_memstream(&s->text, &s->len);
}

static void src_printf(Source *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void src_printf(Source *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->f, fmt, ap);
    va_end(ap);
}

/* Parses, registers and lowers s's text; returns the diagnostics (malloc'd)
 * and whether the module was lowered. */
static char *compile(Source *s, bool *lowered, FxModule **module_out)
{
    fclose(s->f);
    Arena *arena = arena_new();
    SrcFile *file = diag_file_from_string("limits.fx", s->text);
    SemaOptions opts = { .wave_size = 64 };
    diag_reset();
    diag_set_dedupe(true);
    fxt_capture_begin();
    Sema *sema = sema_new(arena, &opts);
    AstNode *ast = parse_file(arena, file);
    FxModule *m = ast && sema_add_module(sema, ast) ? sema_lower(sema) : NULL;
    char *diags = fxt_capture_end();
    *lowered = m != NULL;
    if (module_out && m) {
        /* the caller only reads the function names, copied out here */
        *module_out = m;
        return diags;
    }
    sema_free(sema);
    diag_free_file(file);
    arena_free(arena);
    free(s->text);
    return diags;
}

static int count_of(const char *text, const char *word)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, word)); p += strlen(word))
        n++;
    return n;
}

/* Lowered without a diagnostic. */
static void expect_ok(Source *s)
{
    bool ok;
    char *d = compile(s, &ok, NULL);
    CU_ASSERT(ok);
    CU_ASSERT_STRING_EQUAL(d, "");
    free(d);
}

/* Exactly one error, containing `want`, at line:col. */
static void expect_error(Source *s, const char *want, int line, int col)
{
    bool ok;
    char *d = compile(s, &ok, NULL);
    char where[64];
    snprintf(where, sizeof where, "limits.fx:%d:%d: error: ", line, col);
    CU_ASSERT(!ok);
    CU_ASSERT_EQUAL(count_of(d, "error:"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, where));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, want));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "(docs/limits.md)"));
    if (!strstr(d, want) || !strstr(d, where))
        fprintf(stderr, "\nexpected %s...%s, got:\n%.2000s\n", where, want, d);
    free(d);
}

/* A kernel using C{n-1}, then n consts each needing the next one defined
 * below it: evaluating C{n-1} needs all n at once. */
static void const_chain(Source *s, int n)
{
    src_open(s);
    src_printf(s, "kernel k(p: Ptr[Int32]) {\n    p[0] = C%d\n}\n", n - 1);
    for (int i = n - 1; i > 0; i--)
        src_printf(s, "const C%d = C%d + 1\n", i, i - 1);
    src_printf(s, "const C0 = 1\n");
}

static void test_const_chain(void)
{
    Source s;
    const_chain(&s, MAX_CONST_DEPTH);
    expect_ok(&s);
    /* line 4 + k defines C{n-1-k}; C0's use (by C1) is on the last line but one */
    const_chain(&s, MAX_CONST_DEPTH + 1);
    expect_error(&s, "the value of const 'C0' is needed inside a chain of 1000 consts", 4 + MAX_CONST_DEPTH - 1, 12);
    /* the 100,000-deep chain: the same one error, no stack overflow */
    const_chain(&s, 100000);
    bool ok;
    char *d = compile(&s, &ok, NULL);
    CU_ASSERT(!ok);
    CU_ASSERT_EQUAL(count_of(d, "error:"), 1);
    CU_ASSERT_EQUAL(count_of(d, "note:"), 0);
    free(d);
}

/* fn f{i} calls f{i-1}; the kernel calls f{n-1}: n fns lowered one inside another. */
static void fn_chain(Source *s, int n)
{
    src_open(s);
    src_printf(s, "fn f0(x: Float32) -> Float32 {\n    return x + 1.0\n}\n");
    for (int i = 1; i < n; i++)
        src_printf(s, "fn f%d(x: Float32) -> Float32 {\n    return f%d(x) + 1.0\n}\n", i, i - 1);
    src_printf(s, "kernel k(p: Ptr[Float32]) {\n    p[0] = f%d(p[0])\n}\n", n - 1);
}

static void test_fn_chain(void)
{
    Source s;
    fn_chain(&s, MAX_CALL_DEPTH);
    expect_ok(&s);
    fn_chain(&s, MAX_CALL_DEPTH + 1);
    /* f1's body (lines 5-7) calls f0 at 5:12 */
    expect_error(&s, "the call of 'f0' is the end of a chain of more than 500 fn calls", 5, 12);
}

/* f{i} calls f{i-1} twice: 2^n calls once inlined. */
static void fn_tree(Source *s, int n)
{
    src_open(s);
    src_printf(s, "fn f0(x: Float32) -> Float32 {\n    return x + 1.0\n}\n");
    for (int i = 1; i <= n; i++)
        src_printf(s, "fn f%d(x: Float32) -> Float32 {\n    return f%d(x) + f%d(x)\n}\n", i, i - 1, i - 1);
    src_printf(s, "kernel k(p: Ptr[Float32]) {\n    p[0] = f%d(p[0])\n}\n", n);
}

static void test_inlined_call_tree(void)
{
    Source s;
    fn_tree(&s, 8);
    expect_ok(&s);
    /* 2^40 inlined calls: stops at the first call that crosses the size
     * limit: f11 expands to 18427 instructions (f_i = 2 f_{i-1} + 9), so
     * f12's second call (line 3 * 12 + 2) crosses 32768 */
    fn_tree(&s, 40);
    expect_error(&s, "fn 'f12' grows past 32768 FXIR instructions here: every fn is inlined, and 'f11' brings "
                 "18427", 3 * 12 + 2, 21);
}

/* static_range(n) of a body of 6 FXIR instructions: the kernel is 1 (its
 * parameter) + 7n (each copy also counts one) instructions. */
static void static_range_flat(Source *s, int n)
{
    src_open(s);
    src_printf(s, "kernel k(p: Ptr[Float32]) {\n    for i in static_range(%d) {\n        p[i] = p[i] + 1.0\n"
               "    }\n}\n", n);
}

static void test_static_range_size(void)
{
    Source s;
    int at_limit = (MAX_KERNEL_SIZE - 1) / 7;
    static_range_flat(&s, at_limit);
    expect_ok(&s);
    static_range_flat(&s, at_limit + 1);
    expect_error(&s, "unrolling this static_range grows kernel 'k' past 32768 FXIR instructions", 2, 14);
}

/* n statements of 6 FXIR instructions each, written out: straight-line
 * code counts too (LLVM's time grows the same way however the code came). */
static void straight_line(Source *s, int n)
{
    src_open(s);
    src_printf(s, "kernel k(p: Ptr[Float32]) {\n");
    for (int i = 0; i < n; i++)
        src_printf(s, "    p[%d] = p[%d] + 1.0\n", i % 64, (i * 7) % 64);
    src_printf(s, "}\n");
}

static void test_straight_line_size(void)
{
    Source s;
    int at_limit = (MAX_KERNEL_SIZE - 1) / 6;
    straight_line(&s, at_limit);
    expect_ok(&s);
    straight_line(&s, at_limit + 1);
    expect_error(&s, "kernel 'k' grows past 32768 FXIR instructions with this statement", at_limit + 2, 5);
}

static void test_static_range_nested(void)
{
    /* the nested static_range(60000): 3.6e9 copies; the inner loop
     * reports, the outer one stops without a second error */
    Source s;
    src_open(&s);
    src_printf(&s, "kernel k(p: Ptr[Float32]) {\n    for i in static_range(60000) {\n"
               "        for j in static_range(60000) {\n            p[0] = p[0] + 1.0\n        }\n    }\n}\n");
    expect_error(&s, "unrolling this static_range grows kernel 'k' past 32768 FXIR instructions", 3, 18);
    /* copies that emit nothing count too: only static values in the body */
    src_open(&s);
    src_printf(&s, "kernel k(p: Ptr[Int32]) {\n    for i in static_range(60000) {\n"
               "        for j in static_range(60000) {\n            let x = i * j\n        }\n    }\n}\n");
    expect_error(&s, "unrolling this static_range grows kernel 'k' past 32768 FXIR instructions", 3, 18);
}

/* n consts, each 10 levels of abs(-(...)) around the next one: the
 * nesting limit (expressions inside consts inside consts) comes before the
 * const-chain limit. */
static void test_nesting(void)
{
    Source s;
    int n = 300;
    src_open(&s);
    src_printf(&s, "kernel k(p: Ptr[Int32]) {\n    p[0] = C%d\n}\n", n - 1);
    for (int i = n - 1; i > 0; i--) {
        src_printf(&s, "const C%d = ", i);
        for (int k = 0; k < 10; k++)
            src_printf(&s, "abs(-");
        src_printf(&s, "C%d", i - 1);
        for (int k = 0; k < 10; k++)
            src_printf(&s, ")");
        src_printf(&s, "\n");
    }
    src_printf(&s, "const C0 = 1\n");
    bool ok;
    char *d = compile(&s, &ok, NULL);
    CU_ASSERT(!ok);
    CU_ASSERT_EQUAL(count_of(d, "error:"), 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "nest more than 4000 levels deep here"));
    free(d);
}

/* Scopes switch to a hash index past 16 names: lookups must still find the
 * newest binding of a name, in big local scopes and among many consts. */
static void test_big_scopes(void)
{
    Source s;
    src_open(&s);
    for (int i = 0; i < 300; i++)
        src_printf(&s, "const C%d = %d\n", i, i * 3);
    src_printf(&s, "static_assert(C0 == 0 and C17 == 51 and C299 == 897)\n");
    src_printf(&s, "kernel k(p: Ptr[Int32]) {\n    let x = 0\n");
    for (int i = 0; i < 100; i++)
        src_printf(&s, "    let y%d = %d\n    let x = x + 1\n", i, i);
    src_printf(&s, "    static_assert(x == 100 and y16 == 16 and y99 == 99)\n    p[0] = x\n}\n");
    expect_ok(&s);
}

/* fns come out after every fn they call (the order codegen relies on). */
static void test_fn_order(void)
{
    Source s;
    src_open(&s);
    src_printf(&s, "fn c(x: Float32) -> Float32 {\n    return b(x) + a(x)\n}\n"
                   "fn b(x: Float32) -> Float32 {\n    return a(x)\n}\n"
                   "fn a(x: Float32) -> Float32 {\n    return x\n}\n"
                   "kernel k(p: Ptr[Float32]) {\n    p[0] = c(p[0])\n}\n");
    bool ok;
    FxModule *m = NULL;
    char *d = compile(&s, &ok, &m);
    CU_ASSERT_FATAL(ok && m);
    int pos[3] = { -1, -1, -1 };
    for (int i = 0; i < m->funcs.len; i++) {
        const char *name = ((FxFunc *)m->funcs.items[i])->name;
        if (name[0] >= 'a' && name[0] <= 'c' && name[1] == 0)
            pos[name[0] - 'a'] = i;
    }
    CU_ASSERT(pos[0] >= 0 && pos[0] < pos[1] && pos[1] < pos[2]);
    free(d);
}

static void test_import_too_big(void)
{
    Source s;
    src_open(&s);
    src_printf(&s, "import \"/dev/zero\"\nkernel k(p: Ptr[Int32]) {\n    p[0] = 1\n}\n");
    bool ok;
    char *d = compile(&s, &ok, NULL);
    CU_ASSERT(!ok);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "limits.fx:1:1: error: cannot import \"/dev/zero\": the file is larger "
                                     "than 64 MiB"));
    free(d);
}

const FxtTest limits_tests[] = {
    { "const chain at and over the limit", test_const_chain },
    { "fn call chain at and over the limit", test_fn_chain },
    { "2^40 inlined calls stop at the size limit", test_inlined_call_tree },
    { "static_range at and over the size limit", test_static_range_size },
    { "nested static_range(60000) stops at once", test_static_range_nested },
    { "straight-line code at and over the size limit", test_straight_line_size },
    { "nesting through consts", test_nesting },
    { "big scopes find the newest binding", test_big_scopes },
    { "fns listed after their callees", test_fn_order },
    { "an import larger than 64 MiB", test_import_too_big },
    { NULL, NULL }
};
