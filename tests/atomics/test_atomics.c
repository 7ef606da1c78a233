/* test_atomics.c - every fx.atomic_<op> on every element type it takes, on
 * global (Ptr) and shared memory, run on the host with many work-items
 * hitting one location (docs/atomics.md), then the same kernels down to
 * each GPU's assembly (LLVM-verified) with the instructions they must use.
 *
 * The check is exact and does not depend on the order the work-items ran
 * in: a history of atomic operations on one location is a chain, init ->
 * new_1 -> ... -> final, where each operation read the value the previous
 * one wrote. So the multiset {init} + {op(old_i, v_i)} equals the multiset
 * {old_i} + {final}, bit for bit, and final is the fold of every v_i when
 * the operation is commutative (all are, but xchg and cas). The model
 * computes op in C, written here. */
#include "fxtest.h"
#include "fxsource.h"
#include "fxir/verify.h"
#include "support/arena.h"
#include "support/diag.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { K_INT, K_UINT, K_FLOAT } Kind;

typedef struct ElemType {
    const char *name;
    Kind kind;
    int width;
    int fbits;              /* floats: significand bits stored (f16: 10, bf16: 7) */
} ElemType;

static const ElemType types[] = {
    { "Int16", K_INT, 16, 0 },    { "Uint16", K_UINT, 16, 0 }, { "Int32", K_INT, 32, 0 },
    { "Uint32", K_UINT, 32, 0 },  { "Int64", K_INT, 64, 0 },   { "Uint64", K_UINT, 64, 0 },
    { "Float16", K_FLOAT, 16, 10 }, { "BFloat16", K_FLOAT, 16, 7 }, { "Float32", K_FLOAT, 32, 23 },
    { "Float64", K_FLOAT, 64, 52 },
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

typedef enum { AT_ADD, AT_SUB, AT_MAX, AT_MIN, AT_XCHG, AT_AND, AT_OR, AT_XOR, AT_COUNT } Op;
static const char *const op_names[AT_COUNT] = { "add", "sub", "max", "min", "xchg", "and", "or", "xor" };

#define BLOCK 64
#define GRID 4
#define N (BLOCK * GRID)

/* ---- values as bits, in C ---- */

static uint64_t mask(const ElemType *t)
{
    return t->width == 64 ? ~(uint64_t)0 : (((uint64_t)1 << t->width) - 1);
}

static int64_t sval(const ElemType *t, uint64_t b)
{
    b &= mask(t);
    if (t->width < 64 && (b >> (t->width - 1)) & 1)
        b |= ~mask(t);
    return (int64_t)b;
}

/* IEEE binary formats of 16, 32 and 64 bits with `fbits` stored significand bits. */
static double to_double(const ElemType *t, uint64_t b)
{
    if (t->width == 64) {
        double d;
        memcpy(&d, &b, 8);
        return d;
    }
    int eb = t->width - 1 - t->fbits, bias = (1 << (eb - 1)) - 1;
    uint64_t frac = b & (((uint64_t)1 << t->fbits) - 1);
    int e = (int)((b >> t->fbits) & ((1u << eb) - 1));
    double sign = (b >> (t->width - 1)) & 1 ? -1.0 : 1.0;
    if (e == (1 << eb) - 1)
        return frac ? NAN : sign * INFINITY;
    if (e == 0)
        return sign * ldexp((double)frac, 1 - bias - t->fbits);
    return sign * ldexp((double)(frac | ((uint64_t)1 << t->fbits)), e - bias - t->fbits);
}

/* The bits of d, which must be representable exactly (the tests choose
 * values for which every result is); *exact says whether it was. NaN: the
 * format's quiet NaN with an empty payload. */
static uint64_t from_double(const ElemType *t, double d, bool *exact)
{
    *exact = true;
    if (t->width == 64) {
        uint64_t b;
        memcpy(&b, &d, 8);
        return b;
    }
    int eb = t->width - 1 - t->fbits, bias = (1 << (eb - 1)) - 1;
    uint64_t sign = signbit(d) ? (uint64_t)1 << (t->width - 1) : 0, emax = (1u << eb) - 1;
    if (isnan(d))
        return (emax << t->fbits) | ((uint64_t)1 << (t->fbits - 1));
    d = fabs(d);
    if (isinf(d))
        return sign | (emax << t->fbits);
    if (d == 0)
        return sign;
    int e;
    double m = frexp(d, &e);            /* d = m * 2^e, m in [0.5, 1) */
    int be = e - 1 + bias;
    if (be <= 0 || (uint64_t)be >= emax) {
        *exact = false;                 /* subnormal or out of range: not used here */
        return 0;
    }
    double sig = ldexp(m, t->fbits + 1); /* in [2^fbits, 2^(fbits+1)) */
    if (sig != floor(sig))
        *exact = false;
    return sign | ((uint64_t)be << t->fbits) | ((uint64_t)sig & (((uint64_t)1 << t->fbits) - 1));
}

/* op(a, b) in t, as bits; *exact false when a float result was rounded. */
static uint64_t apply(const ElemType *t, Op op, uint64_t a, uint64_t b, bool *exact)
{
    *exact = true;
    if (op == AT_XCHG)
        return b;
    if (t->kind == K_FLOAT) {
        double x = to_double(t, a), y = to_double(t, b);
        if (op == AT_MAX || op == AT_MIN) {
            /* maxNum/minNum: a NaN operand is ignored; the result is one of the operands */
            if (isnan(x))
                return b;
            if (isnan(y))
                return a;
            return (op == AT_MAX ? x >= y : x <= y) ? a : b;
        }
        return from_double(t, op == AT_ADD ? x + y : x - y, exact);
    }
    uint64_t r;
    switch (op) {
    case AT_ADD: r = a + b; break;
    case AT_SUB: r = a - b; break;
    case AT_AND: r = a & b; break;
    case AT_OR: r = a | b; break;
    case AT_XOR: r = a ^ b; break;
    case AT_MAX:
        r = t->kind == K_INT ? (sval(t, a) >= sval(t, b) ? a : b) : ((a & mask(t)) >= (b & mask(t)) ? a : b);
        break;
    default:
        r = t->kind == K_INT ? (sval(t, a) <= sval(t, b) ? a : b) : ((a & mask(t)) <= (b & mask(t)) ? a : b);
        break;
    }
    return r & mask(t);
}

static uint64_t fbits(const ElemType *t, double d)
{
    bool exact;
    return from_double(t, d, &exact);
}

/* The initial value and work-item i's operand: chosen so that every float
 * result is exact whatever the order, so the check is bit-exact. */
static uint64_t init_value(const ElemType *t, Op op)
{
    if (t->kind == K_FLOAT)
        return fbits(t, op == AT_SUB ? N : op == AT_MAX || op == AT_MIN ? NAN : 0.0);
    switch (op) {
    case AT_SUB: return (t->kind == K_INT ? 0 : (uint64_t)1 << (t->width - 1)) & mask(t);
    case AT_AND: return mask(t);
    case AT_OR: return 0;
    default: return (uint64_t)0x5a5a5a5a5a5a5a5a & mask(t);
    }
}

static uint64_t operand(const ElemType *t, Op op, int i)
{
    uint64_t h = (uint64_t)(i + 1) * 0x9e3779b97f4a7c15u;
    if (t->kind == K_FLOAT) {
        if (op == AT_ADD || op == AT_SUB)   /* every partial sum an integer in [0, N]: exact in BFloat16 too */
            return fbits(t, 1.0);
        if (i % 17 == 3)
            return fbits(t, NAN);           /* ignored by max and min */
        return fbits(t, (double)((int)(h >> 58) - 32) * 0.5);  /* -16 .. 15.5, no zero signs mixed */
    }
    switch (op) {
    case AT_ADD: case AT_SUB: return (uint64_t)(i % 100 + 1);
    case AT_AND: return ~((uint64_t)1 << (i % t->width)) & mask(t);
    case AT_OR: return ((uint64_t)1 << ((i * 7) % t->width)) & mask(t);
    default: return (h >> 7) & mask(t);
    }
}

/* ---- the kernels ---- */

static bool op_takes(const ElemType *t, Op op)
{
    return t->kind != K_FLOAT || (op != AT_AND && op != AT_OR && op != AT_XOR);
}

/* g_<op>: every work-item on p[0]; s_<op>: each block on its own shared
 * element (p[block] in, p[block] out). olds[i]: what work-item i's atomic
 * returned. */
static char *kernels_source(const ElemType *t)
{
    size_t cap = 64 * 1024, len = 0;
    char *s = malloc(cap);
    for (int op = 0; op < AT_COUNT; op++) {
        if (!op_takes(t, (Op)op))
            continue;
        len += (size_t)snprintf(s + len, cap - len,
            "@launch_bounds(%d)\n"
            "kernel g_%s(p: Ptr[%s], olds: Ptr[%s], v: const Ptr[%s]) {\n"
            "    let i = block_idx.x * %d + thread_idx.x\n"
            "    olds[i] = fx.atomic_%s(p, 0, v[i])\n"
            "}\n"
            "@launch_bounds(%d)\n"
            "kernel s_%s(p: Ptr[%s], olds: Ptr[%s], v: const Ptr[%s]) {\n"
            "    shared cell: Array[%s, 1]\n"
            "    let t = thread_idx.x\n"
            "    let i = block_idx.x * %d + t\n"
            "    if t == 0 {\n"
            "        cell[0] = p[block_idx.x]\n"
            "    }\n"
            "    fx.barrier()\n"
            "    olds[i] = fx.atomic_%s(cell, 0, v[i])\n"
            "    fx.barrier()\n"
            "    if t == 0 {\n"
            "        p[block_idx.x] = cell[0]\n"
            "    }\n"
            "}\n",
            BLOCK, op_names[op], t->name, t->name, t->name, BLOCK, op_names[op], BLOCK, op_names[op], t->name,
            t->name, t->name, t->name, BLOCK, op_names[op]);
    }
    return s;
}

/* ---- buffers of `width`-bit elements ---- */

static uint64_t get(const ElemType *t, const void *buf, int i)
{
    switch (t->width) {
    case 16: return ((const uint16_t *)buf)[i];
    case 32: return ((const uint32_t *)buf)[i];
    default: return ((const uint64_t *)buf)[i];
    }
}

static void put(const ElemType *t, void *buf, int i, uint64_t v)
{
    switch (t->width) {
    case 16: ((uint16_t *)buf)[i] = (uint16_t)v; break;
    case 32: ((uint32_t *)buf)[i] = (uint32_t)v; break;
    default: ((uint64_t *)buf)[i] = v; break;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The chain check of one location: items [first, first + n) worked on it. */
static bool chain_holds(const ElemType *t, Op op, uint64_t init, uint64_t final, const void *olds,
                        const void *v, int first, int n)
{
    uint64_t lhs[N + 1], rhs[N + 1];
    lhs[0] = init;
    rhs[0] = final;
    bool ok = true;
    for (int k = 0; k < n; k++) {
        bool exact;
        lhs[k + 1] = apply(t, op, get(t, olds, first + k), get(t, v, first + k), &exact);
        rhs[k + 1] = get(t, olds, first + k);
        ok = ok && exact;
    }
    qsort(lhs, (size_t)n + 1, sizeof lhs[0], cmp_u64);
    qsort(rhs, (size_t)n + 1, sizeof rhs[0], cmp_u64);
    return ok && memcmp(lhs, rhs, sizeof lhs[0] * ((size_t)n + 1)) == 0;
}

/* The fold of every operand over init, in index order (the operations are
 * commutative and, for the values chosen, exact, so the order is free). */
static uint64_t folded(const ElemType *t, Op op, uint64_t init, const void *v, int first, int n)
{
    uint64_t r = init;
    for (int k = 0; k < n; k++) {
        bool exact;
        r = apply(t, op, r, get(t, v, first + k), &exact);
    }
    return r;
}

static int run_one(FxsModule *m, const ElemType *t, Op op, bool shared)
{
    size_t es = (size_t)t->width / 8;
    void *p = calloc(GRID, es), *olds = calloc(N, es), *v = calloc(N, es);
    uint64_t init = init_value(t, op);
    for (int b = 0; b < GRID; b++)
        put(t, p, b, init);
    for (int i = 0; i < N; i++)
        put(t, v, i, operand(t, op, i));
    char k[32];
    snprintf(k, sizeof k, "%c_%s", shared ? 's' : 'g', op_names[op]);
    void *args[] = { &p, &olds, &v };
    const size_t bytes[] = { GRID * es, N * es, N * es };
    int bad = 0;
    if (!fxs_launch(m, k, GRID, BLOCK, args, bytes)) {
        bad = 1;
    } else {
        int locs = shared ? GRID : 1, per = shared ? BLOCK : N;
        for (int l = 0; l < locs; l++) {
            uint64_t final = get(t, p, l);
            bool chain = chain_holds(t, op, init, final, olds, v, l * per, per);
            bool fold = op == AT_XCHG || final == folded(t, op, init, v, l * per, per);
            if (!chain || !fold) {
                fprintf(stderr, "\n  %s %s: %s (final %#llx)", t->name, k, !chain ? "old values form no chain"
                        : "final value is not the fold of the operands", (unsigned long long)final);
                bad = 1;
            }
        }
    }
    free(p);
    free(olds);
    free(v);
    return bad;
}

static void test_every_op_and_type(void)
{
    int runs = 0, bad = 0;
    for (int ti = 0; ti < NTYPES; ti++) {
        char *src = kernels_source(&types[ti]);
        FxsModule m;
        bool opened = fxs_open(&m, src);
        CU_ASSERT(opened);
        if (opened)
            for (int op = 0; op < AT_COUNT; op++)
                for (int sh = 0; op_takes(&types[ti], (Op)op) && sh < 2; sh++, runs++)
                    bad += run_one(&m, &types[ti], (Op)op, sh);
        fxs_close(&m);
        free(src);
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(runs, 2 * (NTYPES * AT_COUNT - 4 * 3));
}

/* The model itself: a chain with one old value changed must not hold. */
static void test_model_detects_a_lost_update(void)
{
    const ElemType *t = &types[2];
    int32_t olds[4] = { 0, 1, 3, 6 }, v[4] = { 1, 2, 3, 4 };
    CU_ASSERT(chain_holds(t, AT_ADD, 0, 10, olds, v, 0, 4));
    olds[2] = 1;       /* items 1 and 2 both read 1: one update lost */
    CU_ASSERT_FALSE(chain_holds(t, AT_ADD, 0, 10, olds, v, 0, 4));
    CU_ASSERT_FALSE(chain_holds(t, AT_ADD, 0, 7, olds, v, 0, 4));
}

/* fx.atomic_cas: a counter incremented by a cas loop from every work-item;
 * on floats the comparison is of the bits. */
static void test_cas(void)
{
    static const char *const src =
        "@launch_bounds(64)\n"
        "kernel inc(p: Ptr[Int64], olds: Ptr[Int64]) {\n"
        "    let i = block_idx.x * 64 + thread_idx.x\n"
        "    var cur = p[0]\n"
        "    var done = False\n"
        "    while not done {\n"
        "        let seen = fx.atomic_cas(p, 0, cur, cur + 3)\n"
        "        if seen == cur {\n"
        "            olds[i] = seen\n"
        "            done = True\n"
        "        }\n"
        "        cur = seen\n"
        "    }\n"
        "}\n"
        "kernel bits(p: Ptr[Float32], r: Ptr[Float32]) {\n"
        "    r[0] = fx.atomic_cas(p, 0, -0.0, 5.0)\n"   /* +0.0 is stored: no swap */
        "    r[1] = fx.atomic_cas(p, 1, fx.nan, 6.0)\n" /* the same NaN bits: swap */
        "    r[2] = fx.atomic_cas(p, 2, 2.0, 7.0)\n"
        "}\n";
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, src));
    int64_t p = 1000, olds[N];
    void *pp = &p, *po = olds;
    void *args[] = { &pp, &po };
    const size_t bytes[] = { sizeof p, sizeof olds };
    CU_ASSERT(fxs_launch(&m, "inc", GRID, BLOCK, args, bytes));
    CU_ASSERT_EQUAL(p, 1000 + 3 * N);
    qsort(olds, N, sizeof olds[0], cmp_u64);
    for (int i = 0; i < N; i++)
        CU_ASSERT_EQUAL(olds[i], 1000 + 3 * i);
    float f[3] = { 0.0f, NAN, 2.0f }, r[3] = { 0 };
    void *pf = f, *pr = r;
    void *fargs[] = { &pf, &pr };
    const size_t fbytes[] = { sizeof f, sizeof r };
    uint32_t nanbits;
    memcpy(&nanbits, &f[1], 4);
    CU_ASSERT(fxs_launch(&m, "bits", 1, 1, fargs, fbytes));
    CU_ASSERT(f[0] == 0.0f && !signbit(f[0]) && r[0] == 0.0f && !signbit(r[0]));
    CU_ASSERT(f[1] == 6.0f && isnan(r[1]));
    CU_ASSERT(f[2] == 7.0f && r[2] == 2.0f);
    fxs_close(&m);
}

/* fx.threadfence: the "last block" reduction that needs it on a GPU; on the
 * host it must compile and keep the result. */
static void test_threadfence(void)
{
    static const char *const src =
        "@launch_bounds(64)\n"
        "kernel sum(x: const Ptr[Int32], parts: Ptr[Int32], count: Ptr[Int32], total: Ptr[Int32]) {\n"
        "    shared acc: Array[Int32, 1]\n"
        "    let t = thread_idx.x\n"
        "    if t == 0 {\n"
        "        acc[0] = 0\n"
        "    }\n"
        "    fx.barrier()\n"
        "    fx.atomic_add(acc, 0, x[block_idx.x * 64 + t])\n"
        "    fx.barrier()\n"
        "    if t == 0 {\n"
        "        parts[block_idx.x] = acc[0]\n"
        "        fx.threadfence()\n"
        "        fx.threadfence(\"workgroup\")\n"
        "        fx.threadfence(\"system\")\n"
        "        if fx.atomic_add(count, 0, 1) == grid_dim.x - 1 {\n"
        "            var s = 0\n"
        "            for b in range(grid_dim.x) {\n"
        "                s += parts[b]\n"
        "            }\n"
        "            total[0] = s\n"
        "        }\n"
        "    }\n"
        "}\n";
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, src));
    int32_t x[N], parts[GRID] = { 0 }, count = 0, total = -1, want = 0;
    for (int i = 0; i < N; i++)
        want += x[i] = i * 3 - 100;
    void *px = x, *pp = parts, *pc = &count, *pt = &total;
    void *args[] = { &px, &pp, &pc, &pt };
    const size_t bytes[] = { sizeof x, sizeof parts, sizeof count, sizeof total };
    CU_ASSERT(fxs_launch(&m, "sum", GRID, BLOCK, args, bytes));
    CU_ASSERT_EQUAL(count, GRID);
    CU_ASSERT_EQUAL(total, want);
    fxs_close(&m);
}

