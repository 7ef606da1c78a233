/* limits.c - the limits that keep sema inside the C stack and a kernel's
 * code inside what LLVM compiles in reasonable time (docs/limits.md).
 *
 * Sema recurses over expressions and blocks, into a const's initializer when
 * the const is first used, and into a fn's body when it is first called.
 * Three counters bound that recursion; each limit is reported once, at the
 * construct that crosses it, and every frame above it then fails quietly.
 *
 * Unrolling (static_range) and inlining (every fn call is inlined into its
 * kernel) multiply code: a function's size counts the FXIR instructions it
 * emits, each unrolled iteration, and the whole inlined size of every fn it
 * calls. The size is checked while it grows, so a call tree of 2^40 calls
 * stops at the first call that crosses the limit instead of after gigabytes. */
#include "sema/sema_int.h"

/* Fail quietly after the first report: the frames unwinding from a limit
 * would otherwise each report it again. */
static bool report_once(Ctx *c)
{
    if (c->sema->deep_reported)
        return false;
    c->sema->deep_reported = true;
    return true;
}

bool sema_enter(Ctx *c, Loc loc)
{
    if (c->sema->nesting >= SEMA_MAX_NESTING) {
        if (report_once(c))
            diag_error(loc, "expressions and blocks nest more than %d levels deep here, counting those of the "
                       "consts and fns they use (docs/limits.md)", SEMA_MAX_NESTING);
        return false;
    }
    c->sema->nesting++;
    return true;
}

void sema_leave(Ctx *c)
{
    c->sema->nesting--;
}

bool sema_enter_const(Ctx *c, const char *name, Loc use)
{
    if (c->sema->const_depth >= SEMA_MAX_CONST_DEPTH) {
        if (report_once(c))
            diag_error(use, "the value of const '%s' is needed inside a chain of %d consts, each needing the "
                       "next; define consts before their uses to shorten the chain (docs/limits.md)", name,
                       SEMA_MAX_CONST_DEPTH);
        return false;
    }
    c->sema->const_depth++;
    return true;
}

bool sema_enter_call(Ctx *c, const char *name, Loc call)
{
    if (c->sema->call_depth >= SEMA_MAX_CALL_DEPTH) {
        if (report_once(c))
            diag_error(call, "the call of '%s' is the end of a chain of more than %d fn calls, each in the "
                       "body of the one before (docs/limits.md)", name, SEMA_MAX_CALL_DEPTH);
        return false;
    }
    return true;
}

/* Instructions of the current function so far (the builder's count is
 * added to fn->size each time sema_builder starts it anew). */
long sema_fn_size(Ctx *c)
{
    return c->fn ? c->fn->size + c->b.placed : 0;
}

bool sema_grow(Ctx *c, long n, Loc loc, const char *callee)
{
    FnCtx *f = c->fn;
    if (!f || !f->func)
        return true;
    if (f->too_big)
        return false;
    f->size += n;
    long size = sema_fn_size(c);
    if (size <= SEMA_MAX_KERNEL_SIZE)
        return true;
    f->too_big = true;
    const char *what = f->func->kind == FXF_KERNEL ? "kernel" : "fn";
    if (callee)
        diag_error(loc, "%s '%s' grows past %d FXIR instructions here: every fn is inlined, and '%s' "
                   "brings %ld (docs/limits.md)", what, f->func->name, SEMA_MAX_KERNEL_SIZE, callee, n);
    else if (n > 0)
        diag_error(loc, "unrolling this static_range grows %s '%s' past %d FXIR instructions "
                   "(docs/limits.md)", what, f->func->name, SEMA_MAX_KERNEL_SIZE);
    else
        diag_error(loc, "%s '%s' grows past %d FXIR instructions with this statement (docs/limits.md)", what,
                   f->func->name, SEMA_MAX_KERNEL_SIZE);
    return false;
}
