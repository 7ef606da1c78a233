/* fxk.c - hand-built FXIR for the tests. */
#include "fxk.h"
#include <stdarg.h>
#include <string.h>

const Loc fxk_noloc;

Kb fxk_begin(const char *source_name)
{
    Kb k = { 0 };
    k.a = arena_new();
    k.m = fxir_module_new(k.a, source_name);
    return k;
}

void fxk_end(Kb *k)
{
    arena_free(k->a);
    k->a = NULL;
}

const Type *fxk_s(ScalarId s) { return type_scalar(s); }

const Type *fxk_ptr(Kb *k, ScalarId s, bool is_const)
{
    return type_ptr(k->a, type_scalar(s), is_const);
}

FxFunc *fxk_func(Kb *k, const char *name, FxFuncKind kind, int nparams, const Type *ret)
{
    k->f = fxir_func_new(k->m, name, kind, nparams, ret ? ret : type_simple(TY_VOID), fxk_noloc);
    k->b = &k->f->body;
    return k->f;
}

void fxk_param_decl(Kb *k, int i, const char *name, const Type *t)
{
    k->f->params[i].name = name;
    k->f->params[i].type = t;
}

FxInst *fxk_param(Kb *k, int i)
{
    FxInst *p = fxir_new(k->a, FX_PARAM, k->f->params[i].type, 0, fxk_noloc);
    p->param_index = i;
    p->name = k->f->params[i].name;
    fxir_append(k->b, p);
    return p;
}

FxInst *fxk_int128(Kb *k, ScalarId s, uint64_t lo, uint64_t hi)
{
    FxConst c = { lo, hi };
    return fxir_emit_const(k->a, k->b, type_scalar(s), c, fxk_noloc);
}

FxInst *fxk_int(Kb *k, ScalarId s, int64_t v)
{
    return fxk_int128(k, s, (uint64_t)v, v < 0 ? ~UINT64_C(0) : 0);
}

FxInst *fxk_f32(Kb *k, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    FxConst c = { u, 0 };
    return fxir_emit_const(k->a, k->b, type_scalar(SC_FLOAT32), c, fxk_noloc);
}

FxInst *fxk_op(Kb *k, FxOpcode op, int sub, const Type *t, int nops, ...)
{
    FxInst *i = fxir_new(k->a, op, t, nops, fxk_noloc);
    i->sub = sub;
    va_list ap;
    va_start(ap, nops);
    for (int n = 0; n < nops; n++)
        i->ops[n] = va_arg(ap, FxInst *);
    va_end(ap);
    fxir_append(k->b, i);
    return i;
}

FxInst *fxk_special(Kb *k, FxSpecial s, int dim)
{
    FxInst *i = fxk_op(k, FX_SPECIAL, s, type_scalar(SC_INT32), 0);
    i->dim = dim;
    return i;
}

/* i = block_idx.x * block_dim.x + thread_idx.x */
static FxInst *global_index(Kb *k)
{
    const Type *i32 = type_scalar(SC_INT32);
    FxInst *bi = fxk_special(k, FXS_BLOCK_IDX, 0);
    FxInst *bd = fxk_special(k, FXS_BLOCK_DIM, 0);
    FxInst *m = fxk_op(k, FX_BINOP, FXB_MUL, i32, 2, bi, bd);
    FxInst *t = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *i = fxk_op(k, FX_BINOP, FXB_ADD, i32, 2, m, t);
    i->name = "i";
    return i;
}

static void saxpy_params(Kb *k)
{
    fxk_param_decl(k, 0, "x", fxk_ptr(k, SC_FLOAT32, true));
    fxk_param_decl(k, 1, "y", fxk_ptr(k, SC_FLOAT32, false));
    fxk_param_decl(k, 2, "a", fxk_s(SC_FLOAT32));
    fxk_param_decl(k, 3, "n", fxk_s(SC_INT32));
}

