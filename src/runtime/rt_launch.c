/* rt_launch.c - the host grid driver: runs every work-item of every block.
 *
 * Blocks are handed out in order to worker threads (run_launch), each with
 * its own shared memory, snapshots and fibers (docs/host-execution.md).
 * Without barriers a block is one call of the kernel's K__fxblock, the
 * work-item loop fxcc generates (or, from a module without it, one call per
 * work-item). With barriers each work-item is a fiber on its own stack: the scheduler
 * resumes every runnable fiber until it reaches a barrier or ends; when none
 * is runnable, everyone waiting at the barrier is released. A work-item that
 * has finished counts as arrived (as on current GPUs).
 *
 * Waves (K__fxwave lanes, consecutive work-items): a lane at a wave
 * exchange (fxhost.h) waits too. When no fiber is runnable, each wave whose
 * lanes wait at exchanges lets the group at the lowest site go: its values
 * are copied into the wave's snapshot, its mask becomes every member's
 * wave_active, and they run on. Barriers are released only when no wave
 * has lanes at an exchange. A wave whose lanes repeat the same exchanges
 * while other lanes of it wait after a loop is stuck (spin_check: the
 * in-wave spin lock, docs/waves.md "Memory operations in lock-step").
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
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
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

enum { RT_MAX_THREADS = 1024, RT_MAX_BLOCK = 1024, RT_FIBER_STACK = 512 * 1024, RT_STACK_GUARD = 128 * 1024 };
enum { F_RUNNABLE, F_AT_BARRIER, F_AT_WAVE, F_DONE };

/* How many releases in a row of a wave's lanes that repeat what they
 * exchanged before, while other lanes of the wave wait for them at a later
 * exchange, make the wave stuck (spin_check). */
enum { RT_SPIN_LIMIT = 1 << 18, RT_SPIN_SITES = 64 };

/* A wave's snapshot of its lanes' values at the last exchange, and what
 * spin_check remembers of its releases. */
