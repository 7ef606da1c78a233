/* fuse_maps.c - Map nodes of a program fuse, two ways.
 *
 * Down a chain: a Map whose output is a transient read by exactly one later
 * Map of the same shape becomes part of that Map's body, so the transient
 * is never written to memory, unless a node between them rewrites what the
 * first reads (its body would then read the new values).
 *   let T = X * s + b        (map 1 writes T)
 *   Y = fx.max(T, 0.0)       (map 2 reads T)   ->   Y = fx.max(X * s + b, 0.0)
 * A Reduce is the end of a chain the same way: one that reads the Map's
 * output computes each element with the Map's body instead of loading it.
 *   r = fx.reduce_sum(X * X, axis=1)   ->   one kernel, no X * X in memory
 * The fused body calls both bodies (they are inlined by codegen), in the
 * same order, so the result is bit-identical.
 *
 * Side by side (siblings): Maps of the same shape that read a common tensor
 * and nothing the others write run in one kernel (FxNode.with_previous),
 * which loads each input element once and stores every member's output:
 *   R0 = f(A, s)   R1 = g(A, s)   ->   one kernel writing R0 and R1
 * Ozaki-II's residues of A, one Map per modulus, are such a group. So are
 * reductions over one shape and axis that read a common tensor:
 *   m = fx.reduce_max(X, axis=1)   q = fx.reduce_sum(X * X, axis=1)
 * read X once, each with its own accumulator and tree. */
#include "passes/passes.h"
#include "fxir/graph.h"
#include "support/diag.h"
#include <string.h>

static int index_of(FxTensor *const *v, int n, const FxTensor *t)
{
    for (int i = 0; i < n; i++)
        if (v[i] == t)
            return i;
    return -1;
}

static int index_of_int(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x)
            return i;
    return -1;
}

/* A call of a Map node's body with the fused body's parameter values. */
static FxInst *call_body(FxBuilder *b, const FxNode *node, const FxNode *fused, FxInst **fparams,
                         const FxTensor *replaced, FxInst *replacement)
{
    FxInst *args[128];
    for (int k = 0; k < node->nins; k++)
        args[k] = node->ins[k] == replaced ? replacement : fparams[index_of(fused->ins, fused->nins, node->ins[k])];
    for (int k = 0; k < node->nscalars; k++)
        args[node->nins + k] =
            fparams[fused->nins + index_of_int(fused->scalar_params, fused->nscalars, node->scalar_params[k])];
    return fxb_call(b, node->body, node->nins + node->nscalars, args);
}

/* consumer(ins_c..., scalars_c...) with producer's output T among ins_c
 * becomes fused(ins..., scalars...) = consumer(..., producer(...), ...). */
static void fuse(FxModule *m, FxProgram *p, FxNode *prod, FxNode *cons)
{
    FxTensor *ins[64];
    int nins = 0, scal[64], nscal = 0;
    for (int k = 0; k < cons->nins; k++)
        if (cons->ins[k] != prod->out && index_of(ins, nins, cons->ins[k]) < 0)
            ins[nins++] = cons->ins[k];
    for (int k = 0; k < prod->nins; k++)
        if (index_of(ins, nins, prod->ins[k]) < 0)
            ins[nins++] = prod->ins[k];
    for (int k = 0; k < cons->nscalars; k++)
        scal[nscal++] = cons->scalar_params[k];
    for (int k = 0; k < prod->nscalars; k++)
        if (index_of_int(scal, nscal, prod->scalar_params[k]) < 0)
            scal[nscal++] = prod->scalar_params[k];
    /* the fused node takes the consumer's place; its old body is kept for the call */
    FxNode old = *cons;
    fxg_set_inputs(m, cons, nins, ins);
    fxg_set_scalars(m, cons, nscal, scal);
    FxBuilder b;
    FxInst *params[128];
    const char *name = arena_printf(m->arena, "%s_%s", prod->body->name, old.body->name);
    fxg_map_body(&b, m, p, cons, name, old.body->ret, params);
    FxInst *inner = call_body(&b, prod, cons, params, NULL, NULL);
    fxb_return(&b, call_body(&b, &old, cons, params, prod->out, inner));
}

/* A Reduce of the producer's output T computes T's elements itself: it
 * takes the producer's body, inputs and scalars, and T as its domain (T
 * keeps its shape and element type, but no longer has a buffer). */
static void fold_into_reduce(FxModule *m, FxNode *prod, FxNode *red)
{
    fxg_set_inputs(m, red, prod->nins, prod->ins);
    fxg_set_scalars(m, red, prod->nscalars, prod->scalar_params);
    red->body = prod->body;
    red->domain = prod->out;
}

/* ---- siblings ---- */

/* A group's members are at most this many, and its kernel loads at most
 * this many input tensors (one parameter each, like a fused body's). */
enum { MAX_SIBLINGS = 32, MAX_GROUP_INPUTS = 60 };

