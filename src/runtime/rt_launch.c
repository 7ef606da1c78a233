/* rt_launch.c - the host grid driver: runs every work-item of every block.
 *
 * Without barriers the work-items of a block simply run one after another.
 * With barriers each work-item is a fiber (ucontext) on its own stack: the
 * scheduler resumes every runnable fiber until it reaches a barrier or ends;
 * when none is runnable, everyone waiting at the barrier is released. A
 * work-item that has finished counts as arrived (as on current GPUs). */
#include "runtime/rt_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

enum { RT_MAX_BLOCK = 1024, RT_FIBER_STACK = 512 * 1024 };
enum { F_RUNNABLE, F_AT_BARRIER, F_DONE };

typedef struct Fiber {
    ucontext_t uc;
    FxHostCtx ctx;
    int state;
    struct Sched *sched;
} Fiber;

typedef struct Sched {
    ucontext_t main;
    Fiber *fibers;
    size_t nfibers;
    char *stacks;
    size_t stack_size, page;
    RtEntry entry;
    void **args;
    Fiber *current;
} Sched;

static Sched *g_sched; /* the launch in progress (makecontext passes no pointers) */

static void fiber_barrier(FxHostCtx *ctx)
{
    Fiber *f = ctx->rt;
    f->state = F_AT_BARRIER;
    swapcontext(&f->uc, &f->sched->main);
}

static void seq_barrier(FxHostCtx *ctx)
{
    (void)ctx; /* a kernel without barriers never calls it */
}

static void fiber_main(void)
{
    Fiber *f = g_sched->current;
    f->sched->entry(f->sched->args, &f->ctx);
    f->state = F_DONE;
    /* returning resumes uc_link: the scheduler */
}

