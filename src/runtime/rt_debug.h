/* rt_debug.h - fx.printf's output and fx.assert's report on the host. */
#ifndef FX_RT_DEBUG_H
#define FX_RT_DEBUG_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "runtime/rt_internal.h"

/* Formats a canonical format (abi/fxprintf.h) with its 64-bit arguments. */
void rt_debug_print(FILE *out, const char *fmt, const uint64_t *args);
/* "file:line:col: assertion failed in kernel K, block (x,y,z), thread
 * (x,y,z): msg" (malloc'd). */
char *rt_debug_assert_text(const char *kernel, const char *where, const char *func, const char *msg,
                           const int32_t block[3], const int32_t thread[3]);

/* The text of a launch whose blocks run on several threads, written in
 * block order: each worker collects what its current run of consecutive
 * blocks prints (RtPrintBuf) and hands it over when the run ends; runs are
 * written in the order they were handed out, so the output is a
 * one-thread run's whatever the thread count (docs/debugging.md). A run
 * that ended in a failure is the last one written: a one-thread run stops
 * there, though other threads may have run later blocks meanwhile. */
typedef struct RtPrintRun {
    unsigned long long index;   /* the run's place in the launch: 0, 1, ... */
    char *text;                 /* NULL when it printed nothing */
    size_t len;
} RtPrintRun;

typedef struct RtPrintOrder {
    pthread_mutex_t lock;
    FILE *out;
    unsigned long long next;    /* the first run not written yet */
    unsigned long long stop;    /* the lowest run that failed; ULLONG_MAX: none */
    RtPrintRun *pending;        /* handed over, waiting for a lower run; sorted */
    size_t npending, cap;
} RtPrintOrder;

/* One worker's text of its current run. */
typedef struct RtPrintBuf {
    FILE *f;                    /* open_memstream's, opened at the first print; NULL: none yet */
    char *text;
    size_t len;
} RtPrintBuf;

void rt_print_order_init(RtPrintOrder *o, FILE *out);
/* Where a worker prints: its run's buffer (NULL when out of memory). */
FILE *rt_print_buf_file(RtPrintBuf *b);
/* The run `index` of the worker with buffer b has ended (in a failure if
 * `failed`): its text is written once every lower run's is. */
void rt_print_order_hand_over(RtPrintOrder *o, RtPrintBuf *b, unsigned long long index, bool failed);
/* After the launch: writes in order what is still waiting (a run whose
 * text ran out of memory left a gap) up to the lowest failed run, and
 * frees the rest. */
void rt_print_order_finish(RtPrintOrder *o);

#endif
