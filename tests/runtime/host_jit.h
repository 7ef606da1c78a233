/* host_jit.h - the runtime suites' set-up: compile a hand-built module for
 * the host and JIT it. */
#ifndef FX_TEST_HOST_JIT_H
#define FX_TEST_HOST_JIT_H
#include "fxk.h"
#include "runtime/fxrt_llvm.h"

/* NULL (after printing why) when the module does not build or load. */
RtHostModule *host_jit(FxModule *m, int opt_level);

#endif
