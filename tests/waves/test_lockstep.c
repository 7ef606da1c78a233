/* test_lockstep.c - the wave model runs each atomic of a wave's active
 * lanes together, as the GPU does (docs/waves.md, "Memory operations in
 * lock-step"):
 *   - every lane loads a counter, then compare-and-swaps it with what it
 *     loaded: under the waves of gfx942 (64 lanes) and gfx1100 (32) exactly
 *     one lane per wave succeeds, the lowest (lanes run an instruction's
 *     atomics in lane order); the host's own model (waves of one lane)
 *     keeps running the work-items one after the other, so all succeed;
 *   - atomic_add hands out its old values in lane order, also with the
 *     atomic under a condition (the kernel then runs as fibers);
 *   - the results are the same for 1 to 8 worker threads;
 *   - a spin lock taken by lanes of one wave, which hangs a GPU, is a run
 *     error under the wave model that names the kernel, the wave and the
 *     lanes, and still finishes under the host's own model. */
#include "fxtest.h"
#include "fxsource.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/fxrt.h"

typedef struct Mode {
    const char *arch;   /* NULL: the host's own FXIR */
    int W;              /* its wave size */
} Mode;

static const Mode modes[] = { { NULL, 1 }, { "gfx942", 64 }, { "gfx1100", 32 } };
enum { NMODES = 3, BLOCK = 128, GRID = 3, N = BLOCK * GRID };

/* Kernel k over GRID blocks of BLOCK work-items; the launch's error, or
 * NULL when it ran (malloc'd). */
static char *run(FxsModule *m, const char *k, void **args, const size_t *bytes)
{
    const unsigned g[3] = { GRID, 1, 1 }, b[3] = { BLOCK, 1, 1 };
    char *err = NULL;
    if (rt_host_launch_checked(m->hm, k, g, b, args, bytes, &err) != 0 && !err)
        err = strdup("(no message)");
    return err;
}

static const char *const cas_src =
    "kernel cas1(p: Ptr[Int32], ok: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let w = g // fx.wave_size()\n"
    "    let old = p[w]\n"
    "    let seen = fx.atomic_cas(p, w, old, old + 1)\n"
    "    ok[g] = 0\n"
    "    if seen == old {\n"
    "        ok[g] = 1\n"
    "    }\n"
    "}\n"
    "\n"
    "kernel cas_if(p: Ptr[Int32], ok: Ptr[Int32], n: Int32) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let w = g // fx.wave_size()\n"
    "    ok[g] = 0\n"
    "    if thread_idx.x % 4 != n {\n"
    "        let old = p[w]\n"
    "        if fx.atomic_cas(p, w, old, old + 1) == old {\n"
    "            ok[g] = 1\n"
    "        }\n"
    "    }\n"
    "}\n";

/* Whether lane g succeeded as the model says: every work-item alone in its
 * wave (W 1), else the lowest active lane of each wave. `skip`: the lanes
 * with thread_idx % 4 == skip are inactive (-1: none). */
static int cas_expected(int g, int W, int skip)
{
    int t = g % BLOCK;
    if (t % 4 == skip)
        return 0;
    if (W == 1)
        return 1;
    int first = t - t % W;
    while (first % 4 == skip)
        first++;
    return t == first;
}

static void check_cas(const char *kernel, int skip)
{
    for (int md = 0; md < NMODES; md++) {
        FxsModule m = { 0 };
        CU_ASSERT_FATAL(fxs_open_as(&m, cas_src, modes[md].arch, NULL));
        int32_t *p = calloc(N, sizeof *p), *ok = calloc(N, sizeof *ok), n = skip;
        size_t bytes[] = { N * sizeof *p, N * sizeof *ok, 0 };
        void *args[] = { &p, &ok, &n };
        char *err = run(&m, kernel, args, bytes);
        CU_ASSERT_PTR_NULL(err);
        int bad = 0;
        for (int g = 0; g < N; g++)
            bad += ok[g] != cas_expected(g, modes[md].W, skip);
        for (int w = 0; w < N / modes[md].W; w++)   /* one success per wave (with lanes left) */
            bad += skip < 0 && p[w] != 1;
        if (bad)
            fprintf(stderr, "\n  %s as %s: %d lanes or waves differ (lane 1: %d)", kernel,
                    modes[md].arch ? modes[md].arch : "host", bad, ok[1]);
        CU_ASSERT_EQUAL(bad, 0);
        free(err);
        free(p);
        free(ok);
        fxs_close(&m);
    }
}

/* Every lane loads, then cas with what it loaded: one winner per wave. */
static void test_cas_one_per_wave(void)
{
    check_cas("cas1", -1);
}

