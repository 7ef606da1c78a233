/* divergence.c - which barriers only some work-items of a block may reach:
 * an fx.barrier() (or a call of a fn that reaches one) under an `if`, a
 * loop, or an earlier return, break or continue that depends on thread_idx
 * (a continue until the end of its round: the work-items meet again at the
 * loop's step; a loop's head from the second round on when its test
 * depends on thread_idx). On a GPU such a barrier hangs the block or is
 * undefined. sema reports
 * each one as -Wdivergent-barrier; the host backend runs a kernel with none
 * as work-item loops between its barriers (codegen/host/cg_hostregion.c), where
 * work-items that disagree could not be followed. For the host's wave model
 * (waves wider than one lane) a wave exchange counts as a barrier too: the
 * regions cut there, so every work-item of the block must reach it.
 *
 * The analysis runs on one function's FXIR. A value is thread-dependent
 * when it is thread_idx (or the lane id), the result of an atomic or a wave
 * operation, computed from a thread-dependent value, or the value of a
 * call whose fn returns a thread-dependent value given the call's
 * arguments (the fn judged with them: block_max(d) is uniform, a fn that
 * returns thread_idx.x is not, whatever its arguments); a variable slot is
 * when a thread-dependent value, or any value under thread-dependent
 * control, is stored to it; a load is when its address or slot is. Slots
 * make it a fixpoint, iterated until nothing changes. Parameters of a fn
 * count as uniform, so a fn's own conditions are judged on their own; a
 * call under uniform control is judged again with its arguments: when a
 * thread-dependent argument makes more of the fn's barriers divergent than
 * the fn has by itself, the call is reported (the fn's own ones are
 * reported where the fn is). Shared memory counts as uniform: a
 * load at a uniform address after a barrier is the same in every
 * work-item (a data race can still make it differ, which the host backend
 * checks at run time). */
#include "fxir/fxir.h"
#include "support/arena.h"
#include <stdint.h>

/* How many divergent barriers (and continues) a fn has with some of its
 * first 64 parameters thread-dependent: calls judged once per fn and
 * argument pattern, so a chain of fns that pass thread-dependent values
 * down costs one analysis per fn, not one per path. The same list keeps
 * whether a fn reaches a barrier at all (entries that are not verdicts). */
typedef struct FxJudged Judged;
struct FxJudged {
    const FxFunc *fn;
    bool judged;          /* a verdict; else only `reaches` is known */
    bool reaches;         /* the fn runs a barrier on some path */
    uint64_t dependent;   /* bit k: parameter k */
    int count;
    int continues;        /* divergent continues (fxir_divergent_continues) */
    bool value_dependent; /* what the fn returns may differ between work-items */
    Judged *next;
};

/* Where what is known of fns is kept (the memo), its arena, and what
 * counts as a barrier: with `exchanges`, a wave exchange too (the host's
 * wave model, where the lanes of a wave wait for each other there; the
 * memo's verdicts hold for one setting). */
typedef struct Memo {
    Arena *arena;
    Judged **judged;
    bool exchanges;
} Memo;

/* What the analysis of one function finds. */
typedef struct Verdict {
    int count;            /* divergent barriers, one more when it gave up */
    int continues;        /* divergent continues out of loops that reach a barrier,
                             one more when it gave up */
    bool value_dependent; /* a return gives a thread-dependent value, or runs under
                             thread-dependent control (or the analysis gave up) */
} Verdict;

