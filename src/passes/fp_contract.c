/* fp_contract.c - seed 003 FuseFMA / UnfuseFMA / FPContractionPass on FXIR.
 *
 * FuseFMA(add): t = a * b; d = t + c  ->  d = fma(a, b, c), legal exactly when
 * t is a transient scalar (or vector, elementwise) written by the multiply and
 * read only by the add, both in the same block, all operands of one precision.
 * Subtraction is contracted too, because negating an operand is exact:
 *   a * b - c  ->  fma(a, b, -c)        c - a * b  ->  fma(-a, b, c)
 * The fma carries the fast-math flags both operations share (their
 * intersection), as LLVM does when it merges two instructions. */
#include "passes/passes.h"
#include "fxir/builder.h"

static bool is_float_type(const Type *t)
{
    return (t->kind == TY_SCALAR || t->kind == TY_VECTOR) && type_is_float(t->scalar);
}

static bool is_fmul(const FxInst *i)
{
    return i->op == FX_BINOP && i->sub == FXB_MUL && is_float_type(i->type);
}

static bool is_fadd_or_fsub(const FxInst *i)
{
    return i->op == FX_BINOP && (i->sub == FXB_ADD || i->sub == FXB_SUB) && is_float_type(i->type);
}

/* The readers of every instruction of a function, counted once per sweep:
 * asking fxir_count_uses for each add walked the whole function each time,
 * quadratic in a long unrolled chain. A fusion leaves every count it does not
 * read again exact: the add takes over the product's operands, a negation
 * takes over the addend, and the removed product is never asked again. */
typedef struct UseTable {
    int *counts;    /* by FxInst.id */
    int n;
} UseTable;

static UseTable count_readers(Arena *a, FxFunc *f)
{
    UseTable t;
    t.counts = fxir_use_counts(a, f, &t.n);
    return t;
}

static int readers(const UseTable *t, const FxInst *v)
{
    return v->id >= 0 && v->id < t->n ? t->counts[v->id] : 0;
}

/* For operand `p` of an add: NULL if p is no product at all, "" if the
 * product can be fused, otherwise the reason it cannot. */
static const char *fusion_blocker(const UseTable *uses, const FxInst *add, const FxInst *p)
{
    if (p->op == FX_CAST && is_fmul(p->ops[0]))
        return "the product is computed in another precision and converted before the add";
    if (!is_fmul(p))
        return NULL;
    if (p->parent != add->parent)
        return "the product is computed in another block";
    if (!type_equal(p->type, add->type))
        return "the operands differ in precision";
    if (readers(uses, p) != 1)
        return "the product has more than one reader";
    return "";
}

static FxInst *negate_before(Arena *a, FxInst *before, FxInst *v, unsigned fmf)
{
    FxBuilder b;
    fxb_init(&b, a, before->parent, v->loc);
    fxb_before(&b, before);
    FxInst *n = fxb_unop(&b, FXU_NEG, v);
    n->fmf = fmf;
    n->id = -1;     /* not in this sweep's use table */
    return n;
}

/* A product whose add was contracted with the other operand ends up as the
 * addend of the fma: say so, since it is a candidate that stayed unfused. */
static void explain_addend(const FxInst *fma, const PassOptions *o)
{
    const FxInst *p = fma->ops[2];
    if (pass_remark_on(o, "fp-contraction", true) && is_fmul(p) && p->parent == fma->parent)
        diag_remark(p->loc, "fp-contraction: multiply-add not fused: the add was already contracted with "
                    "its other operand, so this product is the fma's addend");
}

static bool fuse_at(FxModule *m, const UseTable *uses, FxInst *add, const PassOptions *o)
{
    if (add->op == FX_FMA)
        explain_addend(add, o);
    if (!is_fadd_or_fsub(add))
        return false;
    const char *why0 = fusion_blocker(uses, add, add->ops[0]);
    const char *why1 = fusion_blocker(uses, add, add->ops[1]);
    int k = why0 && !*why0 ? 0 : why1 && !*why1 ? 1 : -1;
    if (k < 0) {
        const char *why = why0 ? why0 : why1;
        if (why && pass_remark_on(o, "fp-contraction", true))
            diag_remark(add->loc, "fp-contraction: multiply-add not fused: %s", why);
        return false;
    }
    FxInst *mul = add->ops[k];
    FxInst *a = mul->ops[0], *b = mul->ops[1], *c = add->ops[1 - k];
    unsigned fmf = mul->fmf & add->fmf;
    if (add->sub == FXB_SUB) {
        if (k == 0)
            c = negate_before(m->arena, add, c, fmf);   /* a*b - c == fma(a, b, -c) */
        else
            a = negate_before(m->arena, add, a, fmf);   /* c - a*b == fma(-a, b, c) */
    }
    /* The add becomes the fma in place: it keeps its position, its readers
     * and its source location. */
    FxInst **ops = arena_alloc(m->arena, sizeof(FxInst *) * 3);
    ops[0] = a;
    ops[1] = b;
    ops[2] = c;
    add->op = FX_FMA;
    add->sub = 0;
    add->ops = ops;
    add->nops = 3;
    add->fmf = fmf;
    fxir_remove(mul);
    if (pass_remark_on(o, "fp-contraction", false))
        diag_remark(add->loc, "fp-contraction: fused multiply-add");
    return true;
}

