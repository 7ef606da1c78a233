/* fxrt.h - libfxrt: load compiled kernels and launch them.
 *
 * Host backend: a module built by codegen with --target=host (see fxhost.h)
 * is compiled in-process with ORC LLJIT and run on the CPU, one block after
 * another. A kernel that may call fx.barrier() runs the work-items of a block
 * as fibers (ucontext), switching at each barrier so that every work-item
 * reaches it before any passes it; other kernels run their work-items one
 * after the other. Not thread-safe: one launch at a time per process. */
#ifndef FX_FXRT_H
#define FX_FXRT_H
#include <llvm-c/Core.h>

typedef struct RtHostModule RtHostModule;

/* JITs a host-target module. Takes ownership of mod and ctx (also on failure).
 * Returns NULL and sets *err (malloc'd message) on failure. */
RtHostModule *rt_host_load(LLVMModuleRef mod, LLVMContextRef ctx, char **err);

/* Runs kernel `name` over grid x block work-groups. args[i] -> parameter i's
 * value (see fxhost.h). Returns 0, or -1 with *err (malloc'd). */
int rt_host_launch(RtHostModule *m, const char *name, const unsigned grid[3],
                   const unsigned block[3], void **args, char **err);

void rt_host_free(RtHostModule *m);

#endif
