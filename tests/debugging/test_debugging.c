/* test_debugging.c - fx.printf and fx.assert (docs/debugging.md).
 *
 * Host: a kernel prints run-time parameters of every integer and float
 * type under many conversions, flags, widths and precisions; the model is
 * the C library's printf of the same values (the argument's value for
 * %d/%i/%u, its bits at its own width for %x/%X/%o, the exact double for
 * float conversions). Static arguments print what run-time ones print.
 * fx.assert stops the launch with its location, kernel, block and thread;
 * --no-assert compiles it (and its arguments' code) away. AMDGPU: the ISA
 * calls ockl's printf, traps, and the kernel gets the hostcall buffer; the
 * LLVM module is verified (fxsource does) on gfx90a/gfx942/gfx1100/gfx1201.
 * FXIR: print/assert survive a print-and-read round trip. */
#include "fxtest.h"
#include "fxsource.h"
#include "fxir/verify.h"
#include "runtime/fxrt.h"
#include "codegen/codegen.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- capturing the kernels' stdout ---- */

static int saved_fd = -1;
static FILE *capture_file;

static void stdout_begin(void)
{
    fflush(stdout);
    capture_file = tmpfile();
    saved_fd = dup(1);
    dup2(fileno(capture_file), 1);
}

static char *stdout_end(void)
{
    fflush(stdout);
    dup2(saved_fd, 1);
    close(saved_fd);
    long n = ftell(capture_file);
    char *text = calloc((size_t)(n > 0 ? n : 0) + 1, 1);
    rewind(capture_file);
    if (n > 0 && fread(text, 1, (size_t)n, capture_file) != (size_t)n)
        text[0] = 0;
    fclose(capture_file);
    return text;
}

/* Runs kernel k(v: T) of `src` on one work-item with *value as v; what it printed. */
static char *run_printing(const char *src, const void *value)
{
    FxsModule m;
    if (!fxs_open(&m, src)) {
        fxs_close(&m);
        return NULL;
    }
    void *args[1] = { (void *)value };
    size_t bytes[1] = { 0 };
    stdout_begin();
    bool ok = fxs_launch(&m, "k", 1, 1, args, bytes);
    char *out = stdout_end();
    fxs_close(&m);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

/* ---- integers ---- */

typedef struct IntCase {
    const char *type;
    int width;
    bool is_signed;
} IntCase;

static const IntCase int_types[] = {
    { "Int4", 4, true }, { "Int8", 8, true }, { "Int16", 16, true }, { "Int32", 32, true }, { "Int64", 64, true },
    { "Uint8", 8, false }, { "Uint16", 16, false }, { "Uint32", 32, false }, { "Uint64", 64, false },
};

/* '+' and ' ' apply to signed values only, as in C */
static const char *const int_format = "%d|%5i|%-6u|%+d|% d|%x|%#X|%o|%08x|%.3d";

static uint64_t mask_of(int width) { return width == 64 ? ~UINT64_C(0) : (UINT64_C(1) << width) - 1; }

/* The bits of v (two's complement at the type's width) as its value. */
static int64_t signed_value(const IntCase *t, uint64_t bits)
{
    bits &= mask_of(t->width);
    if (t->width < 64 && (bits >> (t->width - 1)) & 1)
        bits |= ~mask_of(t->width);
    return (int64_t)bits;
}

static char *int_model(const IntCase *t, uint64_t bits)
{
    char *s = NULL;
    uint64_t b = bits & mask_of(t->width);
    if (t->is_signed) {
        long long v = signed_value(t, bits);
        if (asprintf(&s, "%lld|%5lld|%-6lld|%+lld|% lld|%llx|%#llX|%llo|%08llx|%.3lld\n", v, v, v, v, v,
                     (unsigned long long)b, (unsigned long long)b, (unsigned long long)b, (unsigned long long)b,
                     v) < 0)
            return NULL;
    } else {
        unsigned long long v = b;
        const char *uformat = "%llu|%5llu|%-6llu|%+llu|% llu|%llx|%#llX|%llo|%08llx|%.3llu\n";
        if (asprintf(&s, uformat, v, v, v, v, v, v, v, v, v, v) < 0)
            return NULL;
    }
    return s;
}

/* The storage form of a parameter: the low bytes of a little-endian word
 * (Int4 takes one byte, sign-extended). */
static void storage(const IntCase *t, uint64_t bits, uint64_t *out)
{
    *out = t->width == 4 ? (uint64_t)signed_value(t, bits) : bits & mask_of(t->width);
}

static void test_integers(void)
{
    const uint64_t samples[] = { 0, 1, 5, ~UINT64_C(0), UINT64_C(0x8000000000000000), UINT64_C(0x7fffffffffffffff),
                                 UINT64_C(0x123456789abcdef0), 0x80, 0x7f, 0x8000, 0x80000000 };
    int checked = 0;
    for (size_t k = 0; k < sizeof int_types / sizeof int_types[0]; k++) {
        const IntCase *t = &int_types[k];
        char src[512];
        snprintf(src, sizeof src, "kernel k(v: %s) {\n    fx.printf(\"%s\\n\", v, v, v, v, v, v, v, v, v, v)\n}\n",
                 t->type, int_format);
        FxsModule m;
        bool opened = fxs_open(&m, src);
        CU_ASSERT_FATAL(opened);
        for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
            uint64_t word;
            storage(t, samples[s], &word);
            void *args[1] = { &word };
            size_t bytes[1] = { 0 };
            stdout_begin();
            bool ok = fxs_launch(&m, "k", 1, 1, args, bytes);
            char *got = stdout_end();
            char *want = int_model(t, samples[s]);
            CU_ASSERT(ok);
            if (strcmp(got, want) != 0) {
                fprintf(stderr, "\n  %s %#llx: got %s  want %s", t->type, (unsigned long long)samples[s], got, want);
                CU_FAIL("integer printf");
            }
            checked++;
            free(got);
            free(want);
        }
        fxs_close(&m);
    }
    CU_ASSERT_EQUAL(checked, 99);
}

