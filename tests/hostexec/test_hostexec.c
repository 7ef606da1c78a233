/* test_hostexec.c - how the host runs a launch (docs/host-execution.md):
 * a kernel that never waits runs each block through K__fxblock, one loop
 * over its work-items, and gives the same bits as the same kernel with a
 * barrier, run as work-item loops on either side of it (cg_hostregion.c)
 * and, with --host-barriers=fibers, as fibers; blocks spread over worker
 * threads give the same results for every thread count, atomics stay
 * exact, the error of a failing launch is the one a sequential run meets
 * first, and FX_THREADS is read and checked.
 *
 * The kernels are compiled three times from one source: SYNC = False, and
 * SYNC = True, which adds a barrier that changes no value, with and
 * without --host-barriers=fibers. The expected values
 * are computed here in C. */
#include "fxtest.h"
#include "fxsource.h"
#include "runtime/rt_internal.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Every work-item writes its own coordinates, mixed into one number, and a
 * Float32 value computed from its input: the block loop must visit every
 * work-item once, with the right indices, in any block shape. */
static const char *k_src =
    "const SYNC = %s\n"
    "kernel coords(out: Ptr[Int32], f: Ptr[Float32], x: const Ptr[Float32], a: Float32) {\n"
    "    let lx = thread_idx.x\n"
    "    let ly = thread_idx.y\n"
    "    let lz = thread_idx.z\n"
    "    if SYNC {\n"
    "        fx.barrier()\n"
    "    }\n"
    "    let bid = (block_idx.z * grid_dim.y + block_idx.y) * grid_dim.x + block_idx.x\n"
    "    let tid = (lz * block_dim.y + ly) * block_dim.x + lx\n"
    "    let g = bid * (block_dim.x * block_dim.y * block_dim.z) + tid\n"
    "    out[g] = ((((block_idx.z * 8 + block_idx.y) * 8 + block_idx.x) * 8 + lz) * 8 + ly) * 8 + lx\n"
    "    f[g] = a * x[g] * x[g] + x[g] / (a + 1.0)\n"
    "}\n"
    "kernel count(total: Ptr[Int64], hist: Ptr[Int32], n: Int32) {\n"
    "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
    "    if SYNC {\n"
    "        fx.barrier()\n"
    "    }\n"
    "    if i < n {\n"
    "        fx.atomic_add(total, 0, Int64(i))\n"
    "        fx.atomic_add(hist, i % 7, 1)\n"
    "    }\n"
    "}\n"
    "kernel store(y: Ptr[Float32], n: Int32) {\n"
    "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
    "    if SYNC {\n"
    "        fx.barrier()\n"
    "    }\n"
    "    if i < n {\n"
    "        y[i] = Float32(i)\n"
    "    }\n"
    "}\n";

static FxsModule plain, regions, fibers;
static FxsModule *const variants[] = { &plain, &regions, &fibers };
enum { NVARIANTS = 3 };

static void on_fibers(FxOptions *o)
{
    o->host_fibers = true;
}

static bool open_variant(FxsModule *m, bool sync, void (*tune)(FxOptions *o))
{
    char src[4096];
    snprintf(src, sizeof src, k_src, sync ? "True" : "False");
    memset(m, 0, sizeof *m);
    return fxs_open_tuned(m, src, tune);
}

static int init(void)
{
    return open_variant(&plain, false, NULL) && open_variant(&regions, true, NULL) &&
           open_variant(&fibers, true, on_fibers) ? 0 : 1;
}

static int clean(void)
{
    fxs_close(&plain);
    fxs_close(&regions);
    fxs_close(&fibers);
    rt_host_set_threads(0);
    return 0;
}

/* Which entry points the runtime will use: the test is about three paths
 * only when the variants have a block loop, work-item loops around the
 * barrier (a block function and no per-work-item one), and fibers. */
