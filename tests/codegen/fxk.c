/* fxk.c - hand-built FXIR for the tests. */
#include "fxk.h"
#include "fxir/verify.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const Loc fxk_noloc;

Kb fxk_begin(const char *source_name)
{
    Kb k = { 0 };
    k.a = arena_new();
    k.m = fxir_module_new(k.a, source_name);
    return k;
}

int fxk_unverified;

void fxk_end(Kb *k)
{
    /* every hand-built module must be well-formed FXIR */
    if (k->m && !fxir_verify(k->m))
        fxk_unverified++;
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
    k->f = fxb_func(&k->b, k->m, name, kind, nparams, ret, fxk_noloc);
    return k->f;
}

void fxk_param_decl(Kb *k, int i, const char *name, const Type *t)
{
    k->f->params[i].name = name;
    k->f->params[i].type = t;
}

FxInst *fxk_param(Kb *k, int i)
{
    return fxb_param(&k->b, k->f, i, k->f->params[i].name, k->f->params[i].type);
}

FxInst *fxk_int128(Kb *k, ScalarId s, uint64_t lo, uint64_t hi)
{
    FxConst c = { lo, hi };
    return fxb_const(&k->b, type_scalar(s), c);
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
    return fxb_const(&k->b, type_scalar(SC_FLOAT32), c);
}

FxInst *fxk_op(Kb *k, FxOpcode op, int sub, const Type *t, int nops, ...)
{
    va_list ap;
    va_start(ap, nops);
    FxInst *i = fxb_vemit(&k->b, op, sub, t ? t : type_simple(TY_VOID), nops, ap);
    va_end(ap);
    return i;
}

FxInst *fxk_special(Kb *k, FxSpecial s, int dim)
{
    return fxb_special(&k->b, s, dim);
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


/* Kernel name(a, b: Ptr[s] const, out: Ptr[s]) whose body so far loads
 * *x = a[i], *y = b[i] at i = thread_idx.x, returned. */
static FxInst *two_operand_kernel(Kb *k, const char *name, ScalarId s, FxInst **x, FxInst **y)
{
    fxk_func(k, name, FXF_KERNEL, 3, NULL);
    fxk_param_decl(k, 0, "a", fxk_ptr(k, s, true));
    fxk_param_decl(k, 1, "b", fxk_ptr(k, s, true));
    fxk_param_decl(k, 2, "out", fxk_ptr(k, s, false));
    FxInst *i = fxk_special(k, FXS_THREAD_IDX, 0);
    *x = fxk_op(k, FX_LOAD, 0, fxk_s(s), 2, fxk_param(k, 0), i);
    *y = fxk_op(k, FX_LOAD, 0, fxk_s(s), 2, fxk_param(k, 1), i);
    return i;
}

FxFunc *fxk_binop_kernel(Kb *k, const char *name, ScalarId s, int op)
{
    const Type *t = fxk_s(s);
    FxInst *x, *y, *i = two_operand_kernel(k, name, s, &x, &y);
    FxInst *r = op < 0 ? fxk_op(k, FX_CEILDIV, 0, t, 2, x, y) : fxk_op(k, FX_BINOP, op, t, 2, x, y);
    fxk_op(k, FX_STORE, 0, NULL, 3, fxk_param(k, 2), r, i);
    return k->f;
}

FxFunc *fxk_pmod_kernel(Kb *k, const char *name, ScalarId s, FxkQuotient q_use)
{
    const Type *t = fxk_s(s);
    FxInst *x, *y, *i = two_operand_kernel(k, name, s, &x, &y);
    FxInst *q = fxk_op(k, FX_BINOP, FXB_FLOORDIV, t, 2, x, y);
    if (q_use == FXK_Q_STORED)
        fxk_op(k, FX_STORE, 0, NULL, 3, fxk_param(k, 2), q, i);
    FxInst *r = fxk_op(k, FX_BINOP, FXB_MOD, t, 2, x, y);
    if (q_use == FXK_Q_XOR)
        r = fxk_op(k, FX_BINOP, FXB_XOR, t, 2, q, r);
    fxk_op(k, FX_STORE, 0, NULL, 3, fxk_param(k, 2), r, i);
    return k->f;
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

FxFunc *fxk_math_kernel(Kb *k, const char *name, ScalarId s, int fn)
{
    const Type *t = fxk_s(s);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 2, NULL);
    fxk_param_decl(k, 0, "a", fxk_ptr(k, s, true));
    fxk_param_decl(k, 1, "out", fxk_ptr(k, s, false));
    FxInst *a = fxk_param(k, 0), *out = fxk_param(k, 1);
    FxInst *i = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_LOAD, 0, t, 2, a, i);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, FX_MATH, fn, t, 1, x), i);
    return f;
}

