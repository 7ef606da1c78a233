/* fold.h - sema's side of constant folding: static values (Val) and the
 * untyped literals only sema has. The arithmetic itself is FXIR's folder
 * (fxir/fold.h), keyed on FXIR opcodes, so a folded result is computed by
 * the same code a pass folding FXIR constants uses. */
#ifndef FX_FOLD_H
#define FX_FOLD_H
#include "fxir/fold.h"
#include "sema/value.h"

/* A typed static scalar from raw data. */
Val *fold_make_int(Arena *a, ScalarId s, BigInt v, Loc loc);      /* wraps to the width */
Val *fold_make_float(Arena *a, ScalarId s, uint64_t bits, Loc loc);
Val *fold_make_bool(Arena *a, bool b, Loc loc);
Val *fold_make_litint(Arena *a, BigInt v, Loc loc);
Val *fold_make_litfloat(Arena *a, double d, Loc loc);
/* A typed static scalar <-> FXIR's constant form. */
FxConst fold_const_of(const Val *v);
Val *fold_from_const(Arena *a, ScalarId s, FxConst c, Loc loc);

/* Static value as a binary64 (floats, ints, literals) for host-side math. */
double fold_as_double(const Val *v);
bool fold_truthy(const Val *v);

/* Convert a static numeric or literal value to scalar type `to` exactly as the
 * type's constructor does (wrap, truncate+saturate, round to nearest even).
 * `rm` applies to float->float conversions only. */
Val *fold_convert(Arena *a, const Val *v, ScalarId to, FfRound rm, Loc loc);

/* A binary operation on two static operands ALREADY of the same scalar type
 * (or both untyped literals of one kind); `result` is the result type from
 * the promotion rules (SC_COUNT for literals). */
FxFoldStatus fold_binary(Arena *a, FxBinop op, const Val *x, const Val *y, ScalarId result, Val **out);
/* A comparison of two such operands (or an untyped integer with an untyped float). */
Val *fold_compare(Arena *a, FxCmp op, const Val *x, const Val *y);
/* -, ~ (not on Boolean), abs on a static scalar or literal. */
Val *fold_unary(Arena *a, FxUnop op, const Val *x);
/* fx.max/min (NaN-propagating, -0 < +0), maxnumf/minnumf, ceildiv. */
Val *fold_minmax(Arena *a, FxMinMax which, const Val *x, const Val *y);
FxFoldStatus fold_ceildiv(Arena *a, const Val *x, const Val *y, Val **out);
/* Reinterpret the bits of a static scalar as another scalar type of equal width. */
Val *fold_bitcast(Arena *a, const Val *v, ScalarId to, Loc loc);
/* Raw bits (two's complement for ints) of a static scalar. */
uint64_t fold_bits64(const Val *v);
BigInt fold_bits_big(const Val *v);

/* Print as spec §9 `--eval` does: Int32(7), Float32(0.1), Boolean(True), Type(Float32), 5, 0.25,
 * (Int32(2), Int32(1)). with_type=false prints the bare value (fxrun --print). */
void fold_print(FILE *out, const Val *v, bool with_type);

#endif