typedef struct Snapshot {
    char *bytes;
    size_t cap;
    uint64_t parked;                    /* the lanes waiting at a later site at the last release */
    uint64_t spins;                     /* releases in a row that repeated an earlier one */
    int32_t seen_site[RT_SPIN_SITES];   /* by site modulo RT_SPIN_SITES: the last release there, */
    uint64_t seen_hash[RT_SPIN_SITES];  /* its mask and values hashed (0: none yet) */
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

/* What the workers of a launch share: the grid and which block is next. */
typedef struct RtGrid {
    unsigned grid[3], block[3];
    unsigned long long nblocks;
    unsigned long long chunk;   /* blocks a worker takes at a time (grid_chunk) */
    atomic_ullong next;     /* the next block to run, numbered x fastest */
    atomic_ullong fail_at;  /* the lowest block that failed so far; nblocks: none */
    RtPrintOrder *print;    /* several workers: fx.printf's text in block order; NULL: to stdout as printed */
} RtGrid;

/* One worker: a thread that runs blocks, one at a time. */
typedef struct Sched {
    RtGrid *g;
    Fiber item;             /* the work-item(s) without fibers; item.ctx is the block's context */
    unsigned long long block_now;
    unsigned long long run_now;   /* the run of blocks block_now is in (grid_chunk) */
    RtPrintBuf print_buf;   /* what the blocks of run_now printed (with g->print) */
    bool failed;            /* block_now failed: error or err says why */
    bool abandoned;         /* block_now stopped without failing (spin_check): the worker stops */
    char *err;              /* a failure other than an out-of-bounds access */
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

static _Thread_local Sched *g_sched; /* this thread's worker (a fiber's entry takes no arguments) */

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

/* A buffer of this size or more starts on a 2 MiB boundary and is advised
 * for transparent huge pages before it is zeroed: a 64 MiB tensor is then
 * 32 page faults instead of 16,384, which on a virtual machine with
 * 9 to 13 µs page faults was most of an fxrun process's time
 * (docs/compile-time.md, "fxrun"). */
#define RT_HUGE_PAGE ((size_t)2 << 20)

void *rt_buffer_alloc(size_t count, size_t elem_bytes)
{
    if (elem_bytes && count > SIZE_MAX / elem_bytes)
        return NULL;
    size_t bytes = count * elem_bytes, align = 64;
    while (align < bytes && align < 4096)
        align *= 2;
    if (bytes >= RT_HUGE_PAGE)
        align = RT_HUGE_PAGE;
    if (bytes > SIZE_MAX - align)
        return NULL;
    size_t rounded = bytes ? (bytes + align - 1) & ~(align - 1) : align;
    char *p = aligned_alloc(align, rounded);
    if (!p)
        return NULL;
    if (align == RT_HUGE_PAGE)
        madvise(p, rounded, MADV_HUGEPAGE);   /* advice only: no huge pages, no harm */
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
        } else if (site->nidx == 1 && site->dims[0] < 0) {   /* Array[T, DYN] */
            s->error = rt_strdupf("out-of-bounds %s dynamic %s[%s] (the launch gave it %" PRId64 " element%s) in %s",
                                  site->op, site->array, idx, ctx->dyn_count, ctx->dyn_count == 1 ? "" : "s", where);
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

/* ctx->print: fx.printf, to stdout (one call, one line, whatever the
 * worker thread). */
static void rt_print(FxHostCtx *ctx, const char *format, const uint64_t *args)
{
    Sched *s = ((Fiber *)ctx->rt)->sched;
    FILE *out = s->g->print ? rt_print_buf_file(&s->print_buf) : NULL;
    rt_debug_print(out ? out : stdout, format, args);   /* no buffer (no memory): unordered, not lost */
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

/* ctx->diverged: in a kernel run as work-item loops between barriers, the
 * work-item of ctx decided a barrier's condition otherwise than the first
 * one did (the divergence analysis proved the condition uniform, so what
 * it read changed between the two: a data race). A run error, like an
 * out-of-bounds access. */
static void rt_diverged(FxHostCtx *ctx, const char *where)
{
    Fiber *f = ctx->rt;
    Sched *s = f->sched;
    if (!s->error) {
        const int32_t *b = ctx->block_idx, *t = ctx->thread_idx;
        s->error = rt_strdupf("%s: work-items of kernel %s, block (%d,%d,%d), disagree on this condition, which "
                              "decides the next fx.barrier(): thread (%d,%d,%d) differs from the block's first "
                              "(a data race on what the condition reads?)", where, s->kernel, b[0], b[1], b[2],
                              t[0], t[1], t[2]);
    }
    longjmp(f->out, 1);
}

/* ctx->overflow: an @index_nowrap kernel broke its promise. A run error
 * like an out-of-bounds access (exit 1 in fxrun), located like a failed
 * fx.assert. */
static void rt_overflow(FxHostCtx *ctx, const char *where, const char *func, const char *what)
{
    Fiber *f = ctx->rt;
    Sched *s = f->sched;
    if (!s->error) {
        char *in = func ? rt_strdupf("fn %s (kernel %s)", func, s->kernel) : rt_strdupf("kernel %s", s->kernel);
        const int32_t *b = ctx->block_idx, *t = ctx->thread_idx;
        s->error = rt_strdupf("%s: %s overflows in %s, block (%d,%d,%d), thread (%d,%d,%d): the kernel is "
                              "@index_nowrap", where, what, in, b[0], b[1], b[2], t[0], t[1], t[2]);
        free(in);
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

/* A fiber that ended never unwound its last frames, and AddressSanitizer
 * keeps their redzones poisoned after the pages go; whatever is mapped at
 * these addresses next (a JIT's code segment, say) would then be reported as
 * a stack overflow the first time it is written. */
static void release_stacks(char *stacks, size_t total)
{
#if defined(__SANITIZE_ADDRESS__)
    __asan_unpoison_memory_region(stacks, total);
#endif
    munmap(stacks, total);
}

static void sched_free(Sched *s)
{
    for (size_t w = 0; s->snaps && w < s->nwaves; w++)
        free(s->snaps[w].bytes);
    free(s->snaps);
    if (s->stacks)
        release_stacks(s->stacks, s->nfibers * (s->stack_size + s->guard));
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

/* ---- waves that cannot make progress ----
 * Lanes that left a loop wait after it for the others (docs/waves.md). If
 * those spin for something only a waiting lane could give them (a lock it
 * holds: in-wave spin lock), the GPU never leaves the loop. The host sees
 * it as releases of the spinning lanes that repeat themselves: at every
 * site the same mask and the same values (an atomic's exchange carries its
 * old value, so a failing compare-and-swap repeats, a counting atomic does
 * not). RT_SPIN_LIMIT such releases in a row, with the same lanes waiting
 * throughout, are reported instead of running forever. */

/* FNV-1a over the mask and the group's values: 0 stays "nothing seen". */
static uint64_t spin_hash(uint64_t mask, const char *bytes, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull ^ mask;
    for (size_t k = 0; k < n; k++)
        h = (h ^ (unsigned char)bytes[k]) * 0x100000001b3ull;
    return h ? h : 1;
}

/* "0", "1-63", "0 2-5": the lanes of a mask, for messages. */
static char *lanes_text(uint64_t mask)
{
    char *t = rt_strdupf("%s", "");
    for (int l = 0; l < 64 && t; l++) {
        if (!(mask >> l & 1) || (l > 0 && (mask >> (l - 1) & 1)))
            continue;
        int e = l;
        while (e + 1 < 64 && (mask >> (e + 1) & 1))
            e++;
        char *n = e > l ? rt_strdupf("%s%s%d-%d", t, *t ? " " : "", l, e) : rt_strdupf("%s%s%d", t, *t ? " " : "", l);
        free(t);
        t = n;
    }
    return t;
}

static char *spin_error(const Sched *s, size_t w, uint64_t mask, uint64_t parked)
{
    const int32_t *b = s->item.ctx.block_idx;
    char *spin = lanes_text(mask), *wait = lanes_text(parked);
    char *e = rt_strdupf("kernel %s: lanes %s of wave %zu of block (%d,%d,%d) spin in a loop while lanes %s wait "
                         "for them after it, and nothing they exchange changed in %d rounds: on the GPU this wave "
                         "never leaves the loop (a spin lock taken by lanes of one wave?)",
                         s->kernel, spin ? spin : "?", w, b[0], b[1], b[2], wait ? wait : "?", (int)RT_SPIN_LIMIT);
    free(spin);
    free(wait);
    return e;
}

/* Once a block failed (a stuck wave keeps its lock forever), a whole wave
 * of another block may spin on it as well: such a block is abandoned, not
 * failed, so the launch reports the stuck wave. Only then are waves with no
 * lanes waiting watched, which costs a hash per release. */
static bool grid_failed(const Sched *s)
{
    return atomic_load_explicit(&s->g->fail_at, memory_order_relaxed) < s->g->nblocks;
}

/* After wave w released `mask` at `site` (its values in sn->bytes, `bytes`
 * each) while the lanes `parked` wait at later sites: false when the wave
 * is stuck (*err says so) or abandoned (s->abandoned). */
static bool spin_check(Sched *s, size_t w, int32_t site, uint64_t mask, uint64_t parked, size_t bytes,
                       char **err)
{
    Snapshot *sn = &s->snaps[w];
    if (parked != sn->parked) {   /* other lanes wait now: a new episode */
        sn->parked = parked;
        sn->spins = 0;
        memset(sn->seen_hash, 0, sizeof sn->seen_hash);
    }
    if (!parked && !grid_failed(s))
        return true;
    uint64_t h = spin_hash(mask, sn->bytes, (size_t)s->k->wave_size * bytes);
    size_t slot = (size_t)site % RT_SPIN_SITES;
    if (sn->seen_site[slot] == site && sn->seen_hash[slot] == h) {
        if (++sn->spins >= RT_SPIN_LIMIT) {
            s->abandoned = !parked;
            *err = parked ? spin_error(s, w, mask, parked) : rt_strdupf("abandoned: spins after a failure");
            return false;
        }
        return true;
    }
    sn->seen_site[slot] = site;
    sn->seen_hash[slot] = h;
    sn->spins = 0;
    return true;
}

/* The lanes of a wave waiting at exchanges after `site`. */
static uint64_t parked_lanes(const Fiber *lanes, size_t count, int32_t site)
{
    uint64_t parked = 0;
    for (size_t l = 0; l < count; l++)
        if (lanes[l].state == F_AT_WAVE && lanes[l].site > site)
            parked |= (uint64_t)1 << l;
    return parked;
}

/* Lets the lowest-site group of every wave with lanes at an exchange go;
 * returns how many lanes it released. The next round resumes them in fiber
 * order, which is lane order: what they do until their next exchange (the
 * atomic of an instruction in lock-step) happens lane by lane. */
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
        if (!spin_check(s, w, site, mask, parked_lanes(lanes, count, site), (size_t)bytes, err))
            return 0;
        for (size_t l = 0; l < count; l++)
            if (mask >> l & 1) {
                lanes[l].ctx.wave_active = mask;
                lanes[l].state = F_RUNNABLE;
                released++;
            }
    }
    return released;
}

/* A block stops when a lower one has failed: its outcome is not reported
 * (note_failure), and it may be waiting for something the failed block
 * would have done (a wave spinning on a lock that a stuck wave holds). */
static bool lower_block_failed(Sched *s, char **err)
{
    if (atomic_load_explicit(&s->g->fail_at, memory_order_relaxed) >= s->block_now)
        return false;
    *err = rt_strdupf("stopped: a lower block failed");
    return true;
}

static int run_block_fibers(Sched *s, const FxHostCtx *proto, const unsigned block[3], char **err)
{
    size_t n = 0;
    for (size_t w = 0; w < s->nwaves; w++)   /* spin_check starts afresh in every block */
        s->snaps[w].parked = 0;
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
        if (lower_block_failed(s, err))
            return -1;
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

/* One work-item without fibers, or (block) the whole block through the
 * kernel's K__fxblock. A separate function keeps setjmp away from the
 * caller's variables. */
static __attribute__((noinline)) void run_entry(Sched *s, RtEntry entry)
{
    if (setjmp(s->item.out) == 0)
        entry(s->args, &s->item.ctx);
}

/* The work-items of a kernel that never waits, one after the other. */
static void run_block_plain(Sched *s)
{
    if (s->k->block) {
        run_entry(s, s->k->block);
        return;
    }
    FxHostCtx *ctx = &s->item.ctx;   /* a module without K__fxblock: one call per work-item */
    const unsigned *block = s->g->block;
    for (unsigned z = 0; z < block[2] && !s->error; z++)
        for (unsigned y = 0; y < block[1] && !s->error; y++)
            for (unsigned x = 0; x < block[0] && !s->error; x++) {
                ctx->thread_idx[0] = (int32_t)x;
                ctx->thread_idx[1] = (int32_t)y;
                ctx->thread_idx[2] = (int32_t)z;
                run_entry(s, s->entry);
            }
}

/* ctx's block_idx for block number b of the grid (x fastest). */
static void set_block_idx(Sched *s, unsigned long long b)
{
    FxHostCtx *ctx = &s->item.ctx;
    const unsigned *grid = s->g->grid;
    ctx->block_idx[0] = (int32_t)(b % grid[0]);
    ctx->block_idx[1] = (int32_t)(b / grid[0] % grid[1]);
    ctx->block_idx[2] = (int32_t)(b / grid[0] / grid[1]);
}

/* ctx's block_idx one block further: the divisions of set_block_idx cost
 * a grid of small blocks more than its runtime's other work per block. */
static void next_block_idx(Sched *s)
{
    int32_t *idx = s->item.ctx.block_idx;
    const unsigned *grid = s->g->grid;
    if ((unsigned)++idx[0] < grid[0])
        return;
    idx[0] = 0;
    if ((unsigned)++idx[1] < grid[1])
        return;
    idx[1] = 0;
    idx[2]++;
}

/* The block whose block_idx ctx holds. */
static int run_block(Sched *s)
{
    FxHostCtx *ctx = &s->item.ctx;
    if (ctx->shared)
        memset(ctx->shared, 0, (size_t)s->k->shared_bytes);
    if (s->checker)
        rt_check_block(s->checker, ctx->block_idx);
    if (s->k->waits)
        return run_block_fibers(s, ctx, s->g->block, &s->err);
    run_block_plain(s);
    return s->error ? -1 : 0;
}

/* Blocks > the lowest failed one need not run: the launch reports the
 * lowest, which every block below it has finished before (they are handed
 * out in order), so the error is the one a sequential run meets first. */
static void note_failure(RtGrid *g, unsigned long long b)
{
    unsigned long long seen = atomic_load(&g->fail_at);
    while (b < seen && !atomic_compare_exchange_weak(&g->fail_at, &seen, b))
        ;
}

/* How many consecutive blocks a worker takes at a time: one atomic counter
 * shared by the workers costs a cache-line transfer per take, which a grid
 * of many small blocks (saxpy: 2^17 blocks of 256 floats) pays more for than
 * its work, and neighbouring blocks on different cores split the streams
 * the prefetchers follow. Runs of up to 64, at least 16 takes per worker
 * for the balance. */
static unsigned long long grid_chunk(unsigned long long nblocks, size_t threads)
{
    unsigned long long c = nblocks / ((unsigned long long)threads * 16);
    return c < 1 ? 1 : c > 64 ? 64 : c;
}

/* The blocks of one run, from `first`; false when the worker stops (no
 * block left, or a block failed: a block is started only while no lower
 * block has failed). */
static bool run_run(Sched *s, unsigned long long first)
{
    RtGrid *g = s->g;
    for (unsigned long long b = first; b < first + g->chunk; b++) {
        if (b >= g->nblocks || b > atomic_load(&g->fail_at))
            return false;
        s->block_now = b;
        if (b == first)
            set_block_idx(s, b);
        else
            next_block_idx(s);
        int rc = run_block(s);
        if (s->abandoned)
            return false;
        if (rc != 0) {
            s->failed = true;
            note_failure(g, b);
            return false;
        }
    }
    return true;
}

/* A worker: takes the next run of blocks until none is left, and hands
 * over what each run printed. */
static void run_blocks(Sched *s)
{
    RtGrid *g = s->g;
    bool more = true;
    while (more) {
        unsigned long long first = atomic_fetch_add(&g->next, g->chunk);
        s->run_now = first / g->chunk;
        more = run_run(s, first);
        if (g->print)
            rt_print_order_hand_over(g->print, &s->print_buf, s->run_now, s->failed);
    }
}

/* A work-item that overflows its fiber stack faults in the guard page below
 * it. The handler runs on a stack of its own (the faulting one is used up)
 * and leaves the worker's blocks, which then report the overflow as an
 * error. A fault anywhere else goes back to the handler that was there
 * before. The handler is the process's; the alternate stack and the Sched it
 * looks at (g_sched) are each worker thread's own. */
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

static bool segv_handler_install(void)
{
    struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK };
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGSEGV, &sa, &saved_segv) == 0;
}

static void overflow_error(Sched *s)
{
    const FxHostCtx *ctx = &s->item.ctx;
    const int32_t *t = s->current ? s->current->ctx.thread_idx : ctx->thread_idx;
    free(s->err);
    s->err = rt_strdupf("a work-item of kernel '%s' overflowed its %zu KiB stack (thread_idx %d, %d, %d of "
                        "block_idx %d, %d, %d)", s->kernel, s->stack_size / 1024, t[0], t[1], t[2],
                        ctx->block_idx[0], ctx->block_idx[1], ctx->block_idx[2]);
    s->failed = true;
    note_failure(s->g, s->block_now);
}

/* run_blocks, for fibers with this thread's alternate signal stack. */
static void run_blocks_guarded(Sched *s)
{
    enum { ALT_STACK = 256 * 1024 };
    stack_t alt = { .ss_sp = malloc(ALT_STACK), .ss_size = ALT_STACK }, saved_alt;
    bool guarded = alt.ss_sp && sigaltstack(&alt, &saved_alt) == 0;
    if (sigsetjmp(s->overflow, 1) == 0) {
        run_blocks(s);
    } else {
        overflow_error(s);
        if (s->g->print)   /* the overflow left run_now before its end */
            rt_print_order_hand_over(s->g->print, &s->print_buf, s->run_now, true);
    }
    if (guarded)
        sigaltstack(&saved_alt, NULL);
    free(alt.ss_sp);
}

static void *worker_main(void *arg)
{
    Sched *s = arg;
    Sched *saved = g_sched;
    g_sched = s;
    if (s->k->waits)
        run_blocks_guarded(s);
    else
        run_blocks(s);
    g_sched = saved;
    return NULL;
}

static unsigned g_threads; /* rt_host_set_threads; 0: FX_THREADS or the core count */

/* ---- helper threads, kept from one launch to the next ----
 *
 * A launch on N threads runs its first worker on the calling thread and
 * the others on helpers. With a thread started per launch, on a virtual
 * machine with 2 cores, the caller began its blocks 0.15 ms into the
 * launch (the creation) and the new thread 0.6 to 0.8 ms in, of a saxpy's
 * 7 to 9 ms on two threads; a helper that waits is woken 0.3 to 0.45 ms
 * in, and the caller starts at once. So helpers are started once (when a
 * module is loaded, rt_host_prepare_threads, or at the first launch that
 * needs more) and wait for the next launch on a condition variable. One
 * launch at a time uses them; a launch that finds them busy (another
 * thread of the program is launching) starts threads of its own. */
typedef struct Pool {
    pthread_mutex_t owner;   /* held by the launch using the helpers */
    pthread_mutex_t m;       /* guards the rest */
    pthread_cond_t go, done;
    unsigned started;        /* helpers running */
    unsigned long long round; /* counts the launches handed to them */
    Sched *ws;               /* that launch's workers: helper k runs ws[k + 1] ... */
    unsigned want;           /* ... for k < want */
    unsigned busy;           /* helpers of this round not finished yet */
    unsigned long long born[RT_MAX_THREADS];   /* helper k waits for rounds after born[k] */
} Pool;

static Pool g_pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                       PTHREAD_COND_INITIALIZER, 0, 0, NULL, 0, 0, { 0 } };

static void *helper_main(void *arg)
{
    unsigned k = (unsigned)(uintptr_t)arg;
    pthread_mutex_lock(&g_pool.m);
    /* not the round now: a launch may have handed one out before this
     * thread got the lock, counting on it */
    unsigned long long seen = g_pool.born[k];
    for (;;) {
        while (g_pool.round == seen)
            pthread_cond_wait(&g_pool.go, &g_pool.m);
        seen = g_pool.round;
        if (k >= g_pool.want)
            continue;
        Sched *s = &g_pool.ws[k + 1];
        pthread_mutex_unlock(&g_pool.m);
        worker_main(s);
        pthread_mutex_lock(&g_pool.m);
        if (--g_pool.busy == 0)
            pthread_cond_signal(&g_pool.done);
    }
    return NULL;
}

/* A child of fork() has none of the parent's helpers: it starts its own. */
static void pool_after_fork(void)
{
    g_pool = (Pool){ .started = 0 };
    pthread_mutex_init(&g_pool.owner, NULL);
    pthread_mutex_init(&g_pool.m, NULL);
    pthread_cond_init(&g_pool.go, NULL);
    pthread_cond_init(&g_pool.done, NULL);
}

static void pool_register_fork(void)
{
    pthread_atfork(NULL, NULL, pool_after_fork);
}

/* At least n helpers running, as far as threads can be started; with
 * g_pool.owner held. Returns how many run. */
static unsigned pool_grow(unsigned n)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, pool_register_fork);
    if (n > RT_MAX_THREADS - 1)
        n = RT_MAX_THREADS - 1;
    while (g_pool.started < n) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_mutex_lock(&g_pool.m);
        g_pool.born[g_pool.started] = g_pool.round;
        bool ok = pthread_create(&t, &attr, helper_main, (void *)(uintptr_t)g_pool.started) == 0;
        if (ok)
            g_pool.started++;
        pthread_mutex_unlock(&g_pool.m);
        pthread_attr_destroy(&attr);
        if (!ok)
            break;
    }
    return g_pool.started;
}