static int sched_init(Sched *s, size_t n, char **err)
{
    s->page = (size_t)sysconf(_SC_PAGESIZE);
    s->stack_size = RT_FIBER_STACK;
    s->nfibers = n;
    s->fibers = calloc(n, sizeof *s->fibers);
    size_t total = n * (s->stack_size + s->page);
    s->stacks = mmap(NULL, total, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (!s->fibers || s->stacks == MAP_FAILED) {
        free(s->fibers);
        s->fibers = NULL;
        s->stacks = NULL;
        *err = rt_strdupf("cannot allocate %zu work-item stacks", n);
        return -1;
    }
    /* a guard page below every stack turns an overflow into a fault */
    for (size_t k = 0; k < n; k++)
        mprotect(s->stacks + k * (s->stack_size + s->page), s->page, PROT_NONE);
    return 0;
}

static void sched_free(Sched *s)
{
    if (s->stacks)
        munmap(s->stacks, s->nfibers * (s->stack_size + s->page));
    free(s->fibers);
}

/* A separate function keeps getcontext (returns_twice) away from the
 * scheduler's loop variables. */
static __attribute__((noinline)) int fiber_setup(Sched *s, Fiber *f, size_t n)
{
    if (getcontext(&f->uc) != 0)
        return -1;
    f->uc.uc_stack.ss_sp = s->stacks + n * (s->stack_size + s->page) + s->page;
    f->uc.uc_stack.ss_size = s->stack_size;
    f->uc.uc_link = &s->main;
    makecontext(&f->uc, fiber_main, 0);
    return 0;
}

static int run_block_fibers(Sched *s, const FxHostCtx *proto, const unsigned block[3], char **err)
{
    size_t n = 0;
    for (unsigned z = 0; z < block[2]; z++)
        for (unsigned y = 0; y < block[1]; y++)
            for (unsigned x = 0; x < block[0]; x++, n++) {
                Fiber *f = &s->fibers[n];
                f->ctx = *proto;
                f->ctx.thread_idx[0] = (int32_t)x;
                f->ctx.thread_idx[1] = (int32_t)y;
                f->ctx.thread_idx[2] = (int32_t)z;
                f->ctx.barrier = fiber_barrier;
                f->ctx.rt = f;
                f->sched = s;
                f->state = F_RUNNABLE;
                if (fiber_setup(s, f, n) != 0) {
                    *err = rt_strdupf("getcontext failed");
                    return -1;
                }
            }
    for (;;) {
        size_t waiting = 0;
        for (size_t k = 0; k < n; k++) {
            Fiber *f = &s->fibers[k];
            if (f->state != F_RUNNABLE)
                continue;
            s->current = f;
            swapcontext(&s->main, &f->uc);
        }
        for (size_t k = 0; k < n; k++)
            if (s->fibers[k].state == F_AT_BARRIER) {
                s->fibers[k].state = F_RUNNABLE;
                waiting++;
            }
        if (!waiting)
            return 0;
    }
}

int rt_host_launch(RtHostModule *m, const char *name, const unsigned grid[3],
                   const unsigned block[3], void **args, char **err)
{
    *err = NULL;
    RtKernel k;
    if (rt_host_kernel(m, name, &k, err))
        return -1;
    unsigned long long nb = (unsigned long long)grid[0] * grid[1] * grid[2];
    unsigned long long nt = (unsigned long long)block[0] * block[1] * block[2];
    if (nb == 0 || nt == 0) {
        *err = rt_strdupf("empty launch: grid %ux%ux%u, block %ux%ux%u",
                          grid[0], grid[1], grid[2], block[0], block[1], block[2]);
        return -1;
    }
    if (nt > RT_MAX_BLOCK) {
        *err = rt_strdupf("block of %llu work-items: at most %d", nt, RT_MAX_BLOCK);
        return -1;
    }
    if (grid[0] > INT32_MAX || grid[1] > INT32_MAX || grid[2] > INT32_MAX) {
        *err = rt_strdupf("grid dimension too large");
        return -1;
    }
    void *shared = NULL;
    if (k.shared_bytes > 0) {
        shared = aligned_alloc(64, ((size_t)k.shared_bytes + 63) & ~(size_t)63);
        if (!shared) {
            *err = rt_strdupf("cannot allocate %lld bytes of shared memory", (long long)k.shared_bytes);
            return -1;
        }
    }
    Sched s = { 0 };
    s.entry = k.entry;
    s.args = args;
    if (k.uses_barrier && sched_init(&s, (size_t)nt, err)) {
        free(shared);
        return -1;
    }
    Sched *saved = g_sched;
    g_sched = &s;
    FxHostCtx ctx = { 0 };
    for (int d = 0; d < 3; d++) {
        ctx.block_dim[d] = (int32_t)block[d];
        ctx.grid_dim[d] = (int32_t)grid[d];
    }
    ctx.shared = shared;
    ctx.barrier = seq_barrier;
    int rc = 0;
    for (unsigned bz = 0; bz < grid[2] && rc == 0; bz++)
        for (unsigned by = 0; by < grid[1] && rc == 0; by++)
            for (unsigned bx = 0; bx < grid[0] && rc == 0; bx++) {
                ctx.block_idx[0] = (int32_t)bx;
                ctx.block_idx[1] = (int32_t)by;
                ctx.block_idx[2] = (int32_t)bz;
                if (shared)
                    memset(shared, 0, (size_t)k.shared_bytes);
                if (k.uses_barrier) {
                    rc = run_block_fibers(&s, &ctx, block, err);
                    continue;
                }
                for (unsigned z = 0; z < block[2]; z++)
                    for (unsigned y = 0; y < block[1]; y++)
                        for (unsigned x = 0; x < block[0]; x++) {
                            ctx.thread_idx[0] = (int32_t)x;
                            ctx.thread_idx[1] = (int32_t)y;
                            ctx.thread_idx[2] = (int32_t)z;
                            k.entry(args, &ctx);
                        }
            }
    g_sched = saved;
    sched_free(&s);
    free(shared);
    return rc;
}
