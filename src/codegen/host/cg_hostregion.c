/* cg_hostregion.c - host: a kernel with barriers as work-item loops between
 * them (the region approach of POCL's work-item loops).
 *
 * On fibers (runtime/rt_launch.c) every work-item of a block runs until it
 * reaches a barrier, and the switches cost a quarter of a tiled GEMM's time.
 * When every barrier of a kernel sits where all work-items of the block
 * reach it (fxir/divergence.c finds none divergent), the barriers cut the
 * kernel into regions, and a block runs each region as one loop over its
 * work-items (z, y, x; x fastest: the order fibers run them in, so prints,
 * races and the first error are the same):
 *   - statements without a barrier run inside a work-item loop, one loop for
 *     a whole run of them;
 *   - an `if` or a loop with a barrier inside runs once for the block: its
 *     condition is evaluated by every work-item in a loop, which checks that
 *     they agree (only a data race can make them differ: the analysis proved
 *     the condition uniform), and the block follows their decision;
 *   - a value computed in one region and used in another, and a variable
 *     slot used in several, get one copy per work-item (an array indexed by
 *     the work-item's number); the rest stays in registers;
 *   - a `return` marks the work-item done: later loops skip it, and a
 *     decision that no work-item takes any more ends the block (in a fn
 *     emitted in place, the call: see below);
 *   - a `break` or `continue` that leaves a loop with a barrier (the loop
 *     runs once for the block) ends the work-item's part of its region;
 *     after the region the block follows the work-items, which must all
 *     have left the same way or none (the analysis proved the jump
 *     uniform: only a race can make them differ).
 * The kernel function itself becomes the block's function; the runtime
 * calls it through K__fxblock once per block, and K__fxsync is 0.
 *
 * A call of a fn that waits (common.fx's block_sum) runs once for the block
 * too: the fn's body is cut into regions in place, its parameters stand for
 * the call's arguments, and its return stores the call's value. The fn's
 * own barriers must be uniform with uniform arguments (the kernel's
 * analysis judges each call's arguments). A return in its last region (after
 * its last wait) goes on to the next work-item; one before it marks the
 * work-item done with this call, so the fn's later loops skip it, and the
 * marks are cleared after the call. (The analysis makes a return that some
 * work-items take before a barrier a divergent barrier, so only a race can
 * make them differ there.)
 *
 * Kernels stay on fibers when a barrier is divergent, when a fn they call
 * waits but cannot be cut so, when they exchange values in waves wider than
 * one lane, with the checker (--check, which tracks each work-item at its
 * barriers), with --host-barriers=fibers, and when the per-work-item copies
 * would take more than CG_REGION_STATE_BYTES at the kernel's launch bound. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include "abi/fxhost.h"
#include <string.h>

/* A call of a fn that waits, emitted in place (innermost first). */
typedef struct Inline {
    FxInst *call;
    CgFunc *caller;          /* c->cur outside the call */
    struct Inline *outer;
    LLVMBasicBlockRef after; /* the call is over: where a decision nobody takes goes */
    int depth;               /* 1 for a call in the kernel, 2 in such a fn, ... */
} Inline;

/* A loop with a barrier, run once for the block (innermost first). */
typedef struct BlockLoop {
    LLVMBasicBlockRef cont, brk;
    struct BlockLoop *outer;
} BlockLoop;

/* The work-item loop being emitted. */
typedef struct Region {
    LLVMValueRef wi;         /* i32: the work-item's number in the block */
    LLVMBasicBlockRef top;   /* copies of other regions' values are loaded here */
    LLVMBasicBlockRef next;  /* on to the next work-item (a return goes here) */
    CgLoop *loop;            /* c->loop outside the region: a jump to it leaves the region */
    const FxInst *jump_site; /* the statement being emitted, when one of the run jumps out */
} Region;

/* What `decided` holds: the work-items' value of a condition, or how they
 * left a region that may jump out of its block-level loop (0: no work-item
 * took part yet). */
enum { DECIDED_FALSE = 1, DECIDED_TRUE = 2, LEFT_ON = 1, LEFT_BREAK = 2, LEFT_CONTINUE = 3 };

struct CgRegionPlan {
    CgMap region;            /* FxInst* -> (void *)(region number + 2); 1: block level */
    CgMap spilled;           /* FxInst* -> non-NULL: one copy per work-item */
    CgMap planned;           /* FxFunc* of a fn that waits -> non-NULL once its body is numbered */
    CgMap decides;           /* FxInst* of a loop run by the block -> (void *)(the region
                                that decides its condition + 2) */
    CgMap tails;             /* FxInst* of a continue that ends its iteration anyway */
    PtrVec spills;           /* the same instructions, in program order */
    PtrVec shared;           /* shared arrays: their address is made again in each region */
    CgMap remade;            /* FxInst* -> non-NULL: made again in each region that uses it */
    PtrVec remades;          /* the same instructions */
    PtrVec snapshots;        /* wave exchanges whose snapshot a later region reads */
    CgMap masked;            /* FxInst* of a wave_active -> the exchange whose lanes it reads */
    PtrVec masks;            /* the exchanges a wave_active reads, once each */
    int nexchanges;          /* in waves wider than one lane: of the kernel and the fns emitted
                                in place, each fn once */
    bool unplanned;          /* something the regions cannot follow (see find_spills) */
    int nregions;
    bool returns;            /* work-items can be done: a return of the kernel, or of a
                                fn emitted in place before its last region */
    int64_t heap_lane_bytes; /* when the copies are too many for the stack: ctx->state's bytes
                                per lane (K__fxstate); 0: they are on the stack */

    /* while the kernel is emitted */
    CgMap slots;             /* FxInst* -> alloca of one copy per work-item */
    LLVMValueRef dim[3];     /* block_dim */
    LLVMValueRef items;      /* i32: work-items in the block */
    LLVMValueRef lanes;      /* i32: items, up to a whole number of waves */
    LLVMValueRef heap;       /* ctx->state, with heap_lane_bytes */
    int64_t heap_used;       /* its bytes per lane taken so far */
    LLVMValueRef done;       /* i8 per work-item, or NULL without returns: 0 taking part,
                                1 returned from the kernel, d + 1 returned from the fn
                                emitted in place at depth d (cleared after its call) */
    LLVMValueRef decided;    /* i8: see DECIDED_FALSE */
    CgMap mask_arrays;       /* exchange -> i64 per wave: the lanes that came to it */
    LLVMBasicBlockRef exit;  /* the block is finished */
    Region *cur;
    BlockLoop *loop;         /* the innermost loop with a barrier, or NULL */
    Inline *inl;             /* the fn being emitted in place, or NULL */
};

/* ---- the plan: which kernels, which regions, which copies ---- */

/* Whether i leaves an enclosing loop (a break or continue not inside a
 * loop of its own). */
static bool jumps_out(const FxInst *i)
{
    if (i->op == FX_BREAK || i->op == FX_CONTINUE)
        return true;
    if (i->op == FX_LOOP)
        return false;
    for (int k = 0; k < i->nblocks; k++)
        for (const FxInst *j = i->blocks[k].first; j; j = j->next)
            if (jumps_out(j))
                return true;
    return false;
}

static bool region_shape(CgCtx *c, const FxBlock *b, int depth);

/* Calls of fns that wait nested deeper stay on fibers: done[] holds the depth
 * of a fn returned from in a byte. */
