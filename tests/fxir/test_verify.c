/* test_verify.c - the FXIR verifier (src/fxir/verify.h).
 *
 * Realistic IR is built with the builder (the shapes sema and program
 * lowering produce: counted loops over alloca'd counters, guarded stores,
 * shared tiles, map bodies) and must verify clean; then one thing at a time
 * is broken, at an instruction given its own source location, and the
 * verifier must report it there: "verify.fx:LINE:COL: error: FXIR verifier:
 * <message>". */
#include <CUnit/Basic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fxir/builder.h"
#include "fxir/graph.h"
#include "fxir/verify.h"

/* ---- source locations and captured diagnostics ---- */

static SrcFile *src;   /* 80 numbered lines, so every Loc prints with a caret */

static Loc at(int line, int col)
{
    return (Loc){ src, line, col, line, col };
}

typedef struct Capture {
    FILE *f;
    char *buf;
    size_t len;
} Capture;

static void capture_begin(Capture *c)
{
    c->buf = NULL;
    c->f = open_memstream(&c->buf, &c->len);
    diag_reset();
    diag_set_stream(c->f);
}

static char *capture_end(Capture *c)
{
    fclose(c->f);
    diag_set_stream(NULL);
    return c->buf;
}

/* Verifies m; returns what it printed (the caller frees) and whether it passed. */
static char *run_verifier(const FxModule *m, bool *ok)
{
    Capture c;
    capture_begin(&c);
    *ok = fxir_verify(m);
    return capture_end(&c);
}

/* Whether `out` has an error line at line:col whose message contains `needle`. */
static bool has_error_at(const char *out, int line, int col, const char *needle)
{
    char head[96];
    snprintf(head, sizeof head, "verify.fx:%d:%d: error: FXIR verifier: ", line, col);
    for (const char *p = strstr(out, head); p; p = strstr(p + 1, head)) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        char *msg = strndup(p, n);
        bool found = strstr(msg, needle) != NULL;
        free(msg);
        if (found)
            return true;
    }
    return false;
}

static void expect_clean(const FxModule *m)
{
    bool ok;
    char *out = run_verifier(m, &ok);
    CU_ASSERT_TRUE(ok);
    CU_ASSERT_STRING_EQUAL(out, "");
    if (!ok || *out)
        fprintf(stderr, "\nunexpected verifier output:\n%s", out);
    free(out);
}

static void expect_error(const FxModule *m, int line, int col, const char *needle)
{
    bool ok;
    char *out = run_verifier(m, &ok);
    CU_ASSERT_FALSE(ok);
    bool found = has_error_at(out, line, col, needle);
    CU_ASSERT_TRUE(found);
    if (!found)
        fprintf(stderr, "\nexpected at %d:%d \"%s\", got:\n%s", line, col, needle, out);
    free(out);
}

/* ---- a module under construction ---- */

typedef struct T {
    Arena *a;
    FxModule *m;
    FxBuilder b;
    FxFunc *f;
    FxInst *p[8];
} T;

static const Type *sc(ScalarId s) { return type_scalar(s); }
static const Type *vec(ScalarId s, int n) { return type_vector(s, n); }

static void t_init(T *t)
{
    memset(t, 0, sizeof *t);
    t->a = arena_new();
    t->m = fxir_module_new(t->a, "verify.fx");
}

static void t_free(T *t) { arena_free(t->a); }

/* The next instructions take loc line:col; home() goes back to line 1. */
static void bad(T *t, int line, int col) { t->b.loc = at(line, col); }
static void home(T *t) { t->b.loc = at(1, 1); }

static FxInst *i32(T *t, int64_t v) { return fxb_int(&t->b, sc(SC_INT32), v); }
static FxInst *i64(T *t, int64_t v) { return fxb_int(&t->b, sc(SC_INT64), v); }
static FxInst *f32(T *t, double v) { return fxb_number(&t->b, SC_FLOAT32, v); }

/* The kernel most violation tests start from:
 *   kernel k(x: Ptr[Float32], a: Float32, d: Float64, n: Int32, c: Boolean, v: Float32x4) */
enum { PX, PA, PD, PN, PC, PV, NPARAMS };

static void std_kernel(T *t)
{
    t_init(t);
    t->f = fxb_func(&t->b, t->m, "k", FXF_KERNEL, NPARAMS, NULL, at(2, 1));
    home(t);
    t->p[PX] = fxb_param(&t->b, t->f, PX, "x", type_ptr(t->a, sc(SC_FLOAT32), false));
    t->p[PA] = fxb_param(&t->b, t->f, PA, "a", sc(SC_FLOAT32));
    t->p[PD] = fxb_param(&t->b, t->f, PD, "d", sc(SC_FLOAT64));
    t->p[PN] = fxb_param(&t->b, t->f, PN, "n", sc(SC_INT32));
    t->p[PC] = fxb_param(&t->b, t->f, PC, "c", sc(SC_BOOLEAN));
    t->p[PV] = fxb_param(&t->b, t->f, PV, "v", vec(SC_FLOAT32, 4));
}

/* fn clamp01(x: Float32) -> Float32 {
 *   if x < 0 { return 0 } else if x > 1 { return 1 } else { return x } } */
static FxFunc *clamp01(T *t)
{
    FxBuilder saved = t->b;
    FxFunc *f = fxb_func(&t->b, t->m, "clamp01", FXF_FN, 1, sc(SC_FLOAT32), at(3, 1));
    home(t);
    FxInst *x = fxb_param(&t->b, f, 0, "x", sc(SC_FLOAT32));
    FxInst *lo = fxb_if(&t->b, fxb_cmp(&t->b, FXC_LT, x, f32(t, 0)));
    fxb_return(&t->b, f32(t, 0));
    fxb_else(&t->b, lo);
    FxInst *hi = fxb_if(&t->b, fxb_cmp(&t->b, FXC_GT, x, f32(t, 1)));
    fxb_return(&t->b, f32(t, 1));
    fxb_else(&t->b, hi);
    fxb_return(&t->b, x);
    t->b = saved;
    return f;
}

/* ---- well-formed IR ---- */

/* A counted loop as sema lowers `for i in range(n)`: a private Int32 slot,
 * the compare in the condition block, the increment in the step block.
 * Leaves the builder in the body; returns the loop. */
static FxInst *counted_loop(T *t, FxInst *n, FxInst **iv)
{
    FxInst *slot = fxb_alloca(&t->b, sc(SC_INT32), FXSPACE_PRIVATE, "i");
    fxb_store(&t->b, slot, i32(t, 0), 0, NULL);
    FxInst *lp = fxb_loop(&t->b);
    fxb_loop_body(&t->b, lp, fxb_cmp(&t->b, FXC_LT, fxb_load(&t->b, slot, sc(SC_INT32), 0, NULL), n));
    *iv = fxb_load(&t->b, slot, sc(SC_INT32), 0, NULL);
    fxb_loop_step(&t->b, lp);
    fxb_store(&t->b, slot, fxb_binop(&t->b, FXB_ADD, fxb_load(&t->b, slot, sc(SC_INT32), 0, NULL), i32(t, 1)), 0,
              NULL);
    fxb_at_end(&t->b, &lp->blocks[1]);
    return lp;
}

/* The guarded, tiled body of a kernel: specials, a shared tile, a private
 * array and slot, if/else, barrier, fma/minmax/math. */
