/* test_proof.c - bounds checks proved once per block
 * (codegen/host/cg_hostproof.c): K__fxblock runs a twin of the kernel's body
 * without the checks of accesses whose index is affine in the thread ids,
 * when their corners are in bounds, and the checked body otherwise. Here:
 * which accesses get a proof (the generated IR), and that every index shape,
 * into Ptr parameters and static shared arrays, in kernels without barriers
 * (block loops) and with (regions), gives the bits and the first
 * out-of-bounds report of the same kernel run on fibers (K__fxhost, every access checked at every work-item), with
 * buffers that fit, end inside the last block, end in the middle of the
 * grid, or start past what a negative offset reads; and arithmetic that
 * would wrap inside a block. */
#include "fxtest.h"
#include "fxsource.h"
#include "codegen/codegen.h"
#include "runtime/fxrt.h"
#include <llvm-c/Core.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One kernel per index shape; `i` is the global id, `w` the value written. */
static const char *shapes[] = {
    "i",
    "i - 3",
    "(block_dim.x - 1 - thread_idx.x) + block_idx.x * block_dim.x",
    "Int64(i) * 2 + 1",
    "Int32(Uint32(i) * Uint32(3))",
    "Int32(Int8(thread_idx.x) * Int8(2)) + 100",   /* Int8 wraps from thread 64 on, below 0 */
    "i * 65536 * 32768 + i",                       /* Int32 wraps for every odd i */
    "thread_idx.y * block_dim.x + thread_idx.x + block_idx.x * block_dim.x * block_dim.y",
    "Int32(Index(i) + Index(5)) - 5",
};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };

static char *kernel_source(const char *index, bool sync)
{
    char *src = malloc(2048);
    snprintf(src, 2048,
             "kernel k(y: Ptr[Int32], x: const Ptr[Int32], n: Int32) {\n"
             "    let i = block_idx.x * block_dim.x * block_dim.y + thread_idx.y * block_dim.x + thread_idx.x\n"
             "    %s\n"
             "    if i < n {\n"
             "        y[%s] = x[i] * 3 + i\n"
             "    }\n"
             "}\n",
             sync ? "fx.barrier()" : "", index);
    return src;
}

static void on_fibers(FxOptions *o)
{
    o->host_fibers = true;
}

typedef struct Outcome {
    int rc;
    char *err;
    int32_t *y;
} Outcome;

static Outcome run(FxsModule *m, unsigned grid, const unsigned block[3], int32_t n, size_t ylen)
{
    Outcome o = { 0, NULL, calloc(ylen + 1, 4) };
    int32_t *x = calloc((size_t)n + 1, 4);
    for (int32_t k = 0; k < n; k++)
        x[k] = k * 7 - 50;
    void *px = x, *py = o.y;
    void *args[] = { &py, &px, &n };
    size_t bytes[] = { ylen * 4, (size_t)n * 4, 0 };
    const unsigned g[3] = { grid, 1, 1 };
    o.rc = rt_host_launch_checked(m->hm, "k", g, block, args, bytes, &o.err);
    free(x);
    return o;
}

static bool same(const Outcome *a, const Outcome *b, size_t ylen)
{
    return a->rc == b->rc && strcmp(a->err ? a->err : "", b->err ? b->err : "") == 0 &&
           memcmp(a->y, b->y, ylen * 4) == 0;
}

static void report(const char *what, const unsigned block[3], size_t len, const Outcome *a, const Outcome *f)
{
    fprintf(stderr, "\n  %s, block %u x %u, %zu elements: rc %d '%s', fibers rc %d '%s'\n", what, block[0],
            block[1], len, a->rc, a->err ? a->err : "", f->rc, f->err ? f->err : "");
}

static void free_outcome(Outcome *o)
{
    free(o->err);
    free(o->y);
}

/* One kernel three ways: without its barrier as a block loop, with it as
 * regions, and with it on fibers (every access checked at every
 * work-item). */
typedef struct Versions {
    FxsModule plain, regions, fibers;
} Versions;