/* Neither node reads or writes what the other writes. */
static bool apart(const FxNode *a, const FxNode *b)
{
    return a->out != b->out && !fxg_node_reads(a, b->out) && !fxg_node_reads(b, a->out);
}

/* Whether n may run before `between`, which runs before it now. */
static bool may_pass(const FxNode *n, const FxNode *between)
{
    return apart(n, between) && !(n->when && fxg_base(n->when) == between->out);
}

static bool share_an_input(const FxNode *a, const FxNode *b)
{
    for (int k = 0; k < b->nins; k++)
        if (fxg_node_reads(a, b->ins[k]))
            return true;
    return false;
}

/* The distinct input tensors of nodes [first, last] and node `also`. */
static int group_inputs(const FxProgram *p, int first, int last, const FxNode *also)
{
    const FxTensor *seen[MAX_SIBLINGS * 64];
    int n = 0;
    for (int g = first; g <= last + 1; g++) {
        const FxNode *node = g <= last ? p->nodes.items[g] : also;
        for (int k = 0; k < node->nins; k++)
            if (index_of((FxTensor *const *)seen, n, node->ins[k]) < 0)
                seen[n++] = node->ins[k];
    }
    return n;
}

/* Whether node j can join the group [head, last]: a node of the kind and
 * shape of the head (a Map's output, a Reduce's domain and axis), under the
 * same condition, sharing an input with a member and touching nothing a
 * member writes, that can move up past the nodes between. */
static bool may_join(const FxProgram *p, int head, int last, int j)
{
    const FxNode *h = p->nodes.items[head], *n = p->nodes.items[j];
    if (n->note || n->with_previous || !fxg_same_kernel_shape(h, n))
        return false;   /* a member of another group stays in it */
    if (n->kind == FXN_REDUCE && last - head + 1 == FXG_MAX_REDUCE_SIBLINGS)
        return false;
    if (h->when != n->when || h->when_nonzero != n->when_nonzero)
        return false;
    bool shared = false;
    for (int g = head; g <= last; g++) {
        if (!apart(p->nodes.items[g], n))
            return false;
        shared |= share_an_input(p->nodes.items[g], n);
    }
    for (int k = last + 1; k < j && shared; k++)
        if (!may_pass(n, p->nodes.items[k]))
            return false;
    return shared && group_inputs(p, head, last, n) <= MAX_GROUP_INPUTS;
}

/* Gathers each Map's or Reduce's siblings right after it; returns how many
 * joined. */
static int fuse_siblings(FxProgram *p)
{
    int joined = 0;
    for (int head = 0; head < p->nodes.len; head++) {
        if (((FxNode *)p->nodes.items[head])->kind == FXN_MATMUL)
            continue;
        int last = head;   /* the group so far: read FXIR may have marked some already */
        while (last + 1 < p->nodes.len && ((FxNode *)p->nodes.items[last + 1])->with_previous)
            last++;
        for (int j = last + 1; j < p->nodes.len && last - head + 1 < MAX_SIBLINGS; j++) {
            if (!may_join(p, head, last, j))
                continue;
            FxNode *n = p->nodes.items[j];
            fxg_move_node(p, n, ++last);   /* the nodes it passes shift down: j+1 is still next */
            n->with_previous = true;
            joined++;
        }
        head = last;
    }
    return joined;
}

/* The first node after i and before j that writes what node i reads or its
 * condition, or NULL. Folded into node j, node i's body reads its inputs
 * when node j runs, so such a node keeps them apart. */
static const FxNode *rewrite_between(const FxProgram *p, int i, int j)
{
    const FxNode *prod = p->nodes.items[i];
    for (int k = i + 1; k < j; k++) {
        const FxNode *w = p->nodes.items[k];
        if (fxg_node_reads(prod, w->out) || (prod->when && fxg_base(prod->when) == w->out))
            return w;
    }
    return NULL;
}

/* Node i runs in one kernel with others (read FXIR can say so): folding it
 * into a chain could leave its group reading what a member writes. */
static bool in_group(const FxProgram *p, int i)
{
    return ((FxNode *)p->nodes.items[i])->with_previous ||
           (i + 1 < p->nodes.len && ((FxNode *)p->nodes.items[i + 1])->with_previous);
}

/* Whether node n reads t only as t (a view of t has another shape, and
 * would read a buffer the fold removes) and no node runs under t. */
static bool only_read_directly(const FxProgram *p, const FxNode *n, const FxTensor *t)
{
    for (int k = 0; k < n->nins; k++)
        if (n->ins[k] != t && fxg_base(n->ins[k]) == t)
            return false;
    for (int k = 0; k < p->nodes.len; k++) {
        const FxTensor *w = ((const FxNode *)p->nodes.items[k])->when;
        if (w && fxg_base(w) == t)
            return false;
    }
    return true;
}

/* The index space the consumer of a chain computes over: a Map's output
 * shape, a Reduce's domain. */
static const Type *consumer_space(const FxNode *cons)
{
    return cons->kind == FXN_MAP ? cons->out->type : fxg_reduce_domain(cons)->type;
}

