/* fxmath.c - the folded (and host) value of erf, erfc, log1p, expm1, cbrt,
 * sigmoid, copysign, hypot and atan2 (docs/math.md).
 *
 * Transcendentals come from the host C library in the precision they are
 * computed in: the same functions the JIT'd host code calls, so folding and
 * host run time agree bit for bit (spec §3.3 lets transcendental folding
 * follow the host library). The definitions that are ours:
 *   sigmoid(x) = (x >= 0 ? 1 : e) / (1 + e) with e = exp(-|x|), every step
 *     rounded in the computation type: no overflow for large |x|, and for
 *     very negative x the result is exp(x) itself, not a flush to 0;
 *   hypot for Float32 and the 16-bit floats: sqrt(x*x + y*y) in Float64
 *     (the squares are exact there and cannot overflow or underflow), rounded
 *     once; infinite if either operand is (even with a NaN). It needs only a
 *     Float64 sqrt, which every target has. */
#include "fxir/fxmath.h"
#include "fxir/types.h"
#include "support/floatfmt.h"
#include <math.h>

bool fxm_is_binary(int fn)
{
    return fn == FXM_COPYSIGN || fn == FXM_HYPOT || fn == FXM_ATAN2;
}

bool fxm_is_defined_here(int fn)
{
    return fn >= FXM_ERF && fn <= FXM_ATAN2;
}

ScalarId fxm_compute_type(int fn, ScalarId s)
{
    if (fn == FXM_HYPOT && s != SC_FLOAT64)
        return SC_FLOAT64;
    if (fn == FXM_COPYSIGN)   /* exact in every format */
        return s;
    return s == SC_FLOAT64 ? SC_FLOAT64 : SC_FLOAT32;
}

static float sigmoid_f(float x)
{
    float e = expf(-fabsf(x));
    return (x >= 0.0f ? 1.0f : e) / (1.0f + e);
}

static double sigmoid_d(double x)
{
    double e = exp(-fabs(x));
    return (x >= 0.0 ? 1.0 : e) / (1.0 + e);
}

static double hypot_via_f64(double x, double y)
{
    if (isinf(x) || isinf(y))
        return INFINITY;
    return sqrt(x * x + y * y);
}

static double eval_f32(int fn, float x, float y)
{
    switch (fn) {
    case FXM_ERF: return erff(x);
    case FXM_ERFC: return erfcf(x);
    case FXM_LOG1P: return log1pf(x);
    case FXM_EXPM1: return expm1f(x);
    case FXM_CBRT: return cbrtf(x);
    case FXM_SIGMOID: return sigmoid_f(x);
    case FXM_ATAN2: return atan2f(x, y);
    default: return NAN;
    }
}

static double eval_f64(int fn, double x, double y)
{
    switch (fn) {
    case FXM_ERF: return erf(x);
    case FXM_ERFC: return erfc(x);
    case FXM_LOG1P: return log1p(x);
    case FXM_EXPM1: return expm1(x);
    case FXM_CBRT: return cbrt(x);
    case FXM_SIGMOID: return sigmoid_d(x);
    case FXM_ATAN2: return atan2(x, y);
    case FXM_HYPOT: return hypot(x, y);
    default: return NAN;
    }
}

double fxm_eval(int fn, ScalarId s, double x, double y)
{
    double r;
    if (fn == FXM_COPYSIGN)
        r = copysign(x, y);
    else if (fn == FXM_HYPOT && s != SC_FLOAT64)
        r = hypot_via_f64(x, y);
    else if (s == SC_FLOAT64)
        r = eval_f64(fn, x, y);
    else
        r = eval_f32(fn, (float)x, (float)y);
    if (s == SC_FLOAT64)
        return r;
    const FloatFormat *f = type_info(s)->fmt;
    return ff_to_double(f, ff_from_double(f, r, FF_RNE));
}