/* ---- the instructions per GPU ---- */

typedef struct IsaCase {
    const char *arch;
    const char *const *want;      /* ended by NULL */
    const char *const *never;
} IsaCase;

static const char *const isa_src =
    "@launch_bounds(64)\n"
    "kernel f32(p: Ptr[Float32], r: Ptr[Float32]) {\n"
    "    shared s: Array[Float32, 64]\n"
    "    let t = thread_idx.x\n"
    "    s[t] = 0.0\n"
    "    r[t] = fx.atomic_add(p, 0, r[t]) + fx.atomic_add(s, 0, r[t])\n"
    "}\n"
    "kernel f64(p: Ptr[Float64]) {\n"
    "    fx.atomic_add(p, 0, 1.0)\n"
    "}\n"
    "kernel ints(p: Ptr[Int32], q: Ptr[Uint64]) {\n"
    "    fx.atomic_sub(p, 0, 1)\n"
    "    fx.atomic_and(p, 1, 6)\n"
    "    fx.atomic_or(p, 2, 6)\n"
    "    fx.atomic_xor(p, 3, 6)\n"
    "    fx.atomic_xchg(p, 4, 6)\n"
    "    fx.atomic_cas(p, 5, 1, 2)\n"
    "    fx.atomic_max(q, 0, Uint64(9))\n"
    "}\n"
    "kernel fence_system(p: Ptr[Int32]) {\n"
    "    p[0] = 1\n"
    "    fx.threadfence(\"system\")\n"
    "    p[1] = 1\n"
    "}\n"
    "kernel fence_agent(p: Ptr[Int32]) {\n"
    "    p[0] = 1\n"
    "    fx.threadfence(\"agent\")\n"
    "    p[1] = 1\n"
    "}\n"
    "kernel fence_wg(p: Ptr[Int32]) {\n"
    "    p[0] = 1\n"
    "    fx.threadfence(\"workgroup\")\n"
    "    p[1] = 1\n"
    "}\n";

