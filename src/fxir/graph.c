/* graph.c - program graph editing (see graph.h). */
#include "fxir/graph.h"
#include <string.h>

FxProgram *fxg_program(FxModule *m, const char *name, int nparams, Loc loc)
{
    FxProgram *p = arena_alloc(m->arena, sizeof *p);
    p->name = name;
    p->nparams = nparams;
    p->params = arena_alloc(m->arena, sizeof(FxParam) * (size_t)(nparams ? nparams : 1));
    p->loc = loc;
    ptrvec_push(m->arena, &m->programs, p);
    return p;
}

FxTensor *fxg_param_tensor(FxModule *m, FxProgram *p, int param_index)
{
    for (int i = 0; i < p->tensors.len; i++) {
        FxTensor *t = p->tensors.items[i];
        if (t->param_index == param_index)
            return t;
    }
    FxTensor *t = arena_alloc(m->arena, sizeof *t);
    *t = (FxTensor){ p->params[param_index].name, p->params[param_index].type, param_index,
                     p->params[param_index].loc, NULL };
    ptrvec_push(m->arena, &p->tensors, t);
    return t;
}

static FxTensor *add_transient(FxModule *m, FxProgram *p, const char *name, const Type *type, Loc loc)
{
    FxTensor *t = arena_alloc(m->arena, sizeof *t);
    *t = (FxTensor){ name, type, -1, loc, NULL };
    ptrvec_push(m->arena, &p->tensors, t);
    return t;
}

FxTensor *fxg_transient(FxModule *m, FxProgram *p, const char *name, const Type *elem, int rank,
                        const int64_t *dims, const char *const *dim_names, Loc loc)
{
    return add_transient(m, p, name, type_tensor(m->arena, elem, rank, dims, dim_names, false), loc);
}

FxTensor *fxg_transient_like(FxModule *m, FxProgram *p, const char *name, const Type *elem, const FxTensor *like,
                             Loc loc)
{
    const Type *l = like->type;
    return add_transient(m, p, name, type_tensor(m->arena, elem, l->ndims, l->dims, l->dim_names, l->col_major), loc);
}

FxTensor *fxg_view(FxModule *m, FxProgram *p, const char *name, FxTensor *base, int rank, const int64_t *dims,
                   const char *const *dim_names, Loc loc)
{
    while (base->view_of)
        base = base->view_of;
    FxTensor *t = add_transient(m, p, name, type_tensor(m->arena, base->type->elem, rank, dims, dim_names, false),
                                loc);
    t->view_of = base;
    return t;
}

FxNode *fxg_node(FxModule *m, FxProgram *p, FxNodeKind kind, FxTensor *out, Loc loc, FxNode *before)
{
    FxNode *n = arena_alloc(m->arena, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    n->out = out;
    ptrvec_push(m->arena, &p->nodes, n);
    int at = before ? fxg_node_index(p, before) : -1;
    if (at >= 0) {
        memmove(&p->nodes.items[at + 1], &p->nodes.items[at], sizeof(void *) * (size_t)(p->nodes.len - 1 - at));
        p->nodes.items[at] = n;
    }
    return n;
}

void fxg_set_inputs(FxModule *m, FxNode *n, int nins, FxTensor *const *ins)
{
    n->nins = nins;
    n->ins = arena_alloc(m->arena, sizeof(FxTensor *) * (size_t)(nins ? nins : 1));
    if (nins)   /* an empty list may be NULL, which memcpy must not get */
        memcpy(n->ins, ins, sizeof(FxTensor *) * (size_t)nins);
}

void fxg_set_scalars(FxModule *m, FxNode *n, int nscalars, const int *params)
{
    n->nscalars = nscalars;
    n->scalar_params = arena_alloc(m->arena, sizeof(int) * (size_t)(nscalars ? nscalars : 1));
    if (nscalars)
        memcpy(n->scalar_params, params, sizeof(int) * (size_t)nscalars);
}

void fxg_replace_input(FxNode *n, const FxTensor *old, FxTensor *repl)
{
    for (int i = 0; i < n->nins; i++)
        if (n->ins[i] == old)
            n->ins[i] = repl;
}

static void drop(PtrVec *v, const void *item)
{
    int k = 0;
    for (int i = 0; i < v->len; i++)
        if (v->items[i] != item)
            v->items[k++] = v->items[i];
    v->len = k;
}

void fxg_remove_node(FxProgram *p, FxNode *n) { drop(&p->nodes, n); }
void fxg_remove_tensor(FxProgram *p, FxTensor *t) { drop(&p->tensors, t); }

int fxg_node_index(const FxProgram *p, const FxNode *n)
{
    for (int i = 0; i < p->nodes.len; i++)
        if (p->nodes.items[i] == n)
            return i;
    return -1;
}

void fxg_move_node(FxProgram *p, FxNode *n, int to)
{
    int from = fxg_node_index(p, n);
    if (from < 0 || to < 0 || to >= p->nodes.len || from == to)
        return;
    if (from < to)
        memmove(&p->nodes.items[from], &p->nodes.items[from + 1], sizeof(void *) * (size_t)(to - from));
    else
        memmove(&p->nodes.items[to + 1], &p->nodes.items[to], sizeof(void *) * (size_t)(from - to));
    p->nodes.items[to] = n;
}

const FxTensor *fxg_base(const FxTensor *t) { return t->view_of ? t->view_of : t; }

bool fxg_node_reads(const FxNode *n, const FxTensor *t)
{
    for (int k = 0; k < n->nins; k++)
        if (fxg_base(n->ins[k]) == fxg_base(t))
            return true;
    return false;
}

int fxg_readers(const FxProgram *p, const FxTensor *t, int *last)
{
    int n = 0;
    for (int i = 0; i < p->nodes.len; i++) {
        const FxNode *node = p->nodes.items[i];
        for (int k = 0; k < node->nins; k++)
            if (node->ins[k] == t || node->ins[k]->view_of == t) {   /* a view's reader reads t */
                n++;
                if (last)
                    *last = i;
                break;
            }
    }
    return n;
}

FxNode *fxg_writer(const FxProgram *p, const FxTensor *t)
{
    for (int i = 0; i < p->nodes.len; i++) {
        FxNode *node = p->nodes.items[i];
        if (node->out == t)
            return node;
    }
    return NULL;
}

const FxTensor *fxg_reduce_domain(const FxNode *n) { return n->body ? n->domain : n->ins[0]; }

bool fxg_same_kernel_shape(const FxNode *a, const FxNode *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == FXN_MAP)
        return fxg_same_shape(a->out->type, b->out->type);
    return a->kind == FXN_REDUCE && a->axis == b->axis &&
           fxg_same_shape(fxg_reduce_domain(a)->type, fxg_reduce_domain(b)->type);
}

bool fxg_same_shape(const Type *a, const Type *b)
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

FxFunc *fxg_map_body(FxBuilder *b, FxModule *m, const FxProgram *p, FxNode *n, const char *name, const Type *ret,
                     FxInst **params)
{
    FxFunc *f = fxb_func(b, m, name, FXF_FN, n->nins + n->nscalars, ret, n->loc);
    for (int i = 0; i < n->nins; i++)
        params[i] = fxb_param(b, f, i, n->ins[i]->name, n->ins[i]->type->elem);
    for (int i = 0; i < n->nscalars; i++) {
        const FxParam *sp = &p->params[n->scalar_params[i]];
        params[n->nins + i] = fxb_param(b, f, n->nins + i, sp->name, sp->type);
    }
    n->body = f;
    return f;
}
