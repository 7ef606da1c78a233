/* pass_manager.c - the pass table: the FXIR stages in spec §8's fixed
 * order. After each one the FXIR is verified (--verify-each, and always in
 * the tests), timed (--time-passes) and printed when --print-after names it.
 * The passes change numerics, so which of them run never depends on -O. */
#include "passes/passes.h"
#include <string.h>
#include "fxir/verify.h"
#include "support/timer.h"

typedef struct Pass {
    const char *name;
    const char *what;   /* one line for --help and the docs */
    void (*run)(FxModule *m, const PassOptions *o);
} Pass;

static void run_fp_contraction(FxModule *m, const PassOptions *o)
{
    if (o->fp_contract)
        pass_fp_contraction(m, o);
    pass_unfuse_where_preferred(m, o);
}

static void run_contraction_precision(FxModule *m, const PassOptions *o)
{
    pass_contraction_precision(m, o);
}

static void run_map_fusion(FxModule *m, const PassOptions *o)
{
    pass_fuse_maps(m, o);
}

static void run_program_lowering(FxModule *m, const PassOptions *o)
{
    pass_lower_programs(m, o->target);
}

static void run_wave_emulation(FxModule *m, const PassOptions *o)
{
    if (o->host_codegen)
        pass_wave_emulation(m, o);
}

static void run_int_ranges(FxModule *m, const PassOptions *o)
{
    pass_int_ranges(m, o);
}

/* "sema" runs nowhere here: it names the FXIR exactly as sema produced it. */
static const Pass pipeline[] = {
    { "sema", "the FXIR as lowered from the source", NULL },
    { "fp-contraction", "FuseFMA to a fixed point (--fp-contract)", run_fp_contraction },
    { "contraction-precision", "Float MatMuls on Int8 units (--contraction-precision)", run_contraction_precision },
    { "map-fusion", "adjacent elementwise program nodes fuse", run_map_fusion },
    { "program-lowering", "programs become kernels and launch plans", run_program_lowering },
    { "wave-emulation", "host code: waves run as lanes that exchange values", run_wave_emulation },
    { "int-ranges", "integer add/sub/mul that cannot wrap (or an @index_nowrap kernel promises) get nsw/nuw",
      run_int_ranges },
};
enum { NUM_PASSES = sizeof pipeline / sizeof pipeline[0] };

bool pass_name_known(const char *name)
{
    for (int i = 0; i < NUM_PASSES; i++)
        if (strcmp(pipeline[i].name, name) == 0)
            return true;
    return false;
}

unsigned pass_remark_bit(const char *name)
{
    for (int i = 0; i < NUM_PASSES; i++)
        if (strcmp(pipeline[i].name, name) == 0)
            return 1u << i;
    return 0;
}

bool pass_remark_on(const PassOptions *o, const char *name, bool missed)
{
    return o && ((missed ? o->remarks_missed : o->remarks) & pass_remark_bit(name)) != 0;
}

const char *pass_names(void)
{
    static char buf[256];
    if (!buf[0]) {
        size_t n = 0;
        for (int i = 0; i < NUM_PASSES && n < sizeof buf; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", pipeline[i].name);
    }
    return buf;
}

static void print_module(FxModule *m, const PassOptions *o)
{
    FILE *out = o->print_out ? o->print_out : stdout;
    fxir_print_module(out, m);
    for (int k = 0; k < m->programs.len; k++)
        fxir_print_program(out, m->programs.items[k]);
}

bool pass_run_one(FxModule *m, const char *name, const PassOptions *o)
{
    int errors = diag_error_count();
    for (int i = 0; i < NUM_PASSES; i++)
        if (strcmp(pipeline[i].name, name) == 0 && pipeline[i].run) {
            pipeline[i].run(m, o);
            return diag_error_count() == errors;
        }
    return false;
}

bool pass_run_pipeline(FxModule *m, const PassOptions *o)
{
    int errors = diag_error_count();
    for (int i = 0; i < NUM_PASSES; i++) {
        TimerMark t = timer_mark();
        if (pipeline[i].run)
            pipeline[i].run(m, o);
        if (pipeline[i].run)
            timer_add(pipeline[i].name, t);
        if (o->verify_each && !fxir_verify(m)) {
            diag_error((Loc){ 0 }, "internal compiler error: the FXIR does not verify after %s", pipeline[i].name);
            return false;
        }
        if (diag_error_count() != errors)
            return false;
        if (o->print_after && strcmp(o->print_after, pipeline[i].name) == 0)
            print_module(m, o);
    }
    return true;
}
