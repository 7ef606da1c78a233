/* fxhost.h - the contract between host-target code (codegen with
 * --target=host) and the host runtime (libfxrt). Both sides include this
 * header: the C structs below and the LLVM types codegen builds are made
 * from the same field lists (FX_HOSTCTX_FIELDS, ...), so neither copies the
 * other's layout.
 *
 * For every kernel K the host module exports:
 *   void    K__fxhost(void **args, FxHostCtx *ctx);   run ONE work-item;
 *                           absent when the kernel's barriers run as loops
 *                           (below)
 *   void    K__fxblock(void **args, FxHostCtx *ctx);  run every work-item of
 *                           the block ctx->block_idx (ctx->thread_idx is
 *                           not read); only kernels that never wait (K__fxsync
 *                           0) have it: codegen/host/cg_hostblock.c. A kernel
 *                           whose barriers all sit where every work-item
 *                           reaches them runs them as work-item loops
 *                           between the barriers (codegen/host/cg_hostregion.c):
 *                           K__fxsync 0, and K__fxblock only
 *   int64_t K__fxshared;    bytes of static shared memory one block needs
 *   int64_t K__fxdyn;       the element stride of K's dynamic shared array
 *                           (Array[T, DYN]; 0: none). It starts at byte
 *                           K__fxshared of ctx->shared and has what the
 *                           launch gives beyond that
 *   int32_t K__fxsync;      1 if K's work-items may wait for each other: it may
 *                           execute fx.barrier(), or exchange values among the
 *                           lanes of waves wider than one lane
 *   int32_t K__fxwave;      lanes per wave: consecutive work-items (x fastest)
 *   FxParamInfo K__fxparams[nparams + 1];   names and Ptr element sizes,
 *                                           ended by { NULL, 0 }
 *   int32_t K__fxcheck;     1 if K was compiled with the checker's calls
 *                           (--check): the runtime then tracks shared memory
 *   int64_t K__fxstate;     optional: bytes per lane of the block that a
 *                           kernel run as work-item loops keeps its
 *                           per-work-item copies in (ctx->state), when they
 *                           are too many for the stack
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
 *     against the element count); a dynamic array's against ctx->dyn_count.
 * A violation calls ctx->oob(ctx, site, p, indices) (p = -1 for arrays),
 * which does not return when the access must not happen; if it returns, the
 * access proceeds (an unknown bound). What ctx->oob may do is part of the
 * contract, because the generated code declares it at each call (so that
 * the ctx block and the bounds stay in registers across the cold call):
 * it reads its arguments and memory the kernel can read, writes only the
 * runtime's own state, which kernel code never reads, and keeps none of its
 * pointer arguments. bounds[] holds one entry per kernel parameter and does
 * not change during a launch (the code loads it ahead of the branch that
 * needs it). */
#ifndef FX_ABI_FXHOST_H
#define FX_ABI_FXHOST_H
#include <stdint.h>

/* How codegen builds a field: a 32- or 64-bit integer, or a pointer; count
 * 0 for a single value, N for an array of N. */
enum { FX_ABI_I32, FX_ABI_I64, FX_ABI_PTR };

struct FxHostCtx;
struct FxOobSite;
typedef void (*FxBarrierFn)(struct FxHostCtx *ctx);
typedef void *(*FxWaveExchangeFn)(struct FxHostCtx *ctx, int32_t site, const void *value, int64_t bytes);
typedef void (*FxOobFn)(struct FxHostCtx *ctx, const struct FxOobSite *site, int32_t param, const int64_t *index);
struct FxCheckSite;
typedef void (*FxCheckFn)(struct FxHostCtx *ctx, const struct FxCheckSite *site, const void *base, const void *addr,
                          int32_t is_write);
/* fx.printf: a canonical format (abi/fxprintf.h) and its arguments, 64 bits each */
typedef void (*FxPrintFn)(struct FxHostCtx *ctx, const char *format, const uint64_t *args);
/* fx.assert failed: where is "file:line:col", func the fn it is in (NULL in
 * the kernel itself), msg the message ("" for none); does not return */
typedef void (*FxAssertFn)(struct FxHostCtx *ctx, const char *where, const char *func, const char *msg);
/* An @index_nowrap kernel's signed add/sub/mul overflowed: where as for
 * FxAssertFn, what the operation ("Int32 '+'"); does not return */
typedef void (*FxOverflowFn)(struct FxHostCtx *ctx, const char *where, const char *func, const char *what);
/* A kernel run as work-item loops between barriers (K__fxsync 0 although
 * it has barriers, codegen/host/cg_hostregion.c): the work-item of ctx computed another
 * value than the first work-item of its block for the condition at `where`
 * ("file:line:col"), which decides which barrier comes next; does not
 * return */
typedef void (*FxDivergedFn)(struct FxHostCtx *ctx, const char *where);

