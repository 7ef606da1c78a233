/* test_range.c - `for i in range(a, b, s)` runs exactly Python's
 * len(range(a, b, s)) iterations with Python's values, at both ends of every
 * integer type: the counter never wraps (issue 13). A static step of 0 is a
 * compile error; a run-time step of 0 runs zero iterations (docs/decisions.md).
 *
 * The model is plain C over 128-bit integers, written here: the count is
 * derived from the exact distance, the values from a + k*s. Every kernel also
 * compiles for gfx942 and gfx1100 (LLVM-verified). */
#include "fxtest.h"
#include "fxsource.h"
#include "isa.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

typedef struct IntType {
    const char *name;
    int width;
    bool is_signed;
} IntType;

static const IntType types[] = {
    { "Int8", 8, true },    { "Int16", 16, true },   { "Int32", 32, true },  { "Int64", 64, true },
    { "Int128", 128, true }, { "Index", 64, true },  { "Uint8", 8, false },  { "Uint16", 16, false },
    { "Uint32", 32, false }, { "Uint64", 64, false }, { "Uint128", 128, false },
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

/* A kernel stops after this many iterations, so a wrong lowering that
 * never ends shows as a wrong count instead of a hang. */
#define CAP 1000

/* ---- the model ---- */

static u128 mask(const IntType *t)
{
    return t->width == 128 ? ~(u128)0 : (((u128)1 << t->width) - 1);
}

static u128 wrap(const IntType *t, u128 v)
{
    return v & mask(t);
}

/* v's bits as a signed or unsigned value of t, in 128-bit two's complement. */
static i128 value(const IntType *t, u128 v)
{
    v = wrap(t, v);
    if (t->is_signed && t->width < 128 && (v >> (t->width - 1)) & 1)
        v |= ~mask(t);
    return (i128)v;
}

static int cmp(const IntType *t, u128 a, u128 b)
{
    if (t->is_signed) {
        i128 x = value(t, a), y = value(t, b);
        return x < y ? -1 : x > y;
    }
    a = wrap(t, a), b = wrap(t, b);
    return a < b ? -1 : a > b;
}

static bool negative(const IntType *t, u128 v)
{
    return t->is_signed && value(t, v) < 0;
}

/* len(range(a, b, s)) with s != 0: distances are exact as unsigned 128-bit
 * values because both ends lie in t's range. */
static u128 model_count(const IntType *t, u128 a, u128 b, u128 s)
{
    bool down = negative(t, s);
    if (cmp(t, a, b) == (down ? 1 : -1)) {
        u128 x = (u128)value(t, a), y = (u128)value(t, b), d = (u128)value(t, s);
        u128 dist = down ? x - y : y - x, mag = down ? (u128)0 - d : d;
        return (dist - 1) / mag + 1;
    }
    return 0;
}

/* ---- values at the ends of each type ---- */

static int end_values(const IntType *t, u128 *out)
{
    int n = 0;
    u128 min = t->is_signed ? (u128)1 << (t->width - 1) : 0;
    u128 max = t->is_signed ? min - 1 : mask(t);
    const int64_t near[] = { 0, 1, 2, 3, 255, 256 };
    for (int i = 0; i < 6; i++) {
        out[n++] = wrap(t, min + (u128)near[i]);
        out[n++] = wrap(t, max - (u128)near[i]);
    }
    if (t->is_signed) {
        out[n++] = 0;
        out[n++] = wrap(t, (u128)-1);
        out[n++] = 1;
    } else {
        out[n++] = wrap(t, max / 2);
        out[n++] = wrap(t, max / 2 + 1);
    }
    return n;
}

static int step_values(const IntType *t, u128 *out)
{
    int n = 0;
    u128 min = t->is_signed ? (u128)1 << (t->width - 1) : 0;
    u128 max = t->is_signed ? min - 1 : mask(t);
    const int64_t small[] = { 1, 2, 3, 7, 100, 256, 1000 };
    for (int i = 0; i < 7; i++) {
        if ((u128)small[i] > max)
            continue;
        out[n++] = (u128)small[i];
        if (t->is_signed)
            out[n++] = wrap(t, (u128)-small[i]);
    }
    out[n++] = max;
    out[n++] = wrap(t, max - 1);
    out[n++] = wrap(t, max / 3);
    if (t->is_signed) {
        out[n++] = min;
        out[n++] = wrap(t, min + 1);
    }
    return n;
}

/* ---- kernels ---- */

static const char *kernel_fmt =
    "kernel range_%s(count: Ptr[Int64], seen: Ptr[%s], a: %s, b: %s, s: %s) {\n"
    "    var n: Int64 = 0\n"
    "    for i in range(a, b, %s) {\n"
    "        if n == 0 { seen[0] = i }\n"
    "        seen[1] = i\n"
    "        n += 1\n"
    "        if n == %d { break }\n"
    "    }\n"
    "    count[0] = n\n"
    "}\n";

static char *dec(const IntType *t, u128 v, char *buf)
{
    i128 x = value(t, v);
    bool neg = x < 0;
    u128 m = neg ? (u128)0 - (u128)x : (u128)x;
    char tmp[48];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m);
    int k = 0;
    if (neg)
        buf[k++] = '-';
    while (n)
        buf[k++] = tmp[--n];
    buf[k] = 0;
    return buf;
}

