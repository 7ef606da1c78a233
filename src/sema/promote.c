/* promote.c - the common-type and result-type tables of seed 000. */
#include "sema/promote.h"
#include <stddef.h>

static const OpRule op_rules[] = {
    { OP_ADD, RES_COMMON, BOOL_TO_INT32 },
    { OP_SUB, RES_COMMON, BOOL_TO_INT32 },
    { OP_MUL, RES_COMMON, BOOL_TO_INT32 },
    { OP_FLOORDIV, RES_COMMON, BOOL_TO_INT32 },
    { OP_MOD, RES_COMMON, BOOL_TO_INT32 },
    { OP_POW, RES_COMMON, BOOL_TO_INT32 },
    { OP_DIV, RES_TRUEDIV, BOOL_TO_INT32 },
    { OP_LT, RES_BOOLEAN, BOOL_KEEP },
    { OP_LE, RES_BOOLEAN, BOOL_KEEP },
    { OP_GT, RES_BOOLEAN, BOOL_KEEP },
    { OP_GE, RES_BOOLEAN, BOOL_KEEP },
    { OP_EQ, RES_BOOLEAN, BOOL_KEEP },
    { OP_NE, RES_BOOLEAN, BOOL_KEEP },
    { OP_BITAND, RES_INTEGER, BOOL_KEEP },
    { OP_BITOR, RES_INTEGER, BOOL_KEEP },
    { OP_BITXOR, RES_INTEGER, BOOL_KEEP },
    { OP_SHL, RES_INTEGER, BOOL_KEEP },
    { OP_SHR, RES_INTEGER, BOOL_KEEP },
};

const OpRule *promote_op_rule(AstOp op)
{
    for (size_t i = 0; i < sizeof op_rules / sizeof op_rules[0]; i++)
        if (op_rules[i].op == op)
            return &op_rules[i];
    return NULL;
}

#define I8 SC_INT8
#define I16 SC_INT16
#define I32 SC_INT32
#define I64 SC_INT64
#define U32 SC_UINT32
#define F16 SC_FLOAT16
#define BF16 SC_BFLOAT16
#define F32 SC_FLOAT32
#define F64 SC_FLOAT64

const ScalarId promote_table_types[PROMOTE_TABLE_N] = { I8, I16, I32, I64, U32, F16, BF16, F32, F64 };

/* Rows: lhs; columns: rhs; in the order of promote_table_types. */
const ScalarId promote_table[PROMOTE_TABLE_N][PROMOTE_TABLE_N] = {
    /* Int8     */ { I8,   I16,  I32, I64, U32, F16, BF16, F32, F64 },
    /* Int16    */ { I16,  I16,  I32, I64, U32, F16, BF16, F32, F64 },
    /* Int32    */ { I32,  I32,  I32, I64, U32, F32, F32,  F32, F64 },
    /* Int64    */ { I64,  I64,  I64, I64, I64, F64, F64,  F64, F64 },
    /* Uint32   */ { U32,  U32,  U32, I64, U32, F32, F32,  F32, F64 },
    /* Float16  */ { F16,  F16,  F32, F64, F32, F16, F32,  F32, F64 },
    /* BFloat16 */ { BF16, BF16, F32, F64, F32, F32, BF16, F32, F64 },
    /* Float32  */ { F32,  F32,  F32, F64, F32, F32, F32,  F32, F64 },
    /* Float64  */ { F64,  F64,  F64, F64, F64, F64, F64,  F64, F64 },
};

static int table_index(ScalarId s)
{
    for (int i = 0; i < PROMOTE_TABLE_N; i++)
        if (promote_table_types[i] == s)
            return i;
    return -1;
}

/* Boolean meets integers as a signed 1-bit integer; Index is a signed 64-bit
 * integer that wins ties against other signed 64-bit integers so that address
 * arithmetic stays Index. */
static bool is_integral(ScalarId s)
{
    return s == SC_BOOLEAN || type_is_int(s);
}

static ScalarId float_covering(int width)
{
    if (width <= 16)
        return SC_FLOAT16;
    return width <= 32 ? SC_FLOAT32 : SC_FLOAT64;
}

static ScalarId common_int(ScalarId a, ScalarId b)
{
    const ScalarInfo *x = type_info(a), *y = type_info(b);
    if (x->is_signed == y->is_signed || a == SC_BOOLEAN || b == SC_BOOLEAN) {
        if (x->width != y->width)
            return x->width > y->width ? a : b;
        return a == SC_INDEX || b == SC_INDEX ? SC_INDEX : a;
    }
    const ScalarInfo *u = x->is_signed ? y : x, *s = x->is_signed ? x : y;
    return u->width >= s->width ? u->id : s->id;
}

static ScalarId common_float_int(ScalarId f, ScalarId i)
{
    int fw = type_info(f)->width, iw = type_info(i)->width;
    return fw >= iw ? f : float_covering(iw);
}

static ScalarId common_float(ScalarId a, ScalarId b)
{
    const ScalarInfo *x = type_info(a), *y = type_info(b);
    if (x->float_rank != y->float_rank)
        return x->float_rank > y->float_rank ? a : b;
    return SC_FLOAT32;  /* Float16 with BFloat16: neither holds the other */
}

ScalarId promote_common_by_rules(ScalarId a, ScalarId b)
{
    if (a == b)
        return a;
    bool ia = is_integral(a), ib = is_integral(b);
    if (ia && ib)
        return common_int(a, b);
    if (ia)
        return common_float_int(b, a);
    if (ib)
        return common_float_int(a, b);
    return common_float(a, b);
}

ScalarId promote_common(ScalarId a, ScalarId b)
{
    int i = table_index(a), j = table_index(b);
    if (i >= 0 && j >= 0)
        return promote_table[i][j];
    return promote_common_by_rules(a, b);
}

ScalarId promote_result(const OpRule *rule, ScalarId common)
{
    switch (rule->result) {
    case RES_TRUEDIV:
        if (type_is_float(common))
            return common;
        return type_info(common)->width <= 32 ? SC_FLOAT32 : SC_FLOAT64;
    case RES_BOOLEAN:
        return SC_BOOLEAN;
    case RES_COMMON:
    case RES_INTEGER:
        break;
    }
    return common;
}
