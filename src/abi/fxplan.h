/* fxplan.h - a program's launch plan: the one definition of its structure
 * and of its text form, shared by the compiler (which builds plans, prints
 * them for --print-plan and embeds the text in every artifact as
 * __fxplan_<program>) and by libfxrt (which parses that text back, or runs
 * a plan handed over in memory).
 *
 *   plan NAME
 *     args: A B C M N K T0                       (parameters, then transients)
 *     transient T0 Float32 4 ceildiv(M*N, 1)     (name, element, bytes, count)
 *     launch NAME__k0 grid(ceildiv(N, 16), M, 1) block(64, 1, 1)
 *     launch NAME__k5 grid(...) block(...) when T3 != 0 note "text with {}"
 *     launch NAME__k6 grid(...) block(...) args(A T0)
 *
 * A kernel takes the program's arguments: its parameters in order (tensors
 * as buffers), then its transients; or, when its step lists `args(...)`,
 * those arguments in that order (a kernel launched by several steps, each
 * with its own buffers: lower_program.c shares kernels). An extent
 * is ceildiv(product of factors, div); a factor is a number or the name of
 * an Int32 parameter (a symbolic dim). A step with `when B == 0` (or != 0)
 * runs only when the first element of argument B (an Int32 buffer) is
 * zero (or nonzero); its note, with {} replaced by that value, is what the
 * runtime reports when it runs. */
#ifndef FX_ABI_FXPLAN_H
#define FX_ABI_FXPLAN_H
#include <stdint.h>
#include <stdio.h>

enum { FXPLAN_MAX_FACTORS = 8 };

typedef struct FxPlanExtent {
    int nfactors;
    int64_t values[FXPLAN_MAX_FACTORS];
    const char *names[FXPLAN_MAX_FACTORS];   /* NULL: values[i] */
    int64_t div;
} FxPlanExtent;

typedef struct FxPlanBuffer {
    const char *name;
    const char *elem;         /* element type name, e.g. "Float32" */
    int elem_bytes;
    FxPlanExtent count;       /* elements */
} FxPlanBuffer;

typedef struct FxPlanStep {
    const char *kernel;
    FxPlanExtent grid[3];     /* in blocks */
    unsigned block[3];
    const char *when;         /* the argument deciding whether the step runs, or NULL: always */
    int when_nonzero;         /* runs when its first Int32 is nonzero (else: when it is zero) */
    const char *note;         /* reported when the step runs, or NULL */
    const int *bind;          /* the kernel's arguments as indexes into the plan's args */
    int nbind;                /* 0: all of the plan's args, in order */
} FxPlanStep;

typedef struct FxPlan {
    const char *program;
    const char **args;        /* parameter names, then the transients' */
    int nargs;                /* parameters + transients */
    FxPlanBuffer *transients;
    int ntransients;
    FxPlanStep *steps;
    int nsteps;
    void *owned;              /* fxplan_parse's allocations; NULL for a plan built in memory */
} FxPlan;

void fxplan_print(FILE *out, const FxPlan *p);
/* The text form in a malloc'd string. */
char *fxplan_to_text(const FxPlan *p);
/* Parses the text form; NULL and *err (malloc'd) when malformed. Free the
 * result with fxplan_free. */
FxPlan *fxplan_parse(const char *text, char **err);
void fxplan_free(FxPlan *p);
/* Number of program parameters (args without the transients). */
static inline int fxplan_nparams(const FxPlan *p) { return p->nargs - p->ntransients; }

#endif