static void good_guarded_part(T *t, FxInst *tile, FxInst *acc)
{
    FxBuilder *b = &t->b;
    FxInst *tid = fxb_cast(b, fxb_special(b, FXS_THREAD_IDX, 0), sc(SC_INT64));
    FxInst *bid = fxb_cast(b, fxb_special(b, FXS_BLOCK_IDX, 0), sc(SC_INT64));
    FxInst *bdim = fxb_cast(b, fxb_special(b, FXS_BLOCK_DIM, 0), sc(SC_INT64));
    FxInst *g = fxb_binop(b, FXB_ADD, fxb_binop(b, FXB_MUL, bid, bdim), tid);
    FxInst *in = fxb_if(b, fxb_cmp(b, FXC_LT, g, fxb_cast(b, t->p[PN], sc(SC_INT64))));
    FxInst *xv = fxb_load(b, t->p[PX], sc(SC_FLOAT32), 1, &g);
    FxInst *r = fxb_binop(b, FXB_MOD, tid, i64(t, 16)), *q = fxb_binop(b, FXB_FLOORDIV, tid, i64(t, 16));
    fxb_store(b, tile, xv, 2, (FxInst *[]){ r, q });
    fxb_barrier(b);
    FxInst *tv = fxb_load(b, tile, sc(SC_FLOAT32), 1, &tid);   /* one linear index into the 2-D tile */
    FxInst *m = fxb_minmax(b, FXMM_MAX, fxb_fma(b, t->p[PA], xv, tv), t->p[PA]);
    fxb_store(b, acc, fxb_math(b, FXM_SQRT, m), 0, NULL);
    fxb_else(b, in);
    fxb_store(b, acc, t->p[PA], 0, NULL);   /* a parameter, used in a nested block */
    fxb_after(b, in);
}

/* A loop with continue and break, a nested private-array access, ceildiv. */
static void good_loop_part(T *t, FxInst *acc)
{
    FxBuilder *b = &t->b;
    int64_t dims[2] = { 4, 4 };
    FxInst *arr = fxb_alloca(b, type_array(t->a, sc(SC_INT32), 2, dims), FXSPACE_PRIVATE, "arr");
    FxInst *iv;
    FxInst *lp = counted_loop(t, t->p[PN], &iv);
    FxInst *odd = fxb_if(b, fxb_cmp(b, FXC_EQ, fxb_binop(b, FXB_AND, iv, i32(t, 1)), i32(t, 1)));
    fxb_continue(b);
    fxb_after(b, odd);
    FxInst *big = fxb_if(b, fxb_cmp(b, FXC_GT, fxb_ceildiv(b, iv, i32(t, 2)), i32(t, 100)));
    fxb_break(b);
    fxb_after(b, big);
    FxInst *k3 = fxb_binop(b, FXB_MOD, iv, i32(t, 4));
    fxb_store(b, arr, iv, 2, (FxInst *[]){ k3, k3 });
    FxInst *old = fxb_load(b, arr, sc(SC_INT32), 2, (FxInst *[]){ k3, k3 });
    FxInst *sum = fxb_binop(b, FXB_ADD, fxb_load(b, acc, sc(SC_FLOAT32), 0, NULL), fxb_cast(b, old, sc(SC_FLOAT32)));
    fxb_store(b, acc, sum, 0, NULL);
    fxb_after(b, lp);
    /* while True { ... break } with a condition-less loop */
    FxInst *forever = fxb_loop(b);
    fxb_loop_body(b, forever, NULL);
    FxInst *done = fxb_if(b, t->p[PC]);
    fxb_break(b);
    fxb_after(b, done);
    fxb_after(b, forever);
    /* while c { } : the condition is a parameter, defined outside the condition block */
    FxInst *w = fxb_loop(b);
    fxb_loop_body(b, w, t->p[PC]);
    fxb_break(b);
    fxb_after(b, w);
}

/* Vectors, casts, calls, atomics, a matrix instruction. */
static void good_value_part(T *t, FxInst *tile, FxFunc *clamp)
{
    FxBuilder *b = &t->b;
    const Type *v4 = vec(SC_FLOAT32, 4);
    FxInst *lane = i32(t, 1);
    FxInst *vs = fxb_splat(b, t->p[PA], v4);
    FxInst *vi = fxb_insert(b, vs, t->p[PA], lane);
    FxInst *ex = fxb_extract(b, vi, lane);
    fxb_bitcast(b, vi, vec(SC_INT32, 4));
    fxb_bitcast(b, vi, vec(SC_UINT8, 16));   /* lanes may change; the total width may not */
    FxInst *vc = fxb_cmp(b, FXC_GT, vs, t->p[PV]);
    FxInst *sel = fxb_select(b, vc, vs, t->p[PV]);
    fxb_select(b, t->p[PC], sel, vi);
    fxb_cast_round(b, ex, sc(SC_FLOAT16), FF_UP);
    fxb_cast(b, fxb_cast(b, t->p[PN], sc(SC_INT4)), sc(SC_FLOAT32));
    FxInst *cl = fxb_call(b, clamp, 1, &ex);
    FxInst *zero = i64(t, 0);
    FxInst *old = fxb_atomic(b, FXA_ADD, sc(SC_FLOAT32), t->p[PX], zero, cl, NULL);
    fxb_atomic(b, FXA_CAS, sc(SC_FLOAT32), t->p[PX], zero, old, cl);
    fxb_atomic(b, FXA_MAX, sc(SC_FLOAT32), tile, zero, cl, NULL);
    fxb_store(b, t->p[PX], fxb_unop(b, FXU_NEG, cl), 1, &zero);
    FxInst *accv = fxb_splat(b, t->p[PD], vec(SC_FLOAT64, 4));
    fxb_mfma(b, TGT_MI_CDNA3_F64_16X16X4, vec(SC_FLOAT64, 4), t->p[PD], t->p[PD], accv);
    fxb_special(b, FXS_LANE_ID, 0);
}

static void build_good_kernel(T *t)
{
    std_kernel(t);
    FxFunc *clamp = clamp01(t);
    int64_t tdims[2] = { 16, 17 };
    FxInst *tile = fxb_alloca(&t->b, type_array(t->a, sc(SC_FLOAT32), 2, tdims), FXSPACE_SHARED, "tile");
    FxInst *acc = fxb_alloca(&t->b, sc(SC_FLOAT32), FXSPACE_PRIVATE, "acc");
    fxb_store(&t->b, acc, f32(t, 0), 0, NULL);
    good_guarded_part(t, tile, acc);
    good_loop_part(t, acc);
    good_value_part(t, tile, clamp);
    fxb_return(&t->b, NULL);
}

static void test_good_kernel(void)
{
    T t;
    build_good_kernel(&t);
    expect_clean(t.m);
    CU_ASSERT_TRUE(fxir_verify_func(t.m, t.f));
    t_free(&t);
}

/* fns that return on every path: if/else chains, `while True` without break,
 * a return after a loop, a void fn without any return. */
