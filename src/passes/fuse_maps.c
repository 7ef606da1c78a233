/* fuse_maps.c - adjacent Map nodes of a program fuse: a Map whose output is
 * a transient read by exactly one later Map of the same shape becomes part of
 * that Map's body, so the transient is never written to memory.
 *   let T = X * s + b        (map 1 writes T)
 *   Y = fx.max(T, 0.0)       (map 2 reads T)   ->   Y = fx.max(X * s + b, 0.0)
 * The fused body calls both bodies (they are inlined by codegen), in the
 * same order, so the result is bit-identical. */
#include "passes/passes.h"
#include "fxir/graph.h"

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

int pass_fuse_maps(FxModule *m)
{
    int fused = 0;
    for (int pi = 0; pi < m->programs.len; pi++) {
        FxProgram *p = m->programs.items[pi];
        for (bool again = true; again;) {
            again = false;
            for (int i = 0; i < p->nodes.len && !again; i++) {
                FxNode *prod = p->nodes.items[i];
                int j = -1;
                if (prod->kind != FXN_MAP || prod->out->param_index >= 0 || fxg_readers(p, prod->out, &j) != 1)
                    continue;
                FxNode *cons = p->nodes.items[j];
                if (j <= i || cons->kind != FXN_MAP || !fxg_same_shape(prod->out->type, cons->out->type))
                    continue;
                if (prod->when != cons->when || prod->when_nonzero != cons->when_nonzero || cons->note)
                    continue;   /* steps that run under different conditions stay apart */
                if (prod->nins + cons->nins > 60 || prod->nscalars + cons->nscalars > 60)
                    continue;
                fuse(m, p, prod, cons);
                fxg_remove_node(p, prod);
                fxg_remove_tensor(p, prod->out);
                fused++;
                again = true;
            }
        }
    }
    return fused;
}