/* ---- floats ---- */

static const char *const float_format = "%f|%.3e|%g|%10.4f|%a|%E|%G|%-12.2f|%+.1f";

static char *float_model(double d)
{
    char *s = NULL;
    return asprintf(&s, "%f|%.3e|%g|%10.4f|%a|%E|%G|%-12.2f|%+.1f\n", d, d, d, d, d, d, d, d, d) < 0 ? NULL : s;
}

static char *float_kernel(const char *type)
{
    char *s = NULL;
    return asprintf(&s, "kernel k(v: %s) {\n    fx.printf(\"%s\\n\", v, v, v, v, v, v, v, v, v)\n}\n", type,
                    float_format) < 0 ? NULL : s;
}

static void test_floats(void)
{
    /* exactly representable in every type below, so the model needs no rounding */
    const double samples[] = { 0.0, -0.0, 1.5, -2.25, 0.0078125, 1024.0, 96.5, 1.0 / 0.0, -1.0 / 0.0 };
    int checked = 0;
    for (size_t s = 0; s < sizeof samples / sizeof samples[0]; s++) {
        double d = samples[s];
        float f = (float)d;
        uint32_t fb;
        memcpy(&fb, &f, 4);
        _Float16 h = (_Float16)d;
        uint16_t bf = (uint16_t)(fb >> 16);   /* exact: the samples have at most 8 significant bits */
        struct { const char *type; const void *value; } cases[] = {
            { "Float64", &d }, { "Float32", &f }, { "Float16", &h }, { "BFloat16", &bf },
        };
        char *want = float_model(d);
        for (size_t k = 0; k < 4; k++) {
            char *src = float_kernel(cases[k].type);
            char *got = run_printing(src, cases[k].value);
            CU_ASSERT(got != NULL);
            if (got && strcmp(got, want) != 0) {
                fprintf(stderr, "\n  %s %g: got %s  want %s", cases[k].type, d, got, want);
                CU_FAIL("float printf");
            }
            checked++;
            free(got);
            free(src);
        }
        free(want);
    }
    CU_ASSERT_EQUAL(checked, 36);
}