static void test_good_fns(void)
{
    T t;
    t_init(&t);
    clamp01(&t);
    FxFunc *f = fxb_func(&t.b, t.m, "spin", FXF_FN, 1, sc(SC_INT32), at(4, 1));
    home(&t);
    FxInst *n = fxb_param(&t.b, f, 0, "n", sc(SC_INT32));
    FxInst *lp = fxb_loop(&t.b);
    FxInst *yes = fxb_bool(&t.b, true);
    fxb_loop_body(&t.b, lp, yes);   /* while True, as sema lowers it: a constant True */
    FxInst *inner = fxb_loop(&t.b);
    fxb_loop_body(&t.b, inner, NULL);
    fxb_break(&t.b);   /* leaves the inner loop only */
    fxb_after(&t.b, inner);
    fxb_if(&t.b, fxb_cmp(&t.b, FXC_GT, n, i32(&t, 3)));
    fxb_return(&t.b, n);
    fxb_after(&t.b, lp);

    FxFunc *g = fxb_func(&t.b, t.m, "after_loop", FXF_FN, 1, sc(SC_FLOAT64), at(5, 1));
    home(&t);
    FxInst *x = fxb_param(&t.b, g, 0, "x", sc(SC_FLOAT64));
    FxInst *iv;
    counted_loop(&t, i32(&t, 3), &iv);
    fxb_after(&t.b, t.b.block->owner);
    fxb_return(&t.b, fxb_binop(&t.b, FXB_MUL, x, x));

    FxFunc *h = fxb_func(&t.b, t.m, "nothing", FXF_FN, 0, NULL, at(6, 1));
    (void)h;
    fxb_barrier(&t.b);
    expect_clean(t.m);
    t_free(&t);
}

/* ---- a program: matmul, gemm, map with broadcasting, reductions ---- */

typedef struct Prog {
    FxProgram *p;
    FxTensor *A, *B, *C, *bias, *R, *T, *Y, *Z;
    FxNode *mm, *gemm, *map, *red, *red1;
} Prog;

enum { GA, GB, GC, GBIAS, GR, GS, GM, GN, GK, NGPARAMS };

static const Type *tensor2(T *t, const char *r, const char *c)
{
    int64_t d[2] = { -1, -1 };
    const char *names[2] = { r, c };
    return type_tensor(t->a, sc(SC_FLOAT32), 2, d, names, false);
}

static const Type *tensor1(T *t, const char *n)
{
    int64_t d[1] = { -1 };
    const char *names[1] = { n };
    return type_tensor(t->a, sc(SC_FLOAT32), 1, d, names, false);
}

static void program_params(T *t, Prog *g)
{
    FxParam *ps = g->p->params;
    ps[GA] = (FxParam){ "A", tensor2(t, "M", "K"), at(1, 1) };
    ps[GB] = (FxParam){ "B", tensor2(t, "K", "N"), at(1, 1) };
    ps[GC] = (FxParam){ "C", tensor2(t, "M", "N"), at(1, 1) };
    ps[GBIAS] = (FxParam){ "bias", tensor1(t, "N"), at(1, 1) };
    ps[GR] = (FxParam){ "R", tensor1(t, "M"), at(1, 1) };
    ps[GS] = (FxParam){ "s", sc(SC_FLOAT32), at(1, 1) };
    ps[GM] = (FxParam){ "M", sc(SC_INT32), at(1, 1) };
    ps[GN] = (FxParam){ "N", sc(SC_INT32), at(1, 1) };
    ps[GK] = (FxParam){ "K", sc(SC_INT32), at(1, 1) };
    g->A = fxg_param_tensor(t->m, g->p, GA);
    g->B = fxg_param_tensor(t->m, g->p, GB);
    g->C = fxg_param_tensor(t->m, g->p, GC);
    g->bias = fxg_param_tensor(t->m, g->p, GBIAS);
    g->R = fxg_param_tensor(t->m, g->p, GR);
}

static FxNode *matmul(T *t, Prog *g, FxTensor *out, Loc loc, bool beta)
{
    FxNode *n = fxg_node(t->m, g->p, FXN_MATMUL, out, loc, NULL);
    n->alpha = (FxScalarArg){ FXS_STATIC, beta ? 2.0 : 1.0, -1 };
    n->beta = beta ? (FxScalarArg){ FXS_PARAM, 0, GS } : (FxScalarArg){ FXS_NONE, 0, -1 };
    n->in_type = n->in_type_b = n->acc_type = n->out_type = SC_FLOAT32;
    fxg_set_inputs(t->m, n, beta ? 3 : 2, (FxTensor *[]){ g->A, g->B, out });
    return n;
}

/* let Y = T * s + bias: body(t, b, s) = t * s + b */
static FxNode *map_node(T *t, Prog *g)
{
    g->Y = fxg_transient_like(t->m, g->p, "Y", sc(SC_FLOAT32), g->T, at(12, 1));
    FxNode *n = fxg_node(t->m, g->p, FXN_MAP, g->Y, at(32, 3), NULL);
    fxg_set_inputs(t->m, n, 2, (FxTensor *[]){ g->T, g->bias });
    fxg_set_scalars(t->m, n, 1, (int[]){ GS });
    FxInst *ps[3];
    fxg_map_body(&t->b, t->m, g->p, n, "p__map0", sc(SC_FLOAT32), ps);
    home(t);
    fxb_return(&t->b, fxb_binop(&t->b, FXB_ADD, fxb_binop(&t->b, FXB_MUL, ps[0], ps[2]), ps[1]));
    return n;
}

static void build_program(T *t, Prog *g)
{
    t_init(t);
    g->p = fxg_program(t->m, "p", NGPARAMS, at(10, 1));
    program_params(t, g);
    int64_t d2[2] = { -1, -1 };
    g->T = fxg_transient(t->m, g->p, "T", sc(SC_FLOAT32), 2, d2, (const char *[]){ "M", "N" }, at(11, 1));
    g->mm = matmul(t, g, g->T, at(30, 3), false);
    g->gemm = matmul(t, g, g->C, at(31, 3), true);
    g->map = map_node(t, g);
    g->red = fxg_node(t->m, g->p, FXN_REDUCE, g->R, at(33, 3), NULL);
    fxg_set_inputs(t->m, g->red, 1, &g->Y);
    g->red->reduce = FXR_SUM;
    g->red->axis = 1;
    int64_t one[1] = { 1 };
    g->Z = fxg_transient(t->m, g->p, "Z", sc(SC_FLOAT32), 1, one, NULL, at(13, 1));
    g->red1 = fxg_node(t->m, g->p, FXN_REDUCE, g->Z, at(34, 3), NULL);
    fxg_set_inputs(t->m, g->red1, 1, &g->bias);
    g->red1->reduce = FXR_MAX;
    g->red1->axis = 0;
}

static void test_good_program(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    expect_clean(t.m);
    t_free(&t);
}

/* ---- structure ---- */

static void test_null_type_and_operand(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 20, 5);
    FxInst *add = fxb_binop(&t.b, FXB_ADD, t.p[PA], t.p[PA]);
    add->ops[1] = NULL;
    bad(&t, 21, 7);
    FxInst *c = f32(&t, 1);
    c->type = NULL;
    expect_error(t.m, 20, 5, "operand 1 of binop.add is missing (NULL)");
    expect_error(t.m, 21, 7, "const has no type");
    t_free(&t);
}

static void test_arity(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 22, 3);
    fxb_emit(&t.b, FX_BINOP, FXB_ADD, sc(SC_FLOAT32), 3, t.p[PA], t.p[PA], t.p[PA]);
    bad(&t, 23, 3);
    FxInst *br = fxb_if(&t.b, t.p[PC]);
    br->nblocks = 1;
    fxb_after(&t.b, br);
    bad(&t, 24, 3);
    fxb_emit(&t.b, FX_ATOMIC, FXA_CAS, sc(SC_FLOAT32), 3, t.p[PX], i32(&t, 0), t.p[PA]);
    expect_error(t.m, 22, 3, "binop.add needs 2 operands and 0 blocks, has 3 operands");
    expect_error(t.m, 23, 3, "if needs 1 operand and 2 blocks, has 1 operand and 1 block");
    expect_error(t.m, 24, 3, "atomic.cas needs 4 operands");
    t_free(&t);
}

