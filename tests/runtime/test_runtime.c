/* test_runtime.c - the host backend: kernels built as FXIR by hand, compiled
 * with --target=host, JIT'd by libfxrt and run; results are compared with
 * exact references (spec §3.4), including every integer guard and the
 * single-rounding float conversions (checked against support/floatfmt, the
 * constant folder's own arithmetic). */
#include "fxtest.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "codegen/codegen.h"
#include "runtime/fxrt.h"
#include "host_jit.h"

typedef unsigned __int128 u128;
typedef __int128 i128;

static Kb g_kb;
static RtHostModule *g_rt;

static const ScalarId int_types[] = { SC_INT4, SC_INT8, SC_INT16, SC_INT32, SC_INT64, SC_INT128,
                                      SC_UINT8, SC_UINT16, SC_UINT32, SC_UINT64, SC_UINT128,
                                      SC_INDEX };
enum { NINT = sizeof int_types / sizeof int_types[0] };
/* FxBinop values, and -1 for fx.ceildiv */
static const int int_ops[] = { FXB_ADD, FXB_SUB, FXB_MUL, FXB_FLOORDIV, FXB_MOD, FXB_POW,
                               FXB_AND, FXB_OR, FXB_XOR, FXB_SHL, FXB_SHR, -1 };
enum { NOPS = sizeof int_ops / sizeof int_ops[0] };

static const char *op_tag(int op)
{
    static const char *n[] = { "add", "sub", "mul", "div", "floordiv", "mod", "pow",
                               "and", "or", "xor", "shl", "shr" };
    return op < 0 ? "ceildiv" : n[op];
}

static char *kname(const char *what, ScalarId s, int extra)
{
    return arena_printf(g_kb.a, "%s_%s_%d", what, type_info(s)->name, extra);
}

/* ---- float helpers ---- */

static uint16_t f16_bits(double d) { return (uint16_t)ff_from_double(&ff_float16, d, FF_RNE); }
static uint16_t bf16_bits(double d) { return (uint16_t)ff_from_double(&ff_bfloat16, d, FF_RNE); }
static double from16(const FloatFormat *f, uint16_t b) { return ff_to_double(f, b); }

/* ---- building the module ---- */

static const ScalarId float_types[] = { SC_FLOAT16, SC_BFLOAT16, SC_FLOAT32, SC_FLOAT64 };

typedef struct CastPair {
    ScalarId from, to;
} CastPair;
static const CastPair casts[] = {
    { SC_FLOAT64, SC_FLOAT16 }, { SC_FLOAT64, SC_BFLOAT16 }, { SC_FLOAT64, SC_FLOAT32 },
    { SC_FLOAT32, SC_FLOAT16 }, { SC_FLOAT32, SC_BFLOAT16 }, { SC_FLOAT16, SC_BFLOAT16 },
    { SC_BFLOAT16, SC_FLOAT16 }, { SC_FLOAT16, SC_FLOAT64 }, { SC_BFLOAT16, SC_FLOAT32 },
    { SC_INT32, SC_BFLOAT16 }, { SC_INT64, SC_BFLOAT16 }, { SC_INT128, SC_BFLOAT16 },
    { SC_UINT64, SC_FLOAT16 }, { SC_INT32, SC_FLOAT16 }, { SC_UINT128, SC_FLOAT32 },
    { SC_INT64, SC_FLOAT32 }, { SC_INT8, SC_BFLOAT16 }, { SC_UINT32, SC_FLOAT64 },
    { SC_FLOAT64, SC_INT32 }, { SC_FLOAT64, SC_UINT8 }, { SC_FLOAT64, SC_INT128 },
    { SC_FLOAT64, SC_UINT64 }, { SC_FLOAT64, SC_UINT128 }, { SC_FLOAT32, SC_INT128 }, { SC_FLOAT32, SC_INT8 }, { SC_FLOAT16, SC_INT32 },
    { SC_BFLOAT16, SC_INT64 }, { SC_FLOAT32, SC_UINT32 }, { SC_FLOAT64, SC_INT4 },
    { SC_INT32, SC_INT8 }, { SC_INT8, SC_UINT64 }, { SC_UINT8, SC_INT32 }, { SC_INT128, SC_INT16 },
    { SC_INT32, SC_BOOLEAN }, { SC_FLOAT32, SC_BOOLEAN }, { SC_BOOLEAN, SC_FLOAT32 },
    { SC_BOOLEAN, SC_INT64 },
};
enum { NCASTS = sizeof casts / sizeof casts[0] };

/* ---- kernels for the bounds checks ---- */

/* kernel scatter(idx: const Ptr[Int32], out: Ptr[Int32]) { out[idx[t]] = t }
 * (through fn put(p, i, v) { p[i] = v } when via_fn) */
static void oob_scatter(Kb *k, const char *name, bool via_fn, ScalarId ixs)
{
    const Type *i32 = fxk_s(SC_INT32);
    FxFunc *put = NULL;
    if (via_fn) {
        put = fxk_func(k, arena_printf(k->a, "put_%s", name), FXF_FN, 3, NULL);
        fxk_param_decl(k, 0, "p", fxk_ptr(k, SC_INT32, false));
        fxk_param_decl(k, 1, "i", fxk_s(ixs));
        fxk_param_decl(k, 2, "v", i32);
        fxk_op(k, FX_STORE, 0, NULL, 3, fxk_param(k, 0), fxk_param(k, 2), fxk_param(k, 1));
        put->name = "put";
    }
    fxk_func(k, name, FXF_KERNEL, 2, NULL);
    fxk_param_decl(k, 0, "idx", fxk_ptr(k, ixs, true));
    fxk_param_decl(k, 1, "out", fxk_ptr(k, SC_INT32, false));
    FxInst *idx = fxk_param(k, 0), *out = fxk_param(k, 1);
    FxInst *t = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *j = fxk_op(k, FX_LOAD, 0, fxk_s(ixs), 2, idx, t);
    if (via_fn) {
        FxInst *call = fxk_op(k, FX_CALL, 0, type_simple(TY_VOID), 3, out, j, t);
        call->callee = put;
    } else {
        fxk_op(k, FX_STORE, 0, NULL, 3, out, t, j);
    }
}

/* kernel priv(out: Ptr[Int32]) { var m: Array[Int32, 4, 8]; m[t, t % 8] = t; out[t] = m[t, t % 8] } */
static void oob_private(Kb *k)
{
    const Type *i32 = fxk_s(SC_INT32);
    fxk_func(k, "priv", FXF_KERNEL, 1, NULL);
    fxk_param_decl(k, 0, "out", fxk_ptr(k, SC_INT32, false));
    FxInst *out = fxk_param(k, 0);
    int64_t dims[2] = { 4, 8 };
    FxInst *m = fxk_op(k, FX_ALLOCA, 0, type_array(k->a, i32, 2, dims), 0);
    m->name = "m";
    FxInst *t = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *c = fxk_op(k, FX_BINOP, FXB_MOD, i32, 2, t, fxk_int(k, SC_INT32, 8));
    fxk_op(k, FX_STORE, 0, NULL, 4, m, t, t, c);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, FX_LOAD, 0, i32, 3, m, t, c), t);
}

/* kernel vec4(a: Ptr[Float32x4], i: Int64) { a[i] = a[i] + a[i] } */
static void oob_vec(Kb *k)
{
    const Type *v4 = type_vector(SC_FLOAT32, 4);
    fxk_func(k, "vec4", FXF_KERNEL, 2, NULL);
    fxk_param_decl(k, 0, "a", type_ptr(k->a, v4, false));
    fxk_param_decl(k, 1, "i", fxk_s(SC_INT64));
    FxInst *a = fxk_param(k, 0), *i = fxk_param(k, 1);
    FxInst *x = fxk_op(k, FX_LOAD, 0, v4, 2, a, i);
    fxk_op(k, FX_STORE, 0, NULL, 3, a, fxk_op(k, FX_BINOP, FXB_ADD, v4, 2, x, x), i);
}

/* kernel imax(a: const Ptr[Int32], b: const Ptr[Float32], out: Ptr[Float32]) {
 *   out[t] = fx.max(Float32(a[t]), b[t]) } */
static void max_itof(Kb *k)
{
    const Type *f32 = fxk_s(SC_FLOAT32);
    fxk_func(k, "imax", FXF_KERNEL, 3, NULL);
    fxk_param_decl(k, 0, "a", fxk_ptr(k, SC_INT32, true));
    fxk_param_decl(k, 1, "b", fxk_ptr(k, SC_FLOAT32, true));
    fxk_param_decl(k, 2, "out", fxk_ptr(k, SC_FLOAT32, false));
    FxInst *a = fxk_param(k, 0), *b = fxk_param(k, 1), *out = fxk_param(k, 2);
    FxInst *t = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_CAST, 0, f32, 1, fxk_op(k, FX_LOAD, 0, fxk_s(SC_INT32), 2, a, t));
    FxInst *y = fxk_op(k, FX_LOAD, 0, f32, 2, b, t);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, FX_MINMAX, FXMM_MAX, f32, 2, x, y), t);
}

static void build_oob_kernels(Kb *k)
{
    max_itof(k);
    fxk_vconv_kernel(k, "copy_bf16", fxk_s(SC_BFLOAT16), fxk_s(SC_BFLOAT16), FX_BITCAST);
    fxk_vconv_kernel(k, "pack_i4", type_vector(SC_INT4, 8), fxk_s(SC_UINT32), FX_BITCAST);
    fxk_vconv_kernel(k, "pack_fp4", type_vector(SC_F4E2M1FN, 8), fxk_s(SC_UINT32), FX_BITCAST);
    fxk_vconv_kernel(k, "unpack_i4", fxk_s(SC_UINT32), type_vector(SC_INT4, 8), FX_BITCAST);
    oob_scatter(k, "scatter", false, SC_INT32);
    oob_scatter(k, "scatter_fn", true, SC_INT32);
    oob_scatter(k, "scatter_u64", false, SC_UINT64);
    oob_scatter(k, "scatter_i128", false, SC_INT128);
    oob_private(k);
    oob_vec(k);
}