typedef struct Divergence {
    Memo memo;            /* shared by nested analyses, and kept by callers */
    bool *dependent;      /* by instruction id */
    int count;
    bool changed;
    bool report;          /* the last sweep: report each divergent barrier */
    const bool *param_dependent;   /* by parameter index, or NULL: all uniform */
    int nparams;
    FxDivergentBarrierFn fn;
    void *data;
    int found;            /* divergent barriers, in the last sweep */
    int found_continues;  /* divergent continues, in the last sweep */
    bool value_dependent; /* see Verdict; found in the last sweep */
    bool continues;       /* fn gets the divergent continues, not the barriers */
    bool loop_waits;      /* the innermost loop reaches a barrier */
    const FxInst *left_at[3];   /* the last jump walked that some work-items take,
                                   by kind (LEFT_BREAK, LEFT_FN, LEFT_ITERATION) */
    const FxInst **loop_left;   /* by a loop's id: the jump that first made its later
                                   rounds divergent, kept across sweeps */
    signed char *loop_waits_at; /* by a loop's id: whether it reaches a barrier (-1: not
                                   known yet), so each sweep does not walk it again */
} Divergence;

static const Judged *judged_with(const Divergence *d, FxFunc *callee, const bool *dep);
static bool *arguments_dependent(const Divergence *d, const FxInst *call, const FxInst **first);

static int number_block(FxBlock *b, int next)
{
    for (FxInst *i = b->first; i; i = i->next) {
        i->id = next++;
        for (int k = 0; k < i->nblocks; k++)
            next = number_block(&i->blocks[k], next);
    }
    return next;
}


static Memo memo_of(const Divergence *d)
{
    return d->memo;
}

/* Whether i waits for other work-items by itself (not through a call). */
static bool is_barrier(Memo m, const FxInst *i)
{
    return i->op == FX_BARRIER || (m.exchanges && i->op == FX_WAVE_EXCHANGE);
}

static bool block_reaches_barrier(Memo m, const FxBlock *b);

/* Whether fn f runs a barrier on some path (fns are not recursive): from
 * the memo, or found and remembered, so a chain of fns is walked once. */
static bool fn_reaches_barrier(Memo m, const FxFunc *f)
{
    if (!f)
        return false;
    for (const Judged *j = *m.judged; j; j = j->next)
        if (j->fn == f)
            return j->reaches;
    bool reaches = block_reaches_barrier(m, &f->body);
    Judged *j = arena_alloc(m.arena, sizeof *j);
    *j = (Judged){ .fn = f, .judged = false, .reaches = reaches, .next = *m.judged };
    *m.judged = j;
    return reaches;
}

static bool inst_reaches_barrier(Memo m, const FxInst *i)
{
    if (is_barrier(m, i))
        return true;
    if (i->op == FX_CALL && fn_reaches_barrier(m, i->callee))
        return true;
    for (int k = 0; k < i->nblocks; k++)
        if (block_reaches_barrier(m, &i->blocks[k]))
            return true;
    return false;
}

static bool block_reaches_barrier(Memo m, const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next)
        if (inst_reaches_barrier(m, i))
            return true;
    return false;
}

static bool is_dependent(const Divergence *d, const FxInst *i)
{
    return i && i->id >= 0 && i->id < d->count && d->dependent[i->id];
}

static void mark(Divergence *d, FxInst *i)
{
    if (!d->dependent[i->id]) {
        d->dependent[i->id] = true;
        d->changed = true;
    }
}

/* Whether instruction i's own value differs between work-items. */
static bool computes_dependent(const Divergence *d, const FxInst *i)
{
    switch (i->op) {
    case FX_SPECIAL:
        return i->sub == FXS_THREAD_IDX || i->sub == FXS_LANE_ID;
    case FX_ATOMIC: case FX_WAVE: case FX_WAVE_EXCHANGE: case FX_WAVE_ACTIVE:
        return true;
    case FX_PARAM:
        return d->param_dependent && i->param_index >= 0 && i->param_index < d->nparams &&
               d->param_dependent[i->param_index];
    case FX_ALLOCA: case FX_CONST:
        return false;
    case FX_CALL:
        return i->callee && judged_with(d, i->callee, arguments_dependent(d, i, NULL))->value_dependent;
    default:
        break;
    }
    for (int k = 0; k < i->nops; k++)
        if (is_dependent(d, i->ops[k]))
            return true;
    return false;
}

/* The control state of a walk: whether work-items may disagree about
 * being here, and the instruction (an IF, a LOOP, a jump) that made them. */
