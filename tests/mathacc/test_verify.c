/* test_verify.c - the FXIR verifier on the new math sub-operations:
 * copysign, hypot and atan2 take exactly two operands of the result's type,
 * the others exactly one. */
#include "fxtest.h"
#include "fxir/builder.h"
#include "fxir/fxmath.h"
#include "fxir/verify.h"
#include <stdlib.h>
#include <string.h>

/* kernel k(a: Float32, d: Float64) { <one math instruction> } verified. */
static bool verifies(int fn, int nops, bool mixed, char **diag)
{
    Arena *a = arena_new();
    FxModule *m = fxir_module_new(a, "math.fxir");
    FxBuilder b;
    memset(&b, 0, sizeof b);
    FxFunc *f = fxb_func(&b, m, "k", FXF_KERNEL, 2, NULL, (Loc){ 0 });
    FxInst *x = fxb_param(&b, f, 0, "a", type_scalar(SC_FLOAT32));
    FxInst *d = fxb_param(&b, f, 1, "d", type_scalar(SC_FLOAT64));
    FxInst *y = mixed ? d : x;
    if (nops == 1)
        fxb_emit(&b, FX_MATH, fn, x->type, 1, x);
    else
        fxb_emit(&b, FX_MATH, fn, x->type, 2, x, y);
    fxb_return(&b, NULL);
    fxt_capture_begin();
    bool ok = fxir_verify_func(m, f);
    *diag = fxt_capture_end();
    arena_free(a);
    return ok;
}

static void test_arity(void)
{
    for (int fn = FXM_ERF; fn < FXM_COUNT; fn++) {
        bool two = fxm_is_binary(fn);
        char *diag;
        CU_ASSERT_TRUE(verifies(fn, two ? 2 : 1, false, &diag));
        free(diag);
        CU_ASSERT_FALSE(verifies(fn, two ? 1 : 2, false, &diag));
        CU_ASSERT_PTR_NOT_NULL(strstr(diag, "operand"));
        free(diag);
    }
}

static void test_operand_types(void)
{
    char *diag;
    CU_ASSERT_FALSE(verifies(FXM_ATAN2, 2, true, &diag));
    CU_ASSERT_PTR_NOT_NULL(strstr(diag, "one type"));
    free(diag);
}

const FxtTest verify_tests[] = {
    { "arity of every new math sub-operation", test_arity },
    { "binary math operands share one type", test_operand_types },
    { NULL, NULL },
};
