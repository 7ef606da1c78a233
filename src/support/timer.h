/* timer.h - the stage timings --time-passes prints: wall and CPU time per
 * named stage, accumulated over one process (like the diagnostics, one
 * compilation at a time). Disabled, marks cost one branch. */
#ifndef FX_TIMER_H
#define FX_TIMER_H
#include <stdbool.h>
#include <stdio.h>

typedef struct TimerMark {
    double wall, cpu;   /* seconds */
} TimerMark;

void timer_enable(bool on);
bool timer_enabled(void);
TimerMark timer_mark(void);
/* Adds the time since `start` to stage `name` (a string that outlives the report). */
void timer_add(const char *name, TimerMark start);
/* The table, in the order stages first ran, with a total; then resets. */
void timer_report(FILE *out);

#endif