static bool open_versions(Versions *v, const char *plain_src, const char *sync_src)
{
    memset(v, 0, sizeof *v);
    return fxs_open(&v->plain, plain_src) && fxs_open(&v->regions, sync_src) &&
           fxs_open_tuned(&v->fibers, sync_src, on_fibers);
}

static void close_versions(Versions *v)
{
    fxs_close(&v->plain);
    fxs_close(&v->regions);
    fxs_close(&v->fibers);
}

/* Every shape, every buffer: the proved block loop, the proved regions
 * (the kernel with a barrier, run as work-item loops between) and fibers
 * agree. On one thread: several of the shapes write one element from
 * several blocks, and after a failure other threads may have run later
 * blocks. */
static void test_same_as_checked_everywhere(void)
{
    rt_host_set_threads(1);
    static const unsigned blocks[][3] = { { 64, 1, 1 }, { 96, 1, 1 }, { 16, 4, 1 } };
    for (int s = 0; s < NSHAPES; s++) {
        char *plain_src = kernel_source(shapes[s], false), *sync_src = kernel_source(shapes[s], true);
        Versions v;
        CU_ASSERT_FATAL(open_versions(&v, plain_src, sync_src));
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
            unsigned items = blocks[b][0] * blocks[b][1];
            int32_t n = (int32_t)(20 * items - 7);   /* the last block partly idle */
            /* fits; ends inside the last block; ends mid-grid; room for 2i + 1 */
            size_t lens[] = { (size_t)n, (size_t)n - 3, (size_t)n / 2, 2 * (size_t)n + 2, (size_t)n + 400 };
            for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
                Outcome a = run(&v.plain, 20, blocks[b], n, lens[l]);
                Outcome r = run(&v.regions, 20, blocks[b], n, lens[l]);
                Outcome f = run(&v.fibers, 20, blocks[b], n, lens[l]);
                CU_ASSERT(same(&a, &f, lens[l]));
                CU_ASSERT(same(&r, &f, lens[l]));
                if (!same(&a, &f, lens[l]))
                    report(shapes[s], blocks[b], lens[l], &a, &f);
                if (!same(&r, &f, lens[l]))
                    report(shapes[s], blocks[b], lens[l], &r, &f);
                free_outcome(&a), free_outcome(&r), free_outcome(&f);
            }
        }
        close_versions(&v);
        free(plain_src);
        free(sync_src);
    }
    rt_host_set_threads(0);
}

/* Indices into static shared arrays: in bounds for some block shapes and
 * not for others (a block of 96 overruns 64 elements), below 0, wrapping,
 * two indices into a 2-D array. */
static const struct {
    const char *array, *index;
} shared_shapes[] = {
    { "Array[Int32, 64]", "thread_idx.x" },
    { "Array[Int32, 64]", "63 - thread_idx.x" },
    { "Array[Int32, 128]", "Int32(Int8(thread_idx.x) * Int8(2)) + 1" },
    { "Array[Int32, 4, 64]", "thread_idx.y, thread_idx.x" },
    { "Array[Int32, 4, 32]", "thread_idx.y, thread_idx.x - 16" },
    { "Array[Int32, 2, 64]", "1, thread_idx.x * block_dim.y + thread_idx.y" },
};
enum { NSHARED = sizeof shared_shapes / sizeof shared_shapes[0] };

/* The work-item stores its element of x into the shared array and, after
 * the barrier (if any), writes what it finds there to y: where the index
 * repeats, the last store wins alike on fibers and in loops. */
static char *shared_source(int s, bool sync)
{
    char *src = malloc(2048);
    snprintf(src, 2048,
             "kernel k(y: Ptr[Int32], x: const Ptr[Int32], n: Int32) {\n"
             "    shared s: %s\n"
             "    let i = block_idx.x * block_dim.x * block_dim.y + thread_idx.y * block_dim.x + thread_idx.x\n"
             "    s[%s] = x[i] * 3\n"
             "    %s\n"
             "    y[i] = s[%s] + i\n"
             "}\n",
             shared_shapes[s].array, shared_shapes[s].index, sync ? "fx.barrier()" : "", shared_shapes[s].index);
    return src;
}