enum { MAX_CALL_DEPTH = 100 };

static bool has_return(const FxInst *i)
{
    if (i->op == FX_RETURN)
        return true;
    for (int k = 0; k < i->nblocks; k++)
        for (const FxInst *j = i->blocks[k].first; j; j = j->next)
            if (has_return(j))
                return true;
    return false;
}

/* Whether i is a wave exchange in waves wider than one lane: it waits for
 * its wave, and ends the run of statements before it (each work-item
 * leaves its value in the run's loop; the regions after it read its wave's). */
static bool ends_run(CgCtx *c, const FxInst *i)
{
    return i->op == FX_WAVE_EXCHANGE && cg_inst_waits(c, i);
}

/* The statements of b after its last wait, one run of them (its last
 * region): the first of them, NULL when b ends waiting, b's first when
 * nothing in b waits. */
static FxInst *last_run(CgCtx *c, const FxBlock *b)
{
    FxInst *after = b->first;
    for (FxInst *i = b->first; i; i = i->next)
        if (cg_inst_waits(c, i))
            after = i->next;
    return after;
}

/* Whether a fn that waits returns before its last region: from a statement
 * up to its last wait. */
static bool returns_early(CgCtx *c, const FxFunc *fn)
{
    FxInst *run = last_run(c, &fn->body);
    for (const FxInst *i = fn->body.first; i != run; i = i->next)
        if (has_return(i))
            return true;
    return false;
}

/* The continues of statement i that leave the loop around it, in tails. */
static void mark_continues(CgMap *tails, const FxInst *i)
{
    if (i->op == FX_CONTINUE)
        cg_map_put(tails, i, (void *)i);
    if (i->op == FX_LOOP)
        return;
    for (int k = 0; k < i->nblocks; k++)
        for (const FxInst *j = i->blocks[k].first; j; j = j->next)
            mark_continues(tails, j);
}

/* Of block b, the end of a loop run by the block's body (or the last arm
 * of such an end): the continues after which nothing waits up to the end
 * of the iteration. There a continue leads where running off the end of
 * the body does, so a work-item that takes it only ends its part of the
 * region, and the work-items need not agree on it: it may depend on
 * thread_idx (fxir_divergent_continues). */
static void mark_tail_continues(CgCtx *c, CgMap *tails, const FxBlock *b)
{
    const FxInst *run = last_run(c, b);
    for (const FxInst *i = run; i; i = i->next)
        mark_continues(tails, i);
    if (run || !b->last || b->last->op != FX_IF)
        return;
    for (int k = 0; k < b->last->nblocks; k++)
        mark_tail_continues(c, tails, &b->last->blocks[k]);
}

/* The tail continues (mark_tail_continues) of every loop that waits in b. */
static void collect_tails(CgCtx *c, CgMap *tails, const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_LOOP && cg_inst_waits(c, i))
            mark_tail_continues(c, tails, &i->blocks[1]);
        for (int k = 0; k < i->nblocks; k++)
            collect_tails(c, tails, &i->blocks[k]);
    }
}

static bool all_tails_in(CgCtx *c, const FxFunc *fn, CgMap *seen);

/* Whether every continue of statement i that leaves a loop that waits
 * (in_waiting: the loop around i does) is in tails, and so in the fns that
 * wait i calls. */
static bool continues_are_tails(CgCtx *c, const CgMap *tails, const FxInst *i, bool in_waiting, CgMap *seen)
{
    if (i->op == FX_CONTINUE)
        return !in_waiting || cg_map_get(tails, i);
    if (i->op == FX_CALL && cg_inst_waits(c, i))
        return all_tails_in(c, i->callee, seen);
    if (i->op == FX_LOOP)
        in_waiting = cg_inst_waits(c, i);
    for (int k = 0; k < i->nblocks; k++)
        for (const FxInst *j = i->blocks[k].first; j; j = j->next)
            if (!continues_are_tails(c, tails, j, in_waiting, seen))
                return false;
    return true;
}

/* Whether every continue out of a loop that waits in fn, and in the fns
 * that wait it calls, ends its iteration anyway: then a call whose
 * thread-dependent arguments make some of them divergent is fine. */
static bool all_tails_in(CgCtx *c, const FxFunc *fn, CgMap *seen)
{
    if (!fn || cg_map_get(seen, fn))
        return true;
    cg_map_put(seen, fn, (void *)fn);
    CgMap tails = { 0 };
    collect_tails(c, &tails, &fn->body);
    bool ok = true;
    for (const FxInst *i = fn->body.first; i && ok; i = i->next)
        ok = continues_are_tails(c, &tails, i, false, seen);
    cg_map_free(&tails);
    return ok;
}

/* What uniform_enough learns of the divergent continues. */
typedef struct ContinueCheck {
    CgCtx *c;
    CgMap tails;
    int seen, misplaced;
} ContinueCheck;

/* A divergent continue, or a call whose arguments make one divergent. */
static void note_continue(void *data, const FxInst *jump, const FxInst *why)
{
    (void)why;
    ContinueCheck *k = data;
    k->seen++;
    if (jump->op == FX_CALL) {
        CgMap seen = { 0 };
        k->misplaced += !all_tails_in(k->c, jump->callee, &seen);
        cg_map_free(&seen);
    } else {
        k->misplaced += !cg_map_get(&k->tails, jump);
    }
}

/* Whether f, which can be cut into regions, has neither a divergent barrier
 * nor a divergent continue that something waiting follows in its iteration
 * (nor did the analysis give up). */
static bool uniform_enough(CgCtx *c, FxFunc *f)
{
    ContinueCheck k = { c, { 0 }, 0, 0 };
    collect_tails(c, &k.tails, &f->body);
    int barriers;
    bool exchanges_wait = cg_host_wave_size(c) > 1;
    int n = fxir_divergent_continues(c->fm->arena, &c->divergence, exchanges_wait, f, note_continue, &k, &barriers);
    cg_map_free(&k.tails);
    return barriers == 0 && n == k.seen && k.misplaced == 0;
}

/* Whether a fn that waits can be emitted in place: its body can be cut into
 * regions, and its barriers are uniform with uniform arguments (a call with
 * arguments that make them divergent is a divergent barrier of the
 * caller; a return some work-items take before a barrier makes it
 * divergent too). */
static bool fn_in_place(CgCtx *c, const FxFunc *callee, int depth)
{
    if (!callee || callee->kind != FXF_FN || depth > MAX_CALL_DEPTH || !region_shape(c, &callee->body, depth))
        return false;
    return uniform_enough(c, (FxFunc *)callee);
}

/* Whether block b (run by the whole block) can be cut into regions: every
 * statement that waits is a barrier, an `if` or loop with such blocks (a
 * loop's condition and step without a barrier), or a call of a fn that
 * can be emitted in place; depth: of the fns emitted in place around b. */
static bool region_shape(CgCtx *c, const FxBlock *b, int depth)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (!cg_inst_waits(c, i))
            continue;
        switch (i->op) {
        case FX_BARRIER: case FX_WAVE_EXCHANGE:
            break;
        case FX_IF:
            for (int k = 0; k < i->nblocks; k++)
                if (!region_shape(c, &i->blocks[k], depth))
                    return false;
            break;
        case FX_LOOP:   /* a head that waits (`while block_max(d) > tol`) is cut too, and a step
                           that waits (wave-emulation's exchange where a wave's lanes meet) */
            for (int k = 0; k < i->nblocks; k++)
                if (!region_shape(c, &i->blocks[k], depth))
                    return false;
            break;
        case FX_CALL:
            if (!fn_in_place(c, i->callee, depth + 1))
                return false;
            break;
        default:   /* nothing else waits */
            return false;
        }
    }
    return true;
}

