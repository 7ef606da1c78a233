/* fold.h - the constant folder on FXIR opcodes: every operation of spec §3.4
 * with exactly the result the run-time code computes (wrap-around at every
 * width, floats rounded to their own format after every operation). Sema
 * folds static expressions with it and passes fold constants with it; the
 * differential tests hold it against the code generator bit for bit.
 *
 * A typed value is a scalar type and an FxConst (fxir.h: integers as
 * 128-bit two's complement already wrapped to their width, Boolean 0/1,
 * floats as their encoding). Untyped literals, which only sema has, are
 * exact integers (BigInt, at most 512 bits) and binary64 values; the
 * fxf_lit_* functions give them the same arithmetic. */
#ifndef FX_FXIR_FOLD_H
#define FX_FXIR_FOLD_H
#include "fxir/fxir.h"
#include "support/bigint.h"

typedef enum {
    FXF_OK,
    FXF_DIV_ZERO,          /* integer // or % (or /, ceildiv) by a static zero */
    FXF_NEG_SHIFT,         /* shift by a negative static count */
    FXF_NEG_POW,           /* integer ** with a negative static exponent */
    FXF_CEILDIV_OVERFLOW,  /* fx.ceildiv(MIN, -1) on a signed type */
    FXF_TOO_LARGE          /* an untyped literal result beyond 512 bits */
} FxFoldStatus;

/* ---- values ---- */
BigInt fxf_to_big(ScalarId s, FxConst c);            /* integer or Boolean scalar */
FxConst fxf_from_value(ScalarId s, BigInt v);        /* wraps to s (Boolean: v != 0) */
double fxf_to_double(ScalarId s, FxConst c);         /* exact for floats; integers rounded to nearest */
bool fxf_truthy(ScalarId s, FxConst c);              /* != 0; NaN is true */
/* The raw bits (two's complement for integers) zero-extended to 128. */
unsigned __int128 fxf_bits(ScalarId s, FxConst c);

/* ---- conversions (FX_CAST, FX_BITCAST, constructors) ---- */
FxConst fxf_convert(ScalarId from, FxConst x, ScalarId to, FfRound rm);
FxConst fxf_from_int(ScalarId to, BigInt v, FfRound rm);        /* an exact integer */
FxConst fxf_from_double(ScalarId to, double d, FfRound rm);     /* a binary64 value */
FxConst fxf_bitcast(ScalarId from, FxConst x, ScalarId to);      /* equal widths */

/* ---- operations on typed scalars (operands and result of type s) ---- */
FxFoldStatus fxf_binop(FxBinop op, ScalarId s, FxConst x, FxConst y, FxConst *out);
bool fxf_cmp(FxCmp op, ScalarId s, FxConst x, FxConst y);
FxConst fxf_unop(FxUnop op, ScalarId s, FxConst x);
FxConst fxf_minmax(FxMinMax which, ScalarId s, FxConst x, FxConst y);
FxFoldStatus fxf_ceildiv(ScalarId s, FxConst x, FxConst y, FxConst *out);

/* ---- the same arithmetic on untyped literals ---- */
FxFoldStatus fxf_lit_int_binop(FxBinop op, BigInt x, BigInt y, BigInt *out);   /* exact */
double fxf_lit_float_binop(FxBinop op, double x, double y);                    /* binary64 */
double fxf_lit_int_quotient(BigInt x, BigInt y);        /* Python's int / int: one rounding */
bool fxf_lit_cmp_ints(FxCmp op, BigInt x, BigInt y);
bool fxf_lit_cmp_doubles(FxCmp op, double x, double y);
bool fxf_lit_cmp_int_double(FxCmp op, BigInt x, double d);   /* exact, as Python compares */
FxFoldStatus fxf_lit_ceildiv(BigInt x, BigInt y, BigInt *out);
/* fx.max/min on two values of one kind: the one to keep (0: x, 1: y), or -1
 * for "the canonical quiet NaN" (floats, when a NaN propagates). */
int fxf_lit_minmax_pick(FxMinMax which, bool ints, BigInt xi, BigInt yi, double xd, double yd);

/* ---- text ---- */
enum { FXF_FORMAT_MAX = 200 };
/* The value as --eval prints it without the type: -3, True, 0.1, nan. */
char *fxf_format(ScalarId s, FxConst c, char *buf);

#endif