FxFunc *fxk_saxpy(Kb *k, const char *name)
{
    const Type *f32 = fxk_s(SC_FLOAT32), *bo = fxk_s(SC_BOOLEAN);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 4, NULL);
    f->launch_bounds = 256;
    saxpy_params(k);
    FxInst *x = fxk_param(k, 0), *y = fxk_param(k, 1), *a = fxk_param(k, 2), *n = fxk_param(k, 3);
    FxInst *i = global_index(k);
    FxInst *c = fxk_op(k, FX_CMP, FXC_LT, bo, 2, i, n);
    FxInst *ifi = fxir_emit_if(k->a, k->b, c, fxk_noloc);
    k->b = &ifi->blocks[0];
    FxInst *xi = fxk_op(k, FX_LOAD, 0, f32, 2, x, i);
    FxInst *ax = fxk_op(k, FX_BINOP, FXB_MUL, f32, 2, a, xi);
    FxInst *yi = fxk_op(k, FX_LOAD, 0, f32, 2, y, i);
    FxInst *s = fxk_op(k, FX_BINOP, FXB_ADD, f32, 2, ax, yi);
    fxk_op(k, FX_STORE, 0, NULL, 3, y, s, i);
    k->b = &f->body;
    return f;
}

FxFunc *fxk_axpy_fn(Kb *k)
{
    const Type *f32 = fxk_s(SC_FLOAT32);
    FxFunc *f = fxk_func(k, "axpy1", FXF_FN, 3, f32);
    fxk_param_decl(k, 0, "a", f32);
    fxk_param_decl(k, 1, "x", f32);
    fxk_param_decl(k, 2, "y", f32);
    FxInst *a = fxk_param(k, 0), *x = fxk_param(k, 1), *y = fxk_param(k, 2);
    FxInst *m = fxk_op(k, FX_BINOP, FXB_MUL, f32, 2, a, x);
    FxInst *s = fxk_op(k, FX_BINOP, FXB_ADD, f32, 2, m, y);
    fxk_op(k, FX_RETURN, 0, NULL, 1, s);
    return f;
}

FxFunc *fxk_saxpy_call(Kb *k, FxFunc *axpy1)
{
    const Type *f32 = fxk_s(SC_FLOAT32), *bo = fxk_s(SC_BOOLEAN);
    FxFunc *f = fxk_func(k, "saxpy_call", FXF_KERNEL, 4, NULL);
    saxpy_params(k);
    FxInst *x = fxk_param(k, 0), *y = fxk_param(k, 1), *a = fxk_param(k, 2), *n = fxk_param(k, 3);
    FxInst *i = global_index(k);
    FxInst *c = fxk_op(k, FX_CMP, FXC_LT, bo, 2, i, n);
    FxInst *ifi = fxir_emit_if(k->a, k->b, c, fxk_noloc);
    k->b = &ifi->blocks[0];
    FxInst *xi = fxk_op(k, FX_LOAD, 0, f32, 2, x, i);
    FxInst *yi = fxk_op(k, FX_LOAD, 0, f32, 2, y, i);
    FxInst *call = fxk_op(k, FX_CALL, 0, f32, 3, a, xi, yi);
    call->callee = axpy1;
    fxk_op(k, FX_STORE, 0, NULL, 3, y, call, i);
    k->b = &f->body;
    return f;
}

/* kernel loopy(out: Ptr[Int32], n: Int32) {
 *     var acc: Int32 = 0
 *     var k: Int32 = 0
 *     while k < n {            # step: k += 1
 *         if k % 3 == 0 { continue }
 *         if k > 50 { break }
 *         acc += k
 *     }
 *     out[thread_idx.x] = acc + thread_idx.x
 * } */
