/* fxrt_check.h - the host backend's race and initialization checker
 * (fxrun --check=races,uninit; the kernels compiled with fxcc --check).
 *
 * A kernel compiled with --check reports, at each access to a shared array,
 * to the runtime, which keeps shadow state per byte of the block's shared
 * memory: a read of a value another work-item wrote (or a write over one it
 * wrote or read) with no barrier between is a race; a read of shared memory
 * no work-item of the block wrote is an uninitialized read; a barrier that
 * some work-items of the block wait at while others finished is a divergent
 * barrier. Each is reported with the kernel, the source position of both
 * accesses, both work-items and the element. Private arrays start at zero
 * (the language's rule), so they are never uninitialized. */
#ifndef FX_FXRT_CHECK_H
#define FX_FXRT_CHECK_H
#include <stddef.h>
#include "runtime/fxrt.h"

/* rt_host_launch_checked with the checker on (checks: RT_CHECK_* bits of
 * fxrt.h) for
 * kernels compiled with --check. Returns 0 when nothing was found; -1 with
 * *err holding the reports, one per line (the launch ran to its end), or
 * another error. */
int rt_host_launch_checking(RtHostModule *m, const char *name, const unsigned grid[3], const unsigned block[3],
                            void **args, const size_t *arg_bytes, unsigned checks, char **err);

#endif