static void test_shared_arrays_same_as_checked(void)
{
    rt_host_set_threads(1);
    static const unsigned blocks[][3] = { { 64, 1, 1 }, { 96, 1, 1 }, { 16, 4, 1 }, { 32, 2, 1 } };
    int runs = 0, failed = 0;
    for (int s = 0; s < NSHARED; s++) {
        char *plain_src = shared_source(s, false), *sync_src = shared_source(s, true);
        Versions v;
        FxsModule plain_fibers;   /* the kernel without the barrier on fibers too: no barrier orders its stores */
        memset(&plain_fibers, 0, sizeof plain_fibers);
        CU_ASSERT_FATAL(open_versions(&v, plain_src, sync_src) &&
                        fxs_open_tuned(&plain_fibers, plain_src, on_fibers));
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
            unsigned items = blocks[b][0] * blocks[b][1];
            int32_t n = (int32_t)(6 * items);
            Outcome a = run(&v.plain, 6, blocks[b], n, (size_t)n);
            Outcome af = run(&plain_fibers, 6, blocks[b], n, (size_t)n);
            Outcome r = run(&v.regions, 6, blocks[b], n, (size_t)n);
            Outcome f = run(&v.fibers, 6, blocks[b], n, (size_t)n);
            CU_ASSERT(same(&a, &af, (size_t)n));
            CU_ASSERT(same(&r, &f, (size_t)n));
            runs++;
            failed += f.rc != 0;
            if (!same(&a, &af, (size_t)n))
                report(shared_shapes[s].index, blocks[b], (size_t)n, &a, &af);
            if (!same(&r, &f, (size_t)n))
                report(shared_shapes[s].index, blocks[b], (size_t)n, &r, &f);
            free_outcome(&a), free_outcome(&af), free_outcome(&r), free_outcome(&f);
        }
        close_versions(&v);
        fxs_close(&plain_fibers);
        free(plain_src);
        free(sync_src);
    }
    CU_ASSERT(failed > 0 && failed < runs);   /* both versions ran */
    rt_host_set_threads(0);
}

/* Range loops around the accesses: the loop variable is one more
 * dimension of the box (start and stop over the block's thread ids).
 * Static steps up and down, a run-time step of either sign or 0, nested
 * loops, a loop variable scaled by a parameter, an Int8 loop whose start
 * wraps for some work-items, and uniform starts, whose box ends at the
 * last value the steps reach. */
static const char *loop_shapes[] = {
    "for j in range(t, n, 16) {\n        y[b * n + j] = x[j] + j\n    }",
    "for j in range(n - 1 - t, -1, -16) {\n        y[b * n + j] = x[j] * 2\n    }",
    "for j in range(b * 64 + t, n, s) {\n        y[j] = x[j] + 1\n    }",
    "for a in range(0, 3) {\n        for j in range(t, n, 32) {\n            y[a * n + j] = x[j] + a\n        }\n    }",
    "for j in range(0, 4) {\n        y[j * n + b * 16 + t] = x[t] + j\n    }",
    "for j in range(Int8(t), Int8(100), Int8(40)) {\n        y[Int32(j) + b] = x[t] + 5\n    }",
    "for j in range(t + s, t + s + 3) {\n        y[j] = x[t] - j\n    }",
    /* uniform starts: the last value the steps reach bounds the box */
    "for j in range(0, n, 16) {\n        y[b * n + j + t] = x[j] + t\n    }",
    "for j in range(n - 1, -1, -7) {\n        y[j + b * 5 + t] = x[j] - t\n    }",
    "for j in range(3, n - 2, s) {\n        y[b * 8 + j + t] = x[j]\n    }",
};
enum { NLOOPS = sizeof loop_shapes / sizeof loop_shapes[0] };

