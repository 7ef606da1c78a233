/* test_sema.c - CUnit suites for src/sema: the seed's tables cell by cell,
 * and the eval case files (eval/NAME.txt, thousands of folding cases whose
 * answers gen_eval.py computes independently of this implementation). */
#include "fxtest.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sema/fold.h"
#include "sema/promote.h"
#include "sema/sema.h"

#ifndef TEST_DIR
#define TEST_DIR "."
#endif

/* ---- the common-type table, restated from seed 000 in the test's own words ---- */

static const char *const seed_cols[9] = { "Int8", "Int16", "Int32", "Int64", "Uint32", "Float16", "BFloat16",
                                          "Float32", "Float64" };
static const char *const seed_rows[9][9] = {
    { "Int8", "Int16", "Int32", "Int64", "Uint32", "Float16", "BFloat16", "Float32", "Float64" },
    { "Int16", "Int16", "Int32", "Int64", "Uint32", "Float16", "BFloat16", "Float32", "Float64" },
    { "Int32", "Int32", "Int32", "Int64", "Uint32", "Float32", "Float32", "Float32", "Float64" },
    { "Int64", "Int64", "Int64", "Int64", "Int64", "Float64", "Float64", "Float64", "Float64" },
    { "Uint32", "Uint32", "Uint32", "Int64", "Uint32", "Float32", "Float32", "Float32", "Float64" },
    { "Float16", "Float16", "Float32", "Float64", "Float32", "Float16", "Float32", "Float32", "Float64" },
    { "BFloat16", "BFloat16", "Float32", "Float64", "Float32", "Float32", "BFloat16", "Float32", "Float64" },
    { "Float32", "Float32", "Float32", "Float64", "Float32", "Float32", "Float32", "Float32", "Float64" },
    { "Float64", "Float64", "Float64", "Float64", "Float64", "Float64", "Float64", "Float64", "Float64" },
};

static ScalarId sid(const char *name)
{
    const Type *t = type_from_name(name);
    return t ? t->scalar : SC_COUNT;
}

static void test_common_table_cells(void)
{
    int cells = 0;
    for (int i = 0; i < 9; i++)
        for (int j = 0; j < 9; j++) {
            ScalarId a = sid(seed_cols[i]), b = sid(seed_cols[j]), want = sid(seed_rows[i][j]);
            CU_ASSERT_EQUAL(promote_table_types[i], a);
            CU_ASSERT_EQUAL(promote_table[i][j], want);
            CU_ASSERT_EQUAL(promote_common(a, b), want);
            /* The stated rules reproduce every cell, so other widths follow them. */
            CU_ASSERT_EQUAL(promote_common_by_rules(a, b), want);
            cells++;
        }
    CU_ASSERT_EQUAL(cells, 81);
}

static void test_common_rules_other_widths(void)
{
    CU_ASSERT_EQUAL(promote_common(SC_UINT8, SC_INT8), SC_UINT8);
    CU_ASSERT_EQUAL(promote_common(SC_UINT16, SC_INT32), SC_INT32);
    CU_ASSERT_EQUAL(promote_common(SC_UINT64, SC_INT64), SC_UINT64);
    CU_ASSERT_EQUAL(promote_common(SC_INT128, SC_UINT64), SC_INT128);
    CU_ASSERT_EQUAL(promote_common(SC_UINT128, SC_INT128), SC_UINT128);
    CU_ASSERT_EQUAL(promote_common(SC_INT4, SC_INT8), SC_INT8);
    CU_ASSERT_EQUAL(promote_common(SC_INT4, SC_FLOAT16), SC_FLOAT16);
    CU_ASSERT_EQUAL(promote_common(SC_INT128, SC_FLOAT16), SC_FLOAT64);
    CU_ASSERT_EQUAL(promote_common(SC_UINT64, SC_FLOAT32), SC_FLOAT64);
    CU_ASSERT_EQUAL(promote_common(SC_UINT16, SC_BFLOAT16), SC_BFLOAT16);
    CU_ASSERT_EQUAL(promote_common(SC_INDEX, SC_INT32), SC_INDEX);
    CU_ASSERT_EQUAL(promote_common(SC_INDEX, SC_INT64), SC_INDEX);
    CU_ASSERT_EQUAL(promote_common(SC_INDEX, SC_UINT64), SC_UINT64);
    CU_ASSERT_EQUAL(promote_common(SC_BOOLEAN, SC_INT8), SC_INT8);
    CU_ASSERT_EQUAL(promote_common(SC_BOOLEAN, SC_BOOLEAN), SC_BOOLEAN);
}