static void test_entry_points(void)
{
    const char *names[] = { "coords", "count", "store" };
    for (int k = 0; k < 3; k++) {
        RtKernel a, r, b;
        char *err = NULL;
        CU_ASSERT_FATAL(rt_host_kernel(plain.hm, names[k], &a, &err) == 0);
        CU_ASSERT_FATAL(rt_host_kernel(regions.hm, names[k], &r, &err) == 0);
        CU_ASSERT_FATAL(rt_host_kernel(fibers.hm, names[k], &b, &err) == 0);
        CU_ASSERT(a.block != NULL && a.entry != NULL && !a.waits);
        CU_ASSERT(r.block != NULL && r.entry == NULL && !r.waits);
        CU_ASSERT(b.block == NULL && b.entry != NULL && b.waits);
    }
}

typedef struct Shape {
    unsigned grid[3], block[3];
} Shape;

static size_t shape_items(const Shape *s)
{
    return (size_t)s->grid[0] * s->grid[1] * s->grid[2] * s->block[0] * s->block[1] * s->block[2];
}

typedef struct CoordsRun {
    int32_t *out;
    float *f;
} CoordsRun;

/* coords over shape s on module m with `threads` workers. */
static CoordsRun run_coords(FxsModule *m, const Shape *s, unsigned threads, const float *x)
{
    size_t n = shape_items(s);
    CoordsRun r = { calloc(n, 4), calloc(n, 4) };
    float a = 0.75f;
    void *pout = r.out, *pf = r.f, *px = (void *)x;
    void *args[] = { &pout, &pf, &px, &a };
    size_t bytes[] = { n * 4, n * 4, n * 4, 0 };
    rt_host_set_threads(threads);
    char *err = NULL;
    int rc = rt_host_launch_checked(m->hm, "coords", s->grid, s->block, args, bytes, &err);
    if (rc)
        fprintf(stderr, "\n  coords: %s", err ? err : "?");
    CU_ASSERT(rc == 0);
    free(err);
    return r;
}

static float *inputs(size_t n)
{
    float *x = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)((int)(i * 37 % 101) - 50) / 8.0f;
    return x;
}

/* The model: work-item g of a launch, x fastest, then blocks x fastest. */
static bool coords_expected(const Shape *s, const CoordsRun *r, const float *x)
{
    size_t g = 0;
    bool ok = true;
    for (unsigned bz = 0; bz < s->grid[2]; bz++)
        for (unsigned by = 0; by < s->grid[1]; by++)
            for (unsigned bx = 0; bx < s->grid[0]; bx++)
                for (unsigned z = 0; z < s->block[2]; z++)
                    for (unsigned y = 0; y < s->block[1]; y++)
                        for (unsigned xx = 0; xx < s->block[0]; xx++, g++) {
                            int32_t want = (int32_t)(((((bz * 8 + by) * 8 + bx) * 8 + z) * 8 + y) * 8 + xx);
                            volatile float a = 0.75f, v = x[g];
                            float fw = a * v * v + v / (a + 1.0f);
                            ok &= r->out[g] == want;
                            ok &= memcmp(&r->f[g], &fw, 4) == 0;
                        }
    return ok;
}

static void free_coords(CoordsRun *r)
{
    free(r->out);
    free(r->f);
}

/* Block loop, work-item loops around a barrier and fibers, one thread and
 * several, several block shapes: every result equals the model's, bit for
 * bit. */
static void test_block_loop_matches_fibers(void)
{
    static const Shape shapes[] = {
        { { 1, 1, 1 }, { 1, 1, 1 } },   { { 3, 1, 1 }, { 7, 1, 1 } },   { { 2, 3, 1 }, { 4, 2, 1 } },
        { { 2, 2, 2 }, { 3, 2, 2 } },   { { 5, 1, 1 }, { 8, 8, 4 } },   { { 1, 4, 3 }, { 1, 1, 5 } },
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        const Shape *s = &shapes[k];
        float *x = inputs(shape_items(s));
        for (unsigned threads = 1; threads <= 3; threads += 2) {
            for (int m = 0; m < NVARIANTS; m++) {
                CoordsRun r = run_coords(variants[m], s, threads, x);
                CU_ASSERT(coords_expected(s, &r, x));
                free_coords(&r);
            }
        }
        free(x);
    }
}