static void test_sub_out_of_range(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 25, 9);
    fxb_emit(&t.b, FX_BINOP, 99, sc(SC_FLOAT32), 2, t.p[PA], t.p[PA]);
    bad(&t, 26, 9);
    fxb_emit(&t.b, FX_CMP, -1, sc(SC_BOOLEAN), 2, t.p[PA], t.p[PA]);
    bad(&t, 27, 9);
    FxInst *acc = fxb_splat(&t.b, t.p[PD], vec(SC_FLOAT64, 4));
    fxb_mfma(&t.b, TGT_MI_COUNT, vec(SC_FLOAT64, 4), t.p[PD], t.p[PD], acc);
    bad(&t, 28, 9);
    fxb_special(&t.b, FXS_THREAD_IDX, 3);
    expect_error(t.m, 25, 9, "binop has sub-operation 99, expected 0..11");
    expect_error(t.m, 26, 9, "cmp has sub-operation -1, expected 0..5");
    expect_error(t.m, 27, 9, "mfma has sub-operation");
    expect_error(t.m, 28, 9, "dimension 3, expected 0, 1 or 2");
    t_free(&t);
}

static void test_broken_links(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 29, 2);
    FxInst *x = f32(&t, 1);
    home(&t);
    FxInst *y = f32(&t, 2);
    x->parent = NULL;
    y->prev = NULL;
    expect_error(t.m, 29, 2, "const has a parent field that does not name the block it is in");
    expect_error(t.m, 1, 1, "const has a prev link that is not the instruction before it");
    t_free(&t);
}

/* A cycle in the next links is reported, and the verifier still ends. */
static void test_cycle(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 30, 4);
    FxInst *x = f32(&t, 1);
    home(&t);
    FxInst *y = f32(&t, 2);
    y->next = x;
    expect_error(t.m, 30, 4, "const appears twice in this function's blocks");
    t_free(&t);
}

/* ---- types ---- */

static void test_binop_types(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 31, 11);
    fxb_binop(&t.b, FXB_ADD, t.p[PA], t.p[PD]);
    bad(&t, 32, 11);
    FxInst *r = fxb_binop(&t.b, FXB_MUL, t.p[PA], t.p[PA]);
    r->type = sc(SC_FLOAT64);
    bad(&t, 33, 11);
    fxb_binop(&t.b, FXB_DIV, t.p[PN], t.p[PN]);
    bad(&t, 34, 11);
    fxb_binop(&t.b, FXB_AND, t.p[PA], t.p[PA]);
    bad(&t, 35, 11);
    fxb_binop(&t.b, FXB_ADD, t.p[PC], t.p[PC]);
    expect_error(t.m, 31, 11, "binop.add operands must have one type, got Float32 and Float64");
    expect_error(t.m, 32, 11, "binop.mul must have its operands' type Float32, got Float64");
    expect_error(t.m, 33, 11, "binop.div is float division; integer division is binop.floordiv, got Int32");
    expect_error(t.m, 34, 11, "binop.and applies to integers and Boolean only, got Float32");
    expect_error(t.m, 35, 11, "binop.add does not apply to Boolean");
    t_free(&t);
}

static void test_cmp_select_types(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 36, 2);
    FxInst *c = fxb_cmp(&t.b, FXC_LT, t.p[PA], t.p[PA]);
    c->type = sc(SC_INT32);
    bad(&t, 37, 2);
    FxInst *cv = fxb_cmp(&t.b, FXC_LT, t.p[PV], t.p[PV]);
    cv->type = sc(SC_BOOLEAN);
    bad(&t, 38, 2);
    fxb_select(&t.b, t.p[PN], t.p[PA], t.p[PA]);
    bad(&t, 39, 2);
    FxInst *c8 = fxb_splat(&t.b, t.p[PC], vec(SC_BOOLEAN, 8));
    fxb_select(&t.b, c8, t.p[PV], t.p[PV]);
    bad(&t, 40, 2);
    fxb_select(&t.b, t.p[PC], t.p[PA], t.p[PD]);
    expect_error(t.m, 36, 2, "cmp.lt of Float32 operands gives Boolean, but its type is Int32");
    expect_error(t.m, 37, 2, "cmp.lt of Float32x4 operands gives Booleanx4, but its type is Boolean");
    expect_error(t.m, 38, 2, "select condition must be Boolean, got Int32");
    expect_error(t.m, 39, 2, "select condition must be Boolean or Booleanx4, got Booleanx8");
    expect_error(t.m, 40, 2, "select operands must have one type, got Float32 and Float64");
    t_free(&t);
}

static void test_conditions(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 41, 6);
    FxInst *br = fxb_if(&t.b, t.p[PN]);
    fxb_after(&t.b, br);
    bad(&t, 42, 6);
    FxInst *lp = fxb_loop(&t.b);
    home(&t);
    FxInst *fc = f32(&t, 1);
    fxb_loop_body(&t.b, lp, fc);
    fxb_break(&t.b);
    fxb_after(&t.b, lp);
    expect_error(t.m, 41, 6, "if condition must be a Boolean scalar, got Int32");
    expect_error(t.m, 42, 6, "loop condition must be a Boolean scalar, got Float32");
    t_free(&t);
}

static void test_vector_types(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 43, 4);
    fxb_splat(&t.b, t.p[PD], vec(SC_FLOAT32, 4));
    bad(&t, 44, 4);
    fxb_extract(&t.b, t.p[PV], t.p[PA]);
    bad(&t, 45, 4);
    fxb_insert(&t.b, t.p[PV], t.p[PN], i32(&t, 0));
    bad(&t, 46, 4);
    fxb_extract(&t.b, t.p[PA], i32(&t, 0));
    expect_error(t.m, 43, 4, "splat to Float32x4 takes a Float32 scalar, got Float64");
    expect_error(t.m, 44, 4, "operand 1 of extract (a param) is an index and must be an integer scalar, got Float32");
    expect_error(t.m, 45, 4, "insert into Float32x4 takes a Float32 lane value, got Int32");
    expect_error(t.m, 46, 4, "operand 0 of extract (a param) must be a vector, got Float32");
    t_free(&t);
}

static void test_cast_types(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 47, 8);
    fxb_cast(&t.b, t.p[PV], vec(SC_FLOAT64, 8));
    bad(&t, 48, 8);
    fxb_cast_round(&t.b, t.p[PN], sc(SC_FLOAT32), FF_UP);
    bad(&t, 49, 8);
    /* Int4 is stored in a byte, but its value is 4 bits: no bitcast to Int8 */
    fxb_bitcast(&t.b, fxb_cast(&t.b, t.p[PN], sc(SC_INT4)), sc(SC_INT8));
    bad(&t, 50, 8);
    fxb_cast(&t.b, t.p[PX], sc(SC_INT64));
    expect_error(t.m, 47, 8, "cast keeps the shape: Float32x4 cannot become Float64x8");
    expect_error(t.m, 48, 8, "a rounding mode (upward) applies only to float-to-float casts");
    expect_error(t.m, 49, 8, "bitcast keeps the total width: Int4 is 4 bits, Int8 is 8 bits");
    expect_error(t.m, 50, 8, "operand 0 of cast (a param) must be a number");
    t_free(&t);
}

