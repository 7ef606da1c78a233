/* rt_launch.c - the host grid driver: runs every work-item of every block.
 *
 * Without barriers the work-items of a block simply run one after another.
 * With barriers each work-item is a fiber on its own stack: the scheduler
 * resumes every runnable fiber until it reaches a barrier or ends; when none
 * is runnable, everyone waiting at the barrier is released. A work-item that
 * has finished counts as arrived (as on current GPUs).
 *
 * Waves (K__fxwave lanes, consecutive work-items): a lane at a wave
 * exchange (fxhost.h) waits too. When no fiber is runnable, each wave whose
 * lanes wait at exchanges lets the group at the lowest site go: its values
 * are copied into the wave's snapshot, its mask becomes every member's
 * wave_active, and they run on. Barriers are released only when no wave
 * has lanes at an exchange.
 *
 * Fibers switch with rt_ctx_switch (below): it saves only the registers the
 * x86-64 SysV ABI asks a callee to keep, so a switch costs a few
 * nanoseconds; swapcontext also saves the signal mask, a system call per
 * switch, which took most of a GEMM's time.
 *
 * Bounds checks: the generated code calls ctx->oob on an out-of-range index
 * (fxhost.h). When the bound is known, rt_oob records the error and
 * longjmps out of the work-item, to the setjmp that started it (on the
 * work-item's own stack for fibers, so the jump never crosses stacks); the
 * launch then stops. The JIT'd frames it unwinds hold no resources. */
#include "runtime/rt_internal.h"
#include "runtime/rt_check.h"
#include "runtime/rt_debug.h"
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* ---- fiber switching ----
 * rt_ctx_switch(&from, to): pushes the callee-saved registers, MXCSR and
 * the x87 control word on the current stack, stores the stack pointer in
 * *from, loads `to` and pops the same from there. A new fiber's stack is
 * laid out (rt_ctx_init) as if it had switched away just before calling
 * its entry function. */
void rt_ctx_switch(void **from, void *to);
__asm__(".text\n"
        ".globl rt_ctx_switch\n"
        ".hidden rt_ctx_switch\n"
        ".type rt_ctx_switch, @function\n"
        "rt_ctx_switch:\n"
        "    pushq %rbp\n    pushq %rbx\n    pushq %r12\n    pushq %r13\n    pushq %r14\n    pushq %r15\n"
        "    subq $8, %rsp\n    stmxcsr (%rsp)\n    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n    fldcw 4(%rsp)\n    addq $8, %rsp\n"
        "    popq %r15\n    popq %r14\n    popq %r13\n    popq %r12\n    popq %rbx\n    popq %rbp\n"
        "    ret\n"
        ".size rt_ctx_switch, .-rt_ctx_switch\n");

/* The saved stack pointer of a fiber that will start in entry() on the
 * stack [base, base + size). */
static void *rt_ctx_init(char *base, size_t size, void (*entry)(void))
{
#if defined(__SANITIZE_ADDRESS__)
    /* frames of an earlier fiber on this stack left their poison behind */
    __asan_unpoison_memory_region(base, size);
#endif
    uintptr_t top = ((uintptr_t)(base + size)) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)top;
    *--sp = 0;                          /* entry's return address: it never returns */
    *--sp = (uint64_t)(uintptr_t)entry; /* where rt_ctx_switch's ret goes */
    for (int r = 0; r < 6; r++)
        *--sp = 0;                      /* rbp rbx r12 r13 r14 r15 */
    uint32_t mxcsr, fpcw = 0;
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(fpcw));
    *--sp = (uint64_t)mxcsr | ((uint64_t)(fpcw & 0xffff) << 32);
    return sp;
}

/* AddressSanitizer follows the stack switches when it is told about them. */
static void switch_begin(void **fake_stack, const void *bottom, size_t size)
{
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_start_switch_fiber(fake_stack, bottom, size);
#else
    (void)fake_stack, (void)bottom, (void)size;
#endif
}

/* After a switch; a fiber learns the scheduler's stack here (from, size). */
static void switch_end(void *fake_stack, const void **from, size_t *size)
{
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(fake_stack, from, size);
#else
    (void)fake_stack, (void)from, (void)size;
#endif
}

enum { RT_MAX_BLOCK = 1024, RT_FIBER_STACK = 512 * 1024, RT_STACK_GUARD = 128 * 1024 };
enum { F_RUNNABLE, F_AT_BARRIER, F_AT_WAVE, F_DONE };