typedef struct Control {
    bool divergent;
    const FxInst *why;
} Control;

/* What some work-items, maybe not all, did in the code walked: left the
 * loop (break), its iteration (continue) or the function (return) under
 * thread-dependent control. What follows then runs in only some of them:
 * up to the loop's end for a continue (they meet again at its step), for
 * good for a break or return. */
enum { LEFT_BREAK = 1, LEFT_FN = 2, LEFT_ITERATION = 4 };

/* Where left_at keeps the jump for `left` (LEFT_ bits): the strongest kind
 * in it, a return before a break before a continue. */
static int left_slot(int left)
{
    return left & LEFT_FN ? 1 : left & LEFT_BREAK ? 0 : 2;
}

static int walk_block(Divergence *d, FxBlock *b, Control *ctl);
static Verdict judge(Memo m, FxFunc *f, const bool *param_dependent, bool continues, FxDivergentBarrierFn fn,
                     void *data);

/* In the last sweep: a divergent barrier (or a call that reaches one), or
 * with `jump` a divergent continue (or a call whose arguments make one of
 * the fn's continues divergent); fn gets the kind the caller asked for. */
static void report(Divergence *d, const FxInst *i, const Control *ctl, bool jump)
{
    if (!d->report)
        return;
    if (jump)
        d->found_continues++;
    else
        d->found++;
    if (d->fn && jump == d->continues)
        d->fn(d->data, i, ctl->why);
}

static int walk_if(Divergence *d, FxInst *i, Control *ctl)
{
    Control inner = *ctl;
    if (!inner.divergent && is_dependent(d, i->ops[0]))
        inner = (Control){ true, i };
    int left = 0;
    for (int k = 0; k < i->nblocks; k++) {
        Control arm = inner;
        left |= walk_block(d, &i->blocks[k], &arm);
    }
    return left;
}

static int walk_loop(Divergence *d, FxInst *i, Control *ctl)
{
    /* Two rounds: what the body stores may make the next test dependent,
     * and work-items that left at a thread-dependent test, by a break or by
     * a return make the next iterations divergent (their head too). Those
     * that continued meet the others at the step; those that broke out meet
     * them after the loop; those that returned do not. */
    Control loop = *ctl;
    bool outer_waits = d->loop_waits;
    const FxInst *outer_left[3] = { d->left_at[0], d->left_at[1], d->left_at[2] };
    if (d->loop_waits_at[i->id] < 0)
        d->loop_waits_at[i->id] = inst_reaches_barrier(memo_of(d), i);
    d->loop_waits = d->loop_waits_at[i->id];
    int left = 0;
    for (int round = 0; round < 2; round++) {
        Control head = loop;
        left |= walk_block(d, &i->blocks[0], &head);
        /* a counter a break or return made thread-dependent is the jump's doing */
        Control start = head;
        if (!start.divergent && is_dependent(d, i->ops[0]))
            start = (Control){ true, d->loop_left[i->id] ? d->loop_left[i->id] : i };
        Control body = start;
        int body_left = walk_block(d, &i->blocks[1], &body);
        int gone = body_left & (LEFT_BREAK | LEFT_FN);
        if (gone && !start.divergent && !d->loop_left[i->id])
            d->loop_left[i->id] = body.why;
        Control step = start;
        if (gone && !step.divergent)
            step = body;
        if (i->nblocks > 2)
            body_left |= walk_block(d, &i->blocks[2], &step);
        if (!loop.divergent && (gone || start.divergent))
            loop = (Control){ true, start.divergent ? start.why : body.why ? body.why : i };
        left |= body_left & LEFT_FN;
    }
    /* this loop's breaks and continues end here: an outer jump is why again */
    d->loop_waits = outer_waits;
    d->left_at[left_slot(LEFT_BREAK)] = outer_left[left_slot(LEFT_BREAK)];
    d->left_at[left_slot(LEFT_ITERATION)] = outer_left[left_slot(LEFT_ITERATION)];
    return left;
}