/* %c, %%, text only, and static arguments print what run-time ones do. */
static void test_static_and_text(void)
{
    int32_t v = -7;
    char *run = run_printing("kernel k(v: Int32) {\n"
                             "    fx.printf(\"%d %x %c%c %.2f %%|%5.1e\\n\", v, Int8(v), Uint8(65), 0x7a, Float32(v) / 4.0, Float16(v))\n"
                             "    fx.printf(\"plain text, no arguments\\n\")\n"
                             "}\n", &v);
    char *fold = run_printing("kernel k(v: Int32) {\n"
                              "    fx.printf(\"%d %x %c%c %.2f %%|%5.1e\\n\", -7, Int8(-7), Uint8(65), 0x7a, Float32(-7) / 4.0, Float16(-7))\n"
                              "    fx.printf(\"plain text, no arguments\\n\")\n"
                              "}\n", &v);
    char want[128];
    snprintf(want, sizeof want, "%d %x %c%c %.2f %%|%5.1e\nplain text, no arguments\n", -7, 0xf9, 'A', 'z', -1.75, -7.0);
    CU_ASSERT(run && strcmp(run, want) == 0);
    CU_ASSERT(fold && strcmp(fold, want) == 0);
    free(run);
    free(fold);
}

/* Launches kernel k(n: Int32) of `src` over `blocks` blocks of 4
 * work-items on 1, 2, 3 and 8 worker threads: each time the launch
 * succeeds or fails as `ok` says and prints `want`. */
static void prints_on_any_threads(const char *src, unsigned blocks, int32_t n, bool ok, const char *want)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, src));
    void *args[1] = { &n };
    size_t bytes[1] = { 0 };
    const unsigned g[3] = { blocks, 1, 1 }, b[3] = { 4, 1, 1 };
    const unsigned threads[] = { 1, 2, 3, 8 };
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        char *err = NULL;
        rt_host_set_threads(threads[t]);
        stdout_begin();
        bool launched = rt_host_launch_checked(m.hm, "k", g, b, args, bytes, &err) == 0;
        char *got = stdout_end();
        rt_host_set_threads(0);
        CU_ASSERT_EQUAL(launched, ok);
        CU_ASSERT_STRING_EQUAL(got, want);
        free(got);
        free(err);
    }
    fxs_close(&m);
}

/* Each work-item's lines in its own order, work-items in launch order,
 * whatever the number of worker threads (40 blocks on 2 or more threads
 * are handed out one at a time, so neighbours run at once). */
static void test_order(void)
{
    static char want[4096];
    want[0] = 0;
    for (int i = 0; i < 160; i++)
        for (int j = 0; j < 3; j++)
            snprintf(want + strlen(want), sizeof want - strlen(want), "%d.%d\n", i, j);
    prints_on_any_threads("kernel k(n: Int32) {\n"
                          "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
                          "    for j in range(n) {\n"
                          "        fx.printf(\"%d.%d\\n\", i, j)\n"
                          "    }\n"
                          "}\n", 40, 3, true, want);
}

/* A block's work-items take turns at a barrier, so their lines interleave
 * there; the blocks' text still comes in block order on any thread count. */
static void test_order_barrier(void)
{
    static char want[2048];
    want[0] = 0;
    for (int blk = 0; blk < 40; blk++)
        for (int part = 0; part < 2; part++)
            for (int t = 0; t < 4; t++)
                snprintf(want + strlen(want), sizeof want - strlen(want), "%c%d\n", "ab"[part], blk * 4 + t);
    prints_on_any_threads("kernel k(n: Int32) {\n"
                          "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
                          "    fx.printf(\"a%d\\n\", i)\n"
                          "    fx.barrier()\n"
                          "    fx.printf(\"b%d\\n\", i)\n"
                          "}\n", 40, 0, true, want);
}

/* A failed fx.assert stops the launch: what was printed is what a
 * sequential run prints up to the failing work-item, though blocks above
 * it may have run on other threads before the failure was seen. */
