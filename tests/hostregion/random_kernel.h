/* random_kernel.h - random `.fx` kernels for the host's region code:
 * barriers, loops, ifs, breaks, continues, returns and calls of fns with
 * barriers nested at random, the kernel `rnd(out: Ptr[Int32], n: Int32)`
 * writing one Int32 per work-item to out[block_idx.x * items + t]
 * (@launch_bounds(64)). Uniform ones must run as work-item loops; wild
 * ones mix in tests, trip counts and fn arguments that depend on the
 * work-item (the divergence analysis decides); with waves, some barriers
 * are wave operations instead (sums, maxima, shuffles, a read of the first
 * lane, a ballot). The result is malloc'd. */
#ifndef FX_TEST_RANDOM_KERNEL_H
#define FX_TEST_RANDOM_KERNEL_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The choices from a seed (the same kernel for the same seed). */
char *hr_random_kernel(uint64_t seed, bool wild, bool waves);
/* Whether src has a wave operation (the generator's). */
bool hr_has_wave_op(const char *src);
/* The choices from bytes, one a choice (0 once they run out). */
char *hr_kernel_from_bytes(const uint8_t *data, size_t size, bool wild, bool waves);

#endif
