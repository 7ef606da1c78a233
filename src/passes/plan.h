/* plan.h - a program's launch plan: the ordered kernels with their grid and
 * block sizes as formulas over the symbolic dims, and the transient buffers.
 * Every kernel of a program takes the same arguments: the program's
 * parameters in order (tensors as buffers), then its transients. */
#ifndef FX_PLAN_H
#define FX_PLAN_H
#include <stdio.h>
#include "fxir/fxir.h"

/* ceildiv(product of factors, div); a factor is a number or a dim's name. */
typedef struct PlanExtent {
    int nfactors;
    int64_t values[8];
    const char *names[8];     /* NULL: values[i] */
    int64_t div;
} PlanExtent;

typedef struct PlanStep {
    const char *kernel;
    PlanExtent grid[3];       /* in blocks */
    int block[3];
} PlanStep;

typedef struct PlanBuffer {
    const char *name;
    const Type *elem;
    PlanExtent count;         /* elements */
} PlanBuffer;

typedef struct FxPlan {
    const char *program;
    FxProgram *prog;
    PlanBuffer *transients;
    int ntransients;
    PlanStep *steps;
    int nsteps;
} FxPlan;

/* Lowers every program of the module to kernels (appended to m->funcs) and
 * returns their plans (FxPlan*). The target picks the MatMul kernel: the
 * matrix instructions on gfx90a/gfx94x, FMA tiles elsewhere and on the host. */
PtrVec plan_lower_programs(FxModule *m, const TgtTarget *target);
/* Text form, printed by --print-plan and embedded in the artifact. */
void plan_print(FILE *out, const FxPlan *p);
char *plan_to_text(Arena *a, const FxPlan *p);

#endif