static int suite_init(void)
{
    g_kb = fxk_begin("runtime_test.fx");
    Kb *k = &g_kb;
    fxk_saxpy(k, "saxpy");
    fxk_saxpy_call(k);
    fxk_loop(k);
    fxk_reverse(k);
    fxk_atomic_kernel(k, "counter");
    for (int t = 0; t < NINT; t++)
        for (int o = 0; o < NOPS; o++)
            fxk_binop_kernel(k, kname(op_tag(int_ops[o]), int_types[t], 0), int_types[t], int_ops[o]);
    for (int t = 0; t < NINT; t++)
        fxk_pmod_kernel(k, kname("pmod", int_types[t], 0), int_types[t], FXK_Q_STORED);
    for (int t = 0; t < 4; t++) {
        ScalarId s = float_types[t];
        static const int fops[] = { FXB_ADD, FXB_SUB, FXB_MUL, FXB_DIV, FXB_FLOORDIV, FXB_MOD, FXB_POW };
        for (int o = 0; o < 7; o++)
            fxk_binop_kernel(k, kname(op_tag(fops[o]), s, 0), s, fops[o]);
        fxk_fma_kernel(k, kname("fma", s, 0), s);
        for (int w = 0; w < 4; w++)
            fxk_minmax_kernel(k, kname("minmax", s, w), s, w);
        for (int m = 0; m <= FXM_RINT; m++)   /* erf .. atan2: tests/mathacc */
            fxk_math_kernel(k, kname("math", s, m), s, m);
        for (int cmp = 0; cmp < 6; cmp++)
            fxk_cmp_kernel(k, kname("cmp", s, cmp), s, cmp);
        fxk_unop_kernel(k, kname("neg", s, 0), s, FXU_NEG);
        fxk_unop_kernel(k, kname("abs", s, 0), s, FXU_ABS);
    }
    for (int t = 0; t < NINT; t++) {
        fxk_unop_kernel(k, kname("neg", int_types[t], 0), int_types[t], FXU_NEG);
        fxk_unop_kernel(k, kname("abs", int_types[t], 0), int_types[t], FXU_ABS);
        fxk_unop_kernel(k, kname("invert", int_types[t], 0), int_types[t], FXU_INVERT);
        for (int cmp = 0; cmp < 6; cmp++)
            fxk_cmp_kernel(k, kname("cmp", int_types[t], cmp), int_types[t], cmp);
        if (int_types[t] != SC_INDEX)
            for (int w = 0; w < 2; w++)
                fxk_minmax_kernel(k, kname("minmax", int_types[t], w), int_types[t], w);
    }
    for (int c = 0; c < NCASTS; c++)
        fxk_cast_kernel(k, arena_printf(k->a, "cast_%s_%s", type_info(casts[c].from)->name,
                                        type_info(casts[c].to)->name), casts[c].from, casts[c].to);
    fxk_early_return(k);
    static const struct { ScalarId s; int lanes; } vts[] = {
        { SC_INT32, 4 }, { SC_INT8, 16 }, { SC_UINT64, 2 }, { SC_INT128, 2 }, { SC_INT4, 8 } };
    for (size_t v = 0; v < sizeof vts / sizeof vts[0]; v++)
        for (int o = 0; o < NOPS; o++)
            fxk_vbinop_kernel(k, arena_printf(k->a, "v%s%dx%d", op_tag(int_ops[o]), (int)vts[v].s, vts[v].lanes),
                              type_vector(vts[v].s, vts[v].lanes), int_ops[o]);
    fxk_vconv_kernel(k, "bc_f32_i32", type_scalar(SC_FLOAT32), type_scalar(SC_INT32), FX_BITCAST);
    fxk_vconv_kernel(k, "bc_f32x4_i8x16", type_vector(SC_FLOAT32, 4), type_vector(SC_INT8, 16), FX_BITCAST);
    fxk_vconv_kernel(k, "vc_f64_bf16", type_vector(SC_FLOAT64, 2), type_vector(SC_BFLOAT16, 2), FX_CAST);
    fxk_vconv_kernel(k, "vc_i32_f16", type_vector(SC_INT32, 4), type_vector(SC_FLOAT16, 4), FX_CAST);
    fxk_vconv_kernel(k, "vc_i64_bf16", type_vector(SC_INT64, 2), type_vector(SC_BFLOAT16, 2), FX_CAST);
    fxk_vconv_kernel(k, "vc_f64_i128", type_vector(SC_FLOAT64, 2), type_vector(SC_INT128, 2), FX_CAST);
    fxk_vector_kernel(k, "vec");
    fxk_narrow_int_kernel(k, "narrow");
    fxk_array_kernel(k, "arr");
    fxk_specials_kernel(k, "specials");
    fxk_atomic_op_kernel(k, "atomic_max_i32", SC_INT32, FXA_MAX, false);
    fxk_atomic_op_kernel(k, "atomic_min_u64", SC_UINT64, FXA_MIN, false);
    fxk_atomic_op_kernel(k, "atomic_add_f32", SC_FLOAT32, FXA_ADD, false);
    fxk_atomic_op_kernel(k, "atomic_cas_i32", SC_INT32, FXA_CAS, false);
    fxk_atomic_op_kernel(k, "atomic_add_shared_i64", SC_INT64, FXA_ADD, true);
    fxk_atomic_op_kernel(k, "atomic_cas_shared_f64", SC_FLOAT64, FXA_CAS, true);
    build_oob_kernels(k);

    g_rt = host_jit(k->m, 2);
    return g_rt ? 0 : 1;
}

static int suite_clean(void)
{
    rt_host_free(g_rt);
    fxk_end(&g_kb);
    return 0;
}

static int launch(const char *name, unsigned gx, unsigned bx, void **args)
{
    unsigned grid[3] = { gx, 1, 1 }, block[3] = { bx, 1, 1 };
    char *err = NULL;
    int rc = rt_host_launch(g_rt, name, grid, block, args, &err);
    if (rc) {
        fprintf(stderr, "launch %s: %s\n", name, err);
        free(err);
    }
    return rc;
}

/* ---- kernels from the brief ---- */

static void test_saxpy(void)
{
    enum { N = 1000 };
    static float x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.25f;
        y[i] = (float)(N - i);
    }
    float a = 3.0f;
    int n = N;
    void *xp = x, *yp = y;
    void *args[4] = { &xp, &yp, &a, &n };
    CU_ASSERT_EQUAL_FATAL(launch("saxpy", (N + 255) / 256, 256, args), 0);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += y[i] != 3.0f * ((float)i * 0.25f) + (float)(N - i);
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(y[0], 1000.0f);
    CU_ASSERT_EQUAL(y[999], 3.0f * 249.75f + 1.0f);
    /* n bounds the work: elements past n stay untouched */
    n = 10;
    y[10] = -1.0f;
    CU_ASSERT_EQUAL(launch("saxpy", 4, 256, args), 0);
    CU_ASSERT_EQUAL(y[10], -1.0f);
}

