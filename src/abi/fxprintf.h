/* fxprintf.h - the format strings of fx.printf, shared by sema (which
 * checks the source's format and writes the canonical one), the FXIR
 * verifier, codegen (which hands the canonical format to AMD's printf) and
 * the host runtime (which formats it).
 *
 * A conversion is %[flags][width][.precision][length]CONV with flags from
 * "-+ #0" and decimal width and precision. The canonical format (FX_PRINT's
 * text) has every argument as 64 bits, so its conversions are exactly:
 *   %ld %li          an Int64
 *   %lu %lx %lX %lo  a Uint64
 *   %c               an Int64 or Uint64 (the character code)
 *   %f %F %e %E %g %G %a %A   a Float64
 * and "%%". These are the C meanings, and the ones the HIP runtime's printf
 * gives its 64-bit argument slots. */
#ifndef FX_ABI_FXPRINTF_H
#define FX_ABI_FXPRINTF_H
#include <stdbool.h>
#include <stddef.h>

typedef enum { FXPF_PERCENT, FXPF_INT64, FXPF_UINT64, FXPF_CHAR, FXPF_FLOAT64, FXPF_OTHER } FxPfArg;

typedef struct FxPfSpec {
    size_t start, len;      /* the conversion's text in the format */
    char length[3];         /* its length modifier as written ("", "l", "hh", ...) */
    char conv;              /* the conversion character */
    bool has_precision;
} FxPfSpec;

/* The next conversion at or after *pos (text before it is literal): 1 and
 * *sp, *pos after it; 0 when there is none; -1 with *why when the format
 * is malformed there (a '%' at the end, a '*' width or precision). */
int fxpf_next(const char *fmt, size_t *pos, FxPfSpec *sp, const char **why);

/* What argument a conversion of the canonical format takes; FXPF_OTHER
 * when the conversion is not canonical. */
FxPfArg fxpf_canonical_arg(const FxPfSpec *sp);

/* Whether c is one of the float conversions (f F e E g G a A). */
bool fxpf_is_float_conv(char c);

#endif