/* One kernel with the run-time step s, one per static step. */
static char *range_source(const IntType *t, const u128 *steps, int nsteps)
{
    size_t cap = 4096 + (size_t)nsteps * 1024, len = 0;
    char *src = malloc(cap);
    const char *T = t->name;
    len += (size_t)snprintf(src + len, cap - len, kernel_fmt, "dyn", T, T, T, T, "s", CAP);
    for (int i = 0; i < nsteps; i++) {
        char name[16], lit[64], step[96];
        snprintf(name, sizeof name, "st%d", i);
        snprintf(step, sizeof step, "%s(%s)", T, dec(t, steps[i], lit));
        len += (size_t)snprintf(src + len, cap - len, kernel_fmt, name, T, T, T, T, step, CAP);
    }
    return src;
}

static int bytes_of(const IntType *t)
{
    return t->width / 8;
}

static u128 load(const IntType *t, const unsigned char *p)
{
    u128 v = 0;
    memcpy(&v, p, (size_t)bytes_of(t));   /* little-endian host */
    return wrap(t, v);
}

/* Runs kernel k and compares count, first and last value with the model. */
static void check_case(FxsModule *m, const IntType *t, const char *k, u128 a, u128 b, u128 s, bool static_step)
{
    int64_t count = -1;
    unsigned char seen[32] = { 0 }, va[16] = { 0 }, vb[16] = { 0 }, vs[16] = { 0 };
    memcpy(va, &a, 16), memcpy(vb, &b, 16), memcpy(vs, &s, 16);
    void *pcount = &count, *pseen = seen;   /* a Ptr argument's value is the address */
    void *args[] = { &pcount, &pseen, va, vb, vs };
    const size_t bytes[] = { sizeof count, 2 * (size_t)bytes_of(t), 0, 0, 0 };
    if (!fxs_launch(m, k, 1, 1, args, bytes)) {
        CU_FAIL("launch failed");
        return;
    }
    u128 want = wrap(t, s) == 0 ? 0 : model_count(t, a, b, s);
    u128 runs = want > CAP ? CAP : want;
    bool ok = (u128)count == runs;
    if (ok && runs > 0) {
        ok = load(t, seen) == wrap(t, a) &&
             load(t, seen + bytes_of(t)) == wrap(t, a + (runs - 1) * s);
    }
    if (!ok) {
        char x[48], y[48], z[48];
        fprintf(stderr, "\n  %s %s: range(%s, %s, %s) ran %lld times, want %lld", t->name,
                static_step ? "static step" : "run-time step", dec(t, a, x), dec(t, b, y), dec(t, s, z),
                (long long)count, (long long)runs);
    }
    CU_ASSERT(ok);
}

static void run_type(const IntType *t)
{
    u128 ends[32], steps[32];
    int ne = end_values(t, ends), ns = step_values(t, steps);
    char *src = range_source(t, steps, ns);
    FxsModule m;
    bool opened = fxs_open(&m, src);
    CU_ASSERT_FATAL(opened);
    for (int i = 0; i < ne; i++)
        for (int j = 0; j < ne; j++) {
            check_case(&m, t, "range_dyn", ends[i], ends[j], 0, false);
            for (int k = 0; k < ns; k++) {
                char name[24];
                snprintf(name, sizeof name, "range_st%d", k);
                check_case(&m, t, "range_dyn", ends[i], ends[j], steps[k], false);
                check_case(&m, t, name, ends[i], ends[j], steps[k], true);
            }
        }
    fxs_close(&m);
    free(src);
}

