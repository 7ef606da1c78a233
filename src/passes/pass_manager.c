/* pass_manager.c - runs the FXIR passes in spec §8's fixed order and prints
 * FXIR after the one named by --print-after. The passes change numerics, so
 * which of them run never depends on -O. */
#include "passes/passes.h"
#include <string.h>

typedef struct Pass {
    const char *name;
    void (*run)(FxModule *m, const PassOptions *o);
} Pass;

static void run_fp_contraction(FxModule *m, const PassOptions *o)
{
    if (o->fp_contract)
        pass_fp_contraction(m, o);
    pass_unfuse_where_preferred(m, o);
}

static void run_map_fusion(FxModule *m, const PassOptions *o)
{
    (void)o;
    pass_fuse_maps(m);
}

/* "sema" is not a pass: it names the FXIR exactly as lowering produced it. */
static const Pass pipeline[] = {
    { "sema", NULL },
    { "fp-contraction", run_fp_contraction },
    { "map-fusion", run_map_fusion },
};
enum { NUM_PASSES = sizeof pipeline / sizeof pipeline[0] };

bool pass_name_known(const char *name)
{
    for (int i = 0; i < NUM_PASSES; i++)
        if (strcmp(pipeline[i].name, name) == 0)
            return true;
    return false;
}

const char *pass_names(void)
{
    return "sema, fp-contraction, map-fusion";
}

bool pass_run_pipeline(FxModule *m, const PassOptions *o)
{
    if (o->print_after && !pass_name_known(o->print_after))
        return false;
    for (int i = 0; i < NUM_PASSES; i++) {
        if (pipeline[i].run)
            pipeline[i].run(m, o);
        if (o->print_after && strcmp(o->print_after, pipeline[i].name) == 0) {
            FILE *out = o->print_out ? o->print_out : stdout;
            fxir_print_module(out, m);
            for (int k = 0; k < m->programs.len; k++)
                fxir_print_program(out, m->programs.items[k]);
        }
    }
    return true;
}