static void test_math_ceildiv_special_const(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 51, 3);
    fxb_math(&t.b, FXM_EXP, t.p[PN]);
    bad(&t, 52, 3);
    fxb_ceildiv(&t.b, t.p[PA], t.p[PA]);
    bad(&t, 53, 3);
    FxInst *s = fxb_special(&t.b, FXS_BLOCK_DIM, 0);
    s->type = sc(SC_INT64);
    bad(&t, 54, 3);
    fxb_const(&t.b, t.p[PX]->type, (FxConst){ 0, 0 });
    bad(&t, 55, 3);
    fxb_unop(&t.b, FXU_INVERT, t.p[PA]);
    expect_error(t.m, 51, 3, "math.exp takes a float scalar or vector, got Int32");
    expect_error(t.m, 52, 3, "ceildiv divides integers, got Float32");
    expect_error(t.m, 53, 3, "special.block_dim has type Int32, got Int64");
    expect_error(t.m, 54, 3, "a const is a scalar or vector number, got Ptr[Float32]");
    expect_error(t.m, 55, 3, "unop.invert applies to integers and Boolean only, got Float32");
    t_free(&t);
}

static void test_params(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 56, 1);
    FxInst *p = fxir_new(t.a, FX_PARAM, sc(SC_FLOAT32), 0, at(56, 1));
    p->param_index = 9;
    fxir_append(t.b.block, p);
    bad(&t, 57, 1);
    FxInst *q = fxir_new(t.a, FX_PARAM, sc(SC_INT64), 0, at(57, 1));
    q->param_index = PN;
    fxir_append(t.b.block, q);
    expect_error(t.m, 56, 1, "param has index 9, but kernel 'k' has 6 parameters");
    expect_error(t.m, 57, 1, "param 3 ('n') has type Int64, but the parameter is declared Int32");
    t_free(&t);
}

static void test_mfma_types(void)
{
    T t;
    std_kernel(&t);
    FxInst *acc = fxb_splat(&t.b, t.p[PD], vec(SC_FLOAT64, 4));
    bad(&t, 21, 2);
    fxb_mfma(&t.b, TGT_MI_CDNA3_F64_16X16X4, vec(SC_FLOAT64, 4), t.p[PA], t.p[PD], acc);
    bad(&t, 22, 2);
    fxb_mfma(&t.b, TGT_MI_CDNA3_F64_16X16X4, t.p[PV]->type, t.p[PD], t.p[PD], t.p[PV]);
    expect_error(t.m, 21, 2, "operand 0 of mfma.cdna3.f64.16x16x4 (a param) must be a Float64, got Float32");
    expect_error(t.m, 22, 2, "mfma.cdna3.f64.16x16x4 accumulates in a vector of Float64, got Float32x4");
    t_free(&t);
}

/* A kernel returns nothing; an alloca holds a number or an Array of numbers. */
static void test_signature_and_alloca(void)
{
    T t;
    t_init(&t);
    FxFunc *k = fxb_func(&t.b, t.m, "k", FXF_KERNEL, 1, sc(SC_FLOAT32), at(23, 1));
    FxInst *p = fxb_param(&t.b, k, 0, "p", type_ptr(t.a, sc(SC_FLOAT32), false));
    bad(&t, 24, 5);
    fxb_alloca(&t.b, p->type, FXSPACE_PRIVATE, "q");
    bad(&t, 25, 5);
    int64_t dims[2] = { 4, 0 };
    fxb_alloca(&t.b, type_array(t.a, sc(SC_FLOAT32), 2, dims), FXSPACE_SHARED, "empty");
    expect_error(t.m, 23, 1, "kernel 'k' returns Float32; kernels return nothing");
    expect_error(t.m, 24, 5, "an alloca holds a scalar, a vector or an Array, got Ptr[Float32]");
    expect_error(t.m, 25, 5, "an alloca'd Array has number elements and positive dimensions, got Array[Float32, 4, 0]");
    t_free(&t);
}

/* ---- memory ---- */

static void test_memory_bases_and_indices(void)
{
    T t;
    std_kernel(&t);
    int64_t dims[2] = { 4, 4 };
    FxInst *arr = fxb_alloca(&t.b, type_array(t.a, sc(SC_INT32), 2, dims), FXSPACE_PRIVATE, "arr");
    FxInst *slot = fxb_alloca(&t.b, sc(SC_FLOAT32), FXSPACE_PRIVATE, "s");
    FxInst *z = i32(&t, 0);
    bad(&t, 58, 5);
    fxb_load(&t.b, t.p[PX], sc(SC_FLOAT32), 2, (FxInst *[]){ z, z });
    bad(&t, 59, 5);
    fxb_load(&t.b, arr, sc(SC_INT32), 3, (FxInst *[]){ z, z, z });
    bad(&t, 60, 5);
    fxb_load(&t.b, t.p[PX], sc(SC_FLOAT64), 1, &z);
    bad(&t, 61, 5);
    fxb_load(&t.b, t.p[PX], sc(SC_FLOAT32), 1, &t.p[PA]);
    bad(&t, 62, 5);
    fxb_load(&t.b, t.p[PA], sc(SC_FLOAT32), 0, NULL);
    bad(&t, 63, 5);
    fxb_store(&t.b, slot, t.p[PA], 1, &z);
    bad(&t, 64, 5);
    fxb_store(&t.b, arr, t.p[PA], 2, (FxInst *[]){ z, z });
    expect_error(t.m, 58, 5, "load through a Ptr takes exactly 1 index, got 2");
    expect_error(t.m, 59, 5, "load of Array[Int32, 4, 4] takes 2 indices (or 1 linear index), got 3");
    expect_error(t.m, 60, 5, "load from Float32 elements must have type Float32, got Float64");
    expect_error(t.m, 61, 5, "operand 1 of load (a param) is an index and must be an integer scalar, got Float32");
    expect_error(t.m, 62, 5, "the base of load must be a Ptr value or an alloca, got a param of type Float32");
    expect_error(t.m, 63, 5, "store of a Float32 variable takes no index, got 1");
    expect_error(t.m, 64, 5, "store of a Float32 value into Int32 elements");
    t_free(&t);
}

static void test_atomics(void)
{
    T t;
    std_kernel(&t);
    int64_t dims[1] = { 64 };
    FxInst *priv = fxb_alloca(&t.b, type_array(t.a, sc(SC_FLOAT32), 1, dims), FXSPACE_PRIVATE, "priv");
    FxInst *z = i32(&t, 0);
    bad(&t, 65, 2);
    fxb_atomic(&t.b, FXA_ADD, sc(SC_FLOAT32), priv, z, t.p[PA], NULL);
    bad(&t, 66, 2);
    fxb_atomic(&t.b, FXA_MAX, sc(SC_FLOAT32), t.p[PX], z, t.p[PD], NULL);
    bad(&t, 67, 2);
    fxb_atomic(&t.b, FXA_CAS, sc(SC_FLOAT64), t.p[PX], z, t.p[PA], t.p[PA]);
    expect_error(t.m, 65, 2, "the base of atomic.add must be a Ptr or a shared Array, got an alloca.private");
    expect_error(t.m, 66, 2, "operand 2 of atomic.max (a param) must have the element type Float32, got Float64");
    expect_error(t.m, 67, 2, "atomic.cas gives the old Float32 element, but its type is Float64");
    t_free(&t);
}

/* ---- calls and returns ---- */