/* Many blocks, each thread count: the same bytes every time. */
static void test_many_blocks_deterministic(void)
{
    const Shape s = { { 997, 1, 1 }, { 64, 1, 1 } };
    float *x = inputs(shape_items(&s));
    CoordsRun ref = run_coords(&plain, &s, 1, x);
    CU_ASSERT(coords_expected(&s, &ref, x));
    for (unsigned threads = 2; threads <= 8; threads *= 2)
        for (int m = 0; m < NVARIANTS; m++) {
            CoordsRun r = run_coords(variants[m], &s, threads, x);
            CU_ASSERT(memcmp(r.out, ref.out, shape_items(&s) * 4) == 0);
            CU_ASSERT(memcmp(r.f, ref.f, shape_items(&s) * 4) == 0);
            free_coords(&r);
        }
    free_coords(&ref);
    free(x);
}

/* Atomics from every block on every thread: none is lost. */
static void test_atomics_exact(void)
{
    const unsigned grid[3] = { 600, 1, 1 }, block[3] = { 96, 1, 1 };
    int32_t n = 600 * 96 - 5;
    for (int m = 0; m < NVARIANTS; m++)
        for (unsigned threads = 1; threads <= 4; threads += 3) {
            int64_t total = 0;
            int32_t hist[7] = { 0 };
            void *pt = &total, *ph = hist;
            void *args[] = { &pt, &ph, &n };
            size_t bytes[] = { 8, sizeof hist, 0 };
            rt_host_set_threads(threads);
            char *err = NULL;
            CU_ASSERT(rt_host_launch_checked(variants[m]->hm, "count", grid, block, args, bytes, &err) == 0);
            free(err);
            CU_ASSERT_EQUAL(total, (int64_t)n * (n - 1) / 2);
            for (int b = 0; b < 7; b++)
                CU_ASSERT_EQUAL(hist[b], n / 7 + (b < n % 7));
        }
}

/* A launch whose blocks from 50 on store out of bounds: on any number of
 * threads the error is the first a sequential run meets (block 50, its
 * first work-item), and no store below it is missing. Workers take runs of
 * blocks (grid_chunk: 12, 6 and 3 blocks here on 2, 4 and 8 threads), so
 * block 50 sits inside a run whose first blocks are fine. Several workers
 * failing at once is up to the scheduler, hence the repeated runs. */
static void test_first_error_reported(void)
{
    const unsigned grid[3] = { 400, 1, 1 }, block[3] = { 32, 1, 1 };
    int32_t n = 400 * 32;
    size_t have = 50 * 32;
    for (int m = 0; m < NVARIANTS; m++)
        for (unsigned run = 0; run < 24; run++) {   /* 1, 2, 4, 8 threads; again to meet more interleavings */
            unsigned threads = 1u << (run % 4);
            float *y = calloc(have, 4);
            void *py = y;
            void *args[] = { &py, &n };
            size_t bytes[] = { have * 4, 0 };
            rt_host_set_threads(threads);
            char *err = NULL;
            CU_ASSERT(rt_host_launch_checked(variants[m]->hm, "store", grid, block, args, bytes, &err) == -1);
            CU_ASSERT_STRING_EQUAL(err ? err : "", "out-of-bounds store to 'y'[1600] (buffer has 1600 elements) "
                                                   "in kernel store");
            free(err);
            bool all = true;
            for (size_t i = 0; i < have; i++)
                all &= y[i] == (float)i;
            CU_ASSERT(all);
            free(y);
        }
}