static void set_region(CgRegionPlan *p, const FxInst *i, int r)
{
    cg_map_put(&p->region, i, (void *)(intptr_t)(r + 2));
}

static int region_of(const CgRegionPlan *p, const FxInst *i)
{
    intptr_t r = (intptr_t)cg_map_get(&p->region, i);
    return r ? (int)r - 2 : -2;   /* -2: not in this function (a parameter, a constant) */
}

/* i and everything nested in it run in region r; in_fn: in a fn emitted in place. */
static void assign(CgRegionPlan *p, FxInst *i, int r, bool in_fn)
{
    set_region(p, i, r);
    p->returns |= i->op == FX_RETURN && !in_fn;
    for (int k = 0; k < i->nblocks; k++)
        for (FxInst *j = i->blocks[k].first; j; j = j->next)
            assign(p, j, r, in_fn);
}

static void number_regions(CgCtx *c, CgRegionPlan *p, FxBlock *b, bool in_fn);

/* Numbers the regions of the head of a loop run by the block, and returns
 * the one that decides the loop's condition: the head's only region, or,
 * when it waits, the run after its last wait (a region of its own when
 * the head ends waiting). */
static int number_head(CgCtx *c, CgRegionPlan *p, FxBlock *head, bool in_fn)
{
    if (!cg_block_waits(c, head)) {
        int r = p->nregions++;
        for (FxInst *j = head->first; j; j = j->next)
            assign(p, j, r, in_fn);
        return r;
    }
    number_regions(c, p, head, in_fn);
    FxInst *run = last_run(c, head);
    return run ? region_of(p, run) : p->nregions++;
}

/* Numbers the regions of block b as the emission will make them (a fn
 * emitted in place at every call: the first call numbers it, and the
 * others make the same regions, one after the other). */
static void number_regions(CgCtx *c, CgRegionPlan *p, FxBlock *b, bool in_fn)
{
    int run = -1;   /* the region of the current run of statements without a wait */
    for (FxInst *i = b->first; i; i = i->next) {
        if (!cg_inst_waits(c, i) || ends_run(c, i)) {
            if (run < 0)
                run = p->nregions++;
            assign(p, i, run, in_fn);
            if (ends_run(c, i))
                run = -1;
            continue;
        }
        run = -1;
        set_region(p, i, -1);
        if (i->op == FX_IF) {
            for (int k = 0; k < i->nblocks; k++)
                number_regions(c, p, &i->blocks[k], in_fn);
        } else if (i->op == FX_LOOP) {
            cg_map_put(&p->decides, i, (void *)(intptr_t)(number_head(c, p, &i->blocks[0], in_fn) + 2));
            number_regions(c, p, &i->blocks[1], in_fn);
            mark_tail_continues(c, &p->tails, &i->blocks[1]);
            if (i->nblocks > 2 && cg_block_waits(c, &i->blocks[2])) {
                number_regions(c, p, &i->blocks[2], in_fn);
            } else {
                int step = p->nregions++;
                for (FxInst *j = i->nblocks > 2 ? i->blocks[2].first : NULL; j; j = j->next)
                    assign(p, j, step, in_fn);
            }
        } else if (i->op == FX_CALL && !cg_map_get(&p->planned, i->callee)) {
            cg_map_put(&p->planned, i->callee, i->callee);
            number_regions(c, p, &i->callee->body, true);
            p->returns |= returns_early(c, i->callee);
        }
    }
}

static bool remade_anywhere(const FxInst *v)
{
    return v->op == FX_CONST || v->op == FX_PARAM;
}

/* Index arithmetic is cheaper made again than copied per work-item. */
enum { REMAKE_DEPTH = 6 };

static bool int_scalar(const Type *t)
{
    return t->kind == TY_SCALAR && (type_is_int(t->scalar) || t->scalar == SC_BOOLEAN);
}

/* Whether v can be made again in any region, at its top, with the same
 * value for every work-item: integer arithmetic (total in FXIR: x // 0 is
 * 0, shifts are guarded) and comparisons of thread_idx, block_idx,
 * block_dim, grid_dim, parameters and constants, at most `depth` deep. */
static bool remakeable(const FxInst *v, int depth)
{
    if (remade_anywhere(v))
        return true;
    if (depth == 0 || !int_scalar(v->type))
        return false;
    switch (v->op) {
    case FX_SPECIAL:
        return v->sub != FXS_LANE_ID;   /* the host's lane id is wave-emulation's arithmetic */
    case FX_BINOP:
        if (v->sub == FXB_POW || v->sub == FXB_DIV)
            return false;
        break;
    case FX_CMP: case FX_CAST:
        break;
    default:
        return false;
    }
    for (int k = 0; k < v->nops; k++)
        if (!int_scalar(v->ops[k]->type) || !remakeable(v->ops[k], depth - 1))
            return false;
    return true;
}

/* The type of a value copied per work-item: a private array itself, not
 * its address. */
static LLVMTypeRef copy_type(CgCtx *c, const FxInst *v)
{
    return v->op == FX_ALLOCA ? cg_mem_type(c, v->type) : cg_reg_type(c, v->type);
}

/* The type of a wave exchange's slots: its value's memory form. */
static LLVMTypeRef snapshot_type(CgCtx *c, const FxInst *exchange)
{
    return cg_mem_type(c, exchange->ops[0]->type);
}

/* A wave_active in waves wider than one lane: the lanes at the exchange just
 * before it (wave-emulation reads them right after each exchange; one
 * elsewhere leaves the kernel on fibers). */
static void note_mask(CgCtx *c, CgRegionPlan *p, FxInst *active)
{
    FxInst *x = active->prev;
    while (x && x->op != FX_WAVE_EXCHANGE && !cg_inst_waits(c, x))
        x = x->prev;
    if (!x || x->op != FX_WAVE_EXCHANGE) {
        p->unplanned = true;
        return;
    }
    if (!cg_map_get(&p->masked, x)) {   /* keyed by the exchange too: one array each */
        cg_map_put(&p->masked, x, x);
        ptrvec_push(c->fm->arena, &p->masks, x);
    }
    cg_map_put(&p->masked, active, x);
}

/* v, and the operands it is made from, are made again where they are used
 * (each region forgets them: their values in the region of their
 * definition do not reach the others). */
static void note_remade(CgCtx *c, CgRegionPlan *p, FxInst *v)
{
    if (remade_anywhere(v) || cg_map_get(&p->remade, v))
        return;
    cg_map_put(&p->remade, v, v);
    ptrvec_push(c->fm->arena, &p->remades, v);
    for (int k = 0; k < v->nops; k++)
        note_remade(c, p, v->ops[k]);
}