static void test_order_failure(void)
{
    static char want[1024];
    want[0] = 0;
    for (int i = 0; i <= 37; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%d\n", i);
    prints_on_any_threads("kernel k(n: Int32) {\n"
                          "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
                          "    fx.printf(\"%d\\n\", i)\n"
                          "    fx.assert(i != n)\n"
                          "}\n", 64, 37, false, want);
}

/* ---- fx.assert on the host ---- */

static const char *const assert_src =
    "fn check(i: Int32, n: Int32) {\n"
    "    fx.assert(i != n + 1, \"not n + 1\")\n"
    "}\n"
    "kernel k(out: Ptr[Int32], n: Int32) {\n"
    "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
    "    fx.assert(i < n, \"i in range\")\n"
    "    check(i, n)\n"
    "    out[i] = 1\n"
    "}\n";

/* Launches k over 2 blocks of 4; rc, *err and which work-items wrote out. */
static int launch_assert(FxsModule *m, int32_t n, int32_t out[8], char **err)
{
    memset(out, 0, 8 * sizeof *out);
    void *p = out;
    void *args[2] = { &p, &n };
    size_t bytes[2] = { 8 * sizeof *out, 0 };
    const unsigned g[3] = { 2, 1, 1 }, b[3] = { 4, 1, 1 };
    return rt_host_launch_checked(m->hm, "k", g, b, args, bytes, err);
}

static void test_assert_host(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, assert_src));
    int32_t out[8];
    char *err = NULL;
    CU_ASSERT_EQUAL(launch_assert(&m, 8, out, &err), 0);   /* holds everywhere */
    free(err);
    int sum = 0;
    for (int i = 0; i < 8; i++)
        sum += out[i];
    CU_ASSERT_EQUAL(sum, 8);

    CU_ASSERT_EQUAL(launch_assert(&m, 6, out, &err), RT_LAUNCH_ASSERT);
    char want[512];
    snprintf(want, sizeof want, "%s:6:5: assertion failed in kernel k, block (1,0,0), thread (2,0,0): i in range",
             m.path);
    CU_ASSERT(err && strcmp(err, want) == 0);
    if (err && strcmp(err, want) != 0)
        fprintf(stderr, "\n  got  %s\n  want %s", err, want);
    free(err);
    /* the launch stopped at work-item 6: it and every later one wrote nothing */
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(out[i], i < 6);

    /* inside a fn: it is named, with its kernel */
    CU_ASSERT_EQUAL(launch_assert(&m, 2, out, &err), RT_LAUNCH_ASSERT);
    snprintf(want, sizeof want, "%s:6:5: assertion failed in kernel k, block (0,0,0), thread (2,0,0): i in range",
             m.path);
    CU_ASSERT(err && strcmp(err, want) == 0);
    free(err);
    fxs_close(&m);

    CU_ASSERT_FATAL(fxs_open(&m, "fn check(i: Int32, n: Int32) {\n"
                                 "    fx.assert(i != n + 1, \"not n + 1\")\n"
                                 "}\n"
                                 "kernel k(out: Ptr[Int32], n: Int32) {\n"
                                 "    check(block_idx.x * block_dim.x + thread_idx.x, n)\n"
                                 "}\n"));
    CU_ASSERT_EQUAL(launch_assert(&m, 4, out, &err), RT_LAUNCH_ASSERT);
    snprintf(want, sizeof want,
             "%s:2:5: assertion failed in fn check (kernel k), block (1,0,0), thread (1,0,0): not n + 1", m.path);
    CU_ASSERT(err && strcmp(err, want) == 0);
    if (err && strcmp(err, want) != 0)
        fprintf(stderr, "\n  got  %s\n  want %s", err, want);
    free(err);
    fxs_close(&m);
}

/* ---- FXIR: what sema makes, --no-assert, the round trip ---- */

static void no_assert(FxOptions *o)
{
    o->no_assert = true;
}

/* fxs_lower with --no-assert. */
static bool lower_no_assert(FxsModule *m, const char *src, bool host, const char *arch)
{
    return fxs_lower_tuned(m, src, arch, host, no_assert);
}

static const char *const side_effect_src =
    "kernel k(out: Ptr[Int32], n: Int32) {\n"
    "    let i = thread_idx.x\n"
    "    fx.assert(fx.atomic_add(out, 1, 1) < 0 or i < n, \"counted\")\n"
    "    fx.assert(True, \"always\")\n"
    "    fx.printf(\"%d\\n\", i)\n"
    "    out[0] = 7\n"
    "}\n";