/* The same under a condition (fibers), the lanes 2, 6, 10... inactive:
 * wave w's winner is its lowest active lane. */
static void test_cas_divergent(void)
{
    check_cas("cas_if", 0);
    check_cas("cas_if", 2);
}

static const char *const add_src =
    "kernel add(p: Ptr[Int32], o: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    o[g] = fx.atomic_add(p, block_idx.x, 1)\n"
    "}\n"
    "\n"
    "kernel add_if(p: Ptr[Int32], o: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    o[g] = -1\n"
    "    if thread_idx.x % 3 != 1 {\n"
    "        o[g] = fx.atomic_add(p, block_idx.x, 1)\n"
    "    }\n"
    "}\n";

/* atomic_add's old values are the lanes' ranks in lane order (waves in
 * order), in every mode and for 1..8 worker threads. */
static void test_add_lane_order(void)
{
    for (int md = 0; md < NMODES; md++) {
        FxsModule m = { 0 };
        CU_ASSERT_FATAL(fxs_open_as(&m, add_src, modes[md].arch, NULL));
        for (unsigned threads = 1; threads <= 8; threads++) {
            rt_host_set_threads(threads);
            for (int divergent = 0; divergent < 2; divergent++) {
                int32_t *p = calloc(GRID, sizeof *p), *o = calloc(N, sizeof *o);
                size_t bytes[] = { GRID * sizeof *p, N * sizeof *o };
                void *args[] = { &p, &o };
                char *err = run(&m, divergent ? "add_if" : "add", args, bytes);
                CU_ASSERT_PTR_NULL(err);
                int bad = 0;
                for (int g = 0; g < N; g++) {
                    int t = g % BLOCK;
                    int want = !divergent ? t : t % 3 == 1 ? -1 : t - (t + 1) / 3;
                    bad += o[g] != want;
                }
                if (bad)
                    fprintf(stderr, "\n  add%s as %s, %u threads: %d lanes differ", divergent ? "_if" : "",
                            modes[md].arch ? modes[md].arch : "host", threads, bad);
                CU_ASSERT_EQUAL(bad, 0);
                free(err);
                free(p);
                free(o);
            }
        }
        rt_host_set_threads(0);
        fxs_close(&m);
    }
}

static const char *const spin_src =
    "kernel spin(lock: Ptr[Int32], c: Ptr[Int32]) {\n"
    "    while fx.atomic_cas(lock, 0, 0, 1) != 0 {\n"
    "    }\n"
    "    c[0] = c[0] + 1\n"
    "    fx.atomic_xchg(lock, 0, 0)\n"
    "}\n";

/* The in-wave spin lock: lane 0 of the first wave to take the lock waits
 * after the loop for the others, which wait for the lock. The GPU hangs;
 * the wave model reports that wave (which block's depends on the threads:
 * the whole waves of other blocks spinning on the same lock are abandoned);
 * the host's own model runs every work-item alone. */
static void test_spin_lock(void)
{
    for (int md = 0; md < NMODES; md++) {
        FxsModule m = { 0 };
        CU_ASSERT_FATAL(fxs_open_as(&m, spin_src, modes[md].arch, NULL));
        int32_t lock = 0, c = 0, *pl = &lock, *pc = &c;
        size_t bytes[] = { sizeof lock, sizeof c };
        void *args[] = { &pl, &pc };
        /* one thread for the plain c[0] + 1 of every block; with several,
         * the blocks above the stuck one, whose waves spin as a whole on
         * the lock it holds, must stop too */
        rt_host_set_threads(modes[md].W == 1 ? 1 : 4);
        char *err = run(&m, "spin", args, bytes);
        rt_host_set_threads(0);
        if (modes[md].W == 1) {
            CU_ASSERT_PTR_NULL(err);
            CU_ASSERT_EQUAL(c, N);
        } else {
            char want[160];
            snprintf(want, sizeof want, "kernel spin: lanes 1-%d of wave 0 of block (", modes[md].W - 1);
            CU_ASSERT_PTR_NOT_NULL(err);
            if (err && !strstr(err, want))
                fprintf(stderr, "\n  as %s: %s", modes[md].arch, err);
            CU_ASSERT(err && strstr(err, want) && strstr(err, "spin in a loop while lanes 0 wait for them after it") &&
                      strstr(err, "never leaves the loop"));
        }
        free(err);
        fxs_close(&m);
    }
}

static const FxtTest tests[] = {
    { "cas-one-per-wave", test_cas_one_per_wave },
    { "cas-divergent", test_cas_divergent },
    { "add-lane-order", test_add_lane_order },
    { "spin-lock", test_spin_lock },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = {
        { "lockstep", tests, NULL, NULL },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
