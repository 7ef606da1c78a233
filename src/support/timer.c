/* timer.c - stage timings for --time-passes. */
#include "support/timer.h"
#include <string.h>
#include <time.h>

enum { MAX_STAGES = 64 };

static struct {
    bool on;
    int n;
    struct { const char *name; double wall, cpu; int count; } stage[MAX_STAGES];
} g;

void timer_enable(bool on) { g.on = on; }
bool timer_enabled(void) { return g.on; }

static double seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

TimerMark timer_mark(void)
{
    TimerMark m = { 0, 0 };
    if (g.on) {
        m.wall = seconds(CLOCK_MONOTONIC);
        m.cpu = seconds(CLOCK_PROCESS_CPUTIME_ID);
    }
    return m;
}

void timer_add(const char *name, TimerMark start)
{
    if (!g.on)
        return;
    TimerMark now = timer_mark();
    int k = 0;
    while (k < g.n && strcmp(g.stage[k].name, name) != 0)
        k++;
    if (k == g.n) {
        if (g.n == MAX_STAGES)
            return;
        g.stage[g.n++].name = name;
    }
    g.stage[k].wall += now.wall - start.wall;
    g.stage[k].cpu += now.cpu - start.cpu;
    g.stage[k].count++;
}

void timer_report(FILE *out)
{
    if (!g.on)
        return;
    double wall = 0, cpu = 0;
    fputs("===--- fxcc stage timing (--time-passes) ---===\n"
          "   wall ms     cpu ms  stage\n", out);
    for (int k = 0; k < g.n; k++) {
        fprintf(out, "%10.3f %10.3f  %s\n", g.stage[k].wall * 1e3, g.stage[k].cpu * 1e3, g.stage[k].name);
        wall += g.stage[k].wall;
        cpu += g.stage[k].cpu;
    }
    fprintf(out, "%10.3f %10.3f  total (stages above)\n", wall * 1e3, cpu * 1e3);
    g.n = 0;
}