/* Value v used in region `use`: marked when it comes from another one. */
static void note_use(CgCtx *c, CgRegionPlan *p, FxInst *v, int use)
{
    if (!v || remade_anywhere(v) || region_of(p, v) == use || cg_map_get(&p->spilled, v) ||
        cg_map_get(&p->remade, v))
        return;
    if (remakeable(v, REMAKE_DEPTH)) {
        note_remade(c, p, v);
        return;
    }
    if (v->op == FX_ALLOCA && v->space == FXSPACE_SHARED) {
        ptrvec_push(c->fm->arena, &p->shared, v);
    } else if (v->op == FX_WAVE_EXCHANGE) {   /* its value: where the wave's slots start */
        ptrvec_push(c->fm->arena, &p->snapshots, v);
    } else {
        ptrvec_push(c->fm->arena, &p->spills, v);
    }
    cg_map_put(&p->spilled, v, v);
}

/* Marks the operands of i (and of everything nested) that come from
 * another region than the one using them. */
static void find_spills(CgCtx *c, CgRegionPlan *p, FxInst *i)
{
    int use = region_of(p, i);
    if (ends_run(c, i))
        p->nexchanges++;
    if (i->op == FX_WAVE_ACTIVE && cg_host_wave_size(c) > 1)
        note_mask(c, p, i);
    if (i->op == FX_LOOP && use == -1)   /* run by the block: decided in one region of its head */
        note_use(c, p, i->ops[0], (int)(intptr_t)cg_map_get(&p->decides, i) - 2);
    else
        for (int k = 0; k < i->nops; k++)
            note_use(c, p, i->ops[k], use);
    for (int k = 0; k < i->nblocks; k++)
        for (FxInst *j = i->blocks[k].first; j; j = j->next)
            find_spills(c, p, j);
}

/* find_spills over the bodies of the fns emitted in place. */
static void find_fn_spills(CgCtx *c, CgRegionPlan *p, FxBlock *b, CgMap *seen)
{
    for (FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_CALL && cg_map_get(&p->planned, i->callee) && !cg_map_get(seen, i->callee)) {
            cg_map_put(seen, i->callee, i->callee);
            for (FxInst *j = i->callee->body.first; j; j = j->next)
                find_spills(c, p, j);
            find_fn_spills(c, p, &i->callee->body, seen);
        }
        for (int k = 0; k < i->nblocks; k++)
            find_fn_spills(c, p, &i->blocks[k], seen);
    }
}

/* A slot of ctx->state: bytes per lane, a multiple of 16. */
static int64_t heap_slot(CgCtx *c, LLVMTypeRef t)
{
    return ((int64_t)LLVMABISizeOfType(c->TD, t) + 15) & ~(int64_t)15;
}

/* The bytes per lane of the copies, the snapshots, the masks and the
 * returns' flags. On the stack each array takes its type's size per lane
 * (a mask 8 bytes a wave, at most 1 a lane: waves have 8 lanes or more
 * there; a flag 1). In ctx->state every array has a slot of a multiple of
 * 16 bytes per lane (of the block's work-items up to a whole number of
 * waves; a wave's mask fits in its lanes' slots), so each starts
 * 16-aligned. */
static int64_t lane_bytes(CgCtx *c, CgRegionPlan *p, bool heap)
{
    int64_t flag = heap ? 16 : 1, n = p->returns ? flag : 0;
    for (int k = 0; k < p->spills.len + p->snapshots.len; k++) {
        LLVMTypeRef t = k < p->spills.len ? copy_type(c, p->spills.items[k])
                                          : snapshot_type(c, p->snapshots.items[k - p->spills.len]);
        n += heap ? heap_slot(c, t) : (int64_t)LLVMABISizeOfType(c->TD, t);
    }
    return n + flag * (int64_t)p->masks.len;
}

/* A plan given up after its maps were filled: they are malloc'd (the plan
 * itself is in the arena), so they go now; the kernel runs on fibers. */
static CgRegionPlan *rejected(CgRegionPlan *p)
{
    cg_region_plan_free(p);
    return NULL;
}

CgRegionPlan *cg_region_plan(CgCtx *c, CgFunc *cf)
{
    FxFunc *f = cf->f;
    if (!cg_host_abi(c) || f->kind != FXF_KERNEL || !cf->waits || c->opt.check || c->opt.host_fibers ||
        !region_shape(c, &f->body, 0) || !uniform_enough(c, f))
        return NULL;
    CgRegionPlan *p = arena_alloc(c->fm->arena, sizeof *p);
    memset(p, 0, sizeof *p);
    number_regions(c, p, &f->body, false);
    for (FxInst *i = f->body.first; i; i = i->next)
        find_spills(c, p, i);
    CgMap seen = { 0 };
    find_fn_spills(c, p, &f->body, &seen);
    cg_map_free(&seen);
    if (p->unplanned || p->nexchanges > CG_REGION_MAX_EXCHANGES)
        return rejected(p);
    int64_t items = f->launch_bounds > 0 ? f->launch_bounds : 1024;
    if (lane_bytes(c, p, false) * items <= CG_REGION_STATE_BYTES)
        return p;
    p->heap_lane_bytes = lane_bytes(c, p, true);
    return p->heap_lane_bytes * items <= CG_REGION_HEAP_BYTES ? p : rejected(p);
}

int64_t cg_region_heap_bytes(const CgRegionPlan *p)
{
    return p ? p->heap_lane_bytes : 0;
}

/* ---- emission ---- */

static LLVMTypeRef i8t(CgCtx *c) { return LLVMInt8TypeInContext(c->C); }
static LLVMTypeRef i32t(CgCtx *c) { return LLVMInt32TypeInContext(c->C); }
static LLVMTypeRef i64t(CgCtx *c) { return LLVMInt64TypeInContext(c->C); }

/* An array of n values of type t (n at most the block's lanes), made once
 * per block: on the stack, or in ctx->state (heap_lane_bytes). */
static LLVMValueRef block_array(CgCtx *c, CgRegionPlan *p, LLVMTypeRef t, LLVMValueRef n, const char *name)
{
    if (p->heap) {
        LLVMValueRef at = LLVMBuildNUWMul(c->B, LLVMConstInt(i64t(c), (unsigned long long)p->heap_used, 0),
                                          LLVMBuildZExt(c->B, p->lanes, i64t(c), ""), "");
        p->heap_used += heap_slot(c, t);
        return LLVMBuildInBoundsGEP2(c->B, i8t(c), p->heap, &at, 1, name ? name : "");
    }
    LLVMValueRef a = LLVMBuildArrayAlloca(c->B, t, n, name ? name : "");
    LLVMSetAlignment(a, LLVMABIAlignmentOfType(c->TD, t) < 8 ? 8 : LLVMABIAlignmentOfType(c->TD, t));
    return a;
}

/* An array of `items` values of type t, made once per block. */
static LLVMValueRef per_item_array(CgCtx *c, CgRegionPlan *p, LLVMTypeRef t, const char *name)
{
    return block_array(c, p, t, p->items, name);
}

static int lane_bits(CgCtx *c)
{
    return tgt_lane_bits(cg_host_wave_size(c));
}

/* The block's waves (the last one may be partial). */
static LLVMValueRef wave_count(CgCtx *c, CgRegionPlan *p)
{
    LLVMValueRef up = LLVMBuildNUWAdd(c->B, p->items, LLVMConstInt(i32t(c), (unsigned)cg_host_wave_size(c) - 1, 0), "");
    return LLVMBuildLShr(c->B, up, LLVMConstInt(i32t(c), (unsigned)lane_bits(c), 0), "waves");
}

/* The snapshots of the exchanges (a slot for every lane of every wave, so
 * that reading a missing lane of a partial wave stays in the array) and
 * the masks of the lanes that came, per wave. */