FxFunc *fxk_loop(Kb *k)
{
    const Type *i32 = fxk_s(SC_INT32), *bo = fxk_s(SC_BOOLEAN);
    FxFunc *f = fxk_func(k, "loopy", FXF_KERNEL, 2, NULL);
    fxk_param_decl(k, 0, "out", fxk_ptr(k, SC_INT32, false));
    fxk_param_decl(k, 1, "n", i32);
    FxInst *out = fxk_param(k, 0), *n = fxk_param(k, 1);
    FxInst *acc = fxk_op(k, FX_ALLOCA, 0, i32, 0);
    acc->name = "acc";
    fxk_op(k, FX_STORE, 0, NULL, 2, acc, fxk_int(k, SC_INT32, 0));
    FxInst *kv = fxk_op(k, FX_ALLOCA, 0, i32, 0);
    kv->name = "k";
    fxk_op(k, FX_STORE, 0, NULL, 2, kv, fxk_int(k, SC_INT32, 0));
    FxInst *lp = fxir_emit_loop(k->a, k->b, fxk_noloc);
    k->b = &lp->blocks[0];
    FxInst *kk = fxk_op(k, FX_LOAD, 0, i32, 1, kv);
    lp->ops[0] = fxk_op(k, FX_CMP, FXC_LT, bo, 2, kk, n);
    k->b = &lp->blocks[1];
    FxInst *kb = fxk_op(k, FX_LOAD, 0, i32, 1, kv);
    FxInst *r = fxk_op(k, FX_BINOP, FXB_MOD, i32, 2, kb, fxk_int(k, SC_INT32, 3));
    FxInst *c0 = fxk_op(k, FX_CMP, FXC_EQ, bo, 2, r, fxk_int(k, SC_INT32, 0));
    FxInst *if1 = fxir_emit_if(k->a, k->b, c0, fxk_noloc);
    k->b = &if1->blocks[0];
    fxk_op(k, FX_CONTINUE, 0, NULL, 0);
    k->b = &lp->blocks[1];
    FxInst *c1 = fxk_op(k, FX_CMP, FXC_GT, bo, 2, kb, fxk_int(k, SC_INT32, 50));
    FxInst *if2 = fxir_emit_if(k->a, k->b, c1, fxk_noloc);
    k->b = &if2->blocks[0];
    fxk_op(k, FX_BREAK, 0, NULL, 0);
    k->b = &lp->blocks[1];
    FxInst *av = fxk_op(k, FX_LOAD, 0, i32, 1, acc);
    fxk_op(k, FX_STORE, 0, NULL, 2, acc, fxk_op(k, FX_BINOP, FXB_ADD, i32, 2, av, kb));
    k->b = &lp->blocks[2];
    FxInst *ks = fxk_op(k, FX_LOAD, 0, i32, 1, kv);
    fxk_op(k, FX_STORE, 0, NULL, 2, kv, fxk_op(k, FX_BINOP, FXB_ADD, i32, 2, ks, fxk_int(k, SC_INT32, 1)));
    k->b = &f->body;
    FxInst *t = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *fin = fxk_op(k, FX_LOAD, 0, i32, 1, acc);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, FX_BINOP, FXB_ADD, i32, 2, fin, t), t);
    return f;
}

/* @launch_bounds(64)
 * kernel reverse(buf: Ptr[Float32]) {
 *     shared tile: Array[Float32, 64]
 *     let t = thread_idx.x
 *     let g = block_idx.x * 64 + t
 *     tile[t] = buf[g]
 *     fx.barrier()
 *     buf[g] = tile[63 - t]
 * } */
FxFunc *fxk_reverse(Kb *k)
{
    const Type *i32 = fxk_s(SC_INT32), *f32 = fxk_s(SC_FLOAT32);
    FxFunc *f = fxk_func(k, "reverse", FXF_KERNEL, 1, NULL);
    f->launch_bounds = 64;
    fxk_param_decl(k, 0, "buf", fxk_ptr(k, SC_FLOAT32, false));
    FxInst *buf = fxk_param(k, 0);
    int64_t dims[1] = { 64 };
    FxInst *tile = fxk_op(k, FX_ALLOCA, 0, type_array(k->a, f32, 1, dims), 0);
    tile->space = FXSPACE_SHARED;
    tile->name = "tile";
    FxInst *t = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *b = fxk_special(k, FXS_BLOCK_IDX, 0);
    FxInst *g = fxk_op(k, FX_BINOP, FXB_ADD, i32, 2,
                       fxk_op(k, FX_BINOP, FXB_MUL, i32, 2, b, fxk_int(k, SC_INT32, 64)), t);
    FxInst *v = fxk_op(k, FX_LOAD, 0, f32, 2, buf, g);
    fxk_op(k, FX_STORE, 0, NULL, 3, tile, v, t);
    fxk_op(k, FX_BARRIER, 0, NULL, 0);
    FxInst *rt = fxk_op(k, FX_BINOP, FXB_SUB, i32, 2, fxk_int(k, SC_INT32, 63), t);
    FxInst *w = fxk_op(k, FX_LOAD, 0, f32, 2, tile, rt);
    fxk_op(k, FX_STORE, 0, NULL, 3, buf, w, g);
    return f;
}