/* A wave's snapshot of its lanes' values at the last exchange. */
typedef struct Snapshot {
    char *bytes;
    size_t cap;
} Snapshot;

typedef struct Fiber {
    void *sp;               /* saved stack pointer while switched out */
    FxHostCtx ctx;
    int state;
    int32_t site;           /* F_AT_WAVE: the exchange, and this lane's value */
    const void *value;
    int64_t bytes;
    struct Sched *sched;
    jmp_buf out;            /* where an out-of-bounds access leaves the work-item */
} Fiber;

typedef struct Sched {
    void *main_sp;          /* the scheduler's saved stack pointer */
    const void *main_stack; /* its stack, for AddressSanitizer */
    size_t main_stack_size;
    Fiber *fibers;
    size_t nfibers;
    char *stacks;
    size_t stack_size, guard;
    RtEntry entry;
    void **args;
    Fiber *current;
    const char *kernel;
    const RtKernel *k;
    const uint64_t *bounds;
    char *error;            /* the first out-of-bounds access or failed assert: the launch stops */
    bool assert_failed;     /* the error is a failed fx.assert (RT_LAUNCH_ASSERT) */
    sigjmp_buf overflow;    /* where a work-item's stack overflow leaves the launch */
    RtChecker *checker;     /* --check: shared memory's shadow; NULL when not checking */
    Snapshot *snaps;        /* one per wave of a block */
    size_t nwaves;
} Sched;

static Sched *g_sched; /* the launch in progress (a fiber's entry takes no arguments) */

/* From a fiber back to the scheduler. */
static void to_scheduler(Fiber *f)
{
    void *fake;
    switch_begin(&fake, f->sched->main_stack, f->sched->main_stack_size);
    rt_ctx_switch(&f->sp, f->sched->main_sp);
    switch_end(fake, &f->sched->main_stack, &f->sched->main_stack_size);
}

static void fiber_barrier(FxHostCtx *ctx)
{
    Fiber *f = ctx->rt;
    f->state = F_AT_BARRIER;
    to_scheduler(f);
}

/* ctx->check: a checked access of a shared array by the work-item of ctx. */
static void check_access(FxHostCtx *ctx, const FxCheckSite *site, const void *base, const void *addr, int32_t is_write)
{
    Fiber *f = ctx->rt;
    uint32_t me = (uint32_t)ctx->thread_idx[0] +
                  (uint32_t)ctx->block_dim[0] * ((uint32_t)ctx->thread_idx[1] + (uint32_t)ctx->block_dim[1] *
                                                 (uint32_t)ctx->thread_idx[2]);
    rt_check_access(f->sched->checker, me, site, ctx->shared, base, addr, is_write != 0);
}

/* With the checker: every work-item of the block must wait at the same
 * barrier; one finished, or one at another barrier, is a divergent barrier.
 * Then a new epoch begins. */
static void check_barrier_release(Sched *s, size_t n)
{
    size_t waiting = 0, done = 0;
    const FxCheckSite *site = NULL;
    bool mixed = false;
    for (size_t k = 0; k < n; k++) {
        const Fiber *f = &s->fibers[k];
        if (f->state == F_DONE)
            done++;
        if (f->state != F_AT_BARRIER)
            continue;
        waiting++;
        mixed |= site && f->ctx.barrier_site != site;
        site = site ? site : f->ctx.barrier_site;
    }
    if (waiting && (done || mixed))
        rt_check_divergent_barrier(s->checker, site, waiting, done);
    rt_check_epoch(s->checker);
}

static void seq_barrier(FxHostCtx *ctx)
{
    (void)ctx; /* a kernel without barriers never calls it */
}

static void *fiber_exchange(FxHostCtx *ctx, int32_t site, const void *value, int64_t bytes)
{
    Fiber *f = ctx->rt;
    f->state = F_AT_WAVE;
    f->site = site;
    f->value = value;
    f->bytes = bytes;
    to_scheduler(f);
    return f->sched->snaps[(size_t)(f - f->sched->fibers) / (size_t)f->sched->k->wave_size].bytes;
}

/* Room for a snapshot of `bytes`, aligned for values of `value_bytes`: the
 * generated code loads a slot with its type's ABI alignment, a power of two
 * that divides the size (a <32 x i8> wants 32). */