static void test_calls(void)
{
    T t;
    std_kernel(&t);
    FxFunc *clamp = clamp01(&t);
    bad(&t, 68, 4);
    fxb_call(&t.b, clamp, 2, (FxInst *[]){ t.p[PA], t.p[PA] });
    bad(&t, 69, 4);
    fxb_call(&t.b, clamp, 1, &t.p[PD]);
    bad(&t, 70, 4);
    FxInst *c = fxb_call(&t.b, clamp, 1, &t.p[PA]);
    c->type = sc(SC_FLOAT64);
    bad(&t, 71, 4);
    fxb_call(&t.b, t.f, NPARAMS, t.p);
    bad(&t, 72, 4);
    FxInst *none = fxb_call(&t.b, clamp, 1, &t.p[PA]);
    none->callee = NULL;
    expect_error(t.m, 68, 4, "call to 'clamp01' passes 2 arguments, it takes 1");
    expect_error(t.m, 69, 4, "argument 0 of the call to 'clamp01' has type Float64, but parameter 'x' is Float32");
    expect_error(t.m, 70, 4, "call to 'clamp01' gives its return type Float32, but its type is Float64");
    expect_error(t.m, 71, 4, "call target 'k' is a kernel; only fns can be called");
    expect_error(t.m, 72, 4, "call has no callee");
    t_free(&t);
}

/* A callee that is not in the module (built in another one). */
static void test_call_outside_module(void)
{
    T t, other;
    std_kernel(&t);
    t_init(&other);
    FxFunc *g = clamp01(&other);
    bad(&t, 73, 6);
    fxb_call(&t.b, g, 1, &t.p[PA]);
    expect_error(t.m, 73, 6, "call target 'clamp01' is not a function of the module");
    t_free(&t);
    t_free(&other);
}

static void test_returns(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 74, 2);
    FxInst *br = fxb_if(&t.b, t.p[PC]);
    fxb_return(&t.b, t.p[PA]);
    fxb_after(&t.b, br);
    FxFunc *f = fxb_func(&t.b, t.m, "f", FXF_FN, 1, sc(SC_FLOAT32), at(7, 1));
    home(&t);
    FxInst *x = fxb_param(&t.b, f, 0, "x", sc(SC_FLOAT32));
    FxInst *b2 = fxb_if(&t.b, fxb_cmp(&t.b, FXC_GT, x, x));
    bad(&t, 75, 2);
    fxb_return(&t.b, NULL);
    fxb_else(&t.b, b2);
    bad(&t, 76, 2);
    fxb_return(&t.b, fxb_cast(&t.b, x, sc(SC_FLOAT64)));
    fxb_after(&t.b, b2);
    home(&t);
    fxb_return(&t.b, x);
    expect_error(t.m, 74, 2, "a kernel's return has no value, got one of type Float32");
    expect_error(t.m, 75, 2, "fn 'f' returns Float32, but this return has no value");
    expect_error(t.m, 76, 2, "fn 'f' returns Float32, but this return has a Float64 value");
    t_free(&t);
}

/* "returns on every path": an if without else, a loop that may not run,
 * a `while True` that a break leaves, a break before the return. */
static void test_missing_returns(void)
{
    T t;
    t_init(&t);
    FxFunc *f = fxb_func(&t.b, t.m, "f", FXF_FN, 1, sc(SC_FLOAT32), at(8, 1));
    home(&t);
    FxInst *x = fxb_param(&t.b, f, 0, "x", sc(SC_FLOAT32));
    fxb_if(&t.b, fxb_cmp(&t.b, FXC_GT, x, f32(&t, 0)));
    fxb_return(&t.b, x);

    FxFunc *g = fxb_func(&t.b, t.m, "g", FXF_FN, 1, sc(SC_INT32), at(9, 1));
    home(&t);
    FxInst *n = fxb_param(&t.b, g, 0, "n", sc(SC_INT32));
    FxInst *lp = fxb_loop(&t.b);
    fxb_loop_body(&t.b, lp, fxb_cmp(&t.b, FXC_GT, n, i32(&t, 0)));
    fxb_return(&t.b, n);

    FxFunc *h = fxb_func(&t.b, t.m, "h", FXF_FN, 1, sc(SC_INT32), at(10, 1));
    home(&t);
    FxInst *m = fxb_param(&t.b, h, 0, "m", sc(SC_INT32));
    FxInst *forever = fxb_loop(&t.b);
    fxb_loop_body(&t.b, forever, NULL);
    FxInst *br = fxb_if(&t.b, fxb_cmp(&t.b, FXC_GT, m, i32(&t, 0)));
    fxb_break(&t.b);
    fxb_after(&t.b, br);
    fxb_return(&t.b, m);
    expect_error(t.m, 8, 1, "fn 'f' returns Float32 but its body can end without a return");
    expect_error(t.m, 9, 1, "fn 'g' returns Int32 but its body can end without a return");
    expect_error(t.m, 10, 1, "fn 'h' returns Int32 but its body can end without a return");
    t_free(&t);
}

/* ---- scope ---- */

static void test_use_before_definition(void)
{
    T t;
    std_kernel(&t);
    FxInst *later = f32(&t, 2);
    fxb_before(&t.b, later);
    bad(&t, 77, 3);
    FxInst *z = i32(&t, 0);
    fxb_store(&t.b, t.p[PX], later, 1, &z);
    fxb_at_end(&t.b, &t.f->body);
    bad(&t, 78, 3);
    FxInst *self = fxb_binop(&t.b, FXB_ADD, t.p[PA], t.p[PA]);
    self->ops[0] = self;
    expect_error(t.m, 77, 3, "operand 1 of store (a const) is used before it is defined");
    expect_error(t.m, 78, 3, "operand 0 of binop.add (a binop.add) is used before it is defined");
    t_free(&t);
}

static void test_ended_blocks(void)
{
    T t;
    std_kernel(&t);
    FxInst *br = fxb_if(&t.b, t.p[PC]);
    FxInst *then_v = f32(&t, 1);
    fxb_else(&t.b, br);
    bad(&t, 79, 5);
    fxb_binop(&t.b, FXB_ADD, then_v, t.p[PA]);   /* the then-block's value in the else-block */
    fxb_after(&t.b, br);
    FxInst *iv;
    counted_loop(&t, t.p[PN], &iv);
    fxb_after(&t.b, t.b.block->owner);
    bad(&t, 80, 5);
    fxb_binop(&t.b, FXB_MUL, iv, iv);   /* the loop body's value after the loop */
    expect_error(t.m, 79, 5, "operand 0 of binop.add (a const) is defined in a block that has ended");
    expect_error(t.m, 80, 5, "operand 0 of binop.mul (a load) is defined in a block that has ended");
    t_free(&t);
}

/* A loop condition defined in the body (after the condition is read), or in
 * an if nested in the condition block. */
static void test_loop_condition_scope(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 11, 2);
    FxInst *lp = fxb_loop(&t.b);
    fxb_loop_body(&t.b, lp, NULL);
    home(&t);
    lp->ops[0] = fxb_cmp(&t.b, FXC_LT, t.p[PA], t.p[PA]);
    fxb_after(&t.b, lp);
    bad(&t, 12, 2);
    FxInst *lp2 = fxb_loop(&t.b);
    home(&t);
    FxInst *br = fxb_if(&t.b, t.p[PC]);
    FxInst *inner = fxb_bool(&t.b, false);
    fxb_after(&t.b, br);
    fxb_loop_body(&t.b, lp2, inner);
    fxb_after(&t.b, lp2);
    expect_error(t.m, 11, 2, "operand 0 of loop (a cmp.lt) is used before it is defined");
    expect_error(t.m, 12, 2, "operand 0 of loop (a const) is defined in a block that has ended");
    t_free(&t);
}