/* Which of the callee's parameters get a thread-dependent argument at
 * call (NULL when none does); *first, when asked, the first such argument. */
static bool *arguments_dependent(const Divergence *d, const FxInst *call, const FxInst **first)
{
    const FxFunc *callee = call->callee;
    bool *dep = NULL;
    for (int k = 0; k < callee->nparams && k < call->nops; k++) {
        if (!is_dependent(d, call->ops[k]))
            continue;
        if (!dep) {
            dep = arena_alloc(d->memo.arena, (size_t)callee->nparams * sizeof *dep);
            for (int j = 0; j < callee->nparams; j++)
                dep[j] = false;
            if (first)
                *first = call->ops[k];
        }
        dep[k] = true;
    }
    return dep;
}

/* The verdict on callee with parameters dep (NULL: none) thread-dependent:
 * from the memo (one analysis per fn and pattern of its first 64
 * parameters), or made and remembered. A fn with more parameters is
 * judged with all of them thread-dependent when any is. */
static const Judged *judged_with(const Divergence *d, FxFunc *callee, const bool *dep)
{
    bool *all = NULL;
    if (dep && callee->nparams > 64) {
        all = arena_alloc(d->memo.arena, (size_t)callee->nparams * sizeof *all);
        for (int k = 0; k < callee->nparams; k++)
            all[k] = true;
        dep = all;
    }
    uint64_t bits = 0;
    for (int k = 0; dep && k < callee->nparams && k < 64; k++)
        bits |= (uint64_t)dep[k] << k;
    for (Judged *j = *d->memo.judged; j; j = j->next)
        if (j->fn == callee && j->judged && j->dependent == bits)
            return j;
    Verdict v = judge(d->memo, callee, dep, false, NULL, NULL);
    Judged *j = arena_alloc(d->memo.arena, sizeof *j);
    *j = (Judged){ callee, true, fn_reaches_barrier(memo_of(d), callee), bits, v.count, v.continues,
                   v.value_dependent, *d->memo.judged };
    *d->memo.judged = j;
    return j;
}

/* A call of a fn that reaches a barrier, under uniform control: reported
 * when its thread-dependent arguments make barriers (or continues) of the
 * fn divergent that are not so by themselves; `why` is the first such
 * argument. */
static void judge_call(Divergence *d, FxInst *call)
{
    const FxInst *why = NULL;
    bool *dep = arguments_dependent(d, call, &why);
    if (!dep)
        return;
    const Judged *with = judged_with(d, call->callee, dep), *without = judged_with(d, call->callee, NULL);
    if (with->count > without->count)
        report(d, call, &(Control){ true, why }, false);
    if (with->continues > without->continues)
        report(d, call, &(Control){ true, why }, true);
}

/* A jump (of kind `how`, a LEFT_ bit): taken by only some work-items under
 * thread-dependent control, which it returns, or by all or none (0). */
static int left_by(Divergence *d, const FxInst *jump, const Control *ctl, int how)
{
    if (!ctl->divergent)
        return 0;
    d->left_at[left_slot(how)] = jump;
    return how;
}

static int walk_inst(Divergence *d, FxInst *i, Control *ctl)
{
    switch (i->op) {
    case FX_IF:
        return walk_if(d, i, ctl);
    case FX_LOOP:
        return walk_loop(d, i, ctl);
    case FX_STORE:
        /* a private variable; shared arrays count as memory: a load at a
         * uniform address after a barrier is the same in every work-item */
        if (i->ops[0]->op == FX_ALLOCA && i->ops[0]->space == FXSPACE_PRIVATE &&
            (ctl->divergent || computes_dependent(d, i)))
            mark(d, i->ops[0]);
        return 0;
    case FX_BARRIER: case FX_WAVE_EXCHANGE:
        if (ctl->divergent && is_barrier(d->memo, i))
            report(d, i, ctl, false);
        break;
    case FX_RETURN:
        if (d->report && (ctl->divergent || (i->nops > 0 && is_dependent(d, i->ops[0]))))
            d->value_dependent = true;
        return left_by(d, i, ctl, LEFT_FN);
    case FX_BREAK:
        return left_by(d, i, ctl, LEFT_BREAK);
    case FX_CONTINUE:
        if (ctl->divergent && d->loop_waits)
            report(d, i, ctl, true);
        return left_by(d, i, ctl, LEFT_ITERATION);
    case FX_CALL:
        if (ctl->divergent && fn_reaches_barrier(memo_of(d), i->callee))
            report(d, i, ctl, false);
        else if (d->report && fn_reaches_barrier(memo_of(d), i->callee))
            judge_call(d, i);
        break;
    default:
        break;
    }
    if (computes_dependent(d, i))
        mark(d, i);
    return 0;
}