static bool snapshot_reserve(Snapshot *sn, size_t bytes, size_t value_bytes)
{
    size_t align = value_bytes & -value_bytes;
    align = align < 64 ? 64 : align > 4096 ? 4096 : align;
    if (bytes <= sn->cap && ((uintptr_t)sn->bytes & (align - 1)) == 0)
        return true;
    char *p = aligned_alloc(align, (bytes + align - 1) & ~(align - 1));
    if (!p)
        return false;
    free(sn->bytes);
    sn->bytes = p;
    sn->cap = bytes;
    return true;
}

void *rt_buffer_alloc(size_t count, size_t elem_bytes)
{
    if (elem_bytes && count > SIZE_MAX / elem_bytes)
        return NULL;
    size_t bytes = count * elem_bytes, align = 64;
    while (align < bytes && align < 4096)
        align *= 2;
    if (bytes > SIZE_MAX - align)
        return NULL;
    size_t rounded = bytes ? (bytes + align - 1) & ~(align - 1) : align;
    char *p = aligned_alloc(align, rounded);
    if (p)
        memset(p, 0, rounded);
    return p;
}

/* A work-item running alone (waves of one lane): the snapshot is its own value. */
static void *seq_exchange(FxHostCtx *ctx, int32_t site, const void *value, int64_t bytes)
{
    (void)site;
    Fiber *f = ctx->rt;
    if (!snapshot_reserve(&f->sched->snaps[0], (size_t)bytes, (size_t)bytes))
        abort();
    memcpy(f->sched->snaps[0].bytes, value, (size_t)bytes);
    ctx->wave_active = 1;
    return f->sched->snaps[0].bytes;
}

static char *index_text(const FxOobSite *site, const int64_t *index)
{
    char *t = rt_strdupf("%s", "");
    for (int k = 0; k < site->nidx && t; k++) {
        char *n;
        if (k < 32 && (site->unsigned_mask >> k) & 1)
            n = rt_strdupf("%s%s%" PRIu64, t, k ? ", " : "", (uint64_t)index[k]);
        else
            n = rt_strdupf("%s%s%" PRId64, t, k ? ", " : "", index[k]);
        free(t);
        t = n;
    }
    return t;
}

/* ctx->oob: see fxhost.h and the top of this file. */
static void rt_oob(FxHostCtx *ctx, const FxOobSite *site, int32_t param, const int64_t *index)
{
    Fiber *f = ctx->rt;
    Sched *s = f->sched;
    uint64_t bound = UINT64_MAX;
    if (param >= 0) {
        bound = s->bounds[param];
        if (bound == UINT64_MAX)
            return; /* size unknown: the access proceeds */
    }
    if (!s->error) {
        char *idx = index_text(site, index);
        char *where = site->func ? rt_strdupf("%s (kernel %s)", site->func, s->kernel)
                                 : rt_strdupf("kernel %s", s->kernel);
        if (param >= 0) {
            const char *pname = param < s->k->nparams ? s->k->params[param].name : "?";
            s->error = rt_strdupf("out-of-bounds %s '%s'[%s] (buffer has %" PRIu64 " element%s) in %s",
                                  site->op, pname, idx, bound, bound == 1 ? "" : "s", where);
        } else if (site->nidx == 1) {
            s->error = rt_strdupf("out-of-bounds %s %s[%s] (it has %" PRId64 " element%s) in %s",
                                  site->op, site->array, idx, site->dims[0], site->dims[0] == 1 ? "" : "s", where);
        } else {
            char *shape = rt_strdupf("%" PRId64, site->dims[0]);
            for (int k = 1; k < site->nidx && shape; k++) {
                char *n = rt_strdupf("%s x %" PRId64, shape, site->dims[k]);
                free(shape);
                shape = n;
            }
            s->error = rt_strdupf("out-of-bounds %s %s[%s] (its dimensions are %s) in %s",
                                  site->op, site->array, idx, shape, where);
            free(shape);
        }
        free(idx);
        free(where);
    }
    longjmp(f->out, 1);
}

/* ctx->print: fx.printf, to stdout. */
static void rt_print(FxHostCtx *ctx, const char *format, const uint64_t *args)
{
    (void)ctx;
    rt_debug_print(stdout, format, args);
}

/* ctx->assert_fail: the work-item ends as after an out-of-bounds access
 * (top of this file), and the launch stops. */
