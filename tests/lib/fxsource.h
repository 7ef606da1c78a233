/* fxsource.h - for suites that start from .fx source text: compile it
 * through the whole pipeline (FXIR verified after every pass), for the host
 * (JIT, then launch with bounds checks) or for a GPU (LLVM module, verified). */
#ifndef FX_TEST_FXSOURCE_H
#define FX_TEST_FXSOURCE_H
#include <stdbool.h>
#include <stddef.h>
#include "driver/pipeline.h"

typedef struct FxsModule {
    FxOptions o;
    FxCompilation c;
    RtHostModule *hm;     /* after fxs_open */
    bool inited;
    char path[128];
} FxsModule;

/* Parse and lower `src` (diagnostics go to stderr). host: for the host,
 * with `arch`'s waves emulated when arch is not NULL; else for GPU `arch`. */
bool fxs_lower(FxsModule *m, const char *src, const char *arch, bool host);
/* fxs_lower with options of the test's own (e.g. --no-assert): `tune`
 * changes them before they are checked. */
bool fxs_lower_tuned(FxsModule *m, const char *src, const char *arch, bool host, void (*tune)(FxOptions *o));
/* fxs_lower for the host's own FXIR, then JIT. */
bool fxs_open(FxsModule *m, const char *src);
/* fxs_open with tune(options) applied first (e.g. --host-barriers=fibers). */
bool fxs_open_tuned(FxsModule *m, const char *src, void (*tune)(FxOptions *o));
/* fxs_open_tuned with the waves of GPU `arch` emulated (NULL: the host's own). */
bool fxs_open_as(FxsModule *m, const char *src, const char *arch, void (*tune)(FxOptions *o));
/* fxs_lower for `arch`, then LLVM (the module verified, optimized) down to
 * the target's assembly: returned malloc'd, NULL after errors. */
char *fxs_assembly(FxsModule *m, const char *src, const char *arch);
/* Runs kernel k (bytes[i]: the size of Ptr argument i, 0 for scalars). */
bool fxs_launch(FxsModule *m, const char *k, unsigned grid, unsigned block, void **args, const size_t *bytes);
void fxs_close(FxsModule *m);
/* A module's FXIR text (malloc'd). */
char *fxs_fxir_text(FxModule *fm);
/* Whether FXIR `text` reads back, verifies and prints as `text` again (the
 * round trip); what fails is reported on stderr. */
bool fxs_fxir_round_trips(const char *text);

#endif
