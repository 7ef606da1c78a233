/* rt_debug.h - fx.printf's output and fx.assert's report on the host. */
#ifndef FX_RT_DEBUG_H
#define FX_RT_DEBUG_H
#include <stdint.h>
#include <stdio.h>
#include "runtime/rt_internal.h"

/* Formats a canonical format (abi/fxprintf.h) with its 64-bit arguments. */
void rt_debug_print(FILE *out, const char *fmt, const uint64_t *args);
/* "file:line:col: assertion failed in kernel K, block (x,y,z), thread
 * (x,y,z): msg" (malloc'd). */
char *rt_debug_assert_text(const char *kernel, const char *where, const char *func, const char *msg,
                           const int32_t block[3], const int32_t thread[3]);

#endif
