/* sema.h - semantic analysis: name resolution, the type rules of seed 000,
 * the constant folder, and lowering of kernels and fns to FXIR. */
#ifndef FX_SEMA_H
#define FX_SEMA_H
#include "parser/ast.h"
#include "fxir/fxir.h"
#include "sema/value.h"

typedef struct SemaOptions {
    const char *const *defines;   /* "NAME=VALUE" from -D */
    int ndefines;
    const char *const *include_dirs;
    int nincludes;
    unsigned fastmath;            /* --fastmath=SPEC / --fast-fp-math: ambient flags */
    int wave_size;                /* fx.wave_size(): 64 on CDNA, 32 on RDNA */
    const TgtTarget *target;      /* whose matrix instructions fx.mfma/fx.wmma reach; NULL: none */
    bool no_assert;               /* --no-assert: fx.assert is checked but makes no code */
} SemaOptions;

typedef struct Sema Sema;

Sema *sema_new(Arena *arena, const SemaOptions *opts);
void sema_free(Sema *s);
/* Register the items of a parsed file (and, recursively, its imports). */
bool sema_add_module(Sema *s, AstNode *module);
/* Check everything and lower fns and kernels. NULL after errors. */
FxModule *sema_lower(Sema *s);
/* Evaluate one expression with the registered consts in scope (fxcc --eval).
 * NULL after an error. */
Val *sema_eval(Sema *s, AstNode *expr);
/* Evaluate a static expression (fxrun arguments); NULL and an error when it is
 * not static. */
Val *sema_eval_static(Sema *s, AstNode *expr);
/* Parse a fast-math spec string ("fast", "nnan,ninf"); false if malformed. */
bool sema_parse_fastmath(const char *spec, unsigned *flags);
/* A number (scalar, vector or untyped literal). */
bool sema_value_is_number(const Val *v);
/* Files the compilation read besides the main one (imports), for -MD. */
int sema_dependency_count(Sema *s);
const char *sema_dependency(Sema *s, int i);

#endif
