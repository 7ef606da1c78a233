/* promote.h - seed 000 "Type interoperability": operand normalization, the
 * common-type table and the result-type table, kept as data. */
#ifndef FX_PROMOTE_H
#define FX_PROMOTE_H
#include "parser/ast.h"
#include "fxir/types.h"

/* How an operator's result type derives from the common type C. */
typedef enum {
    RES_COMMON,     /* + - * // % ** : C */
    RES_TRUEDIV,    /* / : C if float; Float32 for integers up to 32 bits, else Float64 */
    RES_BOOLEAN,    /* comparisons: Boolean, operands compared as C */
    RES_INTEGER     /* & | ^ << >> : C; a float operand is a TypeError */
} ResultRule;

/* What Boolean turns into before the common type is formed (seed: "Boolean
 * depends on the operation"). */
typedef enum {
    BOOL_TO_INT32,  /* arithmetic */
    BOOL_KEEP       /* comparisons, bitwise, shifts */
} BoolRule;

typedef struct OpRule {
    AstOp op;
    ResultRule result;
    BoolRule boolean;
} OpRule;

/* The rule row for a binary operator (NULL for and/or/@). */
const OpRule *promote_op_rule(AstOp op);

/* The seed's 9x9 common-type table, verbatim, as data. */
enum { PROMOTE_TABLE_N = 9 };
extern const ScalarId promote_table_types[PROMOTE_TABLE_N];
extern const ScalarId promote_table[PROMOTE_TABLE_N][PROMOTE_TABLE_N];

/* Common type of two normalized scalar types (no Boolean-in-arithmetic, no
 * narrow floats: the caller rejects those first). Uses the table when both
 * types are in it, and the seed's stated rules for every other width. */
ScalarId promote_common(ScalarId a, ScalarId b);
/* The rules alone (exposed so the tests can check the table against them). */
ScalarId promote_common_by_rules(ScalarId a, ScalarId b);
/* Result type of `op` given the common type. */
ScalarId promote_result(const OpRule *rule, ScalarId common);

#endif