static FxFunc *two_in(Kb *k, const char *name, ScalarId s, ScalarId rs, FxOpcode op, int sub)
{
    const Type *t = fxk_s(s);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 3, NULL);
    fxk_param_decl(k, 0, "a", fxk_ptr(k, s, true));
    fxk_param_decl(k, 1, "b", fxk_ptr(k, s, true));
    fxk_param_decl(k, 2, "out", fxk_ptr(k, rs, false));
    FxInst *a = fxk_param(k, 0), *b = fxk_param(k, 1), *out = fxk_param(k, 2);
    FxInst *i = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_LOAD, 0, t, 2, a, i);
    FxInst *y = fxk_op(k, FX_LOAD, 0, t, 2, b, i);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, op, sub, fxk_s(rs), 2, x, y), i);
    return f;
}

FxFunc *fxk_minmax_kernel(Kb *k, const char *name, ScalarId s, int which)
{
    return two_in(k, name, s, s, FX_MINMAX, which);
}

FxFunc *fxk_cmp_kernel(Kb *k, const char *name, ScalarId s, int cmp)
{
    return two_in(k, name, s, SC_BOOLEAN, FX_CMP, cmp);
}

FxFunc *fxk_unop_kernel(Kb *k, const char *name, ScalarId s, int unop)
{
    const Type *t = fxk_s(s);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 2, NULL);
    fxk_param_decl(k, 0, "a", fxk_ptr(k, s, true));
    fxk_param_decl(k, 1, "out", fxk_ptr(k, s, false));
    FxInst *a = fxk_param(k, 0), *out = fxk_param(k, 1);
    FxInst *i = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_LOAD, 0, t, 2, a, i);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, FX_UNOP, unop, t, 1, x), i);
    return f;
}

/* kernel(p: Ptr[T], v: Ptr[T], out: Ptr[T]):
 *   old = atomic(p or shared s, 0, v[t] [, v[t] + 1 for CAS]); out[t] = old
 * with a shared array the first work-item seeds s[0] from p[0] and the result
 * is written back to p[0] after a barrier. */
FxFunc *fxk_atomic_op_kernel(Kb *k, const char *name, ScalarId s, int op, bool shared)
{
    const Type *t = fxk_s(s);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 3, NULL);
    fxk_param_decl(k, 0, "p", fxk_ptr(k, s, false));
    fxk_param_decl(k, 1, "v", fxk_ptr(k, s, true));
    fxk_param_decl(k, 2, "out", fxk_ptr(k, s, false));
    FxInst *p = fxk_param(k, 0), *v = fxk_param(k, 1), *out = fxk_param(k, 2);
    FxInst *ti = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *zero = fxk_int(k, SC_INT32, 0);
    FxInst *base = p;
    if (shared) {
        int64_t dims[1] = { 4 };
        base = fxk_op(k, FX_ALLOCA, 0, type_array(k->a, t, 1, dims), 0);
        base->space = FXSPACE_SHARED;
        base->name = "cell";
        FxInst *first = fxk_op(k, FX_CMP, FXC_EQ, fxk_s(SC_BOOLEAN), 2, ti, zero);
        FxInst *ifi = fxb_if(&k->b, first);
        fxb_at_end(&k->b, &ifi->blocks[0]);
        fxk_op(k, FX_STORE, 0, NULL, 3, base, fxk_op(k, FX_LOAD, 0, t, 2, p, zero), zero);
        fxb_at_end(&k->b, &f->body);
        fxk_op(k, FX_BARRIER, 0, NULL, 0);
    }
    FxInst *x = fxk_op(k, FX_LOAD, 0, t, 2, v, ti);
    FxInst *old;
    if (op == FXA_CAS) {
        /* CAS(expected = x, new = x + x) */
        FxInst *nw = fxk_op(k, FX_BINOP, FXB_ADD, t, 2, x, x);
        old = fxk_op(k, FX_ATOMIC, op, t, 4, base, zero, x, nw);
    } else {
        old = fxk_op(k, FX_ATOMIC, op, t, 3, base, zero, x);
    }
    fxk_op(k, FX_STORE, 0, NULL, 3, out, old, ti);
    if (shared) {
        fxk_op(k, FX_BARRIER, 0, NULL, 0);
        FxInst *first = fxk_op(k, FX_CMP, FXC_EQ, fxk_s(SC_BOOLEAN), 2, ti, zero);
        FxInst *ifi = fxb_if(&k->b, first);
        fxb_at_end(&k->b, &ifi->blocks[0]);
        fxk_op(k, FX_STORE, 0, NULL, 3, p, fxk_op(k, FX_LOAD, 0, t, 2, base, zero), zero);
        fxb_at_end(&k->b, &f->body);
    }
    return f;
}