static void make_wave_arrays(CgCtx *c, CgRegionPlan *p)
{
    if (p->nexchanges == 0)
        return;
    LLVMValueRef waves = wave_count(c, p);
    for (int k = 0; k < p->snapshots.len; k++) {
        FxInst *x = p->snapshots.items[k];
        cg_map_put(&p->slots, x, block_array(c, p, snapshot_type(c, x), p->lanes, "snapshot"));
    }
    cg_map_clear(&p->mask_arrays);
    for (int k = 0; k < p->masks.len; k++)
        cg_map_put(&p->mask_arrays, p->masks.items[k], block_array(c, p, i64t(c), waves, "wave_mask"));
}

/* The current work-item's element of a per-item array of t. */
static LLVMValueRef item_element(CgCtx *c, CgRegionPlan *p, LLVMTypeRef t, LLVMValueRef array)
{
    return LLVMBuildInBoundsGEP2(c->B, t, array, &p->cur->wi, 1, "");
}

/* The block's size, the per-item arrays and the state of decisions, at the
 * start of the kernel; ctx becomes the work-item's own copy, whose
 * thread_idx the loops set. */
static void begin_block(CgCtx *c, CgRegionPlan *p)
{
    for (int d = 0; d < 3; d++) {
        p->dim[d] = LLVMBuildLoad2(c->B, i32t(c), cg_hostctx_field(c, FX_HOSTCTX_block_dim, d), "block_dim");
        LLVMSetAlignment(p->dim[d], 4);
    }
    p->items = LLVMBuildNUWMul(c->B, LLVMBuildNUWMul(c->B, p->dim[0], p->dim[1], ""), p->dim[2], "items");
    p->lanes = LLVMBuildShl(c->B, wave_count(c, p), LLVMConstInt(i32t(c), (unsigned)lane_bits(c), 0), "lanes");
    p->heap = NULL;
    p->heap_used = 0;
    if (p->heap_lane_bytes > 0)
        p->heap = LLVMBuildLoad2(c->B, LLVMPointerTypeInContext(c->C, 0), cg_hostctx_field(c, FX_HOSTCTX_state, 0),
                                 "state");
    cg_map_clear(&p->slots);
    for (int k = 0; k < p->spills.len; k++) {
        FxInst *v = p->spills.items[k];
        cg_map_put(&p->slots, v, per_item_array(c, p, copy_type(c, v), v->name));
    }
    make_wave_arrays(c, p);
    p->done = NULL;
    if (p->returns) {
        p->done = per_item_array(c, p, i8t(c), "done");
        LLVMBuildMemSet(c->B, p->done, LLVMConstInt(i8t(c), 0, 0),
                        LLVMBuildZExt(c->B, p->items, LLVMInt64TypeInContext(c->C), ""), 8);
    }
    p->decided = LLVMBuildAlloca(c->B, i8t(c), "decided");
    LLVMTypeRef ctx_ty = cg_host_ctx_type(c);
    LLVMValueRef item = LLVMBuildAlloca(c->B, ctx_ty, "item");
    LLVMBuildMemCpy(c->B, item, 8, c->hostctx, 8, LLVMSizeOf(ctx_ty));
    c->hostctx = item;
    p->exit = LLVMAppendBasicBlockInContext(c->C, c->fn, "block.done");
}

/* Opens the loop over the block's work-items; the builder is in its body. */
static void open_items(CgCtx *c, CgRegionPlan *p, Region *r, CgBlockLoop loops[3])
{
    for (int d = 2; d >= 0; d--) {
        loops[d] = cg_open_block_loop(c, c->fn, "item");
        LLVMSetAlignment(LLVMBuildStore(c->B, loops[d].phi, cg_hostctx_field(c, FX_HOSTCTX_thread_idx, d)), 4);
    }
    LLVMValueRef zy = LLVMBuildNUWAdd(c->B, loops[1].phi, LLVMBuildNUWMul(c->B, p->dim[1], loops[2].phi, ""), "");
    r->wi = LLVMBuildNUWAdd(c->B, loops[0].phi, LLVMBuildNUWMul(c->B, p->dim[0], zy, ""), "wi");
    r->next = LLVMAppendBasicBlockInContext(c->C, c->fn, "item.next");
    r->top = LLVMAppendBasicBlockInContext(c->C, c->fn, "item.top");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->C, c->fn, "item.body");
    if (p->done) {
        LLVMValueRef d = LLVMBuildLoad2(c->B, i8t(c), LLVMBuildInBoundsGEP2(c->B, i8t(c), p->done, &r->wi, 1, ""), "");
        LLVMBuildCondBr(c->B, LLVMBuildICmp(c->B, LLVMIntNE, d, LLVMConstInt(i8t(c), 0, 0), ""), r->next, r->top);
    } else {
        LLVMBuildBr(c->B, r->top);
    }
    LLVMPositionBuilderAtEnd(c->B, r->top);
    LLVMBuildBr(c->B, body);
    LLVMPositionBuilderAtEnd(c->B, body);
    p->cur = r;
}

/* Closes it: values of this loop are not visible in the next one. */
static void close_items(CgCtx *c, CgRegionPlan *p, CgBlockLoop loops[3])
{
    if (!LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(c->B)))
        LLVMBuildBr(c->B, p->cur->next);
    LLVMMoveBasicBlockAfter(p->cur->next, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, p->cur->next);
    for (int d = 0; d < 3; d++)
        cg_close_block_loop(c, c->fn, loops[d], p->dim[d]);
    p->cur = NULL;
    for (int k = 0; k < p->spills.len; k++)
        cg_map_put(&c->values, p->spills.items[k], NULL);
    for (int k = 0; k < p->shared.len; k++)
        cg_map_put(&c->values, p->shared.items[k], NULL);
    for (int k = 0; k < p->snapshots.len; k++)
        cg_map_put(&c->values, p->snapshots.items[k], NULL);
    for (int k = 0; k < p->remades.len; k++)
        cg_map_put(&c->values, p->remades.items[k], NULL);
}

/* A value of another region, or a slot with a copy per work-item, in the
 * current loop: loaded (or addressed) at its top, so it is there for every
 * use in the loop. NULL when v is none of those. */
LLVMValueRef cg_region_value(CgCtx *c, FxInst *v)
{
    CgRegionPlan *p = c->regions;
    if (!p || !p->cur || !(cg_map_get(&p->spilled, v) || cg_map_get(&p->remade, v)))
        return NULL;
    LLVMBuilderRef saved = c->B;
    c->B = LLVMCreateBuilderInContext(c->C);
    LLVMPositionBuilderBefore(c->B, LLVMGetBasicBlockTerminator(p->cur->top));
    LLVMValueRef r;
    if (cg_map_get(&p->remade, v)) {
        cg_emit_range(c, v, v->next);   /* its operands are made here too, before it */
        r = cg_map_get(&c->values, v);
    } else if (v->op == FX_ALLOCA && v->space == FXSPACE_SHARED) {
        r = cg_alloca(c, v);   /* an offset into ctx->shared */
    } else if (v->op == FX_WAVE_EXCHANGE) {   /* the slots of the work-item's wave */
        LLVMValueRef first = LLVMBuildAnd(c->B, p->cur->wi, LLVMConstInt(i32t(c), ~((unsigned)cg_host_wave_size(c) - 1), 0), "");
        r = LLVMBuildInBoundsGEP2(c->B, snapshot_type(c, v), cg_map_get(&p->slots, v), &first, 1, "wave_slots");
    } else {
        LLVMTypeRef t = copy_type(c, v);
        r = item_element(c, p, t, cg_map_get(&p->slots, v));
        if (v->op != FX_ALLOCA)
            r = LLVMBuildLoad2(c->B, t, r, v->name ? v->name : "");
    }
    LLVMDisposeBuilder(c->B);
    c->B = saved;
    cg_map_put(&c->values, v, r);
    return r;
}