static void test_signed_ends(void)
{
    for (int i = 0; i < NTYPES; i++)
        if (types[i].is_signed)
            run_type(&types[i]);
}

static void test_unsigned_ends(void)
{
    for (int i = 0; i < NTYPES; i++)
        if (!types[i].is_signed)
            run_type(&types[i]);
}

/* The issue's example: Python runs range(2147483600, 2147483647, 256) once. */
static void test_issue_example(void)
{
    const char *src = "kernel k(out: Ptr[Int32], a: Int32, b: Int32) {\n"
                      "    var n = 0\n"
                      "    for i in range(a, b, 256) { n += 1; if n == 50 { break } }\n"
                      "    for i in range(b, a, -256) { n += 100; if n > 5000 { break } }\n"
                      "    out[0] = n\n"
                      "}\n";
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, src));
    int32_t out = -1, a = 2147483600, b = 2147483647;
    void *pout = &out;
    void *args[] = { &pout, &a, &b };
    const size_t bytes[] = { sizeof out, 0, 0 };
    CU_ASSERT(fxs_launch(&m, "k", 1, 1, args, bytes));
    CU_ASSERT_EQUAL(out, 101);
    a = -2147483600, b = -2147483647 - 1;
    CU_ASSERT(fxs_launch(&m, "k", 1, 1, args, bytes));
    CU_ASSERT_EQUAL(out, 0);
    fxs_close(&m);
}

/* `continue` still advances the loop; the loop variable is the value for
 * this iteration even when the body reads it after a continue test. */
static void test_continue_and_nesting(void)
{
    const char *src = "kernel k(out: Ptr[Int32], n: Int32) {\n"
                      "    var s = 0\n"
                      "    for i in range(n, -1, -1) {\n"
                      "        if i % 3 == 0 { continue }\n"
                      "        for j in range(i, n + 1, i) { s += j }\n"
                      "    }\n"
                      "    out[0] = s\n"
                      "}\n";
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, src));
    int32_t out = -1, n = 20, want = 0;
    for (int i = n; i > -1; i--) {
        if (i % 3 == 0)
            continue;
        for (int j = i; j < n + 1; j += i)
            want += j;
    }
    void *pout = &out;
    void *args[] = { &pout, &n };
    const size_t bytes[] = { sizeof out, 0 };
    CU_ASSERT(fxs_launch(&m, "k", 1, 1, args, bytes));
    CU_ASSERT_EQUAL(out, want);
    fxs_close(&m);
}

/* The same kernels compile for GPUs (LLVM-verified, down to assembly). */
static void test_gpu_compiles(void)
{
    const char *archs[] = { "gfx942", "gfx1100" };
    const IntType *picks[] = { &types[0], &types[2], &types[3], &types[7], &types[9] };
    for (int a = 0; a < 2; a++)
        for (int i = 0; i < 5; i++) {
            u128 steps[32];
            int ns = step_values(picks[i], steps);
            char *src = range_source(picks[i], steps, ns);
            FxsModule m;
            char *s = fxs_assembly(&m, src, archs[a]);
            if (!s)
                fprintf(stderr, "\n  %s for %s does not compile", picks[i]->name, archs[a]);
            CU_ASSERT(s != NULL);
            free(s);
            fxs_close(&m);
            free(src);
        }
}

/* The lowering costs no division and leaves no trip count (issue 13): a
 * grid-stride range with a run-time step (bench/perf's histogram) was 174
 * instructions on gfx942, an unsigned division (v_rcp_iflag_f32) before
 * the loop and 8 loads in it, LLVM's run-time unroller having used the
 * count; static steps up and down divide by nothing either. */
static const char *isa_src =
    "kernel hist(data: const Ptr[Uint32], bins: Ptr[Uint32], n: Int32) {\n"
    "    shared local: Array[Uint32, 256]\n"
    "    let t = thread_idx.x\n"
    "    local[t] = Uint32(0)\n"
    "    fx.barrier()\n"
    "    for i in range(block_idx.x * 256 + t, n, grid_dim.x * 256) {\n"
    "        fx.atomic_add(local, Int32(data[i] & Uint32(255)), Uint32(1))\n"
    "    }\n"
    "    fx.barrier()\n"
    "    fx.atomic_add(bins, t, local[t])\n"
    "}\n"
    "kernel steps(x: const Ptr[Float32], out: Ptr[Float32], a: Int32, n: Int32) {\n"
    "    var acc: Float32 = 0.0\n"
    "    for i in range(a, n, 3) { acc += x[i] }\n"
    "    for i in range(n, a, -5) { acc += x[i] }\n"
    "    out[thread_idx.x] = acc\n"
    "}\n";