/* kernel vec(a: Ptr[Float32x4], out: Ptr[Float32x4], lane: Ptr[Float32]):
 *   v = a[t]; two = Float32x4(2.0)
 *   r = (v > two).select(v * two, v)
 *   m = fx.max(r, two)
 *   e = m[1]
 *   out[t] = m with lane 3 replaced by e; lane[t] = e */
FxFunc *fxk_vector_kernel(Kb *k, const char *name)
{
    const Type *v4 = type_vector(SC_FLOAT32, 4), *f32 = fxk_s(SC_FLOAT32);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 3, NULL);
    fxk_param_decl(k, 0, "a", type_ptr(k->a, v4, true));
    fxk_param_decl(k, 1, "out", type_ptr(k->a, v4, false));
    fxk_param_decl(k, 2, "lane", fxk_ptr(k, SC_FLOAT32, false));
    FxInst *a = fxk_param(k, 0), *out = fxk_param(k, 1), *lane = fxk_param(k, 2);
    FxInst *t = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *v = fxk_op(k, FX_LOAD, 0, v4, 2, a, t);
    FxInst *two = fxk_op(k, FX_SPLAT, 0, v4, 1, fxk_f32(k, 2.0f));
    FxInst *gt = fxk_op(k, FX_CMP, FXC_GT, type_vector(SC_BOOLEAN, 4), 2, v, two);
    FxInst *r = fxk_op(k, FX_SELECT, 0, v4, 3, gt, fxk_op(k, FX_BINOP, FXB_MUL, v4, 2, v, two), v);
    FxInst *m = fxk_op(k, FX_MINMAX, FXMM_MAX, v4, 2, r, two);
    FxInst *e = fxk_op(k, FX_EXTRACT, 0, f32, 2, m, fxk_int(k, SC_INT32, 1));
    FxInst *ins = fxk_op(k, FX_INSERT, 0, v4, 3, m, e, fxk_int(k, SC_UINT8, 3));
    fxk_op(k, FX_STORE, 0, NULL, 3, out, ins, t);
    fxk_op(k, FX_STORE, 0, NULL, 3, lane, e, t);
    return f;
}

/* kernel narrow(a: Ptr[Int4], b: Ptr[Boolean], flag: Boolean, out: Ptr[Int4], outb: Ptr[Boolean]):
 *   out[t] = a[t] * Int4(3); outb[t] = b[t] ^ flag */
