/* test_compare.c - whether two fns have the same code (src/fxir/compare.c),
 * the test program lowering's kernel sharing relies on: kernels that read
 * different parameters in the same pattern are the same; any difference of
 * operation, constant, type, location or pattern of parameters is not; and
 * dropping the unread parameters leaves a fn that verifies. */
#include <CUnit/Basic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fxir/builder.h"
#include "fxir/verify.h"

enum { NPARAMS = 5 };

/* How one kernel is built: out[i] = x[i] * y[i] + c for i in 0..n, with x,
 * y and out three of the parameters (p4 is the Int32 n), in a counted loop. */
typedef struct Shape {
    int x, y, out;
    double c;
    ScalarId elem;      /* of p0..p3 */
    int line;           /* of every instruction */
    const char *name;   /* of the loop counter (names do not count) */
} Shape;

static const Shape base = { 0, 1, 2, 2.0, SC_FLOAT32, 1, "i" };

static SrcFile *file;

static FxFunc *build(FxModule *m, const char *fname, Shape s)
{
    FxBuilder b;
    Loc loc = { file, s.line, 1, s.line, 1 };
    FxFunc *f = fxb_func(&b, m, fname, FXF_KERNEL, NPARAMS, type_simple(TY_VOID), loc);
    FxInst *p[NPARAMS];
    for (int k = 0; k < 4; k++)
        p[k] = fxb_param(&b, f, k, "p", type_ptr(m->arena, type_scalar(s.elem), false));
    p[4] = fxb_param(&b, f, 4, "n", type_scalar(SC_INT32));
    const Type *i32 = type_scalar(SC_INT32);
    FxInst *slot = fxb_alloca(&b, i32, FXSPACE_PRIVATE, s.name);
    fxb_store(&b, slot, fxb_int(&b, i32, 0), 0, NULL);
    FxInst *lp = fxb_loop(&b);
    FxInst *i = fxb_load(&b, slot, i32, 0, NULL);
    fxb_loop_body(&b, lp, fxb_cmp(&b, FXC_LT, i, p[4]));
    i = fxb_load(&b, slot, i32, 0, NULL);   /* the condition block's values end with it */
    FxInst *xi = fxb_load(&b, p[s.x], type_scalar(s.elem), 1, &i);
    FxInst *yi = fxb_load(&b, p[s.y], type_scalar(s.elem), 1, &i);
    FxInst *v = fxb_binop(&b, FXB_ADD, fxb_binop(&b, FXB_MUL, xi, yi), fxb_number(&b, s.elem, s.c));
    fxb_store(&b, p[s.out], v, 1, &i);
    fxb_loop_step(&b, lp);
    fxb_store(&b, slot, fxb_binop(&b, FXB_ADD, fxb_load(&b, slot, i32, 0, NULL), fxb_int(&b, i32, 1)), 0, NULL);
    fxb_after(&b, lp);
    fxb_return(&b, NULL);
    return f;
}

static bool same(Shape a, Shape b)
{
    Arena *ar = arena_new();
    FxModule *m = fxir_module_new(ar, "compare.fx");
    FxFunc *fa = build(m, "a", a), *fb = build(m, "b", b);
    FxCodeShape sa, sb;
    fxir_code_shape(fa, &sa);
    fxir_code_shape(fb, &sb);
    bool r = fxir_same_code(&sa, &sb);
    CU_ASSERT_EQUAL(fxir_same_code(&sb, &sa), r);
    fxir_code_shape_free(&sa);
    fxir_code_shape_free(&sb);
    arena_free(ar);
    return r;
}

static void test_same_pattern_other_params(void)
{
    Shape s = base;
    CU_ASSERT_TRUE(same(base, s));
    s.x = 1, s.y = 2, s.out = 3;            /* p1, p2, p3 where base reads p0, p1, p2 */
    CU_ASSERT_TRUE(same(base, s));
    s = base;
    s.x = 0, s.y = 2, s.out = 3;
    CU_ASSERT_TRUE(same(base, s));
    s = base;
    s.name = "j";
    CU_ASSERT_TRUE(same(base, s));
}

static void test_differences(void)
{
    Shape s = base;
    s.x = 1, s.y = 0;                       /* reads the same params, x and y swapped */
    CU_ASSERT_FALSE(same(base, s));
    s = base;
    s.out = 3, s.y = 0;                     /* p0 read twice: reads two params, base three */
    CU_ASSERT_FALSE(same(base, s));
    s = base;
    s.x = 2, s.out = 0;                     /* out before x in index order */
    CU_ASSERT_FALSE(same(base, s));
    s = base;
    s.c = 3.0;
    CU_ASSERT_FALSE(same(base, s));
    s = base;
    s.elem = SC_FLOAT64;                    /* types are not in the hash: the walk decides */
    CU_ASSERT_FALSE(same(base, s));
    s = base;
    s.line = 2;
    CU_ASSERT_FALSE(same(base, s));
}

static void test_drop_unread(void)
{
    Arena *ar = arena_new();
    FxModule *m = fxir_module_new(ar, "compare.fx");
    Shape s = base;
    s.x = 1, s.y = 3, s.out = 1;            /* reads p1, p3 and n */
    FxFunc *f = build(m, "k", s);
    FxCodeShape sh;
    fxir_code_shape(f, &sh);
    CU_ASSERT_EQUAL(sh.nread, 3);
    int kept[NPARAMS];
    CU_ASSERT_EQUAL(fxir_drop_unread_params(&sh, kept), 3);
    CU_ASSERT(kept[0] == 1 && kept[1] == 3 && kept[2] == 4);
    CU_ASSERT_EQUAL(f->nparams, 3);
    CU_ASSERT_STRING_EQUAL(f->params[2].name, "n");
    int nparam_insts = 0;
    for (const FxInst *i = f->body.first; i; i = i->next)
        if (i->op == FX_PARAM)
            CU_ASSERT_EQUAL(i->param_index, nparam_insts++);
    CU_ASSERT_EQUAL(nparam_insts, 3);
    CU_ASSERT_TRUE(fxir_verify_func(m, f));
    fxir_code_shape_free(&sh);
    arena_free(ar);
}

int main(void)
{
    file = diag_file_from_string("compare.fx", "line 1\nline 2\n");
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("fxir-compare", NULL, NULL);
    CU_add_test(s, "the same pattern of other parameters is the same code", test_same_pattern_other_params);
    CU_add_test(s, "a swap, a repeat, the order, a constant, a type, a line are not", test_differences);
    CU_add_test(s, "dropping the unread parameters leaves a fn that verifies", test_drop_unread);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
