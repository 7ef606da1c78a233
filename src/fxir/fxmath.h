/* fxmath.h - the definition of the math builtins added for issue 12
 * (fx.erf, fx.erfc, fx.log1p, fx.expm1, fx.cbrt, fx.sigmoid, fx.copysign,
 * fx.hypot, fx.atan2) as the folder computes them. Host code generation
 * (codegen/cg_mathfn.c) emits the same operations in the same precision, so
 * a folded value equals the host's run-time value bit for bit; tests/mathacc
 * measures this implementation against MPFR and checks the equality. */
#ifndef FX_FXIR_FXMATH_H
#define FX_FXIR_FXMATH_H
#include <stdbool.h>
#include "fxir/fxir.h"

/* copysign, hypot and atan2 take two operands of one type; the others one. */
bool fxm_is_binary(int fn);
/* Whether fn is one of the functions defined here (the others are folded by
 * sema/builtins.c). */
bool fxm_is_defined_here(int fn);
/* The type fn is computed in for operands of float type s: Float32 for the
 * 16-bit floats (rounded once to s afterwards), else s itself. hypot below
 * Float64 is the exception: computed in Float64 (see fxmath.c). */
ScalarId fxm_compute_type(int fn, ScalarId s);
/* fx.<fn>(x[, y]) for values x, y of float type s, as a value of s. */
double fxm_eval(int fn, ScalarId s, double x, double y);

#endif
