/* rt_internal.h - shared by the runtime's files. */
#ifndef FX_RT_INTERNAL_H
#define FX_RT_INTERNAL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <llvm-c/LLJIT.h>
#include "abi/fxhost.h"
#include "runtime/fxrt_llvm.h"

struct RtHostModule {
    LLVMOrcLLJITRef jit;
};

typedef void (*RtEntry)(void **args, FxHostCtx *ctx);

typedef struct RtKernel {
    RtEntry entry;              /* K__fxhost: one work-item */
    RtEntry block;              /* K__fxblock: a whole block of a kernel that never waits; NULL when absent */
    int64_t shared_bytes;       /* K__fxshared (static); a launch adds its dynamic bytes */
    int64_t dyn_elem_bytes;     /* K__fxdyn: its Array[T, DYN]'s stride, 0 without one */
    bool waits;                 /* K__fxsync: work-items may wait for each other (fibers) */
    int wave_size;              /* K__fxwave */
    const FxParamInfo *params;  /* K__fxparams, ended by a NULL name */
    int nparams;
    bool checked;               /* K__fxcheck: compiled with the checker's calls */
    int64_t state_bytes;        /* K__fxstate: ctx->state's bytes per lane, 0 without */
} RtKernel;

int rt_host_kernel(RtHostModule *m, const char *name, RtKernel *k, char **err);
/* The address of the JIT'd symbol named head + tail; -1 when there is none. */
int rt_host_symbol(RtHostModule *m, const char *head, const char *tail, uintptr_t *addr);
char *rt_strdupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Starts the helper threads launches will use (rt_launch.c), so that the
 * first launch does not wait for them; called when a module is loaded. */
void rt_host_prepare_threads(void);

typedef struct RtLibcall {
    const char *name;
    void *addr;
} RtLibcall;
const RtLibcall *rt_libcalls(size_t *n);

#endif
