/* cg_hostshared.c - host: where each shared array lives in the block's
 * shared memory (FxHostCtx.shared): every fn's arrays first, then each
 * kernel's own, 16-byte aligned; a kernel's dynamic array (Array[T, DYN])
 * after its static ones, at K__fxshared. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"

/* The static shared arrays of b at *off on, in order (16-byte aligned);
 * a dynamic array (after them all) goes to *dyn. */
static void layout_block(CgCtx *c, FxBlock *b, int64_t *off, FxInst **dyn)
{
    for (FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_ALLOCA && type_is_dyn_array(i->type)) {
            *dyn = i;
        } else if (i->op == FX_ALLOCA && i->space == FXSPACE_SHARED) {
            LLVMTypeRef mt = cg_mem_type(c, i->type);
            int64_t size = (int64_t)LLVMABISizeOfType(c->TD, mt);
            *off = (*off + 15) & ~(int64_t)15;
            cg_map_put(&c->shared, i, (void *)(intptr_t)(*off + 1));
            *off += size;
        }
        for (int k = 0; k < i->nblocks; k++)
            layout_block(c, &i->blocks[k], off, dyn);
    }
}

int64_t cg_host_static_shared(CgCtx *c, const CgFunc *cf)
{
    int64_t shared = cf->shared_base + cf->shared_own;
    if (cf->shared_own == 0 && c->fn_shared_total == 0)
        shared = 0;
    return (shared + 15) & ~(int64_t)15;
}

void cg_layout_shared(CgCtx *c)
{
    int64_t off = 0;
    for (int k = 0; k < c->fm->funcs.len; k++) {
        FxFunc *f = c->fm->funcs.items[k];
        if (f->kind != FXF_FN)
            continue;
        CgFunc *cf = cg_map_get(&c->funcs, f);
        cf->shared_base = off;
        FxInst *dyn = NULL;   /* sema allows none in a fn */
        layout_block(c, &f->body, &off, &dyn);
        cf->shared_own = off - cf->shared_base;
    }
    c->fn_shared_total = (off + 15) & ~(int64_t)15;
    for (int k = 0; k < c->fm->funcs.len; k++) {
        FxFunc *f = c->fm->funcs.items[k];
        if (f->kind != FXF_KERNEL)
            continue;
        CgFunc *cf = cg_map_get(&c->funcs, f);
        int64_t koff = c->fn_shared_total;
        cf->shared_base = koff;
        FxInst *dyn = NULL;
        layout_block(c, &f->body, &koff, &dyn);
        cf->shared_own = koff - cf->shared_base;
        /* the launch's dynamic bytes follow the static ones (K__fxshared) */
        if (dyn)
            cg_map_put(&c->shared, dyn, (void *)(intptr_t)(cg_host_static_shared(c, cf) + 1));
        cf->dyn_elem_bytes = dyn ? (int64_t)LLVMABISizeOfType(c->TD, cg_stride_type(c, dyn->type->elem)) : 0;
    }
}