/* FX_ALLOCA of a slot with a copy per work-item: the work-item's copy,
 * zero-filled here as cg_alloca() fills its slot. NULL for other slots. */
LLVMValueRef cg_region_alloca(CgCtx *c, FxInst *i)
{
    CgRegionPlan *p = c->regions;
    if (!p || !p->cur || i->space == FXSPACE_SHARED || !cg_map_get(&p->spilled, i))
        return NULL;
    LLVMValueRef slot = cg_region_value(c, i);
    LLVMTypeRef mt = cg_mem_type(c, i->type);
    unsigned al = LLVMABIAlignmentOfType(c->TD, mt);
    if (i->type->kind == TY_ARRAY)
        LLVMBuildMemSet(c->B, slot, LLVMConstInt(i8t(c), 0, 0),
                        LLVMConstInt(LLVMInt64TypeInContext(c->C), LLVMABISizeOfType(c->TD, mt), 0), al);
    else
        LLVMSetAlignment(LLVMBuildStore(c->B, LLVMConstNull(mt), slot), al);
    return slot;
}

/* After instruction i made v: the work-item's copy, when another region uses it. */
void cg_region_define(CgCtx *c, FxInst *i, LLVMValueRef v)
{
    CgRegionPlan *p = c->regions;
    if (!p || !p->cur || i->op == FX_ALLOCA || i->op == FX_WAVE_EXCHANGE || !cg_map_get(&p->spilled, i))
        return;   /* an exchange's slots are filled by cg_region_exchange */
    LLVMTypeRef t = copy_type(c, i);
    LLVMBuildStore(c->B, v, item_element(c, p, t, cg_map_get(&p->slots, i)));
}

/* The region of a fn's statements after its last wait, or -3 when the fn
 * ends with a wait. */
static int last_region(CgCtx *c, const CgRegionPlan *p, const FxFunc *fn)
{
    FxInst *run = last_run(c, &fn->body);
    return run ? region_of(p, run) : -3;
}

static void mark_done(CgCtx *c, CgRegionPlan *p, int mark)
{
    LLVMBuildStore(c->B, LLVMConstInt(i8t(c), (unsigned long long)mark, 0),
                   LLVMBuildInBoundsGEP2(c->B, i8t(c), p->done, &p->cur->wi, 1, ""));
}

/* A return in a work-item loop. In the kernel the work-item is done; in a
 * fn emitted in place the value is the call's, and the work-item goes on
 * after the call: at once from the fn's last region, else when the fn's
 * remaining regions (which skip it) are over. */
bool cg_region_return(CgCtx *c, FxInst *ret)
{
    CgRegionPlan *p = c->regions;
    if (!p || !p->cur)
        return false;
    if (p->inl) {
        FxInst *call = p->inl->call;
        if (ret->nops > 0 && ret->ops[0] && cg_map_get(&p->spilled, call)) {
            LLVMTypeRef t = copy_type(c, call);
            LLVMBuildStore(c->B, cg_val(c, ret->ops[0]), item_element(c, p, t, cg_map_get(&p->slots, call)));
        }
        if (region_of(p, ret) != last_region(c, p, call->callee))
            mark_done(c, p, p->inl->depth + 1);
    } else {
        mark_done(c, p, 1);
    }
    LLVMBuildBr(c->B, p->cur->next);
    return true;
}

/* Runs f with the innermost fn emitted in place left: its caller's values. */
static LLVMValueRef in_caller(CgCtx *c, CgRegionPlan *p, LLVMValueRef (*f)(CgCtx *, FxInst *), FxInst *v)
{
    Inline *inl = p->inl;
    CgFunc *cur = c->cur;
    p->inl = inl->outer;
    c->cur = inl->caller;
    LLVMValueRef r = f(c, v);
    p->inl = inl;
    c->cur = cur;
    return r;
}

/* A parameter of a fn emitted in place: the call's argument (NULL outside one). */
LLVMValueRef cg_region_param(CgCtx *c, FxInst *param)
{
    CgRegionPlan *p = c->regions;
    if (!p || !p->inl || param->param_index < 0 || param->param_index >= p->inl->call->nops)
        return NULL;
    return in_caller(c, p, cg_val, p->inl->call->ops[param->param_index]);
}

/* cg_ptr_origin of such a parameter: its argument's. */
bool cg_region_param_origin(CgCtx *c, FxInst *param, LLVMValueRef *origin)
{
    CgRegionPlan *p = c->regions;
    if (!p || !p->inl || param->op != FX_PARAM || param->param_index < 0 ||
        param->param_index >= p->inl->call->nops)
        return false;
    *origin = in_caller(c, p, cg_ptr_origin, p->inl->call->ops[param->param_index]);
    return true;
}

/* In a work-item loop: the work-item's `want` (i8, see DECIDED_FALSE) is
 * the block's decision, or differs from the first work-item's, which ends
 * the launch (ctx->diverged) with `site` as the condition's place. */
static void decide(CgCtx *c, CgRegionPlan *p, LLVMValueRef want, const FxInst *site)
{
    LLVMValueRef d = LLVMBuildLoad2(c->B, i8t(c), p->decided, "");
    LLVMValueRef first = LLVMBuildICmp(c->B, LLVMIntEQ, d, LLVMConstInt(i8t(c), 0, 0), "");
    LLVMValueRef same = LLVMBuildICmp(c->B, LLVMIntEQ, d, want, "");
    LLVMBuildStore(c->B, want, p->decided);
    LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->C, c->fn, "diverged");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(c->C, c->fn, "agreed");
    LLVMBuildCondBr(c->B, LLVMBuildOr(c->B, first, same, ""), ok, fail);
    LLVMPositionBuilderAtEnd(c->B, fail);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(c->C, 0);
    LLVMTypeRef pt[2] = { ptr, ptr };
    LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(c->C), pt, 2, 0);
    LLVMValueRef fp = LLVMBuildLoad2(c->B, ptr, cg_hostctx_field(c, FX_HOSTCTX_diverged, 0), "diverged_fn");
    const char *file = site->loc.file ? site->loc.file->name : "<stdin>";
    LLVMValueRef a[2] = { c->hostctx, cg_cstring(c, arena_printf(c->fm->arena, "%s:%d:%d", file,
                                                                 site->loc.line, site->loc.col)) };
    LLVMBuildCall2(c->B, fty, fp, a, 2, "");
    LLVMBuildUnreachable(c->B);
    LLVMPositionBuilderAtEnd(c->B, ok);
}

/* The work-item's value of `cond` (True when NULL) as a decision. */
static LLVMValueRef condition_value(CgCtx *c, FxInst *cond)
{
    LLVMValueRef b = cond ? cg_val(c, cond) : LLVMConstInt(LLVMInt1TypeInContext(c->C), 1, 0);
    return LLVMBuildAdd(c->B, LLVMBuildZExt(c->B, b, i8t(c), ""), LLVMConstInt(i8t(c), DECIDED_FALSE, 0), "");
}