bool pass_fuse_fma(FxModule *m, FxFunc *f, FxInst *add, const PassOptions *o)
{
    UseTable uses = count_readers(m->arena, f);
    return fuse_at(m, &uses, add, o);
}

static int fuse_in_block(FxModule *m, const UseTable *uses, FxBlock *b, const PassOptions *o)
{
    int n = 0;
    for (FxInst *i = b->first, *next; i; i = next) {
        next = i->next;
        for (int k = 0; k < i->nblocks; k++)
            n += fuse_in_block(m, uses, &i->blocks[k], o);
        n += fuse_at(m, uses, i, o);
    }
    return n;
}

/* One sweep over a function, uses counted once; returns the fusions made. */
static int fuse_block(FxModule *m, FxFunc *f, FxBlock *b, const PassOptions *o)
{
    UseTable uses = count_readers(m->arena, f);
    return fuse_in_block(m, &uses, b, o);
}

int pass_fp_contraction(FxModule *m, const PassOptions *o)
{
    PassOptions fusing = *o, reporting = { 0 };
    fusing.remarks_missed = 0;              /* say why only once, at the fixed point */
    reporting.remarks_missed = o->remarks_missed;
    int total = 0;
    for (int i = 0; i < m->funcs.len; i++) {
        FxFunc *f = m->funcs.items[i];
        /* Each fusion removes a multiply, so the sweeps reach a fixed point. */
        for (int n; (n = fuse_block(m, f, &f->body, &fusing)) > 0;)
            total += n;
        if (pass_remark_on(o, "fp-contraction", true))
            fuse_block(m, f, &f->body, &reporting);   /* fuses nothing; explains each candidate */
    }
    return total;
}

/* ---- UnfuseFMA ---- */

static bool is_neg(const FxInst *i)
{
    return i->op == FX_UNOP && i->sub == FXU_NEG;
}

void pass_unfuse_fma(Arena *arena, FxInst *fma)
{
    FxInst *a = fma->ops[0], *b = fma->ops[1], *c = fma->ops[2];
    int sub = FXB_ADD;
    bool c_first = false;
    /* Undo the exact negations FuseFMA introduced for subtraction. */
    if (is_neg(c) && c->parent == fma->parent && c->next == fma) {
        c = c->ops[0];
        sub = FXB_SUB;
        fxir_remove(fma->ops[2]);
    } else if (is_neg(a) && a->parent == fma->parent && a->next == fma) {
        a = a->ops[0];
        sub = FXB_SUB;
        c_first = true;
        fxir_remove(fma->ops[0]);
    }
    FxBuilder bld;
    fxb_init(&bld, arena, fma->parent, fma->loc);
    fxb_before(&bld, fma);
    FxInst *t = fxb_binop(&bld, FXB_MUL, a, b);
    t->fmf = fma->fmf;
    FxInst **ops = arena_alloc(arena, sizeof(FxInst *) * 2);
    ops[0] = c_first ? c : t;
    ops[1] = c_first ? t : c;
    fma->op = FX_BINOP;
    fma->sub = sub;
    fma->ops = ops;
    fma->nops = 2;
}

static int unfuse_block(Arena *arena, FxBlock *b, const PassOptions *o)
{
    int n = 0;
    for (FxInst *i = b->first; i; i = i->next) {
        for (int k = 0; k < i->nblocks; k++)
            n += unfuse_block(arena, &i->blocks[k], o);
        if (i->op == FX_FMA && (!o || o->prefers_split_fma(i, o->hook_ctx))) {
            pass_unfuse_fma(arena, i);
            n++;
        }
    }
    return n;
}

int pass_unfuse_all(FxModule *m)
{
    int n = 0;
    for (int i = 0; i < m->funcs.len; i++)
        n += unfuse_block(m->arena, &((FxFunc *)m->funcs.items[i])->body, NULL);
    return n;
}

int pass_unfuse_where_preferred(FxModule *m, const PassOptions *o)
{
    int n = 0;
    for (int i = 0; o->prefers_split_fma && i < m->funcs.len; i++)
        n += unfuse_block(m->arena, &((FxFunc *)m->funcs.items[i])->body, o);
    return n;
}