FxFunc *fxk_narrow_int_kernel(Kb *k, const char *name)
{
    const Type *i4 = fxk_s(SC_INT4), *bo = fxk_s(SC_BOOLEAN);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 5, NULL);
    fxk_param_decl(k, 0, "a", fxk_ptr(k, SC_INT4, true));
    fxk_param_decl(k, 1, "b", fxk_ptr(k, SC_BOOLEAN, true));
    fxk_param_decl(k, 2, "flag", bo);
    fxk_param_decl(k, 3, "out", fxk_ptr(k, SC_INT4, false));
    fxk_param_decl(k, 4, "outb", fxk_ptr(k, SC_BOOLEAN, false));
    FxInst *a = fxk_param(k, 0), *b = fxk_param(k, 1), *flag = fxk_param(k, 2);
    FxInst *out = fxk_param(k, 3), *outb = fxk_param(k, 4);
    FxInst *t = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_LOAD, 0, i4, 2, a, t);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, FX_BINOP, FXB_MUL, i4, 2, x, fxk_int(k, SC_INT4, 3)), t);
    FxInst *y = fxk_op(k, FX_LOAD, 0, bo, 2, b, t);
    fxk_op(k, FX_STORE, 0, NULL, 3, outb, fxk_op(k, FX_BINOP, FXB_XOR, bo, 2, y, flag), t);
    return f;
}

/* kernel arr(out: Ptr[Int32]):
 *   var m: Array[Int32, 4, 8]
 *   m[t % 4, t % 8] = t
 *   out[t] = m[t % 4, t % 8] + m[3, 7] */
FxFunc *fxk_array_kernel(Kb *k, const char *name)
{
    const Type *i32 = fxk_s(SC_INT32);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 1, NULL);
    fxk_param_decl(k, 0, "out", fxk_ptr(k, SC_INT32, false));
    FxInst *out = fxk_param(k, 0);
    int64_t dims[2] = { 4, 8 };
    FxInst *m = fxk_op(k, FX_ALLOCA, 0, type_array(k->a, i32, 2, dims), 0);
    m->name = "m";
    FxInst *t = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *r = fxk_op(k, FX_BINOP, FXB_MOD, i32, 2, t, fxk_int(k, SC_INT32, 4));
    FxInst *c = fxk_op(k, FX_BINOP, FXB_MOD, i32, 2, t, fxk_int(k, SC_INT32, 8));
    fxk_op(k, FX_STORE, 0, NULL, 4, m, t, r, c);
    FxInst *x = fxk_op(k, FX_LOAD, 0, i32, 3, m, r, c);
    FxInst *y = fxk_op(k, FX_LOAD, 0, i32, 3, m, fxk_int(k, SC_INT64, 3), fxk_int(k, SC_UINT8, 7));
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, FX_BINOP, FXB_ADD, i32, 2, x, y), t);
    return f;
}

FxFunc *fxk_specials_kernel(Kb *k, const char *name)
{
    const Type *i32 = fxk_s(SC_INT32);
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 1, NULL);
    fxk_param_decl(k, 0, "out", fxk_ptr(k, SC_INT32, false));
    FxInst *out = fxk_param(k, 0);
    /* linear id g = ((bz*gy + by)*gx + bx) * (dx*dy*dz) + (tz*dy + ty)*dx + tx */
    FxInst *sp[4][3];
    for (int s = 0; s < 4; s++)
        for (int d = 0; d < 3; d++)
            sp[s][d] = fxk_special(k, (FxSpecial)s, d);
#define MUL(a, b) fxk_op(k, FX_BINOP, FXB_MUL, i32, 2, a, b)
#define ADD(a, b) fxk_op(k, FX_BINOP, FXB_ADD, i32, 2, a, b)
    FxInst *blk = ADD(MUL(ADD(MUL(sp[1][2], sp[3][1]), sp[1][1]), sp[3][0]), sp[1][0]);
    FxInst *size = MUL(MUL(sp[2][0], sp[2][1]), sp[2][2]);
    FxInst *thr = ADD(MUL(ADD(MUL(sp[0][2], sp[2][1]), sp[0][1]), sp[2][0]), sp[0][0]);
    FxInst *g = ADD(MUL(blk, size), thr);
    FxInst *base = MUL(g, fxk_int(k, SC_INT32, 16));
    int j = 0;
    for (int s = 0; s < 4; s++)
        for (int d = 0; d < 3; d++, j++)
            fxk_op(k, FX_STORE, 0, NULL, 3, out, sp[s][d], ADD(base, fxk_int(k, SC_INT32, j)));
    FxInst *lane = fxk_special(k, FXS_LANE_ID, 0);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, lane, ADD(base, fxk_int(k, SC_INT32, 12)));