static LLVMValueRef left_by(CgCtx *c, int how)
{
    return LLVMConstInt(i8t(c), (unsigned long long)how, 0);
}

/* A break or continue in a work-item loop that leaves the region's
 * block-level loop: the work-item's part of the region ends, and how it
 * left is its decision (a continue at the end of an iteration: the same as
 * running on). False for a jump inside the region. */
bool cg_region_jump(CgCtx *c, FxInst *jump)
{
    CgRegionPlan *p = c->regions;
    if (!p || !p->cur || c->loop != p->cur->loop)
        return false;
    int how = jump->op == FX_BREAK ? LEFT_BREAK : cg_map_get(&p->tails, jump) ? LEFT_ON : LEFT_CONTINUE;
    decide(c, p, left_by(c, how), p->cur->jump_site);
    LLVMBuildBr(c->B, p->cur->next);
    return true;
}

/* The first of statements [from, to) that jumps out of the block-level
 * loop, or NULL. */
static const FxInst *first_jump(const FxInst *from, const FxInst *to)
{
    for (const FxInst *i = from; i && i != to; i = i->next)
        if (jumps_out(i))
            return i;
    return NULL;
}

/* Statements [from, to) of a block in the current work-item loop, one at a
 * time: a jump's disagreement is reported at the statement it is in. */
static void emit_statements(CgCtx *c, Region *r, FxInst *from, FxInst *to)
{
    for (FxInst *i = from; i && i != to; i = i->next) {
        if (jumps_out(i))
            r->jump_site = i;
        cg_emit_range(c, i, i->next);
    }
}

/* Where the block goes when no work-item took part in a decision (all
 * returned): the end of the fn emitted in place, or of the block. The
 * caller's next decision goes on from there if they returned from it too. */
static LLVMBasicBlockRef nobody_left(const CgRegionPlan *p)
{
    return p->inl ? p->inl->after : p->exit;
}

/* After a region whose work-items may have left the block-level loop: the
 * block follows them (or leaves when none took part: all returned). */
static void follow_jumps(CgCtx *c, CgRegionPlan *p)
{
    LLVMBasicBlockRef on = LLVMAppendBasicBlockInContext(c->C, c->fn, "block.on");
    LLVMValueRef sw = LLVMBuildSwitch(c->B, LLVMBuildLoad2(c->B, i8t(c), p->decided, ""), on, 3);
    if (p->returns)
        LLVMAddCase(sw, left_by(c, 0), nobody_left(p));
    LLVMAddCase(sw, left_by(c, LEFT_BREAK), p->loop->brk);
    LLVMAddCase(sw, left_by(c, LEFT_CONTINUE), p->loop->cont);
    LLVMPositionBuilderAtEnd(c->B, on);
}

/* One loop over the work-items around statements [from, to) of a block,
 * deciding `cond` at its end when `site` is not NULL; or, when one of the
 * statements jumps out of the block-level loop, whether the block does. */
static void emit_region(CgCtx *c, CgRegionPlan *p, FxInst *from, FxInst *to, FxInst *cond, const FxInst *site)
{
    const FxInst *jump = first_jump(from, to);
    if (site || jump)
        LLVMBuildStore(c->B, LLVMConstInt(i8t(c), 0, 0), p->decided);
    Region r = { .loop = c->loop };
    CgBlockLoop loops[3];
    open_items(c, p, &r, loops);
    emit_statements(c, &r, from, to);
    bool on = !LLVMGetBasicBlockTerminator(LLVMGetInsertBlock(c->B));
    if (on && site)
        decide(c, p, condition_value(c, cond), site);
    else if (on && jump)
        decide(c, p, left_by(c, LEFT_ON), jump);
    close_items(c, p, loops);
    if (jump)
        follow_jumps(c, p);
}

/* After a decision: the block's condition, or nobody_left when no
 * work-item took part (all of them returned). */
static LLVMValueRef decision(CgCtx *c, CgRegionPlan *p)
{
    LLVMValueRef d = LLVMBuildLoad2(c->B, i8t(c), p->decided, "");
    if (p->returns) {
        LLVMBasicBlockRef on = LLVMAppendBasicBlockInContext(c->C, c->fn, "decided");
        LLVMBuildCondBr(c->B, LLVMBuildICmp(c->B, LLVMIntEQ, d, LLVMConstInt(i8t(c), 0, 0), ""), nobody_left(p), on);
        LLVMPositionBuilderAtEnd(c->B, on);
    }
    return LLVMBuildICmp(c->B, LLVMIntEQ, d, LLVMConstInt(i8t(c), 2, 0), "");
}

static void emit_level(CgCtx *c, CgRegionPlan *p, FxInst *from, FxInst *to);

/* After a call whose fn returns early: its work-items that returned from
 * it (done[wi] == mark) take part again. */
static void clear_returns(CgCtx *c, CgRegionPlan *p, int mark)
{
    CgBlockLoop l = cg_open_block_loop(c, c->fn, "unmark");
    LLVMValueRef at = LLVMBuildInBoundsGEP2(c->B, i8t(c), p->done, &l.phi, 1, "");
    LLVMValueRef d = LLVMBuildLoad2(c->B, i8t(c), at, "");
    LLVMValueRef mine = LLVMBuildICmp(c->B, LLVMIntEQ, d, LLVMConstInt(i8t(c), (unsigned long long)mark, 0), "");
    LLVMBuildStore(c->B, LLVMBuildSelect(c->B, mine, LLVMConstInt(i8t(c), 0, 0), d, ""), at);
    cg_close_block_loop(c, c->fn, l, p->items);
}

/* A call of a fn that waits: its body cut into regions here. */
static void emit_in_place(CgCtx *c, CgRegionPlan *p, FxInst *call)
{
    Inline inl = { call, c->cur, p->inl, LLVMAppendBasicBlockInContext(c->C, c->fn, "call.over"),
                   p->inl ? p->inl->depth + 1 : 1 };
    p->inl = &inl;
    c->cur = cg_map_get(&c->funcs, call->callee);
    emit_level(c, p, call->callee->body.first, NULL);
    c->cur = inl.caller;
    p->inl = inl.outer;
    LLVMBuildBr(c->B, inl.after);
    LLVMMoveBasicBlockAfter(inl.after, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, inl.after);
    if (returns_early(c, call->callee))
        clear_returns(c, p, inl.depth + 1);
}

static void emit_block_if(CgCtx *c, CgRegionPlan *p, FxInst *i)
{
    emit_region(c, p, NULL, NULL, i->ops[0], i);
    LLVMValueRef cond = decision(c, p);
    LLVMBasicBlockRef then = LLVMAppendBasicBlockInContext(c->C, c->fn, "block.then");
    LLVMBasicBlockRef els = LLVMAppendBasicBlockInContext(c->C, c->fn, "block.else");
    LLVMBasicBlockRef merge = LLVMAppendBasicBlockInContext(c->C, c->fn, "block.endif");
    LLVMBuildCondBr(c->B, cond, then, els);
    for (int k = 0; k < 2; k++) {
        LLVMPositionBuilderAtEnd(c->B, k ? els : then);
        if (k < i->nblocks)
            emit_level(c, p, i->blocks[k].first, NULL);
        LLVMBuildBr(c->B, merge);
    }
    LLVMMoveBasicBlockAfter(merge, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, merge);
}