static void rt_assert_fail(FxHostCtx *ctx, const char *where, const char *func, const char *msg)
{
    Fiber *f = ctx->rt;
    Sched *s = f->sched;
    if (!s->error) {
        s->error = rt_debug_assert_text(s->kernel, where, func, msg, ctx->block_idx, ctx->thread_idx);
        s->assert_failed = true;
    }
    longjmp(f->out, 1);
}

static void fiber_main(void)
{
    switch_end(NULL, &g_sched->main_stack, &g_sched->main_stack_size);
    Fiber *volatile f = g_sched->current;
    if (setjmp(f->out) == 0)
        f->sched->entry(f->sched->args, &f->ctx);
    f->state = F_DONE;
    to_scheduler(f);   /* never resumed again */
}

/* One work-item without fibers. A separate function keeps setjmp away from
 * the launch loop's variables. */
static __attribute__((noinline)) void run_item(Sched *s, Fiber *item)
{
    if (setjmp(item->out) == 0)
        s->entry(s->args, &item->ctx);
}

/* Snapshots for the waves of a block of n work-items (one for a lone work-item). */
static int snaps_init(Sched *s, size_t n, char **err)
{
    size_t wave = s->k->wave_size > 0 ? (size_t)s->k->wave_size : 1;
    s->nwaves = (n + wave - 1) / wave;
    s->snaps = calloc(s->nwaves, sizeof *s->snaps);
    if (!s->snaps) {
        *err = rt_strdupf("cannot allocate %zu wave snapshots", s->nwaves);
        return -1;
    }
    return 0;
}

static int sched_init(Sched *s, size_t n, char **err)
{
    /* the guard below each stack is wider than any frame fxcc emits can step
     * over (private arrays are at most 64 KiB a work-item: docs/limits.md),
     * so an overflow faults in it instead of writing into the next stack */
    s->guard = RT_STACK_GUARD;
    s->stack_size = RT_FIBER_STACK;
    s->nfibers = n;
    s->fibers = calloc(n, sizeof *s->fibers);
    size_t total = n * (s->stack_size + s->guard);
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
        mprotect(s->stacks + k * (s->stack_size + s->guard), s->guard, PROT_NONE);
    return 0;
}

static void sched_free(Sched *s)
{
    for (size_t w = 0; w < s->nwaves; w++)
        free(s->snaps[w].bytes);
    free(s->snaps);
    if (s->stacks)
        munmap(s->stacks, s->nfibers * (s->stack_size + s->guard));
    free(s->fibers);
}

static char *fiber_stack(const Sched *s, size_t n)
{
    return s->stacks + n * (s->stack_size + s->guard) + s->guard;
}

static void fiber_setup(Sched *s, Fiber *f, size_t n)
{
    f->sp = rt_ctx_init(fiber_stack(s, n), s->stack_size, fiber_main);
}

/* From the scheduler into fiber n. */
static void resume(Sched *s, Fiber *f, size_t n)
{
    void *fake;
    s->current = f;
    switch_begin(&fake, fiber_stack(s, n), s->stack_size);
    rt_ctx_switch(&s->main_sp, f->sp);
    switch_end(fake, NULL, NULL);
}

/* Lets the lowest-site group of every wave with lanes at an exchange go;
 * returns how many lanes it released. */