/* The result-type table: one row per operator. */
static void test_result_table(void)
{
    static const struct { AstOp op; ResultRule rule; BoolRule b; } rows[] = {
        { OP_ADD, RES_COMMON, BOOL_TO_INT32 }, { OP_SUB, RES_COMMON, BOOL_TO_INT32 },
        { OP_MUL, RES_COMMON, BOOL_TO_INT32 }, { OP_FLOORDIV, RES_COMMON, BOOL_TO_INT32 },
        { OP_MOD, RES_COMMON, BOOL_TO_INT32 }, { OP_POW, RES_COMMON, BOOL_TO_INT32 },
        { OP_DIV, RES_TRUEDIV, BOOL_TO_INT32 }, { OP_LT, RES_BOOLEAN, BOOL_KEEP },
        { OP_LE, RES_BOOLEAN, BOOL_KEEP }, { OP_GT, RES_BOOLEAN, BOOL_KEEP }, { OP_GE, RES_BOOLEAN, BOOL_KEEP },
        { OP_EQ, RES_BOOLEAN, BOOL_KEEP }, { OP_NE, RES_BOOLEAN, BOOL_KEEP },
        { OP_BITAND, RES_INTEGER, BOOL_KEEP }, { OP_BITOR, RES_INTEGER, BOOL_KEEP },
        { OP_BITXOR, RES_INTEGER, BOOL_KEEP }, { OP_SHL, RES_INTEGER, BOOL_KEEP }, { OP_SHR, RES_INTEGER, BOOL_KEEP },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const OpRule *r = promote_op_rule(rows[i].op);
        CU_ASSERT_PTR_NOT_NULL_FATAL(r);
        CU_ASSERT_EQUAL(r->result, rows[i].rule);
        CU_ASSERT_EQUAL(r->boolean, rows[i].b);
    }
    const OpRule *div = promote_op_rule(OP_DIV);
    CU_ASSERT_EQUAL(promote_result(div, SC_INT8), SC_FLOAT32);
    CU_ASSERT_EQUAL(promote_result(div, SC_UINT32), SC_FLOAT32);
    CU_ASSERT_EQUAL(promote_result(div, SC_INT64), SC_FLOAT64);
    CU_ASSERT_EQUAL(promote_result(div, SC_INT128), SC_FLOAT64);
    CU_ASSERT_EQUAL(promote_result(div, SC_FLOAT16), SC_FLOAT16);
    CU_ASSERT_EQUAL(promote_result(promote_op_rule(OP_LT), SC_FLOAT64), SC_BOOLEAN);
    CU_ASSERT_EQUAL(promote_result(promote_op_rule(OP_ADD), SC_BFLOAT16), SC_BFLOAT16);
    CU_ASSERT_PTR_NULL(promote_op_rule(OP_AND));
}

static void test_type_table(void)
{
    CU_ASSERT_EQUAL(type_info(SC_INT4)->width, 4);
    CU_ASSERT_EQUAL(type_info(SC_UINT128)->width, 128);
    CU_ASSERT_FALSE(type_info(SC_UINT128)->is_signed);
    CU_ASSERT_EQUAL(type_info(SC_F8E4M3FNUZ)->fmt->bias, 8);
    CU_ASSERT_EQUAL(type_info(SC_F8E4M3B11FNUZ)->fmt->bias, 11);
    CU_ASSERT_EQUAL(type_info(SC_F6E3M2FN)->width, 6);
    CU_ASSERT_PTR_EQUAL(type_from_name("Float32x4"), type_vector(SC_FLOAT32, 4));
    CU_ASSERT_PTR_NULL(type_from_name("Float32x5"));
    CU_ASSERT_PTR_NULL(type_from_name("Float32x04"));
    CU_ASSERT_PTR_EQUAL(type_from_name("Float8E4M3"), type_scalar(SC_F8E4M3));
    CU_ASSERT_PTR_EQUAL(type_from_name("Float8E4M3FNx8"), type_vector(SC_F8E4M3FN, 8));
    CU_ASSERT_EQUAL(type_log_width(1), 0);
    CU_ASSERT_EQUAL(type_log_width(6), 3);
    CU_ASSERT_EQUAL(type_storage_bits(type_scalar(SC_INT4)), 8);
    CU_ASSERT_EQUAL(type_storage_bits(type_vector(SC_FLOAT16, 8)), 128);
}

