/* value.h - what an expression evaluates to during semantic analysis: either a
 * static (compile-time) value that the folder computes exactly, or a run-time
 * value held by an FXIR instruction. */
#ifndef FX_VALUE_H
#define FX_VALUE_H
#include <stdbool.h>
#include <stdint.h>
#include "support/bigint.h"
#include "support/diag.h"
#include "fxir/types.h"

typedef struct FxInst FxInst;
typedef struct Val Val;

struct Val {
    const Type *type;
    bool is_static;
    Loc loc;
    /* static payloads, by type */
    BigInt i;               /* TY_LITINT; integer and Boolean scalars, wrapped to their width */
    double f;               /* TY_LITFLOAT */
    uint64_t bits;          /* float and narrow-float scalars: the encoding */
    const Type *tval;       /* TY_TYPE */
    unsigned flags;         /* TY_FASTMATH: FMF_* bits; TY_ROUNDING: an FfRound */
    const char *str;        /* TY_STRING; TY_MODULE/TY_FUNC/TY_SPECIAL: the qualified name */
    Val **elems;            /* TY_TUPLE */
    int nelems;
    char seq;               /* TY_TUPLE written as '(' tuple, '[' list or '{' set */
    void *decl;             /* TY_FUNC: the AstNode of a user fn */
    /* run-time payload */
    FxInst *ir;
};

#endif