static void test_operand_of_other_function(void)
{
    T t;
    std_kernel(&t);
    FxInst *a = t.p[PA];
    FxFunc *g = fxb_func(&t.b, t.m, "g", FXF_FN, 0, NULL, at(12, 1));
    (void)g;
    bad(&t, 13, 9);
    fxb_binop(&t.b, FXB_ADD, a, a);
    expect_error(t.m, 13, 9, "operand 0 of binop.add (a param) is not an instruction of this function");
    expect_error(t.m, 13, 9, "(in fn 'g')");
    t_free(&t);
}

/* ---- control flow ---- */

static void test_jumps(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 14, 4);
    fxb_break(&t.b);
    FxInst *lp = fxb_loop(&t.b);
    home(&t);
    FxInst *br = fxb_if(&t.b, t.p[PC]);
    bad(&t, 15, 4);
    fxb_continue(&t.b);
    fxb_after(&t.b, br);
    home(&t);
    fxb_loop_body(&t.b, lp, t.p[PC]);
    fxb_loop_step(&t.b, lp);
    bad(&t, 16, 4);
    fxb_break(&t.b);
    fxb_after(&t.b, lp);
    expect_error(t.m, 14, 4, "break is outside any loop");
    expect_error(t.m, 15, 4, "continue is in a loop's condition block");
    expect_error(t.m, 16, 4, "break is in a loop's step block");
    t_free(&t);
}

static void test_dead_code(void)
{
    T t;
    std_kernel(&t);
    FxInst *lp = fxb_loop(&t.b);
    fxb_loop_body(&t.b, lp, t.p[PC]);
    fxb_break(&t.b);
    bad(&t, 17, 8);
    f32(&t, 1);
    home(&t);
    f32(&t, 2);   /* reported once per block */
    fxb_after(&t.b, lp);
    fxb_return(&t.b, NULL);
    bad(&t, 18, 8);
    FxInst *z = i32(&t, 0);
    fxb_store(&t.b, t.p[PX], t.p[PA], 1, &z);
    expect_error(t.m, 17, 8, "const follows a break in the same block and can never run");
    expect_error(t.m, 18, 8, "const follows a return in the same block and can never run");
    bool ok;
    char *out = run_verifier(t.m, &ok);
    CU_ASSERT_PTR_NULL(strstr(out, "verify.fx:1:1:"));
    free(out);
    t_free(&t);
}

/* ---- programs ---- */

static void test_matmul_shapes(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    g.mm->trans_b = true;   /* A[M,K] @ B[K,N].T: K against N */
    g.gemm->ins[2] = g.T;
    expect_error(t.m, 30, 3, "matmul inner dimensions differ: [M, K] @ [K, N].T");
    expect_error(t.m, 31, 3, "matmul input 2 (C, scaled by beta) must be its output 'C', got 'T'");
    t_free(&t);

    build_program(&t, &g);
    g.mm->out = g.C;
    g.mm->ins[1] = g.A;
    g.mm->trans_b = true;   /* A @ A.T is M x M, C is M x N */
    g.gemm->nins = 2;
    expect_error(t.m, 30, 3, "matmul [M, K] @ [M, K].T gives rows of A by columns of B, but its output is [M, N]");
    expect_error(t.m, 31, 3, "matmul with beta reads 3 inputs (A, B, C), got 2");
    t_free(&t);
}

static void test_matmul_types(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    g.mm->in_type = SC_FLOAT16;
    g.gemm->out_type = SC_FLOAT64;
    g.gemm->beta.param_index = GA;   /* a tensor, not a scalar */
    expect_error(t.m, 30, 3, "matmul inputs must hold in_type Float16 and in_b Float32 scalars (the same type but "
                             "for two 8-bit float formats), got Float32 and Float32");
    expect_error(t.m, 31, 3, "matmul out_type Float64 must be the element type of its output");
    expect_error(t.m, 31, 3, "matmul beta reads parameter 0, which is not a scalar parameter");
    t_free(&t);
}

static void test_map_body(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    g.map->body->params[1].type = sc(SC_FLOAT64);
    g.map->body->ret = sc(SC_INT32);
    expect_error(t.m, 32, 3, "map body 'p__map0' parameter 1 has type Float64, but input 'bias' holds Float32");
    expect_error(t.m, 32, 3, "map body 'p__map0' returns Int32, but output 'Y' holds Float32");
    t_free(&t);

    build_program(&t, &g);
    g.map->nscalars = 0;
    expect_error(t.m, 32, 3, "map body 'p__map0' must be a fn of 2 parameters (2 elements, 0 scalars), got a fn of 3");
    t_free(&t);

    build_program(&t, &g);
    g.map->scalar_params[0] = 47;
    expect_error(t.m, 32, 3, "map scalar 0 reads parameter 47, which is not a scalar parameter");
    t_free(&t);
}

static void test_map_broadcast(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    g.map->ins[1] = g.R;   /* R is [M]: its trailing dim M does not align with N */
    g.map->body->params[1].type = sc(SC_FLOAT32);
    expect_error(t.m, 32, 3, "map input 'R' of shape [M] does not broadcast to the output shape [M, N]");
    t_free(&t);
}

static void test_reduce(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    g.red->axis = 2;
    g.red1->out = g.R;   /* bias [N] reduces to [1], not [M] */
    expect_error(t.m, 33, 3, "reduce axis 2 is out of range for a tensor of shape [M, N]");
    expect_error(t.m, 34, 3, "reduce of [N] over axis 0 gives [1] (the input shape without that axis), but its "
                 "output is [M]");
    t_free(&t);

    build_program(&t, &g);
    g.red->axis = 0;   /* Y [M, N] over axis 0 is [N]; R is [M] */
    fxg_set_inputs(t.m, g.red1, 2, (FxTensor *[]){ g.bias, g.bias });
    expect_error(t.m, 33, 3, "reduce of [M, N] over axis 0 gives [N]");
    expect_error(t.m, 34, 3, "reduce reads 1 tensor, got 2");
    t_free(&t);
}

/* The Map writing Y folded into the Reduce of Y, as map-fusion does: the
 * Reduce computes Y's elements with the Map's body over Y's index space. */
static void fold_map_into_reduce(T *t, Prog *g)
{
    fxg_set_inputs(t->m, g->red, g->map->nins, g->map->ins);
    fxg_set_scalars(t->m, g->red, g->map->nscalars, g->map->scalar_params);
    g->red->body = g->map->body;
    g->red->domain = g->Y;
    fxg_remove_node(g->p, g->map);
    fxg_remove_tensor(g->p, g->Y);
}