/* Whether Map prod reads what Reduce cons writes: folded in, the
 * reduction's workgroups would read elements the others have written. */
static bool reads_reduction_output(const FxNode *prod, const FxNode *cons)
{
    return cons->kind == FXN_REDUCE && fxg_node_reads(prod, cons->out);
}

/* Node i may fold into the one Map or Reduce that reads its output, *j,
 * but for what nodes between them write (rewrite_between) and a Map that
 * reads a reduction's output (reads_reduction_output). */
static bool chain_candidate(const FxProgram *p, int i, int *j)
{
    const FxNode *prod = p->nodes.items[i];
    if (prod->kind != FXN_MAP || prod->out->param_index >= 0 || fxg_readers(p, prod->out, j) != 1)
        return false;
    const FxNode *cons = p->nodes.items[*j];
    if (*j <= i || cons->kind == FXN_MATMUL || !only_read_directly(p, cons, prod->out))
        return false;
    if (!fxg_same_shape(prod->out->type, consumer_space(cons)))
        return false;
    if (in_group(p, i) || in_group(p, *j))
        return false;
    if (prod->when != cons->when || prod->when_nonzero != cons->when_nonzero || cons->note)
        return false;   /* steps that run under different conditions stay apart */
    return prod->nins + cons->nins <= 60 && prod->nscalars + cons->nscalars <= 60;
}

/* -Rpass-missed: the chains that a rewrite between them, or a reduction's
 * output read by the Map, kept apart. */
static void remark_kept_chains(const FxProgram *p, const PassOptions *o)
{
    for (int i = 0; i < p->nodes.len && pass_remark_on(o, "map-fusion", true); i++) {
        int j;
        if (!chain_candidate(p, i, &j))
            continue;
        const FxNode *prod = p->nodes.items[i], *cons = p->nodes.items[j], *w = rewrite_between(p, i, j);
        const char *into = cons->kind == FXN_MAP ? "Map" : "reduction";
        if (w)
            diag_remark(prod->loc, "map-fusion: '%s' is not folded into the %s at line %d: line %d rewrites '%s' "
                        "before it", prod->out->name, into, cons->loc.line, w->loc.line, w->out->name);
        else if (reads_reduction_output(prod, cons))
            diag_remark(prod->loc, "map-fusion: '%s' is not folded into the reduction at line %d: it reads '%s', "
                        "which the reduction writes", prod->out->name, cons->loc.line, cons->out->name);
    }
}

/* -Rpass: each group of siblings, at its first Map, with its members' lines. */
static void remark_groups(const FxProgram *p, const PassOptions *o)
{
    for (int i = 0; i < p->nodes.len && pass_remark_on(o, "map-fusion", false); i++) {
        int n = 1;
        while (i + n < p->nodes.len && ((FxNode *)p->nodes.items[i + n])->with_previous)
            n++;
        if (n == 1)
            continue;
        char lines[256];
        size_t len = 0;
        int last = -1;
        for (int g = i; g < i + n && len < sizeof lines - 16; g++) {
            int line = ((FxNode *)p->nodes.items[g])->loc.line;
            if (line != last)
                len += (size_t)snprintf(lines + len, sizeof lines - len, "%s%d", last < 0 ? "" : ", ", line);
            last = line;
        }
        const FxNode *head = p->nodes.items[i];
        diag_remark(head->loc, "map-fusion: %d %s run in one kernel, writing '%s' and %d more (line%s %s)", n,
                    head->kind == FXN_MAP ? "Maps" : "reductions", head->out->name, n - 1,
                    strchr(lines, ',') ? "s" : "", lines);
        i += n - 1;
    }
}

int pass_fuse_maps(FxModule *m, const PassOptions *o)
{
    int fused = 0;
    for (int pi = 0; pi < m->programs.len; pi++) {
        FxProgram *p = m->programs.items[pi];
        for (bool again = true; again;) {
            again = false;
            for (int i = 0; i < p->nodes.len && !again; i++) {
                int j;
                if (!chain_candidate(p, i, &j) || rewrite_between(p, i, j) ||
                    reads_reduction_output(p->nodes.items[i], p->nodes.items[j]))
                    continue;
                FxNode *prod = p->nodes.items[i], *cons = p->nodes.items[j];
                if (pass_remark_on(o, "map-fusion", false))
                    diag_remark(cons->loc, "map-fusion: the Map at line %d is folded into this %s; '%s' never "
                                "reaches memory", prod->loc.line, cons->kind == FXN_MAP ? "one" : "reduction",
                                prod->out->name);
                if (cons->kind == FXN_REDUCE && !cons->body)
                    fold_into_reduce(m, prod, cons);
                else
                    fuse(m, p, prod, cons);
                fxg_remove_node(p, prod);
                fxg_remove_tensor(p, prod->out);
                fused++;
                again = true;
            }
        }
        remark_kept_chains(p, o);
        fused += fuse_siblings(p);
        remark_groups(p, o);
    }
    return fused;
}
