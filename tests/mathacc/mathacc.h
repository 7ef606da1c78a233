/* mathacc.h - what the three parts of the math accuracy suite share: the
 * functions and float types under test, their inputs, and the fold-time
 * value of a function (fxir/fxmath.c, or the folder's `**`). */
#ifndef FX_TEST_MATHACC_H
#define FX_TEST_MATHACC_H
#include <stdbool.h>
#include <stdint.h>
#include "fxir/fxir.h"
#include "fxir/types.h"

typedef struct MaFn {
    const char *name;   /* fx.<name> */
    int fn;             /* FxMathFn, or -1 for pow (FXB_POW) */
    bool binary;
} MaFn;

typedef struct MaType {
    const char *name;
    ScalarId s;
    int bits;           /* storage width */
} MaType;

extern const MaFn ma_fns[];
extern const int ma_nfns;
extern const MaType ma_types[];
extern const int ma_ntypes;

/* Sample inputs for fn on type t: n pairs of encodings (y unused for unary
 * functions); malloc'd arrays. Exhaustive for unary 16-bit functions. */
void ma_inputs(const MaFn *f, const MaType *t, uint64_t **x, uint64_t **y, long *n);
/* The folded result's encoding. */
uint64_t ma_fold(const MaFn *f, const MaType *t, uint64_t x, uint64_t y);
double ma_value(const MaType *t, uint64_t bits);
bool ma_is_nan(const MaType *t, uint64_t bits);
/* 1 normally, 1/5 under AddressSanitizer (about 5x slower). */
long ma_scaled(long n);

#endif