static char *loop_source(int shape, bool sync)
{
    char *src = malloc(2048);
    snprintf(src, 2048,
             "kernel k(y: Ptr[Int32], x: const Ptr[Int32], n: Int32, s: Int32) {\n"
             "    let t = thread_idx.y * block_dim.x + thread_idx.x\n"
             "    let b = block_idx.x\n"
             "    %s\n"
             "    %s\n"
             "}\n",
             sync ? "fx.barrier()" : "", loop_shapes[shape]);
    return src;
}

static Outcome run_loop(FxsModule *m, unsigned grid, const unsigned block[3], int32_t n, int32_t step, size_t ylen)
{
    Outcome o = { 0, NULL, calloc(ylen + 1, 4) };
    int32_t *x = calloc((size_t)n + 64, 4);
    for (int32_t k = 0; k < n + 64; k++)
        x[k] = k * 5 - 9;
    void *px = x, *py = o.y;
    void *args[] = { &py, &px, &n, &step };
    size_t bytes[] = { ylen * 4, (size_t)n * 4, 0, 0 };
    const unsigned g[3] = { grid, 1, 1 };
    o.rc = rt_host_launch_checked(m->hm, "k", g, block, args, bytes, &o.err);
    free(x);
    return o;
}

static void test_loops_same_as_checked(void)
{
    rt_host_set_threads(1);
    static const unsigned blocks[][3] = { { 16, 1, 1 }, { 8, 4, 1 }, { 200, 1, 1 } };
    static const int32_t steps[] = { 5, 256, -3, 0 };
    enum { GRID = 4 };
    int runs = 0, failed = 0;
    for (int s = 0; s < NLOOPS; s++) {
        char *plain_src = loop_source(s, false), *sync_src = loop_source(s, true);
        Versions v;
        CU_ASSERT_FATAL(open_versions(&v, plain_src, sync_src));
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
            for (size_t st = 0; st < sizeof steps / sizeof steps[0]; st++) {
                int32_t n = 300;
                /* short, one short of what a shape writes, about right,
                 * and room to spare */
                size_t lens[] = { 250, (size_t)n - 1, (size_t)n, 3 * (size_t)n - 1, (size_t)GRID * (size_t)n - 1,
                                  (size_t)GRID * (size_t)n, 3 * (size_t)n + 400, (size_t)GRID * (size_t)n + 200 };
                for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++) {
                    Outcome a = run_loop(&v.plain, GRID, blocks[b], n, steps[st], lens[l]);
                    Outcome r = run_loop(&v.regions, GRID, blocks[b], n, steps[st], lens[l]);
                    Outcome f = run_loop(&v.fibers, GRID, blocks[b], n, steps[st], lens[l]);
                    CU_ASSERT(same(&a, &f, lens[l]));
                    CU_ASSERT(same(&r, &f, lens[l]));
                    if (!same(&a, &f, lens[l]))
                        report(loop_shapes[s], blocks[b], lens[l], &a, &f);
                    if (!same(&r, &f, lens[l]))
                        report(loop_shapes[s], blocks[b], lens[l], &r, &f);
                    runs++;
                    failed += f.rc != 0;
                    free_outcome(&a), free_outcome(&r), free_outcome(&f);
                }
            }
        close_versions(&v);
        free(plain_src);
        free(sync_src);
    }
    CU_ASSERT(failed > 0 && failed < runs);
    rt_host_set_threads(0);
}

/* The kernel's LLVM module before optimization. */
static LLVMModuleRef built(FxsModule *m, const char *src, CgModule **cm)
{
    memset(m, 0, sizeof *m);
    if (!fxs_lower(m, src, NULL, true))
        return NULL;
    CgOptions o = { m->o.target, 0, 1, NULL, false, false, false };
    *cm = cg_build(m->c.module, &o);
    return *cm ? cg_llvm_module(*cm) : NULL;
}

static int calls_to_pointers(LLVMValueRef fn)
{
    int n = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == LLVMCall && !LLVMIsAFunction(LLVMGetCalledValue(i)))
                n++;   /* ctx->oob is called through a pointer */
    return n;
}

