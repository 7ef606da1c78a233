/* prog.h - the program suites' way to compile a .fx program for the host
 * (the verifier after every stage) and run its launch plan through libfxrt. */
#ifndef FX_TEST_PROG_H
#define FX_TEST_PROG_H
#include "abi/fxplan.h"
#include "driver/pipeline.h"
#include "runtime/fxrt_program.h"

typedef struct Prog {
    FxCompilation c;
    FxOptions o;
    RtHostModule *hm;
    FxPlan *plan;           /* parsed back from the text the artifact carries */
    Arena *options;         /* what the parsed options point into */
    char path[128];
} Prog;

/* When set, host programs run the FXIR of this processor with its waves
 * emulated (fxrun --arch): the suites run their host tests once per arch. */
extern const char *prog_wave_arch;

/* Parse and lower `src` for a processor (arch; NULL: the default) or the
 * host, with extra fxcc options (NULL-ended, or NULL); pipe_free(&p->c) after. */
bool prog_lower(Prog *p, const char *src, const char *arch, bool host, const char *const *options);
/* Lower for the host, build, JIT, and find program `name`'s plan. */
bool prog_open(Prog *p, const char *src, const char *name, const char *const *options);
bool prog_run(Prog *p, void **args);
/* The AMDGPU assembly of `src` for `arch` (malloc'd), or NULL when it does
 * not compile (the errors are on stderr). */
char *prog_assembly(const char *src, const char *arch, const char *const *options);
void prog_close(Prog *p);

#endif