static void test_fxir(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_lower(&m, side_effect_src, NULL, true));
    char *text = fxs_fxir_text(m.c.module);
    CU_ASSERT(strstr(text, "assert %") != NULL);
    CU_ASSERT(strstr(text, "\"always\"") == NULL);        /* a static True assert makes nothing */
    CU_ASSERT(strstr(text, "print \"%ld\\n\", %") != NULL);
    /* the round trip: read back, verified, printed the same */
    CU_ASSERT(fxs_fxir_round_trips(text));
    free(text);
    fxs_close(&m);

    /* --no-assert: no assert, and no atomic from its condition; printf stays */
    CU_ASSERT_FATAL(lower_no_assert(&m, side_effect_src, true, NULL));
    text = fxs_fxir_text(m.c.module);
    CU_ASSERT(strstr(text, "assert") == NULL);
    CU_ASSERT(strstr(text, "atomic") == NULL);
    CU_ASSERT(strstr(text, "print ") != NULL);
    free(text);
    char *err = NULL;
    m.hm = pipe_jit(&m.c, &err);
    CU_ASSERT_FATAL(m.hm != NULL);
    int32_t out[2] = { 0, 0 }, n = 0;
    void *p = out;
    void *args[2] = { &p, &n };
    size_t bytes[2] = { sizeof out, 0 };
    const unsigned g[3] = { 1, 1, 1 }, b[3] = { 2, 1, 1 };
    stdout_begin();
    int rc = rt_host_launch_checked(m.hm, "k", g, b, args, bytes, &err);
    char *printed = stdout_end();
    CU_ASSERT_EQUAL(rc, 0);             /* the false assert is gone */
    CU_ASSERT_EQUAL(out[1], 0);         /* and so is its condition's atomic */
    CU_ASSERT_EQUAL(out[0], 7);
    CU_ASSERT_STRING_EQUAL(printed, "0\n1\n");
    free(printed);
    free(err);
    fxs_close(&m);
}

/* The verifier holds FX_PRINT to the canonical format and its operand
 * types, FX_ASSERT to a Boolean. */
static void test_verifier(void)
{
    static const struct { const char *body, *says; } bad[] = {
        { "  print \"%d\\n\", %n\n", "not canonical" },
        { "  print \"%ld %lx\\n\", %n\n", "takes operand 0 of type Int32" },
        { "  %0 = cast %n : Int64\n  print \"%ld %ld\\n\", %0\n", "more conversions" },
        { "  %0 = cast %n : Float64\n  print \"%f\\n\", %0, %0\n", "1 conversion for 2 operands" },
        { "  %0 = cast %n : Uint64\n  print \"%f\\n\", %0\n", "takes operand 0 of type Uint64" },
        { "  assert %n, \"m\"\n", "assert condition has type Int32" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char text[512];
        snprintf(text, sizeof text, "kernel k(%%n: Int32) {\n%s}\n", bad[k].body);
        SrcFile sf = { .name = "bad.fxir", .text = text, .len = (long)strlen(text) };
        Arena *a = arena_new();
        fxt_capture_begin();
        FxModule *m = fxir_read(a, &sf);
        bool ok = m && fxir_verify(m);
        char *said = fxt_capture_end();
        CU_ASSERT(m != NULL);
        CU_ASSERT(!ok);
        if (!strstr(said, bad[k].says)) {
            fprintf(stderr, "\n  %s: said %s", bad[k].says, said);
            CU_FAIL("verifier message");
        }
        free(said);
        arena_free(a);
    }
    /* and the reader refuses an unclosed string or an unknown escape */
    const char *unreadable[] = { "kernel k(%n: Int32) {\n  print \"abc\n}\n",
                                 "kernel k(%n: Int32) {\n  print \"a\\qb\"\n}\n" };
    for (int k = 0; k < 2; k++) {
        SrcFile sf = { .name = "bad.fxir", .text = unreadable[k], .len = (long)strlen(unreadable[k]) };
        Arena *a = arena_new();
        fxt_capture_begin();
        FxModule *m = fxir_read(a, &sf);
        free(fxt_capture_end());
        CU_ASSERT(m == NULL);
        arena_free(a);
    }
}

/* A static False assert stays: it fails when a work-item reaches it. */
static void test_static_false(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, "kernel k(out: Ptr[Int32], n: Int32) {\n"
                                 "    if thread_idx.x == n {\n"
                                 "        fx.assert(False, \"unreachable\")\n"
                                 "    }\n"
                                 "}\n"));
    int32_t out[8];
    char *err = NULL;
    CU_ASSERT_EQUAL(launch_assert(&m, 100, out, &err), 0);
    free(err);
    CU_ASSERT_EQUAL(launch_assert(&m, 3, out, &err), RT_LAUNCH_ASSERT);
    CU_ASSERT(err && strstr(err, ":3:9: assertion failed in kernel k, block (0,0,0), thread (3,0,0): unreachable"));
    free(err);
    fxs_close(&m);
}