void rt_host_prepare_threads(void)
{
    unsigned n = 1;
    char *err = NULL;
    if (rt_host_threads(&n, &err) != 0) {
        free(err);   /* the launch reports a bad FX_THREADS */
        return;
    }
    if (n > 1 && pthread_mutex_trylock(&g_pool.owner) == 0) {
        pool_grow(n - 1);
        pthread_mutex_unlock(&g_pool.owner);
    }
}

/* Workers 1 .. n-1 on the helpers (those beyond the helpers that run do
 * nothing: the others take their blocks), worker 0 here; false when the
 * helpers are another launch's. */
static bool run_on_helpers(Sched *ws, unsigned n)
{
    if (pthread_mutex_trylock(&g_pool.owner) != 0)
        return false;
    unsigned helpers = pool_grow(n - 1);
    if (helpers > n - 1)
        helpers = n - 1;
    pthread_mutex_lock(&g_pool.m);
    g_pool.ws = ws;
    g_pool.want = helpers;
    g_pool.busy = helpers;
    g_pool.round++;
    pthread_cond_broadcast(&g_pool.go);
    pthread_mutex_unlock(&g_pool.m);
    worker_main(&ws[0]);
    pthread_mutex_lock(&g_pool.m);
    while (g_pool.busy > 0)
        pthread_cond_wait(&g_pool.done, &g_pool.m);
    g_pool.ws = NULL;
    pthread_mutex_unlock(&g_pool.m);
    pthread_mutex_unlock(&g_pool.owner);
    return true;
}