#undef MUL
#undef ADD
    return f;
}

FxFunc *fxk_vbinop_kernel(Kb *k, const char *name, const Type *t, int op)
{
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 3, NULL);
    fxk_param_decl(k, 0, "a", type_ptr(k->a, t, true));
    fxk_param_decl(k, 1, "b", type_ptr(k->a, t, true));
    fxk_param_decl(k, 2, "out", type_ptr(k->a, t, false));
    FxInst *a = fxk_param(k, 0), *b = fxk_param(k, 1), *out = fxk_param(k, 2);
    FxInst *i = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_LOAD, 0, t, 2, a, i);
    FxInst *y = fxk_op(k, FX_LOAD, 0, t, 2, b, i);
    FxInst *r = op < 0 ? fxk_op(k, FX_CEILDIV, 0, t, 2, x, y) : fxk_op(k, FX_BINOP, op, t, 2, x, y);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, r, i);
    return f;
}

FxFunc *fxk_vconv_kernel(Kb *k, const char *name, const Type *from, const Type *to, FxOpcode op)
{
    FxFunc *f = fxk_func(k, name, FXF_KERNEL, 2, NULL);
    fxk_param_decl(k, 0, "a", type_ptr(k->a, from, true));
    fxk_param_decl(k, 1, "out", type_ptr(k->a, to, false));
    FxInst *a = fxk_param(k, 0), *out = fxk_param(k, 1);
    FxInst *i = fxk_special(k, FXS_THREAD_IDX, 0);
    FxInst *x = fxk_op(k, FX_LOAD, 0, from, 2, a, i);
    fxk_op(k, FX_STORE, 0, NULL, 3, out, fxk_op(k, op, 0, to, 1, x), i);
    return f;
}


FxFunc *fxk_round_kernel(Kb *k, const char *name, const Type *from, const Type *to, FfRound rm)
{
    FxFunc *f = fxk_vconv_kernel(k, name, from, to, FX_CAST);
    for (FxInst *i = f->body.first; i; i = i->next)
        if (i->op == FX_CAST)
            i->rounding = rm;
    return f;
}

/* ---- the fixed kernels: FXIR text files in tests/codegen/kernels ---- */

#ifndef FXK_DIR
#define FXK_DIR "tests/codegen/kernels"
#endif

/* Reads kernels/FILE.fxir with the FXIR reader into k's module and returns
 * its function `name`. */
static FxFunc *read_kernel(Kb *k, const char *file, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.fxir", FXK_DIR, file);
    SrcFile *sf = diag_load_file(path);
    FxModule *m = sf ? fxir_read(k->a, sf) : NULL;
    if (!m) {
        fprintf(stderr, "fxk: cannot read %s\n", path);
        abort();
    }
    diag_free_file(sf);
    FxFunc *want = NULL;
    for (int i = 0; i < m->funcs.len; i++) {
        FxFunc *f = m->funcs.items[i];
        ptrvec_push(k->a, &k->m->funcs, f);
        if (strcmp(f->name, name) == 0)
            want = f;
    }
    if (!want)
        abort();
    k->f = want;
    fxb_init(&k->b, k->a, &want->body, fxk_noloc);
    return want;
}

FxFunc *fxk_saxpy(Kb *k, const char *name)
{
    FxFunc *f = read_kernel(k, "saxpy", "saxpy");
    f->name = name;
    return f;
}

FxFunc *fxk_saxpy_call(Kb *k)
{
    return read_kernel(k, "saxpy_call", "saxpy_call");
}

FxFunc *fxk_loop(Kb *k) { return read_kernel(k, "loopy", "loopy"); }
FxFunc *fxk_read(Kb *k, const char *file, const char *name) { return read_kernel(k, file, name); }
FxFunc *fxk_reverse(Kb *k) { return read_kernel(k, "reverse", "reverse"); }
FxFunc *fxk_early_return(Kb *k) { return read_kernel(k, "early_return", "early"); }
