/* rt_check.h - the checker's shadow state (rt_check.c), driven by the
 * launch loop (rt_launch.c). */
#ifndef FX_RT_CHECK_H
#define FX_RT_CHECK_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "abi/fxhost.h"
#include "runtime/fxrt_check.h"

typedef struct RtChecker RtChecker;

RtChecker *rt_check_new(unsigned flags, const char *kernel, size_t shared_bytes, const unsigned block[3]);
void rt_check_free(RtChecker *c);
/* A new block: no byte written, epoch 1. */
void rt_check_block(RtChecker *c, const int32_t block_idx[3]);
/* Every work-item of the block passed a barrier. */
void rt_check_epoch(RtChecker *c);
/* Work-item `me` (linear in the block) accesses addr in the array at base. */
void rt_check_access(RtChecker *c, uint32_t me, const FxCheckSite *site, const char *shared, const void *base,
                     const void *addr, bool is_write);
void rt_check_divergent_barrier(RtChecker *c, const FxCheckSite *site, size_t waiting, size_t done);
/* The reports so far (malloc'd, one per line), or NULL. */
char *rt_check_take_report(RtChecker *c);

#endif