/* A loop with a barrier: a break or continue in its body's regions takes
 * the block to `end` or `step` (follow_jumps). */
static void emit_block_loop(CgCtx *c, CgRegionPlan *p, FxInst *i)
{
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->C, c->fn, "block.loop");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->C, c->fn, "block.body");
    LLVMBasicBlockRef step = LLVMAppendBasicBlockInContext(c->C, c->fn, "block.step");
    LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(c->C, c->fn, "block.loop.end");
    LLVMBuildBr(c->B, head);
    LLVMPositionBuilderAtEnd(c->B, head);
    FxInst *decide_from = last_run(c, &i->blocks[0]);   /* the head's regions before it, then it decides */
    emit_level(c, p, i->blocks[0].first, decide_from);
    emit_region(c, p, decide_from, NULL, i->ops[0], i);
    LLVMBuildCondBr(c->B, decision(c, p), body, end);
    LLVMMoveBasicBlockAfter(body, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, body);
    BlockLoop loop = { step, end, p->loop };
    p->loop = &loop;
    emit_level(c, p, i->blocks[1].first, NULL);
    p->loop = loop.outer;
    LLVMBuildBr(c->B, step);
    LLVMMoveBasicBlockAfter(step, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, step);
    if (i->nblocks > 2 && cg_block_waits(c, &i->blocks[2]))
        emit_level(c, p, i->blocks[2].first, NULL);
    else if (i->nblocks > 2 && i->blocks[2].first)
        emit_region(c, p, i->blocks[2].first, NULL, NULL, NULL);
    LLVMBuildBr(c->B, head);
    LLVMMoveBasicBlockAfter(end, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, end);
}

/* The current work-item's wave's entry in mask array `masks`; *bit, when
 * not NULL, gets the work-item's lane bit. */
static LLVMValueRef wave_mask_at(CgCtx *c, CgRegionPlan *p, LLVMValueRef masks, LLVMValueRef *bit)
{
    LLVMValueRef wi = p->cur->wi;
    if (bit) {
        LLVMValueRef lane = LLVMBuildAnd(c->B, wi, LLVMConstInt(i32t(c), (unsigned)cg_host_wave_size(c) - 1, 0), "lane");
        *bit = LLVMBuildShl(c->B, LLVMConstInt(i64t(c), 1, 0), LLVMBuildZExt(c->B, lane, i64t(c), ""), "");
    }
    LLVMValueRef wave = LLVMBuildLShr(c->B, wi, LLVMConstInt(i32t(c), (unsigned)lane_bits(c), 0), "wave");
    return LLVMBuildInBoundsGEP2(c->B, i64t(c), masks, &wave, 1, "");
}

/* A wave exchange at the end of a work-item loop (ends_run): the work-item
 * puts its value in its wave's slots when a later region reads them, and
 * its bit in the exchange's mask when a wave_active reads that. The
 * analysis proved that the block reaches the exchange together, so the
 * lanes of a wave that meet there are those that have not returned, as on
 * fibers. NULL outside a work-item loop. */
LLVMValueRef cg_region_exchange(CgCtx *c, FxInst *x)
{
    CgRegionPlan *p = c->regions;
    if (!p || !p->cur || !ends_run(c, x))
        return NULL;
    if (cg_map_get(&p->spilled, x)) {
        LLVMTypeRef t = snapshot_type(c, x);
        LLVMValueRef v = cg_to_mem(c, cg_val(c, x->ops[0]), x->ops[0]->type);
        LLVMBuildStore(c->B, v, LLVMBuildInBoundsGEP2(c->B, t, cg_map_get(&p->slots, x), &p->cur->wi, 1, ""));
    }
    LLVMValueRef masks = cg_map_get(&p->mask_arrays, x);
    if (masks) {
        LLVMValueRef bit;
        LLVMValueRef at = wave_mask_at(c, p, masks, &bit);
        LLVMBuildStore(c->B, LLVMBuildOr(c->B, LLVMBuildLoad2(c->B, i64t(c), at, ""), bit, ""), at);
    }
    return LLVMConstNull(LLVMPointerTypeInContext(c->C, 0));   /* read in later regions only */
}

/* Before the work-item loop that ends with exchange x: nobody came yet. */
static void clear_mask(CgCtx *c, CgRegionPlan *p, FxInst *x)
{
    LLVMValueRef masks = cg_map_get(&p->mask_arrays, x);
    if (!masks)
        return;
    LLVMValueRef bytes = LLVMBuildShl(c->B, LLVMBuildZExt(c->B, wave_count(c, p), i64t(c), ""),
                                      LLVMConstInt(i64t(c), 3, 0), "");
    LLVMBuildMemSet(c->B, masks, LLVMConstInt(i8t(c), 0, 0), bytes, 8);
}

/* FX_WAVE_ACTIVE in a work-item loop, in waves wider than one lane: the
 * lanes of the work-item's wave at the exchange before it (NULL otherwise). */
LLVMValueRef cg_region_wave_active(CgCtx *c, FxInst *active)
{
    CgRegionPlan *p = c->regions;
    FxInst *x = p && p->cur ? cg_map_get(&p->masked, active) : NULL;
    if (!x)   /* one lane: the runtime's exchange, per work-item */
        return NULL;
    return LLVMBuildLoad2(c->B, i64t(c), wave_mask_at(c, p, cg_map_get(&p->mask_arrays, x), NULL), "wave_active");
}

/* Statements [from, to) of a block run by the whole block: regions
 * between the statements that wait. */
static void emit_level(CgCtx *c, CgRegionPlan *p, FxInst *from, FxInst *to)
{
    for (FxInst *i = from; i != to;) {
        if (!cg_inst_waits(c, i) || ends_run(c, i)) {
            FxInst *run_end = i;
            while (run_end != to && !cg_inst_waits(c, run_end))
                run_end = run_end->next;
            if (run_end != to && ends_run(c, run_end)) {
                clear_mask(c, p, run_end);
                run_end = run_end->next;
            }
            emit_region(c, p, i, run_end, NULL, NULL);
            i = run_end;
            continue;
        }
        cg_debug_loc(c, i);
        if (i->op == FX_IF)
            emit_block_if(c, p, i);
        else if (i->op == FX_LOOP)
            emit_block_loop(c, p, i);
        else if (i->op == FX_CALL)
            emit_in_place(c, p, i);
        /* an FX_BARRIER: the regions on either side are already apart */
        i = i->next;
    }
}

void cg_emit_regions(CgCtx *c, CgFunc *cf)
{
    CgRegionPlan *p = cf->regions;
    c->regions = p;
    begin_block(c, p);
    emit_level(c, p, cf->f->body.first, NULL);
    LLVMBuildBr(c->B, p->exit);
    LLVMMoveBasicBlockAfter(p->exit, LLVMGetInsertBlock(c->B));
    LLVMPositionBuilderAtEnd(c->B, p->exit);
    c->regions = NULL;
}

void cg_region_plan_free(CgRegionPlan *p)
{
    if (!p)
        return;
    cg_map_free(&p->region);
    cg_map_free(&p->spilled);
    cg_map_free(&p->planned);
    cg_map_free(&p->decides);
    cg_map_free(&p->tails);
    cg_map_free(&p->slots);
    cg_map_free(&p->masked);
    cg_map_free(&p->remade);
    cg_map_free(&p->mask_arrays);
}
