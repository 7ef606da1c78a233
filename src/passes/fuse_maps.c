/* fuse_maps.c - adjacent Map nodes of a program fuse: a Map whose output is
 * a transient read by exactly one later Map of the same shape becomes part of
 * that Map's body, so the transient is never written to memory.
 *   let T = X * s + b        (map 1 writes T)
 *   Y = fx.max(T, 0.0)       (map 2 reads T)   ->   Y = fx.max(X * s + b, 0.0)
 * The fused body calls both bodies (they are inlined by codegen), in the
 * same order, so the result is bit-identical. */
#include "passes/passes.h"
#include <string.h>

static int readers(const FxProgram *p, const FxTensor *t, int *only)
{
    int n = 0;
    for (int i = 0; i < p->nodes.len; i++) {
        const FxNode *node = p->nodes.items[i];
        for (int k = 0; k < node->nins; k++)
            if (node->ins[k] == t) {
                n++;
                *only = i;
            }
    }
    return n;
}

static bool same_shape(const Type *a, const Type *b)
{
    if (a->ndims != b->ndims)
        return false;
    for (int d = 0; d < a->ndims; d++) {
        const char *na = a->dim_names ? a->dim_names[d] : NULL, *nb = b->dim_names ? b->dim_names[d] : NULL;
        if ((na || nb) ? !(na && nb && strcmp(na, nb) == 0) : a->dims[d] != b->dims[d])
            return false;
    }
    return true;
}

static int index_of(FxTensor **v, int n, const FxTensor *t)
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

static FxInst *param_inst(Arena *a, FxFunc *f, int i, const char *name, const Type *t)
{
    f->params[i] = (FxParam){ name, t, f->loc };
    FxInst *p = fxir_new(a, FX_PARAM, t, 0, f->loc);
    p->param_index = i;
    p->name = name;
    fxir_append(&f->body, p);
    return p;
}

/* consumer(ins_c..., scalars_c...) with producer's output T among ins_c
 * becomes fused(ins..., scalars...) = consumer(..., producer(...), ...). */
static void fuse(FxModule *m, FxProgram *p, FxNode *prod, FxNode *cons)
{
    Arena *a = m->arena;
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
    const char *name = arena_printf(a, "%s_%s", prod->body->name, cons->body->name);
    FxFunc *f = fxir_func_new(m, name, FXF_FN, nins + nscal, cons->body->ret, cons->loc);
    FxInst **tp = arena_alloc(a, sizeof(FxInst *) * (size_t)(nins + 1));
    FxInst **sp = arena_alloc(a, sizeof(FxInst *) * (size_t)(nscal + 1));
    for (int i = 0; i < nins; i++)
        tp[i] = param_inst(a, f, i, ins[i]->name, ins[i]->type->elem);
    for (int i = 0; i < nscal; i++)
        sp[i] = param_inst(a, f, nins + i, p->params[scal[i]].name, p->params[scal[i]].type);
    FxInst *inner = fxir_new(a, FX_CALL, prod->body->ret, prod->nins + prod->nscalars, prod->loc);
    inner->callee = prod->body;
    for (int k = 0; k < prod->nins; k++)
        inner->ops[k] = tp[index_of(ins, nins, prod->ins[k])];
    for (int k = 0; k < prod->nscalars; k++)
        inner->ops[prod->nins + k] = sp[index_of_int(scal, nscal, prod->scalar_params[k])];
    fxir_append(&f->body, inner);
    FxInst *outer = fxir_new(a, FX_CALL, cons->body->ret, cons->nins + cons->nscalars, cons->loc);
    outer->callee = cons->body;
    for (int k = 0; k < cons->nins; k++)
        outer->ops[k] = cons->ins[k] == prod->out ? inner : tp[index_of(ins, nins, cons->ins[k])];
    for (int k = 0; k < cons->nscalars; k++)
        outer->ops[cons->nins + k] = sp[index_of_int(scal, nscal, cons->scalar_params[k])];
    fxir_append(&f->body, outer);
    FxInst *ret = fxir_new(a, FX_RETURN, type_simple(TY_VOID), 1, cons->loc);
    ret->ops[0] = outer;
    fxir_append(&f->body, ret);
    cons->body = f;
    cons->nins = nins;
    cons->ins = arena_alloc(a, sizeof(FxTensor *) * (size_t)(nins + 1));
    memcpy(cons->ins, ins, sizeof(FxTensor *) * (size_t)nins);
    cons->nscalars = nscal;
    cons->scalar_params = arena_alloc(a, sizeof(int) * (size_t)(nscal + 1));
    memcpy(cons->scalar_params, scal, sizeof(int) * (size_t)nscal);
}

static void drop(PtrVec *v, const void *item)
{
    int k = 0;
    for (int i = 0; i < v->len; i++)
        if (v->items[i] != item)
            v->items[k++] = v->items[i];
    v->len = k;
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
                if (prod->kind != FXN_MAP || prod->out->param_index >= 0 || readers(p, prod->out, &j) != 1)
                    continue;
                FxNode *cons = p->nodes.items[j];
                if (j <= i || cons->kind != FXN_MAP || !same_shape(prod->out->type, cons->out->type))
                    continue;
                if (prod->nins + cons->nins > 60 || prod->nscalars + cons->nscalars > 60)
                    continue;
                fuse(m, p, prod, cons);
                drop(&p->nodes, prod);
                drop(&p->tensors, prod->out);
                fused++;
                again = true;
            }
        }
    }
    return fused;
}
