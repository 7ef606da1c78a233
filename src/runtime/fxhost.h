/* fxhost.h - the contract between host-target code (codegen, --target=host)
 * and the host runtime (libfxrt).
 *
 * For every kernel K the host module exports:
 *   void    K__fxhost(void **args, FxHostCtx *ctx);   run ONE work-item
 *   int64_t K__fxshared;    bytes of shared memory one block needs
 *   int32_t K__fxbarrier;   1 if K may execute fx.barrier()
 *   FxParamInfo K__fxparams[nparams + 1];   names and Ptr element sizes,
 *                                           ended by { NULL, 0 }
 * args[i] points to parameter i's value in its storage form: a scalar or
 * vector as stored in memory (Boolean and Int4 one byte each, Int4
 * sign-extended), or, for a Ptr parameter, to a `void *` holding the buffer
 * address (as with hipModuleLaunchKernel's kernelParams).
 *
 * Bounds checks. Host code checks every Ptr, shared-array and private-array
 * index that is not a compile-time constant:
 *   - a Ptr index i against bounds[p] (p: the kernel parameter the Ptr came
 *     from; UINT64_MAX means "unknown", which only an index of -1 reaches);
 *   - an array index against its dimension (or a single linear index
 *     against the element count).
 * A violation calls ctx->oob(ctx, site, p, indices) (p = -1 for arrays),
 * which does not return when the access must not happen; if it returns, the
 * access proceeds (an unknown bound).
 *
 * The layouts of FxHostCtx, FxOobSite and FxParamInfo are mirrored by codegen
 * (cg_abi.c, cg_memory.c); change both. */
#ifndef FX_FXHOST_H
#define FX_FXHOST_H
#include <stdint.h>

typedef struct FxOobSite {
    const char *op;          /* "load from", "store to", "fx.atomic_add on" */
    const char *array;       /* "shared array 'tile'", "private array 'm'"; NULL for a Ptr */
    const char *func;        /* the fn the access is in; NULL in the kernel itself */
    const int64_t *dims;     /* arrays: the extent each index is checked against */
    int32_t nidx;            /* number of indices */
    uint32_t unsigned_mask;  /* bit k: index k has an unsigned type */
} FxOobSite;

typedef struct FxParamInfo {
    const char *name;
    int64_t elem_bytes;      /* Ptr[T]: the stride of T in bytes; 0 for other parameters */
} FxParamInfo;

typedef struct FxHostCtx {
    int32_t thread_idx[3], block_idx[3], block_dim[3], grid_dim[3];
    void *shared;                           /* this block's shared memory */
    void (*barrier)(struct FxHostCtx *);    /* returns when every work-item of the block reached it */
    void *rt;                               /* the runtime's own data */
    const uint64_t *bounds;                 /* elements behind each kernel parameter (Ptr ones) */
    void (*oob)(struct FxHostCtx *, const FxOobSite *site, int32_t param, const int64_t *index);
} FxHostCtx;

#endif