/* After a statement that some work-items left from, the rest of the block
 * runs in the others only; the jump they took is why (a return before a
 * break, a break before a continue). */
static int walk_block(Divergence *d, FxBlock *b, Control *ctl)
{
    int left = 0;
    for (FxInst *i = b->first; i; i = i->next) {
        int now = walk_inst(d, i, ctl);
        if (now && !ctl->divergent)
            *ctl = (Control){ true, d->left_at[left_slot(now)] };
        left |= now;
    }
    return left;
}

/* The analysis of f with the parameters param_dependent marks (NULL: none)
 * counted as thread-dependent; it reports divergent barriers, or with
 * `continues` divergent continues. */
static Verdict judge(Memo m, FxFunc *f, const bool *param_dependent, bool continues, FxDivergentBarrierFn fn,
                     void *data)
{
    Arena *a = m.arena;
    Divergence d = { m, NULL, number_block(&f->body, 0), true, false, param_dependent, f->nparams,
                     fn, data, 0, 0, false, continues, false, { NULL, NULL, NULL }, NULL, NULL };
    d.dependent = arena_alloc(a, (size_t)(d.count ? d.count : 1) * sizeof *d.dependent);
    d.loop_left = arena_alloc(a, (size_t)(d.count ? d.count : 1) * sizeof *d.loop_left);
    d.loop_waits_at = arena_alloc(a, (size_t)(d.count ? d.count : 1) * sizeof *d.loop_waits_at);
    for (int i = 0; i < d.count; i++) {
        d.dependent[i] = false;
        d.loop_left[i] = NULL;
        d.loop_waits_at[i] = -1;
    }
    for (int sweep = 0; d.changed && sweep < 64; sweep++) {
        d.changed = false;
        Control ctl = { false, NULL };
        walk_block(&d, &f->body, &ctl);
    }
    bool gave_up = d.changed;
    d.report = true;
    Control ctl = { false, NULL };
    walk_block(&d, &f->body, &ctl);
    return (Verdict){ d.found + gave_up, d.found_continues + gave_up, d.value_dependent || gave_up };
}

/* The analysis of f with its parameters uniform; nothing to find when f
 * reaches no barrier. */
static Verdict judge_uniform(Memo m, FxFunc *f, bool continues, FxDivergentBarrierFn fn, void *data)
{
    Judged *local = NULL;
    if (!m.judged)
        m.judged = &local;
    if (!fn_reaches_barrier(m, f))
        return (Verdict){ 0, 0, false };
    return judge(m, f, NULL, continues, fn, data);
}

int fxir_divergent_barriers(Arena *a, FxJudged **memo, FxFunc *f, FxDivergentBarrierFn fn, void *data)
{
    return judge_uniform((Memo){ a, memo, false }, f, false, fn, data).count;
}

int fxir_divergent_continues(Arena *a, FxJudged **memo, bool exchanges, FxFunc *f, FxDivergentBarrierFn fn,
                             void *data, int *barriers)
{
    Verdict v = judge_uniform((Memo){ a, memo, exchanges }, f, true, fn, data);
    if (barriers)
        *barriers = v.count;
    return v.continues;
}