/* FX_THREADS when rt_host_set_threads(0): a count, checked; else the cores. */
static void test_fx_threads(void)
{
    rt_host_set_threads(0);
    unsigned n = 0;
    char *err = NULL;
    setenv("FX_THREADS", "3", 1);
    CU_ASSERT(rt_host_threads(&n, &err) == 0 && n == 3);
    rt_host_set_threads(5);   /* the explicit count wins */
    CU_ASSERT(rt_host_threads(&n, &err) == 0 && n == 5);
    rt_host_set_threads(0);
    static const char *bad[] = { "0", "-2", "many", "4x", "1025" };
    for (int k = 0; k < 5; k++) {
        setenv("FX_THREADS", bad[k], 1);
        n = 0;
        CU_ASSERT(rt_host_threads(&n, &err) == -1);
        char want[128];
        snprintf(want, sizeof want, "FX_THREADS='%s': expected a number of threads from 1 to 1024", bad[k]);
        CU_ASSERT_STRING_EQUAL(err ? err : "", want);
        free(err);
        err = NULL;
    }
    /* a launch with a bad FX_THREADS fails with that message, before any block runs */
    setenv("FX_THREADS", "many", 1);
    float y[4] = { 0 };
    void *py = y;
    int32_t four = 4;
    void *args[] = { &py, &four };
    size_t bytes[] = { sizeof y, 0 };
    const unsigned grid[3] = { 1, 1, 1 }, block[3] = { 4, 1, 1 };
    CU_ASSERT(rt_host_launch_checked(plain.hm, "store", grid, block, args, bytes, &err) == -1);
    CU_ASSERT(err && strstr(err, "FX_THREADS='many'"));
    CU_ASSERT(y[3] == 0.0f);
    free(err);
    err = NULL;
    unsetenv("FX_THREADS");
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    CU_ASSERT(rt_host_threads(&n, &err) == 0 && n == (unsigned)(cores < 1 ? 1 : cores > 1024 ? 1024 : cores));
}

/* libfxrt's helper threads outlive a launch (rt_launch.c): launches from
 * two threads at once (one gets the helpers, the other starts threads of
 * its own) and from a child of fork() (which has none of the parent's
 * helpers) give the model's results. */
typedef struct Launcher {
    FxsModule *m;
    bool ok;
} Launcher;

/* run_coords without CUnit's asserts, which are not for several threads,
 * on the thread count set before. */
static void *launch_repeatedly(void *arg)
{
    Launcher *l = arg;
    const Shape s = { { 37, 1, 1 }, { 32, 2, 1 } };
    size_t n = shape_items(&s);
    float *x = inputs(n);
    l->ok = true;
    for (int k = 0; k < 20; k++) {
        CoordsRun r = { calloc(n, 4), calloc(n, 4) };
        float a = 0.75f;
        void *pout = r.out, *pf = r.f, *px = x;
        void *args[] = { &pout, &pf, &px, &a };
        size_t bytes[] = { n * 4, n * 4, n * 4, 0 };
        char *err = NULL;
        l->ok &= rt_host_launch_checked(l->m->hm, "coords", s.grid, s.block, args, bytes, &err) == 0;
        l->ok &= coords_expected(&s, &r, x);
        free(err);
        free_coords(&r);
    }
    free(x);
    return NULL;
}

static void test_helpers_concurrent_and_forked(void)
{
    Launcher l[2] = { { &plain, false }, { &regions, false } };
    rt_host_set_threads(3);
    pthread_t t;
    CU_ASSERT_FATAL(pthread_create(&t, NULL, launch_repeatedly, &l[1]) == 0);
    launch_repeatedly(&l[0]);
    pthread_join(t, NULL);
    CU_ASSERT(l[0].ok && l[1].ok);
    fflush(NULL);
    pid_t child = fork();
    CU_ASSERT_FATAL(child >= 0);
    if (child == 0) {
        Launcher c = { &fibers, false };
        launch_repeatedly(&c);
        _exit(c.ok ? 0 : 1);
    }
    int status = 0;
    CU_ASSERT(waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);
    rt_host_set_threads(0);
}

static const FxtTest tests[] = {
    { "entry points", test_entry_points },
    { "block loop matches fibers", test_block_loop_matches_fibers },
    { "many blocks deterministic", test_many_blocks_deterministic },
    { "atomics exact", test_atomics_exact },
    { "first error reported", test_first_error_reported },
    { "FX_THREADS", test_fx_threads },
    { "helper threads: concurrent launches and a forked child", test_helpers_concurrent_and_forked },
    { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "hostexec", tests, init, clean },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
