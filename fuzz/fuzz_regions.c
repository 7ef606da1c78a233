/* fuzz_regions.c - harness: the host's work-item loops against fibers. The
 * input bytes are the choices of tests/hostregion's random kernel generator
 * (barriers, loops, ifs, break, continue, returns, calls of fns with
 * barriers, nested at random); the first byte picks the waves (the host's
 * own, gfx942's 64 lanes or gfx1100's 32), whether tests, trip counts and fn
 * arguments may depend on the work-item ("wild") and whether some barriers
 * are wave operations. The kernel is compiled for the host twice, as
 * the region planner decides and on fibers only. When the planner ran it as
 * loops, both must launch without error on three block shapes (5, 4x3x2
 * and 8x8 work-items: partial and whole waves) and three values of n, and
 * write the same bits; anything else is a finding: a divergent barrier or
 * exchange the analysis missed, a copy between regions gone wrong. Kernels
 * left on fibers are not run (a divergent barrier is the program's error).
 * The generated kernel always compiles; an error is a finding too. */
#include "fuzz_common.h"
#include <stdlib.h>
#include <string.h>
#include "random_kernel.h"
#include "runtime/rt_internal.h"

static const char *const waves_of[] = { NULL, "gfx942", "gfx1100" };

/* FUZZ_REGIONS_STATS=1 prints these at exit, 2 also every kernel. */
static struct {
    long inputs, as_loops, on_fibers, launches;
} stats;

static void print_stats(void)
{
    fprintf(stderr, "fuzz_regions: %ld kernels, %ld as loops (%ld launches compared), %ld on fibers\n",
            stats.inputs, stats.as_loops, stats.launches, stats.on_fibers);
}

typedef struct Shape {
    unsigned grid[3], block[3];
} Shape;

static const Shape shapes[] = { { { 2, 1, 1 }, { 5, 1, 1 } }, { { 1, 1, 1 }, { 4, 3, 2 } },
                                { { 1, 1, 1 }, { 8, 8, 1 } } };
enum { NSHAPES = sizeof shapes / sizeof shapes[0], MAX_ITEMS = 64 };

/* Compiles and JITs src for the host; a finding if it does not compile. */
static RtHostModule *compile(FzCompile *z, const char *arch, bool fibers, const char *src)
{
    fz_host_options(z, arch, 1, fibers);
    z->opts.no_warnings = true;   /* wild kernels warn of their divergent barriers */
    if (!fz_parse(z, (const uint8_t *)src, strlen(src)) || !fz_lower(z)) {
        fprintf(stderr, "%s", src);
        fz_finding(z, "the generated kernel does not compile");
    }
    char *err = NULL;
    RtHostModule *hm = pipe_jit(&z->c, &err);
    fz_check_diag(z);
    if (!hm) {
        fprintf(stderr, "fuzz: the JIT failed: %s\n%s", err ? err : "?", src);
        fz_finding(z, "the JIT failed");
    }
    return hm;
}

static bool runs_as_loops(RtHostModule *hm)
{
    RtKernel k;
    char *err = NULL;
    if (rt_host_kernel(hm, "rnd", &k, &err) != 0) {
        fprintf(stderr, "fuzz: no kernel rnd: %s\n", err ? err : "?");
        abort();
    }
    return !k.waits;
}

/* One launch on one thread; out has a slot for every work-item of the grid. */
static int launch(RtHostModule *hm, const Shape *s, int32_t n, int32_t *out, size_t items, char **err)
{
    void *po = out;
    void *args[] = { &po, &n };
    size_t bytes[] = { items * sizeof *out, 0 };
    return rt_host_launch_checked(hm, "rnd", s->grid, s->block, args, bytes, err);
}

static void compare(RtHostModule *hm[2], const char *src)
{
    for (int k = 0; k < NSHAPES; k++)
        for (int32_t n = 0; n < 3; n++) {
            const Shape *s = &shapes[k];
            size_t items = (size_t)s->grid[0] * s->block[0] * s->block[1] * s->block[2];
            int32_t out[2][2 * MAX_ITEMS];
            char *err[2] = { NULL, NULL };
            int rc[2];
            for (int how = 0; how < 2; how++) {
                memset(out[how], 0, sizeof out[how]);
                rc[how] = launch(hm[how], s, n, out[how], items, &err[how]);
            }
            if (rc[0] || rc[1] || memcmp(out[0], out[1], items * sizeof out[0][0]) != 0) {
                fprintf(stderr, "fuzz: MISMATCH on shape %d, n %d: loops rc %d (%s), fibers rc %d (%s)\n%s", k, n,
                        rc[0], err[0] ? err[0] : "", rc[1], err[1] ? err[1] : "", src);
                abort();
            }
            free(err[0]);
            free(err[1]);
            stats.launches++;
        }
}

int fz_one(const uint8_t *data, size_t size)
{
    static bool started;
    const char *show = getenv("FUZZ_REGIONS_STATS");
    if (!started && show)
        atexit(print_stats);
    started = true;
    if (size == 0)
        return 0;
    /* the settings are mixed radix, so that first bytes 0..11 are all 12 */
    const char *arch = waves_of[data[0] % 3];
    bool wild = data[0] / 3 % 2, waves = data[0] / 6 % 2;
    char *src = hr_kernel_from_bytes(data + 1, size - 1, wild, waves);
    stats.inputs++;
    if (show && atoi(show) >= 2)
        fprintf(stderr, "fuzz_regions: waves of %s%s%s:\n%s", arch ? arch : "the host", wild ? ", wild" : "",
                waves ? ", wave operations" : "", src);
    FzCompile z[2];
    RtHostModule *hm[2];
    for (int how = 0; how < 2; how++)
        hm[how] = compile(&z[how], arch, how == 1, src);
    rt_host_set_threads(1);
    if (runs_as_loops(hm[0])) {
        stats.as_loops++;
        compare(hm, src);
    } else {
        stats.on_fibers++;
    }
    for (int how = 0; how < 2; how++) {
        rt_host_free(hm[how]);
        fz_finish(&z[how]);
    }
    free(src);
    return 0;
}