/* Which accesses are proved: affine indices are, into Ptr parameters and
 * shared arrays, in a block loop and in regions; a square of thread_idx, a
 * variable's value and a loaded index are not, and a kernel with nothing to
 * prove gets no twin. */
static void test_what_is_proved(void)
{
    static const struct {
        const char *src;
        int checked_calls, proved_calls;   /* ctx->oob calls in the body and in its twin (-1: no twin) */
    } cases[] = {
        { "kernel k(y: Ptr[Float32], x: const Ptr[Float32], a: Float32, n: Int32) {\n"
          "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
          "    if i < n {\n        y[i] = a * x[i] + y[i]\n    }\n}\n", 3, 0 },
        { "kernel k(y: Ptr[Float32], n: Int32) {\n"
          "    let i = thread_idx.x\n    y[i * i] = 1.0\n    y[i + n] = 2.0\n}\n", 2, 1 },
        { "kernel k(y: Ptr[Float32], idx: const Ptr[Int32]) {\n"
          "    y[idx[thread_idx.x]] = 1.0\n}\n", 2, 1 },
        { "kernel k(y: Ptr[Float32], n: Int32) {\n"
          "    var j = thread_idx.x\n    while j < n {\n        y[j] = 1.0\n        j += block_dim.x\n    }\n}\n", 1, -1 },
        /* range loops: a static and a run-time step; a loop whose start
         * is another loop's variable is not tracked */
        { "kernel k(y: Ptr[Float32], x: const Ptr[Float32], n: Int32, s: Int32) {\n"
          "    for j in range(thread_idx.x, n, 32) {\n        y[j] = x[j]\n    }\n"
          "    for j in range(block_idx.x * block_dim.x + thread_idx.x, n, s) {\n        y[j] = 1.0\n    }\n}\n",
          3, 0 },
        { "kernel k(y: Ptr[Float32], n: Int32) {\n"
          "    for a in range(0, n) {\n        y[a] = 0.0\n"
          "        for j in range(a, n) {\n            y[j] = 1.0\n        }\n    }\n}\n", 2, 1 },
        /* regions: the shared array's two accesses, y's and idx's are
         * proved; the store at the loaded index stays checked */
        { "kernel k(y: Ptr[Float32], idx: const Ptr[Int32]) {\n"
          "    shared s: Array[Float32, 16, 17]\n"
          "    s[thread_idx.y, thread_idx.x] = 1.0\n    fx.barrier()\n"
          "    y[thread_idx.x * 16 + thread_idx.y] = s[thread_idx.x, thread_idx.y]\n"
          "    y[idx[thread_idx.x]] = 2.0\n}\n", 5, 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        FxsModule m;
        CgModule *cm = NULL;
        LLVMModuleRef mod = built(&m, cases[k].src, &cm);
        CU_ASSERT_FATAL(mod != NULL);
        LLVMValueRef body = LLVMGetNamedFunction(mod, "fx.kernel.k");
        LLVMValueRef twin = LLVMGetNamedFunction(mod, "fx.kernel.k.proved");
        CU_ASSERT(body && calls_to_pointers(body) == cases[k].checked_calls);
        CU_ASSERT((twin != NULL) == (cases[k].proved_calls >= 0));
        if (twin)
            CU_ASSERT_EQUAL(calls_to_pointers(twin), cases[k].proved_calls);
        cg_free(cm);
        fxs_close(&m);
    }
}

static const FxtTest tests[] = {
    { "affine, wrapping and 2-D indices: the proved loop gives the checked bits and errors",
      test_same_as_checked_everywhere },
    { "static shared arrays: the proved block loop and regions give the checked bits and errors",
      test_shared_arrays_same_as_checked },
    { "range loops: the loop variable's values proved with the thread ids", test_loops_same_as_checked },
    { "which accesses get a proof", test_what_is_proved },
    { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "host block proofs", tests, NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, ".", suites);
}
