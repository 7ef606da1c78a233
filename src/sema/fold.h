/* fold.h - the constant folder: every operator of spec §3.4 on static values,
 * with exactly the result the run-time code computes (wrap-around at every
 * width, floats rounded to their own format after every operation). */
#ifndef FX_FOLD_H
#define FX_FOLD_H
#include "parser/ast.h"
#include "sema/value.h"

typedef enum {
    FOLD_OK,
    FOLD_DIV_ZERO,       /* integer // or % (or /, ceildiv) by a static zero */
    FOLD_NEG_SHIFT,      /* shift by a negative static count */
    FOLD_NEG_POW,        /* integer ** with a negative static exponent */
    FOLD_CEILDIV_OVERFLOW, /* fx.ceildiv(MIN, -1) on a signed type */
    FOLD_TOO_LARGE       /* an untyped literal result beyond 512 bits */
} FoldStatus;

/* A typed static scalar from raw data. */
Val *fold_make_int(Arena *a, ScalarId s, BigInt v, Loc loc);      /* wraps to the width */
Val *fold_make_float(Arena *a, ScalarId s, uint64_t bits, Loc loc);
Val *fold_make_bool(Arena *a, bool b, Loc loc);
Val *fold_make_litint(Arena *a, BigInt v, Loc loc);
Val *fold_make_litfloat(Arena *a, double d, Loc loc);

/* Static value as a binary64 (floats, ints, literals) for host-side math. */
double fold_as_double(const Val *v);
bool fold_truthy(const Val *v);

/* Convert a static numeric or literal value to scalar type `to` exactly as the
 * type's constructor does (wrap, truncate+saturate, round to nearest even).
 * `rm` applies to float->float conversions only. */
Val *fold_convert(Arena *a, const Val *v, ScalarId to, FfRound rm, Loc loc);

/* Binary op on two static operands ALREADY of the same scalar type `common`
 * (or both untyped literals of one kind when common == SC_COUNT). `result` is
 * the result type from the promotion rules. */
FoldStatus fold_binary(Arena *a, AstOp op, const Val *x, const Val *y, ScalarId result, Val **out);
/* Unary -, +, ~, not, abs on a static scalar or literal. */
FoldStatus fold_unary(Arena *a, AstOp op, const Val *x, Val **out);
FoldStatus fold_abs(Arena *a, const Val *x, Val **out);
/* fx.max/min (NaN-propagating, -0 < +0), maxnumf/minnumf, ceildiv. */
Val *fold_minmax(Arena *a, int which, const Val *x, const Val *y);  /* which: FxMinMax */
FoldStatus fold_ceildiv(Arena *a, const Val *x, const Val *y, Val **out);
/* Reinterpret the bits of a static scalar as another scalar type of equal width. */
Val *fold_bitcast(Arena *a, const Val *v, ScalarId to, Loc loc);
/* Raw bits (two's complement for ints) of a static scalar. */
uint64_t fold_bits64(const Val *v);
BigInt fold_bits_big(const Val *v);

/* Print as spec §9 `--eval` does: Int32(7), Float32(0.1), Boolean(True), Type(Float32), 5, 0.25,
 * (Int32(2), Int32(1)). with_type=false prints the bare value (fxrun --print). */
void fold_print(FILE *out, const Val *v, bool with_type);
/* "0.1"/"inf"... for a float scalar in its own format. */
char *fold_format_float(ScalarId s, uint64_t bits, char *buf);

#endif