static size_t release_waves(Sched *s, size_t n, char **err)
{
    size_t wave = (size_t)s->k->wave_size, released = 0;
    for (size_t w = 0; w * wave < n; w++) {
        Fiber *lanes = &s->fibers[w * wave];
        size_t count = n - w * wave < wave ? n - w * wave : wave;
        int32_t site = INT32_MAX;
        int64_t bytes = 0;
        for (size_t l = 0; l < count; l++)
            if (lanes[l].state == F_AT_WAVE && lanes[l].site <= site) {
                site = lanes[l].site;
                bytes = lanes[l].bytes;
            }
        if (site == INT32_MAX)
            continue;
        Snapshot *sn = &s->snaps[w];
        if (!snapshot_reserve(sn, wave * (size_t)bytes, (size_t)bytes)) {
            *err = rt_strdupf("cannot allocate a wave's snapshot");
            return 0;
        }
        memset(sn->bytes, 0, wave * (size_t)bytes);
        uint64_t mask = 0;
        for (size_t l = 0; l < count; l++)
            if (lanes[l].state == F_AT_WAVE && lanes[l].site == site) {
                memcpy(sn->bytes + l * (size_t)bytes, lanes[l].value, (size_t)bytes);
                mask |= (uint64_t)1 << l;
            }
        for (size_t l = 0; l < count; l++)
            if (mask >> l & 1) {
                lanes[l].ctx.wave_active = mask;
                lanes[l].state = F_RUNNABLE;
                released++;
            }
    }
    return released;
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
                f->ctx.wave_exchange = fiber_exchange;
                f->ctx.rt = f;
                f->sched = s;
                f->state = F_RUNNABLE;
                fiber_setup(s, f, n);
            }
    for (;;) {
        size_t waiting = 0;
        for (size_t k = 0; k < n && !s->error; k++) {
            Fiber *f = &s->fibers[k];
            if (f->state != F_RUNNABLE)
                continue;
            resume(s, f, k);
        }
        if (s->error)
            return -1; /* the others stay where they are; their stacks go with the launch */
        if (release_waves(s, n, err))
            continue;
        if (*err)
            return -1;
        if (s->checker)
            check_barrier_release(s, n);
        for (size_t k = 0; k < n; k++)
            if (s->fibers[k].state == F_AT_BARRIER) {
                s->fibers[k].state = F_RUNNABLE;
                waiting++;
            }
        if (!waiting)
            return 0;
    }
}

/* Runs every block of the grid, one after the other. */
static int run_grid(Sched *s, FxHostCtx *ctx, const unsigned grid[3], const unsigned block[3], char **err)
{
    Fiber *item = ctx->rt;
    int rc = 0;
    for (unsigned bz = 0; bz < grid[2] && rc == 0; bz++)
        for (unsigned by = 0; by < grid[1] && rc == 0; by++)
            for (unsigned bx = 0; bx < grid[0] && rc == 0; bx++) {
                ctx->block_idx[0] = (int32_t)bx;
                ctx->block_idx[1] = (int32_t)by;
                ctx->block_idx[2] = (int32_t)bz;
                if (ctx->shared)
                    memset(ctx->shared, 0, (size_t)s->k->shared_bytes);
                if (s->checker)
                    rt_check_block(s->checker, ctx->block_idx);
                if (s->k->waits) {
                    rc = run_block_fibers(s, ctx, block, err);
                    continue;
                }
                for (unsigned z = 0; z < block[2] && !s->error; z++)
                    for (unsigned y = 0; y < block[1] && !s->error; y++)
                        for (unsigned x = 0; x < block[0] && !s->error; x++) {
                            ctx->thread_idx[0] = (int32_t)x;
                            ctx->thread_idx[1] = (int32_t)y;
                            ctx->thread_idx[2] = (int32_t)z;
                            run_item(s, item);
                        }
                if (s->error)
                    rc = -1;
            }
    return rc;
}

/* A work-item that overflows its fiber stack faults in the guard page below
 * it. The handler runs on a stack of its own (the faulting one is used up)
 * and leaves the launch, which then reports the overflow as an error. A
 * fault anywhere else goes back to the handler that was there before. */
static struct sigaction saved_segv;

static bool in_guard_page(const Sched *s, const char *a)
{
    size_t span = s->stack_size + s->guard;
    return s->stacks && a >= s->stacks && a < s->stacks + s->nfibers * span &&
           (size_t)(a - s->stacks) % span < s->guard;
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    if (g_sched && in_guard_page(g_sched, si->si_addr))
        siglongjmp(g_sched->overflow, 1);
    sigaction(SIGSEGV, &saved_segv, NULL);   /* returning re-runs the access under it */
}

static int run_grid_guarded(Sched *s, FxHostCtx *ctx, const unsigned grid[3], const unsigned block[3], char **err)
{
    enum { ALT_STACK = 256 * 1024 };
    stack_t alt = { .ss_sp = malloc(ALT_STACK), .ss_size = ALT_STACK }, saved_alt;
    struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK };
    sigemptyset(&sa.sa_mask);
    bool guarded = alt.ss_sp && sigaltstack(&alt, &saved_alt) == 0 && sigaction(SIGSEGV, &sa, &saved_segv) == 0;
    volatile int rc;
    if (sigsetjmp(s->overflow, 1) == 0) {
        rc = run_grid(s, ctx, grid, block, err);
    } else {
        const int32_t *t = s->current ? s->current->ctx.thread_idx : ctx->thread_idx;
        free(*err);
        *err = rt_strdupf("a work-item of kernel '%s' overflowed its %zu KiB stack (thread_idx %d, %d, %d of "
                          "block_idx %d, %d, %d)", s->kernel, s->stack_size / 1024, t[0], t[1], t[2],
                          ctx->block_idx[0], ctx->block_idx[1], ctx->block_idx[2]);
        rc = -1;
    }
    if (guarded) {
        sigaction(SIGSEGV, &saved_segv, NULL);
        sigaltstack(&saved_alt, NULL);
    }
    free(alt.ss_sp);
    return rc;
}