static void test_reduce_body(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    fold_map_into_reduce(&t, &g);
    expect_clean(t.m);
    t_free(&t);

    build_program(&t, &g);
    fold_map_into_reduce(&t, &g);
    g.red->domain = NULL;
    expect_error(t.m, 33, 3, "reduce with body 'p__map0' must have a domain: a Tensor type of numbers with 1 to 8 "
                 "dimensions, got none");
    t_free(&t);

    build_program(&t, &g);
    fold_map_into_reduce(&t, &g);
    g.red->domain = g.R;   /* [M]: T [M, N] does not broadcast to it, and [M] over axis 1 is out of range */
    expect_error(t.m, 33, 3, "reduce input 'T' of shape [M, N] does not broadcast to the domain shape [M]");
    expect_error(t.m, 33, 3, "reduce axis 1 is out of range for a tensor of shape [M]");
    t_free(&t);

    build_program(&t, &g);
    fold_map_into_reduce(&t, &g);
    g.red->body->ret = sc(SC_FLOAT64);
    g.red->body->params[1].type = sc(SC_INT32);
    g.red->scalar_params[0] = GA;
    expect_error(t.m, 33, 3, "reduce body 'p__map0' returns Float64, but domain 'Y' holds Float32");
    expect_error(t.m, 33, 3, "reduce body 'p__map0' parameter 1 has type Int32, but input 'bias' holds Float32");
    expect_error(t.m, 33, 3, "reduce scalar 0 reads parameter 0, which is not a scalar parameter of the program");
    t_free(&t);

    build_program(&t, &g);
    fold_map_into_reduce(&t, &g);
    fxg_set_scalars(t.m, g.red, 0, NULL);   /* the body takes T, bias and s */
    expect_error(t.m, 33, 3, "reduce body 'p__map0' must be a fn of 2 parameters (2 elements, 0 scalars), got a fn "
                 "of 3");
    t_free(&t);

    build_program(&t, &g);
    g.red1->domain = g.Y;   /* a domain is a body's index space */
    expect_error(t.m, 34, 3, "reduce of 'bias' has a domain but no body");
    t_free(&t);

    /* reductions in one kernel whose domains are missing: reported once, no crash */
    build_program(&t, &g);
    fold_map_into_reduce(&t, &g);
    g.red->domain = NULL;
    g.red1->with_previous = true;
    expect_error(t.m, 33, 3, "reduce with body 'p__map0' must have a domain");
    t_free(&t);
    build_program(&t, &g);
    fxg_set_inputs(t.m, g.red1, 0, NULL);
    g.red1->with_previous = true;
    expect_error(t.m, 34, 3, "reduce reads 1 tensor, got 0");
    t_free(&t);
}

static void test_program_dataflow(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    /* the reduction of Y moves before the map that writes Y */
    FxNode *red = g.red;
    fxg_remove_node(g.p, red);
    g.p->nodes.items[1] = red;   /* overwrite gemm's slot: [mm, red, map, red1] */
    g.p->nodes.items[2] = g.map;
    g.p->nodes.items[3] = g.red1;
    g.p->nodes.len = 4;
    expect_error(t.m, 33, 3, "node 1 reads transient 'Y' before any node writes it");
    t_free(&t);

    build_program(&t, &g);
    fxg_remove_tensor(g.p, g.Z);
    expect_error(t.m, 34, 3, "the output tensor 'Z' of a node is not a tensor of the program");
    t_free(&t);
}

static void test_program_tensors(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    int64_t d[1] = { -1 };
    fxg_transient(t.m, g.p, "W", sc(SC_FLOAT32), 1, d, (const char *[]){ "Q" }, at(14, 2));
    g.T->param_index = GB;
    expect_error(t.m, 14, 2, "dimension 0 of tensor 'W' is 'Q', which is not an Int32 parameter of the program");
    expect_error(t.m, 11, 1, "tensor 'T' is parameter 1, but that parameter is Tensor[Float32, K, N]");
    t_free(&t);
}

/* A map body that is not in the module's functions. */
static void test_map_body_outside_module(void)
{
    T t;
    Prog g;
    build_program(&t, &g);
    for (int k = 0; k < t.m->funcs.len; k++)
        if (t.m->funcs.items[k] == g.map->body)
            t.m->funcs.items[k] = t.m->funcs.items[--t.m->funcs.len];
    expect_error(t.m, 32, 3, "map body 'p__map0' is not a function of the module");
    t_free(&t);
}

/* Errors are reported all at once and fxir_verify_func checks one function. */
static void test_every_problem_reported(void)
{
    T t;
    std_kernel(&t);
    bad(&t, 19, 1);
    fxb_binop(&t.b, FXB_ADD, t.p[PA], t.p[PD]);
    bad(&t, 19, 9);
    fxb_binop(&t.b, FXB_SUB, t.p[PN], t.p[PA]);
    FxFunc *k = t.f;
    FxFunc *g = fxb_func(&t.b, t.m, "ok", FXF_FN, 0, NULL, at(20, 1));
    fxb_return(&t.b, NULL);
    Capture c;
    capture_begin(&c);
    CU_ASSERT_FALSE(fxir_verify_func(t.m, k));
    CU_ASSERT_TRUE(fxir_verify_func(t.m, g));
    char *out = capture_end(&c);
    CU_ASSERT_TRUE(has_error_at(out, 19, 1, "binop.add operands must have one type"));
    CU_ASSERT_TRUE(has_error_at(out, 19, 9, "binop.sub operands must have one type, got Int32 and Float32"));
    CU_ASSERT_EQUAL(diag_error_count(), 2);
    free(out);
    t_free(&t);
}

/* ---- the suite ---- */

typedef struct TestCase {
    const char *name;
    CU_TestFunc fn;
} TestCase;

static const TestCase tests[] = {
    { "good kernel", test_good_kernel },
    { "good fns", test_good_fns },
    { "good program", test_good_program },
    { "null type and operand", test_null_type_and_operand },
    { "arity", test_arity },
    { "sub out of range", test_sub_out_of_range },
    { "broken links", test_broken_links },
    { "cycle", test_cycle },
    { "binop types", test_binop_types },
    { "cmp and select types", test_cmp_select_types },
    { "conditions", test_conditions },
    { "vector types", test_vector_types },
    { "cast types", test_cast_types },
    { "math ceildiv special const", test_math_ceildiv_special_const },
    { "params", test_params },
    { "mfma types", test_mfma_types },
    { "signature and alloca", test_signature_and_alloca },
    { "memory bases and indices", test_memory_bases_and_indices },
    { "atomics", test_atomics },
    { "calls", test_calls },
    { "call outside module", test_call_outside_module },
    { "returns", test_returns },
    { "missing returns", test_missing_returns },
    { "use before definition", test_use_before_definition },
    { "ended blocks", test_ended_blocks },
    { "loop condition scope", test_loop_condition_scope },
    { "operand of other function", test_operand_of_other_function },
    { "jumps", test_jumps },
    { "dead code", test_dead_code },
    { "matmul shapes", test_matmul_shapes },
    { "matmul types", test_matmul_types },
    { "map body", test_map_body },
    { "map broadcast", test_map_broadcast },
    { "reduce", test_reduce },
    { "reduce with a body", test_reduce_body },
    { "program dataflow", test_program_dataflow },
    { "program tensors", test_program_tensors },
    { "map body outside module", test_map_body_outside_module },
    { "every problem reported", test_every_problem_reported },
};

static SrcFile *numbered_source(void)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    for (int l = 1; l <= 80; l++)
        fprintf(f, "line %d of the verifier's test source\n", l);
    fclose(f);
    SrcFile *s = diag_file_from_string("verify.fx", text);
    free(text);
    return s;
}

int main(void)
{
    src = numbered_source();
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    CU_pSuite suite = CU_add_suite("fxir-verify", NULL, NULL);
    for (size_t k = 0; suite && k < sizeof tests / sizeof tests[0]; k++)
        if (!CU_add_test(suite, tests[k].name, tests[k].fn))
            suite = NULL;
    if (!suite) {
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    /* failed assertions must fail the process, not only framework errors */
    unsigned failures = CU_get_number_of_failures();
    bool framework_error = CU_get_error() != CUE_SUCCESS;
    CU_cleanup_registry();
    diag_free_file(src);
    return (failures != 0 || framework_error) ? 1 : 0;
}
