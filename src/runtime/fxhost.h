/* fxhost.h - the contract between host-target code (codegen, --target=host)
 * and the host runtime (libfxrt).
 *
 * For every kernel K the host module exports:
 *   void    K__fxhost(void **args, FxHostCtx *ctx);   run ONE work-item
 *   int64_t K__fxshared;    bytes of shared memory one block needs
 *   int32_t K__fxbarrier;   1 if K may execute fx.barrier()
 * args[i] points to parameter i's value in its storage form: a scalar or
 * vector as stored in memory (Boolean and Int4 one byte each, Int4
 * sign-extended), or, for a Ptr parameter, to a `void *` holding the buffer
 * address (as with hipModuleLaunchKernel's kernelParams).
 *
 * The layout of FxHostCtx is mirrored by codegen (cg_abi.c); change both. */
#ifndef FX_FXHOST_H
#define FX_FXHOST_H
#include <stdint.h>

typedef struct FxHostCtx {
    int32_t thread_idx[3], block_idx[3], block_dim[3], grid_dim[3];
    void *shared;                           /* this block's shared memory */
    void (*barrier)(struct FxHostCtx *);    /* returns when every work-item of the block reached it */
    void *rt;                               /* the runtime's own data */
} FxHostCtx;

#endif
