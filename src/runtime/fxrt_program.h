/* fxrt_program.h - running a program's launch plan (abi/fxplan.h: the
 * structure, and the text form that fxcc --print-plan prints and that
 * travels inside every artifact; parse it with fxplan_parse). */
#ifndef FX_RT_PROGRAM_H
#define FX_RT_PROGRAM_H
#include <stddef.h>
#include "abi/fxplan.h"
#include "fxrt.h"

/* Runs every step on the host backend. args[i] points to parameter i's value
 * (a scalar, or a `void *` holding a tensor's buffer), as for rt_host_launch;
 * the symbolic dims are read from the Int32 arguments that name them. The
 * plan's transient buffers are allocated here and freed afterwards. */
int rt_program_run(RtHostModule *m, const FxPlan *p, void **args, char **err);
/* What a run says besides its results: the notes of the conditional steps
 * that ran (e.g. a contraction guard's fallback), one per line, or NULL. */
typedef struct RtRunReport {
    char *notes;
} RtRunReport;
int rt_program_run_report(RtHostModule *m, const FxPlan *p, void **args, RtRunReport *report, char **err);
void rt_run_report_free(RtRunReport *r);

/* The launch plan of `program` as it travels inside an artifact: the
 * exported constant __fxplan_<program>. From a JIT'd host module: */
char *rt_host_plan(RtHostModule *m, const char *program, char **err);
/* From the bytes of a code object (.hsaco) or any ELF64 object fxcc wrote,
 * without a device. Both return a malloc'd string, or NULL and *err. */
char *rt_artifact_plan(const void *image, size_t size, const char *program, char **err);
/* The code object of processor `arch` (as given to --offload-arch, e.g.
 * gfx942) inside an offload bundle that `fxcc --offload-arch=A,B` wrote
 * (abi/fxbundle.h), its size in *out_size; a plain code object is returned
 * as it is. NULL with *err (malloc'd) when the bundle has no such entry. */
const void *rt_code_object(const void *image, size_t size, const char *arch, size_t *out_size, char **err);

#endif