/* X(name, C type, ABI kind, count, C declarator suffix) */
#define FX_HOSTCTX_FIELDS(X) \
    X(thread_idx, int32_t, FX_ABI_I32, 3, [3]) \
    X(block_idx, int32_t, FX_ABI_I32, 3, [3]) \
    X(block_dim, int32_t, FX_ABI_I32, 3, [3]) \
    X(grid_dim, int32_t, FX_ABI_I32, 3, [3]) \
    X(shared, void *, FX_ABI_PTR, 0, )              /* this block's shared memory */ \
    X(barrier, FxBarrierFn, FX_ABI_PTR, 0, )        /* returns when every work-item of the block reached it */ \
    X(rt, void *, FX_ABI_PTR, 0, )                  /* the runtime's own data */ \
    X(bounds, const uint64_t *, FX_ABI_PTR, 0, )    /* elements behind each kernel parameter (Ptr ones) */ \
    X(oob, FxOobFn, FX_ABI_PTR, 0, ) \
    /* The wave model (passes/wave_emulation.c): the work-item's value (bytes \
     * long) meets those of the other lanes of its wave that are at an \
     * exchange; returns their snapshot, lane l's value at l * bytes, valid \
     * until this lane's next exchange. `site` numbers the exchange in the \
     * module in program order: when lanes of a wave wait at different \
     * sites, the lowest goes first (where structured code reconverges). */ \
    X(wave_exchange, FxWaveExchangeFn, FX_ABI_PTR, 0, ) \
    X(wave_active, uint64_t, FX_ABI_I64, 0, )       /* the lanes of this lane's last exchange */ \
    /* The checker (fxcc --check, fxrun --check=races,uninit): code compiled \
     * with it calls check before every access to a shared array (base: the \
     * array's first element) and sets barrier_site before every barrier. \
     * NULL check: the runtime does not check this launch. */ \
    X(check, FxCheckFn, FX_ABI_PTR, 0, ) \
    X(barrier_site, const struct FxCheckSite *, FX_ABI_PTR, 0, ) \
    /* fx.printf and fx.assert (docs/debugging.md) */ \
    X(print, FxPrintFn, FX_ABI_PTR, 0, ) \
    X(assert_fail, FxAssertFn, FX_ABI_PTR, 0, ) \
    X(overflow, FxOverflowFn, FX_ABI_PTR, 0, )       /* @index_nowrap's promise broken */ \
    X(diverged, FxDivergedFn, FX_ABI_PTR, 0, )       /* work-items disagree before a barrier */ \
    /* elements of the kernel's dynamic shared array in this launch (bounds \
     * checks; FxOobSite.dims[0] is -1 for it) */ \
    X(dyn_count, int64_t, FX_ABI_I64, 0, ) \
    /* K__fxstate bytes for each lane of the block (its work-items up to a \
     * whole number of waves), 16-aligned; NULL without K__fxstate */ \
    X(state, void *, FX_ABI_PTR, 0, )

#define FX_OOBSITE_FIELDS(X) \
    X(op, const char *, FX_ABI_PTR, 0, )            /* "load from", "store to", "fx.atomic_add on" */ \
    X(array, const char *, FX_ABI_PTR, 0, )         /* "shared array 'tile'"; NULL for a Ptr */ \
    X(func, const char *, FX_ABI_PTR, 0, )          /* the fn the access is in; NULL in the kernel itself */ \
    X(dims, const int64_t *, FX_ABI_PTR, 0, )       /* arrays: the extent each index is checked against */ \
    X(nidx, int32_t, FX_ABI_I32, 0, )               /* number of indices */ \
    X(unsigned_mask, uint32_t, FX_ABI_I32, 0, )     /* bit k: index k has an unsigned type */

/* Where a checked access or barrier is, for the checker's reports. */
#define FX_CHECKSITE_FIELDS(X) \
    X(op, const char *, FX_ABI_PTR, 0, )            /* "load from", "store to", "barrier" */ \
    X(array, const char *, FX_ABI_PTR, 0, )         /* "tile"; NULL for a barrier */ \
    X(func, const char *, FX_ABI_PTR, 0, )          /* the fn it is in; NULL in the kernel itself */ \
    X(file, const char *, FX_ABI_PTR, 0, ) \
    X(line, int32_t, FX_ABI_I32, 0, ) \
    X(col, int32_t, FX_ABI_I32, 0, ) \
    X(elem_bytes, int64_t, FX_ABI_I64, 0, )         /* bytes one access touches (the array's stride) */

#define FX_PARAMINFO_FIELDS(X) \
    X(name, const char *, FX_ABI_PTR, 0, ) \
    X(elem_bytes, int64_t, FX_ABI_I64, 0, )         /* Ptr[T]: the stride of T in bytes; 0 otherwise */

#define FX_ABI_MEMBER(name, ctype, kind, count, suffix) ctype name suffix;
#define FX_ABI_ENUM_HOSTCTX(name, ctype, kind, count, suffix) FX_HOSTCTX_##name,
#define FX_ABI_ENUM_OOBSITE(name, ctype, kind, count, suffix) FX_OOBSITE_##name,
#define FX_ABI_ENUM_PARAMINFO(name, ctype, kind, count, suffix) FX_PARAMINFO_##name,
#define FX_ABI_ENUM_CHECKSITE(name, ctype, kind, count, suffix) FX_CHECKSITE_##name,

typedef struct FxHostCtx { FX_HOSTCTX_FIELDS(FX_ABI_MEMBER) } FxHostCtx;
typedef struct FxOobSite { FX_OOBSITE_FIELDS(FX_ABI_MEMBER) } FxOobSite;
typedef struct FxParamInfo { FX_PARAMINFO_FIELDS(FX_ABI_MEMBER) } FxParamInfo;
typedef struct FxCheckSite { FX_CHECKSITE_FIELDS(FX_ABI_MEMBER) } FxCheckSite;

/* Field numbers, in declaration order: FX_HOSTCTX_shared, FX_OOBSITE_nidx, ... */
enum { FX_HOSTCTX_FIELDS(FX_ABI_ENUM_HOSTCTX) FX_HOSTCTX_NFIELDS };
enum { FX_OOBSITE_FIELDS(FX_ABI_ENUM_OOBSITE) FX_OOBSITE_NFIELDS };
enum { FX_PARAMINFO_FIELDS(FX_ABI_ENUM_PARAMINFO) FX_PARAMINFO_NFIELDS };
enum { FX_CHECKSITE_FIELDS(FX_ABI_ENUM_CHECKSITE) FX_CHECKSITE_NFIELDS };

#endif