int rt_host_launch_checked(RtHostModule *m, const char *name, const unsigned grid[3],
                           const unsigned block[3], void **args, const size_t *arg_bytes, char **err)
{
    return rt_host_launch_checking(m, name, grid, block, args, arg_bytes, 0, err);
}

int rt_host_launch_checking(RtHostModule *m, const char *name, const unsigned grid[3], const unsigned block[3],
                            void **args, const size_t *arg_bytes, unsigned checks, char **err)
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
    uint64_t *bounds = calloc((size_t)k.nparams + 1, sizeof *bounds);
    if (!bounds)
        abort();
    for (int p = 0; p < k.nparams; p++) {
        bounds[p] = UINT64_MAX;
        if (arg_bytes && k.params[p].elem_bytes > 0 && arg_bytes[p] != RT_UNKNOWN_SIZE)
            bounds[p] = (uint64_t)arg_bytes[p] / (uint64_t)k.params[p].elem_bytes;
    }
    void *shared = NULL;
    if (k.shared_bytes > 0) {
        shared = aligned_alloc(64, ((size_t)k.shared_bytes + 63) & ~(size_t)63);
        if (!shared) {
            *err = rt_strdupf("cannot allocate %lld bytes of shared memory", (long long)k.shared_bytes);
            free(bounds);
            return -1;
        }
    }
    Sched s = { 0 };
    s.entry = k.entry;
    s.args = args;
    s.kernel = name;
    s.k = &k;
    s.bounds = bounds;
    if (k.wave_size < 1 || k.wave_size > 64 || (k.wave_size & (k.wave_size - 1))) {
        *err = rt_strdupf("kernel '%s' has waves of %d lanes; expected a power of two up to 64", name, k.wave_size);
        free(shared);
        free(bounds);
        return -1;
    }
    if (snaps_init(&s, (size_t)nt, err) || (k.waits && sched_init(&s, (size_t)nt, err))) {
        sched_free(&s);
        free(shared);
        free(bounds);
        return -1;
    }
    Sched *saved = g_sched;
    g_sched = &s;
    static Fiber item; /* the work-item without fibers (launches are not reentrant) */
    memset(&item, 0, sizeof item);
    item.sched = &s;
    FxHostCtx *ctx = &item.ctx;
    for (int d = 0; d < 3; d++) {
        ctx->block_dim[d] = (int32_t)block[d];
        ctx->grid_dim[d] = (int32_t)grid[d];
    }
    ctx->shared = shared;
    ctx->barrier = seq_barrier;
    ctx->wave_exchange = seq_exchange;
    ctx->rt = &item;
    ctx->bounds = bounds;
    ctx->oob = rt_oob;
    ctx->print = rt_print;
    ctx->assert_fail = rt_assert_fail;
    if (checks && k.checked) {
        s.checker = rt_check_new(checks, name, (size_t)k.shared_bytes, block);
        ctx->check = s.checker ? check_access : NULL;
    }
    int rc = k.waits ? run_grid_guarded(&s, ctx, grid, block, err) : run_grid(&s, ctx, grid, block, err);
    if (s.error) {
        free(*err);
        *err = s.error;
        rc = s.assert_failed ? RT_LAUNCH_ASSERT : -1;
    }
    char *found = s.checker ? rt_check_take_report(s.checker) : NULL;
    if (found && rc == 0) {
        *err = found;
        rc = -1;
    } else {
        free(found);
    }
    rt_check_free(s.checker);
    g_sched = saved;
    sched_free(&s);
    free(shared);
    free(bounds);
    return rc;
}

int rt_host_launch(RtHostModule *m, const char *name, const unsigned grid[3],
                   const unsigned block[3], void **args, char **err)
{
    return rt_host_launch_checked(m, name, grid, block, args, NULL, err);
}