/* Threads of this launch's own, when the helpers are busy. A thread that
 * cannot be started leaves its share to the ones that run. */
static void run_on_new_threads(Sched *ws, unsigned n)
{
    pthread_t *tid = calloc(n, sizeof *tid);
    bool *started = calloc(n, sizeof *started);
    if (!tid || !started)
        n = 1;
    for (unsigned w = 1; w < n; w++)
        started[w] = pthread_create(&tid[w], NULL, worker_main, &ws[w]) == 0;
    worker_main(&ws[0]);
    for (unsigned w = 1; w < n; w++)
        if (started[w])
            pthread_join(tid[w], NULL);
    free(tid);
    free(started);
}

/* Runs the workers: the calling thread is the first, helpers the others. */
static void run_workers(Sched *ws, unsigned n)
{
    bool handler = ws[0].k->waits && segv_handler_install();
    if (n == 1)
        worker_main(&ws[0]);
    else if (!run_on_helpers(ws, n))
        run_on_new_threads(ws, n);
    if (handler)
        sigaction(SIGSEGV, &saved_segv, NULL);
}

/* ---- threads ---- */

void rt_host_set_threads(unsigned n)
{
    g_threads = n;
}

int rt_host_threads(unsigned *n, char **err)
{
    if (g_threads) {
        *n = g_threads > RT_MAX_THREADS ? RT_MAX_THREADS : g_threads;
        return 0;
    }
    const char *env = getenv("FX_THREADS");
    if (env && *env) {
        char *end;
        errno = 0;
        long v = strtol(env, &end, 10);
        if (*end || errno || v < 1 || v > RT_MAX_THREADS) {
            *err = rt_strdupf("FX_THREADS='%s': expected a number of threads from 1 to %d", env, RT_MAX_THREADS);
            return -1;
        }
        *n = (unsigned)v;
        return 0;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    *n = cores < 1 ? 1 : cores > RT_MAX_THREADS ? RT_MAX_THREADS : (unsigned)cores;
    return 0;
}

/* ---- one launch ---- */

/* ctx->state for a kernel with K__fxstate (its work-item loops' copies):
 * its bytes for each lane of the block's waves (after snaps_init, which
 * counts them). */
static int state_init(Sched *s, char **err)
{
    if (s->k->state_bytes <= 0)
        return 0;
    size_t wave = s->k->wave_size > 0 ? (size_t)s->k->wave_size : 1;
    size_t bytes = (size_t)s->k->state_bytes * s->nwaves * wave;
    s->item.ctx.state = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
    if (!s->item.ctx.state) {
        *err = rt_strdupf("cannot allocate %zu bytes for a block's work-item copies", bytes);
        return -1;
    }
    return 0;
}

/* A worker's own state: its block's shared memory, work-item copies, wave
 * snapshots and (for kernels that wait) fibers; the rest is the launch's. */
static int worker_init(Sched *s, const Sched *proto, size_t nt, char **err)
{
    *s = *proto;
    s->item.sched = s;
    FxHostCtx *ctx = &s->item.ctx;
    *ctx = proto->item.ctx;
    ctx->rt = &s->item;
    if (s->k->shared_bytes > 0) {
        ctx->shared = aligned_alloc(64, ((size_t)s->k->shared_bytes + 63) & ~(size_t)63);
        if (!ctx->shared) {
            *err = rt_strdupf("cannot allocate %lld bytes of shared memory", (long long)s->k->shared_bytes);
            return -1;
        }
    }
    if (snaps_init(s, nt, err) || state_init(s, err) || (s->k->waits && sched_init(s, nt, err)))
        return -1;
    return 0;
}

static void worker_free(Sched *s)
{
    sched_free(s);
    free(s->item.ctx.shared);
    free(s->item.ctx.state);
    free(s->error);
    free(s->err);
}

/* The error of the lowest failed block (see note_failure), taken from its
 * worker; *assert_failed says whether it is a failed fx.assert. */
static char *take_failure(Sched *ws, unsigned n, bool *assert_failed)
{
    Sched *first = NULL;
    for (unsigned w = 0; w < n; w++)
        if (ws[w].failed && (!first || ws[w].block_now < first->block_now))
            first = &ws[w];
    if (!first)
        return NULL;
    *assert_failed = first->error && first->assert_failed;
    char **msg = first->error ? &first->error : &first->err;
    char *m = *msg ? *msg : rt_strdupf("kernel '%s' failed", first->kernel);
    *msg = NULL;
    return m;
}

/* How many workers: one with the checker (its shadow of shared memory is
 * one block's), at most one a block. */
static unsigned launch_workers(const Sched *proto, unsigned long long nblocks, char **err)
{
    unsigned n = 1;
    if (!proto->checker && rt_host_threads(&n, err))
        return 0;
    return nblocks < n ? (unsigned)nblocks : n;
}

static int run_launch(Sched *proto, size_t nt, char **err)
{
    unsigned n = launch_workers(proto, proto->g->nblocks, err);
    if (!n)
        return -1;
    Sched *ws = calloc(n, sizeof *ws);
    if (!ws)
        abort();
    unsigned ready = 0;
    while (ready < n && worker_init(&ws[ready], proto, nt, err) == 0)
        ready++;
    int rc = -1;
    if (ready < n) {
        worker_free(&ws[ready]);   /* the one that failed: what it got */
        if (ready > 0) {           /* fewer workers do the same work */
            free(*err);
            *err = NULL;
        }
    }
    if (ready > 0) {
        RtGrid *g = proto->g;
        g->chunk = grid_chunk(g->nblocks, ready);
        RtPrintOrder order;
        if (ready > 1) {
            rt_print_order_init(&order, stdout);
            g->print = &order;   /* the workers share g */
        }
        run_workers(ws, ready);
        if (g->print) {
            rt_print_order_finish(&order);
            g->print = NULL;
        }
        bool assert_failed = false;
        *err = take_failure(ws, ready, &assert_failed);
        rc = !*err ? 0 : assert_failed ? RT_LAUNCH_ASSERT : -1;
    }
    for (unsigned w = 0; w < ready; w++)
        worker_free(&ws[w]);
    free(ws);
    return rc;
}

int rt_host_launch_checked(RtHostModule *m, const char *name, const unsigned grid[3],
                           const unsigned block[3], void **args, const size_t *arg_bytes, char **err)
{
    RtLaunchOptions o = { .arg_bytes = arg_bytes };
    return rt_host_launch_with(m, name, grid, block, args, &o, err);
}

int rt_host_launch_checking(RtHostModule *m, const char *name, const unsigned grid[3], const unsigned block[3],
                            void **args, const size_t *arg_bytes, unsigned checks, char **err)
{
    RtLaunchOptions o = { .arg_bytes = arg_bytes, .checks = checks };
    return rt_host_launch_with(m, name, grid, block, args, &o, err);
}

/* The block's shared memory: the static arrays, then the launch's dynamic
 * bytes (where the kernel's Array[T, DYN] lives: fxhost.h). */
static int add_dynamic_shared(RtKernel *k, const char *name, size_t dyn, int64_t *dyn_count, char **err)
{
    if (dyn > RT_MAX_SHARED_BYTES || (uint64_t)k->shared_bytes + dyn > RT_MAX_SHARED_BYTES) {
        *err = rt_strdupf("kernel '%s' would have %lld bytes of static and %zu of dynamic shared memory per block, "
                          "more than the %d a block gets", name, (long long)k->shared_bytes, dyn,
                          RT_MAX_SHARED_BYTES);
        return -1;
    }
    *dyn_count = k->dyn_elem_bytes > 0 ? (int64_t)dyn / k->dyn_elem_bytes : 0;
    k->shared_bytes += (int64_t)dyn;
    return 0;
}

int rt_host_launch_with(RtHostModule *m, const char *name, const unsigned grid[3], const unsigned block[3],
                        void **args, const RtLaunchOptions *o, char **err)
{
    *err = NULL;
    RtKernel k;
    const size_t *arg_bytes = o->arg_bytes;
    unsigned checks = o->checks;
    int64_t dyn_count = 0;
    if (rt_host_kernel(m, name, &k, err) || add_dynamic_shared(&k, name, o->shared_bytes, &dyn_count, err))
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
    if (k.wave_size < 1 || k.wave_size > 64 || (k.wave_size & (k.wave_size - 1))) {
        *err = rt_strdupf("kernel '%s' has waves of %d lanes; expected a power of two up to 64", name, k.wave_size);
        free(bounds);
        return -1;
    }
    RtGrid g = { .nblocks = nb, .chunk = 1 };
    memcpy(g.grid, grid, sizeof g.grid);
    memcpy(g.block, block, sizeof g.block);
    atomic_init(&g.next, 0);
    atomic_init(&g.fail_at, nb);
    Sched proto = { 0 };
    proto.g = &g;
    proto.entry = k.entry;
    proto.args = args;
    proto.kernel = name;
    proto.k = &k;
    proto.bounds = bounds;
    FxHostCtx *ctx = &proto.item.ctx;
    for (int d = 0; d < 3; d++) {
        ctx->block_dim[d] = (int32_t)block[d];
        ctx->grid_dim[d] = (int32_t)grid[d];
    }
    ctx->barrier = seq_barrier;
    ctx->wave_exchange = seq_exchange;
    ctx->bounds = bounds;
    ctx->oob = rt_oob;
    ctx->print = rt_print;
    ctx->assert_fail = rt_assert_fail;
    ctx->dyn_count = dyn_count;
    ctx->overflow = rt_overflow;
    ctx->diverged = rt_diverged;
    if (checks && k.checked) {
        proto.checker = rt_check_new(checks, name, (size_t)k.shared_bytes, block);
        ctx->check = proto.checker ? check_access : NULL;
    }
    int rc = run_launch(&proto, (size_t)nt, err);
    char *found = proto.checker ? rt_check_take_report(proto.checker) : NULL;
    if (found && rc == 0) {
        *err = found;
        rc = -1;
    } else {
        free(found);
    }
    rt_check_free(proto.checker);
    free(bounds);
    return rc;
}

int rt_host_launch(RtHostModule *m, const char *name, const unsigned grid[3],
                   const unsigned block[3], void **args, char **err)
{
    return rt_host_launch_checked(m, name, grid, block, args, NULL, err);
}