FxFunc *fxk_binop_kernel(Kb *k, const char *name, ScalarId s, int op)
{
    const Type *t = fxk_s(s);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 3, NULL);
    fxk_param_decl(k, 0, "a", fxk_ptr(k, s, true));
    fxk_param_decl(k, 1, "b", fxk_ptr(k, s, true));
    fxk_param_decl(k, 2, "out", fxk_ptr(k, s, false));
    FxInst *a = fxk_param(k, 0), *b = fxk_param(k, 1), *out = fxk_param(k, 2);
    FxInst *i = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_LOAD, 0, t, 2, a, i);
    FxInst *y = fxk_op(k, FX_LOAD, 0, t, 2, b, i);
    FxInst *r = op < 0 ? fxk_op(k, FX_CEILDIV, 0, t, 2, x, y) : fxk_op(k, FX_BINOP, op, t, 2, x, y);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, r, i);
    return f;
}

FxFunc *fxk_cast_kernel(Kb *k, const char *name, ScalarId from, ScalarId to)
{
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 2, NULL);
    fxk_param_decl(k, 0, "a", fxk_ptr(k, from, true));
    fxk_param_decl(k, 1, "out", fxk_ptr(k, to, false));
    FxInst *a = fxk_param(k, 0), *out = fxk_param(k, 1);
    FxInst *i = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_LOAD, 0, fxk_s(from), 2, a, i);
    FxInst *r = fxk_op(k, FX_CAST, 0, fxk_s(to), 1, x);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, r, i);
    return f;
}

FxFunc *fxk_fma_kernel(Kb *k, const char *name, ScalarId s)
{
    const Type *t = fxk_s(s);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 4, NULL);
    fxk_param_decl(k, 0, "a", fxk_ptr(k, s, true));
    fxk_param_decl(k, 1, "b", fxk_ptr(k, s, true));
    fxk_param_decl(k, 2, "c", fxk_ptr(k, s, true));
    fxk_param_decl(k, 3, "out", fxk_ptr(k, s, false));
    FxInst *a = fxk_param(k, 0), *b = fxk_param(k, 1), *c = fxk_param(k, 2), *out = fxk_param(k, 3);
    FxInst *i = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_LOAD, 0, t, 2, a, i);
    FxInst *y = fxk_op(k, FX_LOAD, 0, t, 2, b, i);
    FxInst *z = fxk_op(k, FX_LOAD, 0, t, 2, c, i);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, FX_FMA, 0, t, 3, x, y, z), i);
    return f;
}

FxFunc *fxk_atomic_kernel(Kb *k, const char *name)
{
    const Type *i32 = fxk_s(SC_INT32);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 2, NULL);
    fxk_param_decl(k, 0, "counter", fxk_ptr(k, SC_INT32, false));
    fxk_param_decl(k, 1, "out", fxk_ptr(k, SC_INT32, false));
    FxInst *cnt = fxk_param(k, 0), *out = fxk_param(k, 1);
    FxInst *g = global_index(k);
    FxInst *old = fxk_op(k, FX_ATOMIC, FXA_ADD, i32, 3, cnt, fxk_int(k, SC_INT32, 0),
                         fxk_int(k, SC_INT32, 1));
    fxk_op(k, FX_STORE, 0, NULL, 3, out, old, g);
    return f;
}