/* The body of kernel `name` in the assembly (up to its s_endpgm). */
static char *kernel_body(const char *s, const char *name)
{
    char label[80];
    snprintf(label, sizeof label, "\n%s:", name);
    const char *a = strstr(s, label);
    const char *b = a ? strstr(a, "s_endpgm") : NULL;
    if (!b)
        return NULL;
    char *r = malloc((size_t)(b - a) + 1);
    memcpy(r, a, (size_t)(b - a));
    r[b - a] = 0;
    return r;
}

/* "kernel:instruction": the instruction must be in the kernel's body. */
static bool has(const char *s, const char *spec)
{
    char name[64] = { 0 };
    const char *colon = strchr(spec, ':');
    memcpy(name, spec, (size_t)(colon - spec) < sizeof name - 1 ? (size_t)(colon - spec) : sizeof name - 1);
    char *body = kernel_body(s, name);
    bool r = body && strstr(body, colon + 1);
    free(body);
    return r;
}

static void check_isa(const IsaCase *c)
{
    FxsModule m;
    char *s = fxs_assembly(&m, isa_src, c->arch);
    CU_ASSERT_PTR_NOT_NULL(s);
    for (const char *const *w = c->want; s && *w; w++)
        if (!has(s, *w)) {
            fprintf(stderr, "\n  %s: no %s", c->arch, *w);
            CU_FAIL("instruction missing");
        }
    for (const char *const *w = c->never; s && w && *w; w++)
        if (has(s, *w)) {
            fprintf(stderr, "\n  %s: unexpected %s", c->arch, *w);
            CU_FAIL("unexpected instruction");
        }
    free(s);
    fxs_close(&m);
}