static void test_fn_call(void)
{
    float x[300], y[300];
    for (int i = 0; i < 300; i++) {
        x[i] = (float)i;
        y[i] = 1.5f;
    }
    float a = -2.0f;
    int n = 300;
    void *xp = x, *yp = y;
    void *args[4] = { &xp, &yp, &a, &n };
    CU_ASSERT_EQUAL_FATAL(launch("saxpy_call", 2, 256, args), 0);
    int bad = 0;
    for (int i = 0; i < 300; i++)
        bad += y[i] != -2.0f * (float)i + 1.5f;
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_loop(void)
{
    int out[32];
    for (int n = 0; n < 70; n += 7) {
        int expect = 0;
        for (int kk = 0; kk < n; kk++) {
            if (kk % 3 == 0)
                continue;
            if (kk > 50)
                break;
            expect += kk;
        }
        void *op = out;
        void *args[2] = { &op, &n };
        CU_ASSERT_EQUAL_FATAL(launch("loopy", 1, 32, args), 0);
        for (int t = 0; t < 32; t++)
            CU_ASSERT_EQUAL(out[t], expect + t);
    }
}

static void test_shared_reverse(void)
{
    enum { B = 5 };
    float buf[64 * B];
    for (int i = 0; i < 64 * B; i++)
        buf[i] = (float)i;
    void *bp = buf;
    void *args[1] = { &bp };
    CU_ASSERT_EQUAL_FATAL(launch("reverse", B, 64, args), 0);
    int bad = 0;
    for (int b = 0; b < B; b++)
        for (int t = 0; t < 64; t++)
            bad += buf[64 * b + t] != (float)(64 * b + 63 - t);
    CU_ASSERT_EQUAL(bad, 0);
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static void test_atomic_counter(void)
{
    enum { N = 4 * 96 };
    int counter = 0, out[N];
    void *cp = &counter, *op = out;
    void *args[2] = { &cp, &op };
    CU_ASSERT_EQUAL_FATAL(launch("counter", 4, 96, args), 0);
    CU_ASSERT_EQUAL(counter, N);
    qsort(out, N, sizeof out[0], cmp_int);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += out[i] != i;
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_atomic_ops(void)
{
    enum { N = 64 };
    {
        int32_t p = 5, v[N], out[N];
        for (int i = 0; i < N; i++)
            v[i] = (i * 37) % 101 - 50;
        void *pp = &p, *vp = v, *op = out;
        void *args[3] = { &pp, &vp, &op };
        CU_ASSERT_EQUAL_FATAL(launch("atomic_max_i32", 1, N, args), 0);
        int32_t mx = 5;
        for (int i = 0; i < N; i++)
            mx = v[i] > mx ? v[i] : mx;
        CU_ASSERT_EQUAL(p, mx);
        CU_ASSERT_EQUAL(out[0], 5);
    }
    {
        uint64_t p = UINT64_MAX - 3, v[N], out[N];
        for (int i = 0; i < N; i++)
            v[i] = (uint64_t)(i + 1) << 40;
        void *pp = &p, *vp = v, *op = out;
        void *args[3] = { &pp, &vp, &op };
        CU_ASSERT_EQUAL_FATAL(launch("atomic_min_u64", 1, N, args), 0);
        CU_ASSERT_EQUAL(p, (uint64_t)1 << 40);
    }
    {
        float p = 0.5f, v[N], out[N];
        for (int i = 0; i < N; i++)
            v[i] = 1.0f;
        void *pp = &p, *vp = v, *op = out;
        void *args[3] = { &pp, &vp, &op };
        CU_ASSERT_EQUAL_FATAL(launch("atomic_add_f32", 1, N, args), 0);
        CU_ASSERT_EQUAL(p, 64.5f);
    }
    {
        /* CAS(expected v[t], new 2*v[t]): v[t] = 3 * 2^t, p = 3 -> a chain of successes */
        int32_t p = 3, v[16], out[16];
        for (int i = 0; i < 16; i++)
            v[i] = 3 << i;
        void *pp = &p, *vp = v, *op = out;
        void *args[3] = { &pp, &vp, &op };
        CU_ASSERT_EQUAL_FATAL(launch("atomic_cas_i32", 1, 16, args), 0);
        CU_ASSERT_EQUAL(p, 3 << 16);
        for (int i = 0; i < 16; i++)
            CU_ASSERT_EQUAL(out[i], 3 << i);
    }
    {
        int64_t p = 1000, v[N], out[N];
        for (int i = 0; i < N; i++)
            v[i] = (int64_t)i << 33;
        void *pp = &p, *vp = v, *op = out;
        void *args[3] = { &pp, &vp, &op };
        CU_ASSERT_EQUAL_FATAL(launch("atomic_add_shared_i64", 1, N, args), 0);
        CU_ASSERT_EQUAL(p, 1000 + ((int64_t)(N * (N - 1) / 2) << 33));
    }
    {
        double p = 1.25, v[8], out[8];
        for (int i = 0; i < 8; i++)
            v[i] = 1.25 * (double)(1 << i);
        void *pp = &p, *vp = v, *op = out;
        void *args[3] = { &pp, &vp, &op };
        CU_ASSERT_EQUAL_FATAL(launch("atomic_cas_shared_f64", 1, 8, args), 0);
        CU_ASSERT_EQUAL(p, 1.25 * 256);
    }
}

/* ---- integer semantics ---- */

typedef struct IT {
    int w;
    bool sgn;
    int bytes;
} IT;

static IT it_of(ScalarId s)
{
    IT t = { type_info(s)->width, type_info(s)->is_signed, 0 };
    t.bytes = type_storage_bits(type_scalar(s)) / 8;
    return t;
}

static u128 mask_w(int w) { return w >= 128 ? ~(u128)0 : (((u128)1 << w) - 1); }
static u128 wrapu(u128 v, IT t) { return v & mask_w(t.w); }
static i128 sval(u128 v, IT t)
{
    v = wrapu(v, t);
    if (t.w < 128 && ((v >> (t.w - 1)) & 1))
        v |= ~mask_w(t.w);
    return (i128)v;
}
static u128 tmin(IT t) { return (u128)1 << (t.w - 1); }

static u128 ref_op(int op, u128 a, u128 b, IT t)
{
    a = wrapu(a, t);
    b = wrapu(b, t);
    i128 sa = sval(a, t), sb = sval(b, t);
    switch (op) {
    case FXB_ADD: return wrapu(a + b, t);
    case FXB_SUB: return wrapu(a - b, t);
    case FXB_MUL: return wrapu(a * b, t);
    case FXB_AND: return a & b;
    case FXB_OR: return a | b;
    case FXB_XOR: return a ^ b;
    case FXB_FLOORDIV:
        if (b == 0)
            return 0;
        if (!t.sgn)
            return a / b;
        if (a == tmin(t) && sb == -1)
            return a;
        {
            i128 q = sa / sb, r = sa % sb;
            if (r != 0 && ((r < 0) != (sb < 0)))
                q -= 1;
            return wrapu((u128)q, t);
        }
    case FXB_MOD:
        if (b == 0)
            return 0;
        if (!t.sgn)
            return a % b;
        if (a == tmin(t) && sb == -1)
            return 0;
        {
            i128 r = sa % sb;
            if (r != 0 && ((r < 0) != (sb < 0)))
                r += sb;
            return wrapu((u128)r, t);
        }
    case FXB_SHL:
        return b >= (u128)t.w ? 0 : wrapu(a << (int)b, t);
    case FXB_SHR:
        if (t.sgn) {
            if (b >= (u128)t.w)
                return sa < 0 ? wrapu(~(u128)0, t) : 0;
            return wrapu((u128)(sa >> (int)b), t);
        }
        return b >= (u128)t.w ? 0 : a >> (int)b;
    case FXB_POW:
        if (t.sgn && sb < 0) {
            if (sa == 1)
                return 1;
            if (sa == -1)
                return (b & 1) ? wrapu(~(u128)0, t) : 1;
            return 0;
        }
        {
            u128 r = 1, base = a, e = b;
            while (e) {
                if (e & 1)
                    r = wrapu(r * base, t);
                base = wrapu(base * base, t);
                e >>= 1;
            }
            return r;
        }
    case -1: /* ceildiv */
        if (b == 0)
            return 0;
        if (!t.sgn)
            return a / b + (a % b != 0);
        if (a == tmin(t) && sb == -1)
            return a;
        {
            i128 q = sa / sb, r = sa % sb;
            if (r != 0 && ((sa < 0) == (sb < 0)))
                q += 1;
            return wrapu((u128)q, t);
        }
    }
    return 0;
}

static int samples(IT t, u128 *out)
{
    static const int64_t base[] = { 0, 1, 2, 3, 5, 7, 100, -1, -2, -3, -7, -100, 63, 64, 127, 128 };
    int n = 0;
    u128 cand[32];
    int nc = 0;
    for (size_t k = 0; k < sizeof base / sizeof base[0]; k++)
        cand[nc++] = (u128)(i128)base[k];
    cand[nc++] = tmin(t);
    cand[nc++] = tmin(t) - 1;         /* MAX (signed) */
    cand[nc++] = tmin(t) + 1;
    cand[nc++] = mask_w(t.w);         /* all ones */
    cand[nc++] = (u128)t.w;
    cand[nc++] = (u128)t.w - 1;
    cand[nc++] = (u128)t.w + 1;
    for (int k = 0; k < nc; k++) {
        u128 v = wrapu(cand[k], t);
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= out[j] == v;
        if (!dup)
            out[n++] = v;
    }
    return n;
}

static void put(unsigned char *buf, int idx, u128 v, IT t)
{
    if (t.w < 8)
        v = (u128)sval(v, t); /* Int4: a sign-extended byte */
    memcpy(buf + (size_t)idx * t.bytes, &v, (size_t)t.bytes);
}

static u128 get(const unsigned char *buf, int idx, IT t)
{
    u128 v = 0;
    memcpy(&v, buf + (size_t)idx * t.bytes, (size_t)t.bytes);
    return v;
}

static char *u128_str(u128 v, char *buf)
{
    char tmp[48];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    for (int k = 0; k < n; k++)
        buf[k] = tmp[n - 1 - k];
    buf[n] = 0;
    return buf;
}

static void test_int_ops(void)
{
    for (int ti = 0; ti < NINT; ti++) {
        ScalarId s = int_types[ti];
        IT t = it_of(s);
        u128 sm[32];
        int ns = samples(t, sm);
        int np = ns * ns;
        unsigned char *a = calloc((size_t)np, 16), *b = calloc((size_t)np, 16), *o = calloc((size_t)np, 16);
        for (int i = 0; i < ns; i++)
            for (int j = 0; j < ns; j++) {
                put(a, i * ns + j, sm[i], t);
                put(b, i * ns + j, sm[j], t);
            }
        for (int oi = 0; oi <= NOPS; oi++) {   /* NOPS: pmod, `%` beside `//` */
            int op = oi < NOPS ? int_ops[oi] : FXB_MOD;
            memset(o, 0xAB, (size_t)np * 16);
            void *ap = a, *bp = b, *opp = o;
            void *args[3] = { &ap, &bp, &opp };
            const char *kn = oi < NOPS ? kname(op_tag(op), s, 0) : kname("pmod", s, 0);
            CU_ASSERT_EQUAL_FATAL(launch(kn, 1, (unsigned)np, args), 0);
            int bad = 0;
            for (int p = 0; p < np; p++) {
                u128 want = ref_op(op, sm[p / ns], sm[p % ns], t);
                u128 got = get(o, p, t);
                u128 raw_want = t.w < 8 ? (u128)sval(want, t) & mask_w(8) : want;
                if (got != raw_want) {
                    if (bad++ < 3) {
                        char x[48], y[48], w[48], g[48];
                        fprintf(stderr, "\n%s %s: a=%s b=%s want %s got %s", type_info(s)->name,
                                op_tag(op), u128_str(sm[p / ns], x), u128_str(sm[p % ns], y),
                                u128_str(raw_want, w), u128_str(got, g));
                    }
                }
            }
            CU_ASSERT_EQUAL(bad, 0);
        }
        free(a);
        free(b);
        free(o);
    }
}

static void test_int_unops_cmps(void)
{
    for (int ti = 0; ti < NINT; ti++) {
        ScalarId s = int_types[ti];
        IT t = it_of(s);
        u128 sm[32];
        int ns = samples(t, sm);
        int np = ns * ns;
        unsigned char *a = calloc((size_t)np, 16), *b = calloc((size_t)np, 16), *o = calloc((size_t)np, 16);
        for (int i = 0; i < ns; i++)
            for (int j = 0; j < ns; j++) {
                put(a, i * ns + j, sm[i], t);
                put(b, i * ns + j, sm[j], t);
            }
        void *ap = a, *bp = b, *opp = o;
        /* b holds the samples in order: b[j] = sm[j] for j < ns */
        void *args2[2] = { &bp, &opp }, *args3[3] = { &ap, &bp, &opp };
        static const char *un[] = { "neg", "abs", "invert" };
        for (int u = 0; u < 3; u++) {
            CU_ASSERT_EQUAL_FATAL(launch(kname(un[u], s, 0), 1, (unsigned)ns, args2), 0);
            for (int i = 0; i < ns; i++) {
                u128 x = sm[i];
                u128 want = u == 0 ? wrapu(0 - x, t)
                          : u == 1 ? (t.sgn && sval(x, t) < 0 ? wrapu(0 - x, t) : x)
                          : wrapu(~x, t);
                CU_ASSERT_EQUAL(wrapu(get(o, i, t), t), want);
            }
        }
        for (int c = 0; c < 6; c++) {
            CU_ASSERT_EQUAL_FATAL(launch(kname("cmp", s, c), 1, (unsigned)np, args3), 0);
            int bad = 0;
            for (int p = 0; p < np; p++) {
                u128 x = sm[p / ns], y = sm[p % ns];
                int r;
                if (t.sgn) {
                    i128 X = sval(x, t), Y = sval(y, t);
                    r = c == 0 ? X < Y : c == 1 ? X <= Y : c == 2 ? X > Y : c == 3 ? X >= Y : c == 4 ? X == Y : X != Y;
                } else {
                    r = c == 0 ? x < y : c == 1 ? x <= y : c == 2 ? x > y : c == 3 ? x >= y : c == 4 ? x == y : x != y;
                }
                bad += o[p] != r; /* Boolean: one byte, 0 or 1 */
            }
            CU_ASSERT_EQUAL(bad, 0);
        }
        if (s != SC_INDEX)
            for (int w = 0; w < 2; w++) {
                CU_ASSERT_EQUAL_FATAL(launch(kname("minmax", s, w), 1, (unsigned)np, args3), 0);
                int bad = 0;
                for (int p = 0; p < np; p++) {
                    u128 x = sm[p / ns], y = sm[p % ns];
                    bool xgt = t.sgn ? sval(x, t) > sval(y, t) : x > y;
                    u128 want = (w == FXMM_MAX) == xgt ? x : y;
                    bad += wrapu(get(o, p, t), t) != want;
                }
                CU_ASSERT_EQUAL(bad, 0);
            }
        free(a);
        free(b);
        free(o);
    }
}

/* ---- floats ---- */

static uint64_t lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 11;
}

/* doubles over a wide range, plus the cases that catch double rounding */
static int double_samples(double *d, int max)
{
    int n = 0;
    const double special[] = {
        0.0, -0.0, 1.0, -1.0, 0.1, -0.1, 1.0 / 3.0, 65504.0, 65519.99, 65520.0, 65536.0, 1e5, -1e5,
        6.1e-5, 5.96e-8, 2.98e-8, 2.9802322387695312e-08, 1e-9, 3.4028234663852886e38,
        3.4028235677973366e38, 1e39, -1e39, 1e300, 1.1754943508222875e-38, 1e-40, 1e-45, 1e-300,
        1.0 + 0x1p-8 + 0x1p-30, 1.0 + 0x1p-8, 1.0 + 0x1p-11 + 0x1p-40, 1.0 + 0x1p-11,
        1.0 + 0x1p-24 + 0x1p-50, 1.0 + 0x1p-24, 3.0 + 0x1p-7 + 0x1p-35,
        INFINITY, -INFINITY, NAN };
    for (size_t k = 0; k < sizeof special / sizeof special[0] && n < max; k++)
        d[n++] = special[k];
    uint64_t s = 42;
    while (n < max) {
        uint64_t bits = lcg(&s) << 11 | (lcg(&s) & 0x7ff);
        /* exponents mostly in a useful range */
        int e = (int)(lcg(&s) % 300) - 150;
        double m = 1.0 + (double)(bits >> 12) * 0x1p-52;
        d[n++] = ldexp((bits & 1) ? -m : m, e);
    }
    return n;
}

static bool same_float(const FloatFormat *f, uint64_t want, uint64_t got)
{
    if (ff_is_nan(f, want))
        return ff_is_nan(f, got);
    return want == got;
}

static int float_bytes(ScalarId s) { return type_info(s)->width / 8; }

static uint64_t load_bits(const void *buf, int i, int bytes)
{
    uint64_t v = 0;
    memcpy(&v, (const char *)buf + (size_t)i * bytes, (size_t)bytes);
    return v;
}

static void store_bits(void *buf, int i, int bytes, uint64_t v)
{
    memcpy((char *)buf + (size_t)i * bytes, &v, (size_t)bytes);
}

static uint64_t bits_of_double(ScalarId s, double d)
{
    uint64_t b;
    if (s == SC_FLOAT64) {
        memcpy(&b, &d, 8);
        return b;
    }
    return ff_from_double(type_info(s)->fmt, d, FF_RNE);
}

static double double_of_bits(ScalarId s, uint64_t b)
{
    return ff_to_double(type_info(s)->fmt, b);
}

static void test_float_to_float(void)
{
    enum { N = 1000 };
    static double d[N];
    int n = double_samples(d, N);
    for (int c = 0; c < NCASTS; c++) {
        ScalarId from = casts[c].from, to = casts[c].to;
        if (!type_is_float(from) || !type_is_float(to))
            continue;
        int fb = float_bytes(from), tb = float_bytes(to);
        static unsigned char in[N * 8], out[N * 8];
        for (int i = 0; i < n; i++)
            store_bits(in, i, fb, bits_of_double(from, d[i]));
        void *ip = in, *op = out;
        void *args[2] = { &ip, &op };
        char *name = arena_printf(g_kb.a, "cast_%s_%s", type_info(from)->name, type_info(to)->name);
        CU_ASSERT_EQUAL_FATAL(launch(name, 1, 1000, args), 0);
        int bad = 0;
        for (int i = 0; i < n; i++) {
            double x = double_of_bits(from, load_bits(in, i, fb));
            uint64_t want = bits_of_double(to, x);
            uint64_t got = load_bits(out, i, tb);
            if (!same_float(type_info(to)->fmt, want, got) && bad++ < 3)
                fprintf(stderr, "\n%s: %a -> want 0x%llx got 0x%llx", name, x,
                        (unsigned long long)want, (unsigned long long)got);
        }
        CU_ASSERT_EQUAL(bad, 0);
    }
}

static BigInt big_of(u128 v, IT t)
{
    i128 s = t.sgn ? sval(v, t) : (i128)wrapu(v, t);
    u128 mag = s < 0 && t.sgn ? (u128)0 - (u128)s : (u128)s;
    if (!t.sgn)
        mag = wrapu(v, t);
    BigInt two32 = big_from_u64(UINT64_C(1) << 32);
    BigInt b = big_add(big_mul(big_from_u64((uint64_t)(mag >> 64)), big_mul(two32, two32)),
                       big_from_u64((uint64_t)mag));
    return t.sgn && s < 0 ? big_neg(b) : b;
}

static void test_int_to_float(void)
{
    for (int c = 0; c < NCASTS; c++) {
        ScalarId from = casts[c].from, to = casts[c].to;
        if (!type_is_int(from) || !type_is_float(to))
            continue;
        IT t = it_of(from);
        enum { N = 600 };
        static unsigned char in[N * 16], out[N * 8];
        u128 vals[N];
        uint64_t s = 7 + (uint64_t)c;
        int n = samples(t, vals);
        /* random values of every magnitude, many with long mantissas */
        while (n < N) {
            u128 r = ((u128)lcg(&s) << 75) ^ ((u128)lcg(&s) << 22) ^ lcg(&s);
            int shift = (int)(lcg(&s) % (unsigned)t.w);
            vals[n++] = wrapu(r >> shift, t);
        }
        /* exact ties for 8- and 11-bit significands, plus a sticky bit */
        vals[N - 1] = wrapu(((u128)0x101 << 22) | 1, t);
        vals[N - 2] = wrapu(((u128)0x101 << 22), t);
        vals[N - 3] = wrapu(((u128)0x1003 << 30) | 1, t);
        for (int i = 0; i < N; i++)
            put(in, i, vals[i], t);
        void *ip = in, *op = out;
        void *args[2] = { &ip, &op };
        char *name = arena_printf(g_kb.a, "cast_%s_%s", type_info(from)->name, type_info(to)->name);
        CU_ASSERT_EQUAL_FATAL(launch(name, 1, N, args), 0);
        int bad = 0, tb = float_bytes(to);
        for (int i = 0; i < N; i++) {
            uint64_t want = ff_from_big(type_info(to)->fmt, big_of(vals[i], t), FF_RNE);
            uint64_t got = load_bits(out, i, tb);
            if (want != got && bad++ < 3) {
                char buf[48];
                fprintf(stderr, "\n%s: %s%s -> want 0x%llx got 0x%llx", name,
                        t.sgn && sval(vals[i], t) < 0 ? "-" : "",
                        u128_str(t.sgn && sval(vals[i], t) < 0 ? (u128)0 - (u128)sval(vals[i], t) : vals[i], buf),
                        (unsigned long long)want, (unsigned long long)got);
            }
        }
        CU_ASSERT_EQUAL(bad, 0);
    }
}

static u128 ref_fptoint(double x, IT t)
{
    if (isnan(x))
        return 0;
    double tr = trunc(x);
    if (t.sgn) {
        double lim = ldexp(1.0, t.w - 1);
        if (tr >= lim)
            return tmin(t) - 1;
        if (tr < -lim)
            return tmin(t);
        return wrapu((u128)(i128)tr, t);
    }
    double lim = ldexp(1.0, t.w);
    if (tr >= lim)
        return mask_w(t.w);
    if (tr <= 0)
        return 0;
    return (u128)tr;
}

static void test_float_to_int(void)
{
    enum { N = 1000 };
    static double d[N];
    int n = double_samples(d, N);
    const double extra[] = { 127.9, -128.9, 128.0, -129.0, 255.5, 256.0, -0.9, 2147483647.5,
                             2147483648.0, -2147483649.0, 4294967295.9, 9.3e18, 1.8e19, 1.7e38, -1.7e38,
                             7.9, -8.9, 7.0, -8.0 };
    for (size_t k = 0; k < sizeof extra / sizeof extra[0]; k++)
        d[k + 40] = extra[k];
    for (int c = 0; c < NCASTS; c++) {
        ScalarId from = casts[c].from, to = casts[c].to;
        if (!type_is_float(from) || !type_is_int(to))
            continue;
        IT t = it_of(to);
        int fb = float_bytes(from);
        static unsigned char in[N * 8], out[N * 16];
        for (int i = 0; i < n; i++)
            store_bits(in, i, fb, bits_of_double(from, d[i]));
        void *ip = in, *op = out;
        void *args[2] = { &ip, &op };
        char *name = arena_printf(g_kb.a, "cast_%s_%s", type_info(from)->name, type_info(to)->name);
        CU_ASSERT_EQUAL_FATAL(launch(name, 1, 1000, args), 0);
        int bad = 0;
        for (int i = 0; i < n; i++) {
            double x = double_of_bits(from, load_bits(in, i, fb));
            u128 want = ref_fptoint(x, t);
            u128 got = wrapu(get(out, i, t), t);
            if (want != got && bad++ < 3)
                fprintf(stderr, "\n%s: %a -> want %lld got %lld", name, x, (long long)want, (long long)got);
        }
        CU_ASSERT_EQUAL(bad, 0);
    }
}

static void test_int_casts(void)
{
    for (int c = 0; c < NCASTS; c++) {
        ScalarId from = casts[c].from, to = casts[c].to;
        bool fi = type_is_int(from) || from == SC_BOOLEAN, ti = type_is_int(to) || to == SC_BOOLEAN;
        if (!(fi && (ti || to == SC_FLOAT32)) || (to == SC_FLOAT32 && from != SC_BOOLEAN))
            continue;
        IT tf = from == SC_BOOLEAN ? (IT){ 1, false, 1 } : it_of(from);
        IT tt = to == SC_BOOLEAN ? (IT){ 1, false, 1 } : it_of(to);
        u128 vals[40];
        int n = from == SC_BOOLEAN ? 2 : samples(tf, vals);
        if (from == SC_BOOLEAN) {
            vals[0] = 0;
            vals[1] = 1;
        }
        static unsigned char in[40 * 16], out[40 * 16];
        for (int i = 0; i < n; i++)
            put(in, i, vals[i], tf);
        void *ip = in, *op = out;
        void *args[2] = { &ip, &op };
        char *name = arena_printf(g_kb.a, "cast_%s_%s", type_info(from)->name, type_info(to)->name);
        CU_ASSERT_EQUAL_FATAL(launch(name, 1, (unsigned)n, args), 0);
        for (int i = 0; i < n; i++) {
            if (to == SC_FLOAT32) {
                float f;
                memcpy(&f, out + 4 * i, 4);
                CU_ASSERT_EQUAL(f, (float)vals[i]);
                continue;
            }
            u128 want;
            if (to == SC_BOOLEAN)
                want = wrapu(vals[i], tf) != 0;
            else if (tf.sgn)
                want = wrapu((u128)sval(vals[i], tf), tt);
            else
                want = wrapu(vals[i], tt);
            CU_ASSERT_EQUAL(wrapu(get(out, i, tt), tt), want);
        }
    }
    /* Float32 -> Boolean is "nonzero" (NaN included) */
    float fin[5] = { 0.0f, -0.0f, 1e-40f, NAN, -3.0f };
    unsigned char bout[5];
    void *ip = fin, *op = bout;
    void *args[2] = { &ip, &op };
    CU_ASSERT_EQUAL_FATAL(launch("cast_Float32_Boolean", 1, 5, args), 0);
    CU_ASSERT(bout[0] == 0 && bout[1] == 0 && bout[2] == 1 && bout[3] == 1 && bout[4] == 1);
}

static double py_mod(double a, double b)
{
    double r = fmod(a, b);
    if (r != 0.0 || isnan(r)) {
        if ((b < 0) != (r < 0))
            r += b;
    } else {
        r = copysign(0.0, b);
    }
    return r;
}

/* float binops: results must be the correctly rounded value in the type's
 * own format (reference: exact double arithmetic rounded by floatfmt for the
 * 16-bit formats, C arithmetic for float/double) */
static void test_float_binops(void)
{
    enum { N = 512 };
    static const double vals[] = { 0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -7.0, 0.1, 3.0, -3.0,
                                   1e-3, 1e4, 3e-39, -1e-39, 6e-8, 1e30, -7e-30, 1e300, INFINITY, -INFINITY, NAN };
    enum { NV = sizeof vals / sizeof vals[0] };
    static const int fops[] = { FXB_ADD, FXB_SUB, FXB_MUL, FXB_DIV, FXB_FLOORDIV, FXB_MOD };
    for (int ti = 0; ti < 4; ti++) {
        ScalarId s = float_types[ti];
        const FloatFormat *fmt = type_info(s)->fmt;
        int fb = float_bytes(s);
        static unsigned char a[N * 8], b[N * 8], o[N * 8];
        int n = 0;
        for (int i = 0; i < NV; i++)
            for (int j = 0; j < NV; j++, n++) {
                store_bits(a, n, fb, bits_of_double(s, vals[i]));
                store_bits(b, n, fb, bits_of_double(s, vals[j]));
            }
        for (int oi = 0; oi < 6; oi++) {
            int op = fops[oi];
            void *ap = a, *bp = b, *opp = o;
            void *args[3] = { &ap, &bp, &opp };
            CU_ASSERT_EQUAL_FATAL(launch(kname(op_tag(op), s, 0), 1, (unsigned)n, args), 0);
            int bad = 0;
            for (int p = 0; p < n; p++) {
                double x = double_of_bits(s, load_bits(a, p, fb)), y = double_of_bits(s, load_bits(b, p, fb));
                double r;
                if (s == SC_FLOAT32) {
                    float X = (float)x, Y = (float)y, R;
                    switch (op) {
                    case FXB_ADD: R = X + Y; break;
                    case FXB_SUB: R = X - Y; break;
                    case FXB_MUL: R = X * Y; break;
                    case FXB_DIV: R = X / Y; break;
                    case FXB_FLOORDIV: R = floorf(X / Y); break;
                    default: {
                        float m = fmodf(X, Y);
                        if (m != 0.0f || isnan(m)) {
                            if ((Y < 0) != (m < 0))
                                m += Y;
                        } else {
                            m = copysignf(0.0f, Y);
                        }
                        R = m;
                    }
                    }
                    r = R;
                } else {
                    /* double arithmetic is exact enough for the 16-bit formats
                     * (innocuous double rounding for + - * /) */
                    switch (op) {
                    case FXB_ADD: r = x + y; break;
                    case FXB_SUB: r = x - y; break;
                    case FXB_MUL: r = x * y; break;
                    case FXB_DIV: r = x / y; break;
                    case FXB_FLOORDIV:
                        r = s == SC_FLOAT64 ? floor(x / y) : floor(double_of_bits(s, bits_of_double(s, x / y)));
                        break;
                    default: r = py_mod(x, y);
                    }
                }
                uint64_t want = bits_of_double(s, r), got = load_bits(o, p, fb);
                if (!same_float(fmt, want, got) && bad++ < 3)
                    fprintf(stderr, "\n%s %s: %a, %a -> want %a got %a", type_info(s)->name, op_tag(op),
                            x, y, r, double_of_bits(s, got));
            }
            CU_ASSERT_EQUAL(bad, 0);
        }
    }
}

static void test_fma_narrow(void)
{
    enum { N = 1000 };
    for (int ti = 0; ti < 2; ti++) {
        ScalarId s = ti ? SC_BFLOAT16 : SC_FLOAT16;
        const FloatFormat *fmt = type_info(s)->fmt;
        static uint16_t a[N], b[N], c[N], o[N];
        uint64_t st = 99;
        for (int i = 0; i < N; i++) {
            /* exponents in [-6, 6]: the exact a*b+c fits in a double */
            double x = ldexp(1.0 + (double)(lcg(&st) % 1024) / 1024.0, (int)(lcg(&st) % 13) - 6);
            double y = ldexp(1.0 + (double)(lcg(&st) % 1024) / 1024.0, (int)(lcg(&st) % 13) - 6);
            double z = ldexp(1.0 + (double)(lcg(&st) % 1024) / 1024.0, (int)(lcg(&st) % 13) - 6);
            a[i] = (uint16_t)ff_from_double(fmt, (lcg(&st) & 1) ? -x : x, FF_RNE);
            b[i] = (uint16_t)ff_from_double(fmt, y, FF_RNE);
            c[i] = (uint16_t)ff_from_double(fmt, (lcg(&st) & 1) ? -z : z, FF_RNE);
        }
        void *ap = a, *bp = b, *cp = c, *op = o;
        void *args[4] = { &ap, &bp, &cp, &op };
        CU_ASSERT_EQUAL_FATAL(launch(kname("fma", s, 0), 1, N, args), 0);
        int bad = 0;
        for (int i = 0; i < N; i++) {
            double exact = from16(fmt, a[i]) * from16(fmt, b[i]) + from16(fmt, c[i]);
            uint16_t want = ti ? bf16_bits(exact) : f16_bits(exact);
            if (o[i] != want && bad++ < 3)
                fprintf(stderr, "\nfma %s: %a*%a+%a want 0x%x got 0x%x", type_info(s)->name,
                        from16(fmt, a[i]), from16(fmt, b[i]), from16(fmt, c[i]), want, o[i]);
        }
        CU_ASSERT_EQUAL(bad, 0);
    }
    /* Float32/Float64: llvm.fma is exact */
    float a = 1.0f + 0x1p-23f, b = 1.0f - 0x1p-23f, c = -1.0f, o;
    void *ap = &a, *bp = &b, *cp = &c, *op = &o;
    void *args[4] = { &ap, &bp, &cp, &op };
    CU_ASSERT_EQUAL_FATAL(launch(kname("fma", SC_FLOAT32, 0), 1, 1, args), 0);
    CU_ASSERT_EQUAL(o, -0x1p-46f);
}

static void test_float_math_minmax(void)
{
    /* Float32 and Float64 against the C library (the host's libm) */
    static const double xs[] = { 0.5, 1.0, 2.0, 0.1, 3.75, 10.0, 0.3, 2.5 };
    enum { NX = sizeof xs / sizeof xs[0] };
    for (int ti = 2; ti < 4; ti++) {
        ScalarId s = float_types[ti];
        int fb = float_bytes(s);
        unsigned char in[NX * 8], out[NX * 8];
        for (int i = 0; i < NX; i++)
            store_bits(in, i, fb, bits_of_double(s, xs[i]));
        for (int m = 0; m <= FXM_RINT; m++) {
            void *ip = in, *op = out;
            void *args[2] = { &ip, &op };
            CU_ASSERT_EQUAL_FATAL(launch(kname("math", s, m), 1, NX, args), 0);
            for (int i = 0; i < NX; i++) {
                double x = xs[i], r;
                if (s == SC_FLOAT32) {
                    float X = (float)x;
                    float R = m == FXM_EXP ? expf(X) : m == FXM_EXP2 ? exp2f(X) : m == FXM_LOG ? logf(X)
                            : m == FXM_LOG2 ? log2f(X) : m == FXM_SQRT ? sqrtf(X) : m == FXM_RSQRT ? 1.0f / sqrtf(X)
                            : m == FXM_SIN ? sinf(X) : m == FXM_COS ? cosf(X) : m == FXM_TANH ? tanhf(X)
                            : m == FXM_FLOOR ? floorf(X) : m == FXM_CEIL ? ceilf(X) : m == FXM_ROUND ? roundf(X)
                            : m == FXM_TRUNC ? truncf(X) : rintf(X);
                    r = R;
                } else {
                    r = m == FXM_EXP ? exp(x) : m == FXM_EXP2 ? exp2(x) : m == FXM_LOG ? log(x)
                      : m == FXM_LOG2 ? log2(x) : m == FXM_SQRT ? sqrt(x) : m == FXM_RSQRT ? 1.0 / sqrt(x)
                      : m == FXM_SIN ? sin(x) : m == FXM_COS ? cos(x) : m == FXM_TANH ? tanh(x)
                      : m == FXM_FLOOR ? floor(x) : m == FXM_CEIL ? ceil(x) : m == FXM_ROUND ? round(x)
                      : m == FXM_TRUNC ? trunc(x) : rint(x);
                }
                double got = double_of_bits(s, load_bits(out, i, fb));
                CU_ASSERT_DOUBLE_EQUAL(got, r, fabs(r) * 4e-7);
            }
        }
    }
    /* round is half away from zero */
    {
        double in[4] = { 2.5, -2.5, 0.5, 1.5 }, out[4];
        void *ip = in, *op = out;
        void *args[2] = { &ip, &op };
        CU_ASSERT_EQUAL_FATAL(launch(kname("math", SC_FLOAT64, FXM_ROUND), 1, 4, args), 0);
        CU_ASSERT(out[0] == 3.0 && out[1] == -3.0 && out[2] == 1.0 && out[3] == 2.0);
    }
    /* Float16/BFloat16 sqrt is correctly rounded; tanh is close */
    for (int ti = 0; ti < 2; ti++) {
        ScalarId s = float_types[ti];
        const FloatFormat *fmt = type_info(s)->fmt;
        uint16_t in[NX], out[NX];
        for (int i = 0; i < NX; i++)
            in[i] = (uint16_t)ff_from_double(fmt, xs[i], FF_RNE);
        void *ip = in, *op = out;
        void *args[2] = { &ip, &op };
        CU_ASSERT_EQUAL_FATAL(launch(kname("math", s, FXM_SQRT), 1, NX, args), 0);
        for (int i = 0; i < NX; i++)
            CU_ASSERT_EQUAL(out[i], ff_from_double(fmt, sqrt(ff_to_double(fmt, in[i])), FF_RNE));
        /* rsqrt as the folder computes it: 1.0f / sqrtf(x), rounded once */
        CU_ASSERT_EQUAL_FATAL(launch(kname("math", s, FXM_RSQRT), 1, NX, args), 0);
        for (int i = 0; i < NX; i++)
            CU_ASSERT_EQUAL(out[i], ff_from_double(fmt, 1.0f / sqrtf((float)ff_to_double(fmt, in[i])), FF_RNE));
        CU_ASSERT_EQUAL_FATAL(launch(kname("math", s, FXM_TANH), 1, NX, args), 0);
        for (int i = 0; i < NX; i++)
            CU_ASSERT_DOUBLE_EQUAL(ff_to_double(fmt, out[i]), tanh(ff_to_double(fmt, in[i])), 1e-2);
    }
    /* max/min propagate NaN and order -0 < +0; maxnum/minnum drop one NaN */
    {
        float a[4] = { NAN, -0.0f, 1.0f, NAN }, b[4] = { 1.0f, 0.0f, NAN, NAN }, o[4];
        void *ap = a, *bp = b, *op = o;
        void *args[3] = { &ap, &bp, &op };
        CU_ASSERT_EQUAL_FATAL(launch(kname("minmax", SC_FLOAT32, FXMM_MAX), 1, 4, args), 0);
        CU_ASSERT(isnan(o[0]) && o[1] == 0.0f && !signbit(o[1]) && isnan(o[2]) && isnan(o[3]));
        CU_ASSERT_EQUAL_FATAL(launch(kname("minmax", SC_FLOAT32, FXMM_MIN), 1, 4, args), 0);
        CU_ASSERT(isnan(o[0]) && o[1] == 0.0f && signbit(o[1]));
        CU_ASSERT_EQUAL_FATAL(launch(kname("minmax", SC_FLOAT32, FXMM_MAXNUM), 1, 4, args), 0);
        CU_ASSERT(o[0] == 1.0f && o[2] == 1.0f && isnan(o[3]));
        CU_ASSERT_EQUAL_FATAL(launch(kname("minmax", SC_FLOAT32, FXMM_MINNUM), 1, 4, args), 0);
        CU_ASSERT(o[0] == 1.0f && o[2] == 1.0f && isnan(o[3]));
    }
    /* maxnum/minnum order -0 < +0 like fx.max (the folder does), every float type,
     * both operand orders */
    for (int ti = 0; ti < 4; ti++) {
        ScalarId s = float_types[ti];
        int fb = float_bytes(s);
        unsigned char a[4 * 8], b[4 * 8], o[4 * 8];
        uint64_t nz = bits_of_double(s, -0.0), pz = bits_of_double(s, 0.0);
        uint64_t av[4] = { nz, pz, nz, bits_of_double(s, 2.0) };
        uint64_t bv[4] = { pz, nz, nz, bits_of_double(s, 2.0) };
        for (int i = 0; i < 4; i++) {
            store_bits(a, i, fb, av[i]);
            store_bits(b, i, fb, bv[i]);
        }
        void *ap = a, *bp = b, *op = o;
        void *args[3] = { &ap, &bp, &op };
        for (int w = 0; w < 4; w++) {
            CU_ASSERT_EQUAL_FATAL(launch(kname("minmax", s, w), 1, 4, args), 0);
            bool max = w == FXMM_MAX || w == FXMM_MAXNUM;
            CU_ASSERT_EQUAL(load_bits(o, 0, fb), max ? pz : nz);
            CU_ASSERT_EQUAL(load_bits(o, 1, fb), max ? pz : nz);
            CU_ASSERT_EQUAL(load_bits(o, 2, fb), nz);
            CU_ASSERT_EQUAL(load_bits(o, 3, fb), bits_of_double(s, 2.0));
        }
    }
    /* comparisons: NaN is unordered; != is true for NaN */
    {
        double a[3] = { NAN, 1.0, -0.0 }, b[3] = { NAN, 2.0, 0.0 };
        unsigned char o[3];
        void *ap = a, *bp = b, *op = o;
        void *args[3] = { &ap, &bp, &op };
        CU_ASSERT_EQUAL_FATAL(launch(kname("cmp", SC_FLOAT64, FXC_NE), 1, 3, args), 0);
        CU_ASSERT(o[0] == 1 && o[1] == 1 && o[2] == 0);
        CU_ASSERT_EQUAL_FATAL(launch(kname("cmp", SC_FLOAT64, FXC_LE), 1, 3, args), 0);
        CU_ASSERT(o[0] == 0 && o[1] == 1 && o[2] == 1);
    }
    /* float pow */
    {
        float a[2] = { 2.0f, 9.0f }, b[2] = { 10.0f, 0.5f }, o[2];
        void *ap = a, *bp = b, *op = o;
        void *args[3] = { &ap, &bp, &op };
        CU_ASSERT_EQUAL_FATAL(launch(kname("pow", SC_FLOAT32, 0), 1, 2, args), 0);
        CU_ASSERT(o[0] == 1024.0f && o[1] == 3.0f);
    }
}

static void test_vectors_and_storage(void)
{
    float a[8][4], out[8][4], lane[8];
    for (int i = 0; i < 8; i++)
        for (int l = 0; l < 4; l++)
            a[i][l] = (float)(i + l) * 0.75f - 1.0f;
    void *ap = a, *op = out, *lp = lane;
    void *args[3] = { &ap, &op, &lp };
    CU_ASSERT_EQUAL_FATAL(launch("vec", 1, 8, args), 0);
    for (int i = 0; i < 8; i++) {
        float m[4];
        for (int l = 0; l < 4; l++) {
            float v = a[i][l];
            float r = v > 2.0f ? v * 2.0f : v;
            m[l] = r > 2.0f ? r : 2.0f;
        }
        CU_ASSERT_EQUAL(lane[i], m[1]);
        CU_ASSERT(out[i][0] == m[0] && out[i][1] == m[1] && out[i][2] == m[2] && out[i][3] == m[1]);
    }
    /* Int4 is a sign-extended byte in memory; Boolean a 0/1 byte; a Boolean parameter */
    int8_t i4[16], o4[16];
    unsigned char bo[16], ob[16], flag = 1;
    for (int i = 0; i < 16; i++) {
        i4[i] = (int8_t)(i - 8);
        bo[i] = (unsigned char)(i & 1);
    }
    void *p0 = i4, *p1 = bo, *p3 = o4, *p4 = ob;
    void *nargs[5] = { &p0, &p1, &flag, &p3, &p4 };
    CU_ASSERT_EQUAL_FATAL(launch("narrow", 1, 16, nargs), 0);
    for (int i = 0; i < 16; i++) {
        int v = ((i - 8) * 3) & 15;
        CU_ASSERT_EQUAL(o4[i], (int8_t)(v >= 8 ? v - 16 : v));
        CU_ASSERT_EQUAL(ob[i], (unsigned char)((i & 1) ^ 1));
    }
    /* private arrays: zero-initialized, row-major */
    int32_t arr[64];
    void *arp = arr;
    void *aargs[1] = { &arp };
    CU_ASSERT_EQUAL_FATAL(launch("arr", 1, 64, aargs), 0);
    for (int t = 0; t < 64; t++)
        CU_ASSERT_EQUAL(arr[t], t + ((t % 4 == 3 && t % 8 == 7) ? t : 0));
}

static void test_early_return(void)
{
    int32_t out[16];
    for (int i = 0; i < 16; i++)
        out[i] = -99;
    int n = 10;
    void *op = out;
    void *args[2] = { &op, &n };
    CU_ASSERT_EQUAL_FATAL(launch("early", 1, 16, args), 0);
    for (int t = 0; t < 16; t++)
        CU_ASSERT_EQUAL(out[t], t >= 10 ? -99 : t - 5 < 0 ? 0 : t - 5);
}

static void test_vector_ints(void)
{
    static const struct { ScalarId s; int lanes; } vts[] = {
        { SC_INT32, 4 }, { SC_INT8, 16 }, { SC_UINT64, 2 }, { SC_INT128, 2 }, { SC_INT4, 8 } };
    for (size_t v = 0; v < sizeof vts / sizeof vts[0]; v++) {
        IT t = it_of(vts[v].s);
        int L = vts[v].lanes;
        u128 sm[32];
        int ns = samples(t, sm);
        int np = ns * ns, nvec = (np + L - 1) / L;
        unsigned char *a = calloc((size_t)nvec * L, 16), *b = calloc((size_t)nvec * L, 16);
        unsigned char *o = calloc((size_t)nvec * L, 16);
        for (int p = 0; p < nvec * L; p++) {
            put(a, p, sm[(p % np) / ns], t);
            put(b, p, sm[(p % np) % ns], t);
        }
        for (int oi = 0; oi < NOPS; oi++) {
            int op = int_ops[oi];
            void *ap = a, *bp = b, *opp = o;
            void *args[3] = { &ap, &bp, &opp };
            char *name = arena_printf(g_kb.a, "v%s%dx%d", op_tag(op), (int)vts[v].s, L);
            CU_ASSERT_EQUAL_FATAL(launch(name, 1, (unsigned)nvec, args), 0);
            int bad = 0;
            for (int p = 0; p < nvec * L; p++) {
                u128 want = ref_op(op, get(a, p, t), get(b, p, t), t);
                bad += wrapu(get(o, p, t), t) != want;
            }
            if (bad)
                fprintf(stderr, "\n%s: %d wrong lanes", name, bad);
            CU_ASSERT_EQUAL(bad, 0);
        }
        free(a);
        free(b);
        free(o);
    }
}

static void test_bitcast_vector_casts(void)
{
    float f[4] = { 1.0f, -2.0f, 0.5f, 3.0f };
    int32_t i[4];
    int8_t b[4][16];
    void *fp = f, *ip = i, *bp = b;
    void *a1[2] = { &fp, &ip }, *a2[2] = { &fp, &bp };
    CU_ASSERT_EQUAL_FATAL(launch("bc_f32_i32", 1, 4, a1), 0);
    CU_ASSERT(i[0] == 0x3f800000 && i[1] == (int32_t)0xc0000000 && i[3] == 0x40400000);
    CU_ASSERT_EQUAL_FATAL(launch("bc_f32x4_i8x16", 1, 1, a2), 0);
    CU_ASSERT(memcmp(b[0], f, 16) == 0);

    double d[8] = { 1.0 + 0x1p-8 + 0x1p-40, -3e-39, 1e300, 0.1, -0.0, 65520.0, 1e-50, -1.0 };
    uint16_t h[8];
    void *dp = d, *hp = h;
    void *a3[2] = { &dp, &hp };
    CU_ASSERT_EQUAL_FATAL(launch("vc_f64_bf16", 1, 4, a3), 0);
    for (int k = 0; k < 8; k++)
        CU_ASSERT_EQUAL(h[k], ff_from_double(&ff_bfloat16, d[k], FF_RNE));

    int32_t iv[8] = { 65519, 65520, -2049, 2049, 2051, 0x7fffffff, (int32_t)0x80000000, 12345 };
    void *ivp = iv;
    void *a4[2] = { &ivp, &hp };
    CU_ASSERT_EQUAL_FATAL(launch("vc_i32_f16", 1, 2, a4), 0);
    for (int k = 0; k < 8; k++)
        CU_ASSERT_EQUAL(h[k], ff_from_big(&ff_float16, big_from_i64(iv[k]), FF_RNE));

    int64_t lv[8] = { (1LL << 40) + (1LL << 32) + 1, (1LL << 40) + (1LL << 32), -(1LL << 62) - 1, INT64_MIN,
                      INT64_MAX, 255, 257, -257 };
    void *lvp = lv;
    void *a5[2] = { &lvp, &hp };
    CU_ASSERT_EQUAL_FATAL(launch("vc_i64_bf16", 1, 4, a5), 0);
    for (int k = 0; k < 8; k++)
        CU_ASSERT_EQUAL(h[k], ff_from_big(&ff_bfloat16, big_from_i64(lv[k]), FF_RNE));

    double dv[4] = { 1.7e38, -1.7e39, NAN, -12345.9 };
    i128 w[4];
    void *dvp = dv, *wp = w;
    void *a6[2] = { &dvp, &wp };
    CU_ASSERT_EQUAL_FATAL(launch("vc_f64_i128", 1, 2, a6), 0);
    CU_ASSERT(w[0] == (i128)1.7e38);
    CU_ASSERT(w[1] == (i128)((u128)1 << 127));
    CU_ASSERT(w[2] == 0 && w[3] == -12345);
}

static void test_specials(void)
{
    unsigned grid[3] = { 3, 2, 2 }, block[3] = { 4, 2, 3 };
    enum { T = 3 * 2 * 2 * 4 * 2 * 3 };
    static int32_t out[T * 16];
    memset(out, 0xff, sizeof out);
    void *op = out;
    void *args[1] = { &op };
    char *err = NULL;
    CU_ASSERT_EQUAL_FATAL(rt_host_launch(g_rt, "specials", grid, block, args, &err), 0);
    int bad = 0;
    for (unsigned bz = 0; bz < 2; bz++)
        for (unsigned by = 0; by < 2; by++)
            for (unsigned bx = 0; bx < 3; bx++)
                for (unsigned tz = 0; tz < 3; tz++)
                    for (unsigned ty = 0; ty < 2; ty++)
                        for (unsigned tx = 0; tx < 4; tx++) {
                            unsigned g = ((bz * 2 + by) * 3 + bx) * 24 + (tz * 2 + ty) * 4 + tx;
                            int32_t *r = out + 16 * g;
                            int32_t want[13] = { (int)tx, (int)ty, (int)tz, (int)bx, (int)by, (int)bz,
                                                 4, 2, 3, 3, 2, 2, 0 };
                            for (int j = 0; j < 13; j++)
                                bad += r[j] != want[j];
                        }
    CU_ASSERT_EQUAL(bad, 0);
}

/* ---- bounds checks ---- */

static int launch_checked(const char *name, unsigned gx, unsigned bx, void **args, const size_t *bytes,
                          char **err)
{
    unsigned grid[3] = { gx, 1, 1 }, block[3] = { bx, 1, 1 };
    *err = NULL;
    return rt_host_launch_checked(g_rt, name, grid, block, args, bytes, err);
}

static void expect_error(int rc, char *err, const char *want)
{
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT_PTR_NOT_NULL(err);
    if (err && strcmp(err, want) != 0) {
        fprintf(stderr, "\n  want: %s\n  got:  %s", want, err);
        CU_FAIL("error message");
    }
    free(err);
}

static void test_bounds_ptr(void)
{
    enum { N = 1000 };
    static float x[N + 1], y[N + 8];
    char *err;
    /* the spec's saxpy with n one too large: the first access past y's end */
    for (int i = 0; i <= N; i++)
        x[i] = 1.0f;
    for (int i = 0; i < N + 8; i++)
        y[i] = 2.0f;
    float a = 3.0f;
    int n = N + 1;
    void *xp = x, *yp = y;
    void *args[4] = { &xp, &yp, &a, &n };
    size_t bytes[4] = { (N + 1) * sizeof(float), N * sizeof(float), 0, 0 };
    int rc = launch_checked("saxpy", (N + 255) / 256 + 1, 256, args, bytes, &err);
    expect_error(rc, err, "out-of-bounds load from 'y'[1000] (buffer has 1000 elements) in kernel saxpy");
    CU_ASSERT_EQUAL(y[999], 5.0f);   /* the work-items before it ran */
    CU_ASSERT_EQUAL(y[1000], 2.0f);  /* the access did not happen */
    /* within bounds: no error, same results as unchecked */
    n = N;
    CU_ASSERT_EQUAL(launch_checked("saxpy", 4, 256, args, bytes, &err), 0);
    CU_ASSERT_PTR_NULL(err);
    CU_ASSERT_EQUAL(y[0], 8.0f);

    /* a store, in the middle of a block: later work-items do not run */
    int32_t idx[16], out[10];
    for (int i = 0; i < 16; i++)
        idx[i] = i;
    idx[5] = 10;
    memset(out, 0xFF, sizeof out);
    void *ip = idx, *op = out;
    void *sargs[2] = { &ip, &op };
    size_t sbytes[2] = { sizeof idx, sizeof out };
    rc = launch_checked("scatter", 1, 8, sargs, sbytes, &err);
    expect_error(rc, err, "out-of-bounds store to 'out'[10] (buffer has 10 elements) in kernel scatter");
    CU_ASSERT(out[0] == 0 && out[4] == 4 && out[6] == -1 && out[7] == -1);
    /* negative */
    idx[5] = -3;
    rc = launch_checked("scatter", 1, 8, sargs, sbytes, &err);
    expect_error(rc, err, "out-of-bounds store to 'out'[-3] (buffer has 10 elements) in kernel scatter");
    /* in a fn: the kernel's parameter is named, and where it happened */
    idx[5] = 12;
    rc = launch_checked("scatter_fn", 1, 8, sargs, sbytes, &err);
    expect_error(rc, err, "out-of-bounds store to 'out'[12] (buffer has 10 elements) in fn put (kernel scatter_fn)");
    /* the index buffer itself: 16 elements, 20 work-items */
    idx[5] = 5;
    rc = launch_checked("scatter", 1, 20, sargs, (size_t[]){ sizeof idx, 100 * sizeof(int32_t) }, &err);
    expect_error(rc, err, "out-of-bounds load from 'idx'[16] (buffer has 16 elements) in kernel scatter");
    /* unsigned and 128-bit indices */
    uint64_t uidx[2] = { 1, UINT64_MAX - 1 };
    void *uip = uidx;
    void *uargs[2] = { &uip, &op };
    rc = launch_checked("scatter_u64", 1, 2, uargs, (size_t[]){ sizeof uidx, sizeof out }, &err);
    expect_error(rc, err, "out-of-bounds store to 'out'[18446744073709551614] (buffer has 10 elements) in kernel scatter_u64");
    out[3] = 77;
    __int128 widx[2] = { 2, ((__int128)1 << 64) + 3 };
    void *wip = widx;
    void *wargs[2] = { &wip, &op };
    rc = launch_checked("scatter_i128", 1, 2, wargs, (size_t[]){ sizeof widx, sizeof out }, &err);
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT(err && strstr(err, "out-of-bounds store to 'out'[3]") != NULL);
    free(err);
    CU_ASSERT(out[2] == 0 && out[3] == 77); /* nothing written at the index cut to 64 bits */
    /* an unknown size leaves that Ptr unchecked */
    idx[5] = 9;
    rc = launch_checked("scatter", 1, 8, sargs, (size_t[]){ sizeof idx, RT_UNKNOWN_SIZE }, &err);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(out[9], 5);
    /* vectors count whole elements: 3 Float32x4 in 48 bytes */
    _Alignas(16) float v[4 * 4] = { 0 };
    int64_t vi = 3;
    void *vp = v;
    void *vargs[2] = { &vp, &vi };
    rc = launch_checked("vec4", 1, 1, vargs, (size_t[]){ 3 * 16, 0 }, &err);
    expect_error(rc, err, "out-of-bounds load from 'a'[3] (buffer has 3 elements) in kernel vec4");
    vi = 2;
    v[8] = 1.5f;
    CU_ASSERT_EQUAL(launch_checked("vec4", 1, 1, vargs, (size_t[]){ 3 * 16, 0 }, &err), 0);
    CU_ASSERT_EQUAL(v[8], 3.0f);
    /* atomics */
    int32_t cnt[1] = { 0 }, old[4];
    void *cp = cnt, *olp = old;
    void *aargs[2] = { &cp, &olp };
    CU_ASSERT_EQUAL(launch_checked("counter", 1, 4, aargs, (size_t[]){ 4, 16 }, &err), 0);
    rc = launch_checked("counter", 1, 4, aargs, (size_t[]){ 0, 16 }, &err);
    expect_error(rc, err, "out-of-bounds fx.atomic_add on 'counter'[0] (buffer has 0 elements) in kernel counter");
}

static void test_bounds_arrays(void)
{
    char *err;
    /* private 4 x 8 array indexed by thread_idx.x: work-item 4 is out */
    int32_t out[8];
    void *op = out;
    void *args[1] = { &op };
    CU_ASSERT_EQUAL(launch_checked("priv", 1, 4, args, (size_t[]){ sizeof out }, &err), 0);
    CU_ASSERT(out[0] == 0 && out[3] == 3);
    int rc = launch_checked("priv", 1, 6, args, (size_t[]){ sizeof out }, &err);
    expect_error(rc, err, "out-of-bounds store to private array 'm'[4, 4] (its dimensions are 4 x 8) in kernel priv");
    /* arrays are checked by the unchecked entry point too */
    unsigned grid[3] = { 1, 1, 1 }, block[3] = { 6, 1, 1 };
    err = NULL;
    rc = rt_host_launch(g_rt, "priv", grid, block, args, &err);
    expect_error(rc, err, "out-of-bounds store to private array 'm'[4, 4] (its dimensions are 4 x 8) in kernel priv");
    /* shared, with a barrier (fibers): reverse over a block of 65 */
    float buf[65];
    void *bp = buf;
    void *rargs[1] = { &bp };
    rc = launch_checked("reverse", 1, 65, rargs, (size_t[]){ sizeof buf }, &err);
    expect_error(rc, err, "out-of-bounds store to shared array 'tile'[64] (it has 64 elements) in kernel reverse");
    /* and the launch after it is fine */
    CU_ASSERT_EQUAL(launch_checked("reverse", 1, 64, rargs, (size_t[]){ sizeof buf }, &err), 0);
}

/* Two LLVM 19 x86 backend bugs the host code works around: fx.max of a
 * number known not to be NaN and a signalling NaN; a BFloat16 signalling NaN
 * copied across basic blocks (the bounds checks make blocks). */
static void test_x86_workarounds(void)
{
    int32_t a[2] = { 5, -7 };
    uint32_t bb[2] = { 0x7f800001u, 0xff800123u }, o[2];
    void *ap = a, *bp = bb, *op = o;
    void *args[3] = { &ap, &bp, &op };
    CU_ASSERT_EQUAL_FATAL(launch("imax", 1, 2, args), 0);
    CU_ASSERT((o[0] & 0x7fffffffu) > 0x7f800000u);
    CU_ASSERT((o[1] & 0x7fffffffu) > 0x7f800000u);
    uint16_t h[4] = { 0x7f81, 0xff81, 0x7fc0, 0x3f80 }, ho[4];
    void *hp = h, *hop = ho;
    void *hargs[2] = { &hp, &hop };
    char *err = NULL;
    CU_ASSERT_EQUAL_FATAL(launch_checked("copy_bf16", 1, 4, hargs, (size_t[]){ 8, 8 }, &err), 0);
    for (int i = 0; i < 4; i++)
        CU_ASSERT_EQUAL(ho[i], h[i]);
}

/* docs/codegen.md "Storage layouts": a byte per Int4/FP4 element (Int4
 * sign-extended, FP4 zero-extended, high bits ignored on load); bitcast packs
 * lane 0 into the lowest bits. */
static void test_storage_layout(void)
{
    _Alignas(8) int8_t i4[8] = { 1, 2, 3, 4, 5, 6, 7, (int8_t)0xF8 };
    uint32_t w;
    void *ip = i4, *wp = &w;
    void *args[2] = { &ip, &wp };
    CU_ASSERT_EQUAL_FATAL(launch("pack_i4", 1, 1, args), 0);
    CU_ASSERT_EQUAL(w, 0x87654321u);
    i4[7] = 0x78; /* only the low 4 bits count */
    CU_ASSERT_EQUAL_FATAL(launch("pack_i4", 1, 1, args), 0);
    CU_ASSERT_EQUAL(w, 0x87654321u);
    _Alignas(8) uint8_t f4[8] = { 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0xF8 };
    void *fp = f4;
    void *fargs[2] = { &fp, &wp };
    CU_ASSERT_EQUAL_FATAL(launch("pack_fp4", 1, 1, fargs), 0);
    CU_ASSERT_EQUAL(w, 0x87654321u);
    w = 0x9ABCDEF0u;
    _Alignas(8) int8_t out[8];
    void *oargs[2] = { &wp, &(void *){ out } };
    CU_ASSERT_EQUAL_FATAL(launch("unpack_i4", 1, 1, oargs), 0);
    static const int8_t want[8] = { 0, -1, -2, -3, -4, -5, -6, -7 }; /* 0x0, 0xF, 0xE, ... sign-extended */
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(out[i], want[i]);
}

static void test_launch_errors(void)
{
    char *err = NULL;
    unsigned grid[3] = { 1, 1, 1 }, block[3] = { 2048, 1, 1 };
    void *args[1] = { NULL };
    CU_ASSERT_EQUAL(rt_host_launch(g_rt, "reverse", grid, block, args, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(err);
    free(err);
    err = NULL;
    block[0] = 1;
    CU_ASSERT_EQUAL(rt_host_launch(g_rt, "no_such_kernel", grid, block, args, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(err);
    if (err)
        CU_ASSERT_PTR_NOT_NULL(strstr(err, "no_such_kernel"));
    free(err);
}

/* Runs last: fxk_end verified every module the tests built. */
static void test_modules_verified(void)
{
    CU_ASSERT_EQUAL(fxk_unverified, 0);
}

/* rt_buffer_alloc: zeroed, aligned to the buffer's size up to 4096 bytes
 * (at least 64), from 2 MiB on to 2 MiB and advised for huge pages, NULL
 * on an overflowing size. */
static void test_buffer_alloc(void)
{
    static const size_t sizes[][3] = { { 1, 4, 64 }, { 16, 4, 64 }, { 32, 4, 128 }, { 100, 8, 1024 },
                                       { 3, 4096, 4096 }, { 0, 4, 64 }, { (2 << 20) - 1, 1, 4096 },
                                       { 1 << 19, 4, 2 << 20 }, { (3 << 20) + 5, 1, 2 << 20 } };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        unsigned char *p = rt_buffer_alloc(sizes[k][0], sizes[k][1]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT(((uintptr_t)p & (sizes[k][2] - 1)) == 0);
        size_t n = sizes[k][0] * sizes[k][1], zero = 0;
        for (size_t i = 0; i < n; i++)
            zero += p[i] == 0;
        CU_ASSERT_EQUAL(zero, n);
        if (sizes[k][2] == 2 << 20 && access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0) {
            char *flags = fxt_smaps_line(p, "VmFlags:");
            CU_ASSERT(flags && strstr(flags, " hg"));
            free(flags);
        }
        free(p);
    }
    CU_ASSERT_PTR_NULL(rt_buffer_alloc(SIZE_MAX / 2, 4));
    CU_ASSERT_PTR_NULL(rt_buffer_alloc(SIZE_MAX - 8, 1));
}

static const FxtTest tests[] = {
    { "saxpy gives exact numbers", test_saxpy },
    { "rt_buffer_alloc: zeroed, aligned for vector loads, overflow checked", test_buffer_alloc },
    { "fn call", test_fn_call },
    { "loop with break/continue, var slots", test_loop },
    { "shared-memory reverse with barrier (block 64)", test_shared_reverse },
    { "atomic counter", test_atomic_counter },
    { "atomic max/min/add/cas, Ptr and shared", test_atomic_ops },
    { "integer binops and guards, every width", test_int_ops },
    { "integer unops, comparisons, min/max", test_int_unops_cmps },
    { "float -> float conversions round once", test_float_to_float },
    { "int -> float conversions round once", test_int_to_float },
    { "float -> int saturates, NaN -> 0", test_float_to_int },
    { "int <-> int and Boolean conversions", test_int_casts },
    { "float binops incl. floordiv and Python modulo", test_float_binops },
    { "fma rounds once (Float16/BFloat16 too)", test_fma_narrow },
    { "math, min/max, comparisons, pow", test_float_math_minmax },
    { "vectors, Int4/Boolean storage, private arrays", test_vectors_and_storage },
    { "early return in a kernel and a fn", test_early_return },
    { "integer vectors: every op, lane by lane", test_vector_ints },
    { "bitcasts and vector conversions", test_bitcast_vector_casts },
    { "thread/block indices and sizes", test_specials },
    { "launch errors", test_launch_errors },
    { "bounds checks: Ptr (checked launch)", test_bounds_ptr },
    { "bounds checks: private and shared arrays", test_bounds_arrays },
    { "x86 backend workarounds (sNaN in fx.max, BFloat16 copies)", test_x86_workarounds },
    { "Int4/FP4 storage and bitcast packing", test_storage_layout },
    { "every hand-built module verifies", test_modules_verified },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    cg_install_fatal_handler();
    static const FxtSuite suites[] = { { "host runtime", tests, suite_init, suite_clean },
                                       { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