/* The assembly of kernel `name`'s first loop, from its "LABEL:" to the
 * back edge `s_cbranch_execnz LABEL`, malloc'd; NULL if none. */
static char *isa_loop(const char *asm_text, const char *name)
{
    char head0[256];
    snprintf(head0, sizeof head0, "\n%s:", name);
    const char *k = strstr(asm_text, head0);
    const char *end = k ? strstr(k, ".Lfunc_end") : NULL;
    const char *br = k ? strstr(k, "s_cbranch_execnz ") : NULL;
    if (!br || !end || br > end)
        return NULL;
    char label[64];
    if (sscanf(br + strlen("s_cbranch_execnz "), "%63s", label) != 1)
        return NULL;
    char head[80];
    snprintf(head, sizeof head, "%s:", label);
    const char *start = strstr(k, head);
    if (!start || start > br)
        return NULL;
    return strndup(start, (size_t)(br - start));
}

/* Occurrences of `what` in raw assembly text. */
static int count_in(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* The increment of a range loop is nsw: only its last result can wrap, and
 * nothing reads that one. LLVM then walks the grid-stride loop with a
 * 64-bit address instead of sign-extending the index every iteration. */
static void test_isa_widened_loop(void)
{
    FxsModule m;
    char *s = fxs_assembly(&m, isa_src, "gfx942");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    int n = 0;
    char *hist = isa_kernel(s, "hist", &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hist);
    char *loop = isa_loop(s, "hist");
    CU_ASSERT_PTR_NOT_NULL_FATAL(loop);
    CU_ASSERT_EQUAL(count_in(loop, "v_ashrrev_i32"), 0);
    CU_ASSERT_EQUAL(count_in(loop, "global_load_dword"), 1);
    if (count_in(loop, "v_ashrrev_i32"))
        fprintf(stderr, "\n  the loop sign-extends its index:\n%s", loop);
    /* the run-time step's direction costs nothing per iteration: no xor
     * (the earlier test (i ^ flip) < lim), no multiply (the distance
     * (i - start) * dir is a scalar counter, s_add_i32) */
    CU_ASSERT_EQUAL(count_in(loop, "v_xor") + count_in(loop, "v_mul"), 0);
    CU_ASSERT(count_in(loop, "s_add_i32") >= 1);
    if (count_in(loop, "v_xor") + count_in(loop, "v_mul") || !count_in(loop, "s_add_i32"))
        fprintf(stderr, "\n  the loop tests its direction:\n%s", loop);
    free(loop);
    free(hist);
    free(s);
    fxs_close(&m);
}

static void test_isa_no_division(void)
{
    FxsModule m;
    char *s = fxs_assembly(&m, isa_src, "gfx942");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    int n = 0, ns = 0;
    char *hist = isa_kernel(s, "hist", &n), *steps = isa_kernel(s, "steps", &ns);
    CU_ASSERT_PTR_NOT_NULL_FATAL(hist);
    CU_ASSERT_PTR_NOT_NULL_FATAL(steps);
    CU_ASSERT_EQUAL(isa_count(hist, "v_rcp_iflag_f32"), 0);
    CU_ASSERT_EQUAL(isa_count(hist, "global_load_dword"), 1);
    CU_ASSERT(n <= 64);
    CU_ASSERT_EQUAL(isa_count(steps, "v_rcp_iflag_f32"), 0);
    CU_ASSERT_EQUAL(isa_count(steps, "s_mul_hi_u32"), 0);   /* was a division by 3 and by 5 */
    CU_ASSERT_EQUAL(isa_count(steps, "v_mul_hi_u32"), 0);
    if (n > 64)
        fprintf(stderr, "\n  hist: %d instructions", n);
    free(hist);
    free(steps);
    free(s);
    fxs_close(&m);
}

static const FxtTest range_tests[] = {
    { "the issue's example", test_issue_example },
    { "both ends of every signed type", test_signed_ends },
    { "both ends of every unsigned type", test_unsigned_ends },
    { "continue and nested ranges", test_continue_and_nesting },
    { "gfx942 and gfx1100 compile", test_gpu_compiles },
    { "gfx942: no division, no unrolled count", test_isa_no_division },
    { "gfx942: the grid-stride loop walks a 64-bit address", test_isa_widened_loop },
    { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "range", range_tests, NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