/* ---- AMDGPU ---- */

static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };

static int count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
        n++;
    return n;
}

static void test_isa(void)
{
    const char *src = "kernel k(x: Ptr[Float64], n: Int32) {\n"
                      "    let i = thread_idx.x\n"
                      "    fx.printf(\"%d %f %x %d %d %d %d %d %d\\n\", i, x[i], i, i, i, i, i, i, i)\n"
                      "    fx.assert(i < n, \"i in range\")\n"
                      "}\n";
    for (size_t k = 0; k < sizeof archs / sizeof archs[0]; k++) {
        FxsModule m;
        char *s = fxs_assembly(&m, src, archs[k]);
        CU_ASSERT_FATAL(s != NULL);
        CU_ASSERT(count(s, "__ockl_printf_begin@rel32@lo") >= 1);
        CU_ASSERT(count(s, "__ockl_printf_append_string_n@rel32@lo") >= 1);
        CU_ASSERT(count(s, "__ockl_printf_append_args@rel32@lo") >= 1);
        CU_ASSERT(count(s, "s_trap 2") == 1);
        CU_ASSERT(count(s, ".value_kind:     hidden_hostcall_buffer") == 1);
        free(s);
        fxs_close(&m);

        /* --no-assert: no trap; without printf no ockl and no hostcall buffer */
        CU_ASSERT_FATAL(lower_no_assert(&m, "kernel k(x: Ptr[Float32], n: Int32) {\n"
                                            "    fx.assert(thread_idx.x < n, \"i in range\")\n"
                                            "    x[0] = 1.0\n"
                                            "}\n", false, archs[k]));
        CgModule *cg = pipe_codegen(&m.c);
        CU_ASSERT_FATAL(cg != NULL);
        s = cg_assembly(cg);
        CU_ASSERT(s && count(s, "s_trap") == 0 && count(s, "__ockl_printf") == 0);
        CU_ASSERT(s && count(s, "hidden_hostcall_buffer") == 0);
        free(s);
        cg_free(cg);
        fxs_close(&m);
    }
}

/* The LLVM module: the format in the constant address space, the printf
 * kind HIP's clang sets. */
static void test_llvm_ir(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_lower(&m, "kernel k(n: Int32) {\n"
                                  "    fx.printf(\"%d %d %d %d %d %d %d %d\\n\", n, n, n, n, n, n, n, n)\n"
                                  "}\n", "gfx942", false));
    CgModule *cg = pipe_codegen(&m.c);
    CU_ASSERT_FATAL(cg != NULL);
    char *ir = LLVMPrintModuleToString(cg_llvm_module(cg));
    CU_ASSERT(strstr(ir, "!\"amdgpu_printf_kind\", !\"hostcall\"") != NULL);
    CU_ASSERT(strstr(ir, "addrspace(4) constant [33 x i8] c\"%ld %ld %ld %ld %ld %ld %ld %ld\\0A\\00\"") != NULL);
    LLVMDisposeMessage(ir);
    cg_free(cg);
    fxs_close(&m);
}

int main(int argc, char **argv)
{
    static const FxtTest host[] = {
        { "integers", test_integers },
        { "floats", test_floats },
        { "static arguments and text", test_static_and_text },
        { "order", test_order },
        { "order at barriers", test_order_barrier },
        { "order after a failure", test_order_failure },
        { "assert", test_assert_host },
        { "static False assert", test_static_false },
        { NULL, NULL },
    };
    static const FxtTest ir[] = {
        { "FXIR and --no-assert", test_fxir },
        { "FXIR verifier", test_verifier },
        { "ISA", test_isa },
        { "LLVM IR", test_llvm_ir },
        { NULL, NULL },
    };
    static const FxtSuite suites[] = {
        { "host", host, NULL, NULL },
        { "compile", ir, NULL, NULL },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