/* ---- eval cases ---- */

typedef struct Outcome {
    char *out;      /* printed value, or NULL */
    char *diag;     /* diagnostics text */
    int errors;
} Outcome;

static Outcome eval_one(const char *expr)
{
    Outcome o = { 0 };
    size_t dlen, olen;
    FILE *dm = open_memstream(&o.diag, &dlen);
    FILE *om = open_memstream(&o.out, &olen);
    diag_reset();
    diag_set_stream(dm);
    Arena *a = arena_new();
    SemaOptions so = { 0 };
    so.wave_size = 64;
    Sema *s = sema_new(a, &so);
    SrcFile *f = diag_file_from_string("<eval>", expr);
    AstNode *e = parse_expression(a, f);
    Val *v = e ? sema_eval(s, e) : NULL;
    if (v && v->is_static && v->type->kind != TY_FUNC && v->type->kind != TY_MODULE)
        fold_print(om, v, true);
    else if (v)
        diag_error(e->loc, "not a printable static value");
    o.errors = diag_error_count();
    fclose(om);
    fclose(dm);
    diag_set_stream(NULL);
    diag_free_file(f);
    sema_free(s);
    arena_free(a);
    return o;
}

static int run_case_file(const char *path, int *failed)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!line[0] || line[0] == '#')
            continue;
        char *sep = strstr(line, "  =>  ");
        if (!sep)
            continue;
        *sep = 0;
        const char *expr = line, *want = sep + 6;
        Outcome o = eval_one(expr);
        bool want_error = strncmp(want, "error", 5) == 0;
        bool ok = want_error ? o.errors > 0 && o.diag && strstr(o.diag, "error")
                             : o.errors == 0 && o.out && strcmp(o.out, want) == 0;
        /* "error: TEXT" also requires TEXT in the message. */
        if (ok && want_error && want[5] == ':')
            ok = strstr(o.diag, want + 7) != NULL;
        if (!ok) {
            (*failed)++;
            if (*failed <= 40)
                fprintf(stderr, "\n  FAIL %s: %s\n     want: %s\n     got:  %s %s", path, expr, want,
                        o.out ? o.out : "", o.diag ? o.diag : "");
        }
        CU_ASSERT(ok);
        n++;
        free(o.out);
        free(o.diag);
    }
    fclose(f);
    return n;
}

static void test_eval_cases(void)
{
    DIR *d = opendir(TEST_DIR "/eval");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int total = 0, failed = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".txt") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/eval/%s", TEST_DIR, e->d_name);
        total += run_case_file(path, &failed);
    }
    closedir(d);
    fprintf(stderr, "\n  eval cases: %d run, %d failed\n", total, failed);
    CU_ASSERT(total >= 1000);
}

static const FxtTest table_tests[] = {
    { "common type: all 81 cells", test_common_table_cells },
    { "common type: other widths by rule", test_common_rules_other_widths },
    { "result types", test_result_table },
    { "scalar type table", test_type_table },
    { NULL, NULL },
};
extern const FxtTest limits_tests[];   /* test_limits.c */
static const FxtTest eval_tests[] = {
    { "eval case files", test_eval_cases },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "tables", table_tests, NULL, NULL }, { "eval", eval_tests, NULL, NULL },
                                       { "limits", limits_tests, NULL, NULL }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