static void test_isa(void)
{
    /* f32 add on global memory is one instruction on all four; f64 add on
     * CDNA only; the rest as the integer instructions of each ISA */
    static const char *const gfx90a[] = {
        "f32:global_atomic_add_f32", "f32:ds_add_rtn_f32", "f64:global_atomic_add_f64", "ints:global_atomic_sub",
        "ints:global_atomic_and", "ints:global_atomic_or", "ints:global_atomic_xor", "ints:global_atomic_swap",
        "ints:global_atomic_cmpswap", "ints:global_atomic_umax_x2", "fence_system:buffer_wbl2",
        "fence_agent:buffer_wbinvl1_vol", NULL };
    static const char *const gfx942[] = {
        "f32:global_atomic_add_f32", "f32:ds_add_rtn_f32", "f64:global_atomic_add_f64", "ints:global_atomic_sub",
        "ints:global_atomic_and", "ints:global_atomic_or", "ints:global_atomic_xor", "ints:global_atomic_swap",
        "ints:global_atomic_cmpswap", "ints:global_atomic_umax_x2", "fence_system:buffer_wbl2 sc0 sc1",
        "fence_agent:buffer_wbl2 sc1", NULL };
    static const char *const gfx1100[] = {
        "f32:global_atomic_add_f32", "f32:ds_add_rtn_f32", "f64:global_atomic_cmpswap_b64",
        "ints:global_atomic_sub_u32", "ints:global_atomic_and_b32", "ints:global_atomic_or_b32",
        "ints:global_atomic_xor_b32", "ints:global_atomic_swap_b32", "ints:global_atomic_cmpswap_b32",
        "ints:global_atomic_max_u64", "fence_system:buffer_gl1_inv", "fence_agent:buffer_gl1_inv", NULL };
    static const char *const gfx1201[] = {
        "f32:global_atomic_add_f32", "f32:ds_add_rtn_f32", "f64:global_atomic_cmpswap_b64",
        "ints:global_atomic_sub_u32", "ints:global_atomic_and_b32", "ints:global_atomic_or_b32",
        "ints:global_atomic_xor_b32", "ints:global_atomic_swap_b32", "ints:global_atomic_cmpswap_b32",
        "ints:global_atomic_max_u64", "fence_system:global_wb scope:SCOPE_SYS",
        "fence_agent:global_wb scope:SCOPE_DEV", NULL };
    /* no cas loop for f32 add, and each fence no wider than its scope */
    static const char *const not90a[] = { "f32:global_atomic_cmpswap", "fence_agent:buffer_wbl2",
                                          "fence_wg:buffer_wbinvl1_vol", NULL };
    static const char *const not942[] = { "f32:global_atomic_cmpswap", "fence_agent:buffer_wbl2 sc0 sc1",
                                          "fence_wg:buffer_wbl2", NULL };
    static const char *const not1100[] = { "f32:global_atomic_cmpswap", "fence_wg:buffer_gl1_inv", NULL };
    static const char *const not1201[] = { "f32:global_atomic_cmpswap", "fence_agent:scope:SCOPE_SYS",
                                           "fence_wg:scope:SCOPE_DEV", NULL };
    const IsaCase cases[] = {
        { "gfx90a", gfx90a, not90a }, { "gfx942", gfx942, not942 },
        { "gfx1100", gfx1100, not1100 }, { "gfx1201", gfx1201, not1201 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_isa(&cases[k]);
}

/* Without the hardware instruction (gfx908 has only the form that returns
 * nothing; gfx1030 none), f32 add is a cas loop, still LLVM-verified. */
static void test_isa_cas_loop(void)
{
    static const char *const want[] = { "f32:global_atomic_cmpswap", NULL };
    const IsaCase cases[] = { { "gfx1030", want, NULL }, { "gfx908", want, NULL } };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        check_isa(&cases[k]);
}

/* Every type's kernels compile for the four GPUs (LLVM-verified). */
static void test_gpu_compiles(void)
{
    const char *archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };
    for (int a = 0; a < 4; a++)
        for (int ti = 0; ti < NTYPES; ti++) {
            char *src = kernels_source(&types[ti]);
            FxsModule m;
            char *s = fxs_assembly(&m, src, archs[a]);
            if (!s)
                fprintf(stderr, "\n  %s for %s does not compile", types[ti].name, archs[a]);
            CU_ASSERT(s != NULL);
            free(s);
            fxs_close(&m);
            free(src);
        }
}

/* ---- FXIR text ---- */

/* The new operations and fences print, read back, verify and print the same. */
static void test_fxir_round_trip(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_lower(&m, isa_src, "gfx942", false));
    char *text = fxs_fxir_text(m.c.module);
    for (const char *w = "atomic.sub\0atomic.and\0atomic.or\0atomic.xor\0atomic.xchg\0atomic.cas\0"
                         "fence.system\0fence.agent\0fence.workgroup\0"; *w; w += strlen(w) + 1)
        if (!strstr(text, w)) {
            fprintf(stderr, "\n  no %s in\n%s", w, text);
            CU_FAIL("missing in FXIR text");
        }
    CU_ASSERT(fxs_fxir_round_trips(text));
    free(text);
    fxs_close(&m);
}

static const FxtTest host_tests[] = {
    { "the chain model detects a lost update", test_model_detects_a_lost_update },
    { "every op and type, Ptr and shared", test_every_op_and_type },
    { "cas loops; cas compares float bits", test_cas },
    { "threadfence at every scope", test_threadfence },
    { NULL, NULL },
};

static const FxtTest gpu_tests[] = {
    { "instructions on gfx90a, gfx942, gfx1100, gfx1201", test_isa },
    { "cas loop without the hardware instruction", test_isa_cas_loop },
    { "every type compiles for four GPUs", test_gpu_compiles },
    { "FXIR text round trip", test_fxir_round_trip },
    { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "atomics on the host", host_tests, NULL, NULL },
    { "atomics on GPUs", gpu_tests, NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
