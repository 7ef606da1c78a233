/* compare.c - whether two fns compute the same thing from their parameters,
 * and dropping the parameters a fn does not read: what a program needs to
 * launch one kernel where its lowering made several copies that differ only
 * in the buffers they use (lower_program.c). */
#include "fxir/fxir.h"
#include <stdlib.h>
#include <string.h>

/* FNV-1a, a 64-bit value at a time, over the fields fxir_same_code
 * compares that need no numbering. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull;
}

/* One walk: numbers the instructions (their ids, fxir_number's order),
 * marks the parameters read and hashes. */
static uint64_t survey_block(const FxBlock *b, uint64_t h, int *next, bool *read)
{
    for (FxInst *i = b->first; i; i = i->next) {
        i->id = (*next)++;
        h = mix(h, (uint64_t)i->op << 48 ^ (uint64_t)(uint32_t)i->sub << 16 ^ (uint64_t)i->nops << 8 ^
                       (uint64_t)i->nblocks);
        h = mix(mix(h, i->cval.lo), i->cval.hi ^ (uint64_t)i->fmf << 32 ^ i->nowrap);
        for (int k = 0; k < i->nops; k++)
            if (i->ops[k]->op == FX_PARAM)
                read[i->ops[k]->param_index] = true;
        for (int k = 0; k < i->nblocks; k++)
            h = survey_block(&i->blocks[k], h, next, read);
    }
    return h;
}

void fxir_code_shape(FxFunc *f, FxCodeShape *s)
{
    bool *read = calloc((size_t)f->nparams + 1, sizeof *read);
    s->f = f;
    s->rank = malloc(sizeof(int) * ((size_t)f->nparams + 1));
    if (!read || !s->rank)
        abort();
    int n = 0;
    uint64_t h = mix(0xcbf29ce484222325ull, (uint64_t)f->kind << 32 ^ (uint32_t)f->launch_bounds);
    s->hash = survey_block(&f->body, h, &n, read);
    s->nread = 0;
    for (int p = 0; p < f->nparams; p++)
        s->rank[p] = read[p] ? s->nread++ : -1;
    free(read);
}

void fxir_code_shape_free(FxCodeShape *s)
{
    free(s->rank);
    s->rank = NULL;
}

typedef struct Cmp {
    const int *rank_a, *rank_b;
} Cmp;

static bool same_loc(Loc x, Loc y)
{
    return x.file == y.file && x.line == y.line && x.col == y.col && x.end_line == y.end_line &&
           x.end_col == y.end_col;
}

/* Operands correspond when they are the instructions at the same place of
 * each walk (the ids fxir_code_shape gave) or parameters of the same rank. */
static bool same_operand(const Cmp *c, const FxInst *x, const FxInst *y)
{
    if ((x->op == FX_PARAM) != (y->op == FX_PARAM))
        return false;
    if (x->op == FX_PARAM)
        return c->rank_a[x->param_index] == c->rank_b[y->param_index] && type_equal(x->type, y->type);
    return x->id == y->id;
}

/* Every field but the name, which only printing reads; the location
 * counts (line tables, fx.assert's message). */
static bool same_fields(const FxInst *x, const FxInst *y)
{
    return x->op == y->op && x->sub == y->sub && type_equal(x->type, y->type) && x->nops == y->nops &&
           x->nblocks == y->nblocks && x->cval.lo == y->cval.lo && x->cval.hi == y->cval.hi &&
           x->dim == y->dim && x->fmf == y->fmf && x->nowrap == y->nowrap && x->rounding == y->rounding &&
           x->space == y->space && x->callee == y->callee &&
           (x->text == y->text || (x->text && y->text && !strcmp(x->text, y->text))) && same_loc(x->loc, y->loc);
}

static bool same_block(const Cmp *c, const FxBlock *a, const FxBlock *b)
{
    const FxInst *x = a->first, *y = b->first;
    for (; x && y; x = x->next, y = y->next) {
        if (!same_fields(x, y))
            return false;
        if (x->op == FX_PARAM)
            continue;   /* compared where they are read */
        for (int k = 0; k < x->nops; k++)
            if (!same_operand(c, x->ops[k], y->ops[k]))
                return false;
        for (int k = 0; k < x->nblocks; k++)
            if (!same_block(c, &x->blocks[k], &y->blocks[k]))
                return false;
    }
    return !x && !y;
}

bool fxir_same_code(const FxCodeShape *sa, const FxCodeShape *sb)
{
    const FxFunc *a = sa->f, *b = sb->f;
    if (sa->hash != sb->hash || sa->nread != sb->nread || a->kind != b->kind || a->nparams != b->nparams ||
        !type_equal(a->ret, b->ret) || a->launch_bounds != b->launch_bounds || a->index_nowrap != b->index_nowrap ||
        a->outlined != b->outlined)
        return false;
    Cmp c = { sa->rank, sb->rank };
    return same_block(&c, &a->body, &b->body);
}

int fxir_drop_unread_params(const FxCodeShape *s, int *kept)
{
    FxFunc *f = s->f;
    FxParam *params = f->params;   /* the new list is a prefix of the old storage */
    for (int p = 0, r = 0; p < f->nparams; p++)
        if (s->rank[p] >= 0) {
            kept[r] = p;
            params[r++] = params[p];
        }
    for (FxInst *i = f->body.first, *next; i; i = next) {
        next = i->next;
        if (i->op != FX_PARAM)
            continue;
        if (s->rank[i->param_index] < 0)
            fxir_remove(i);
        else
            i->param_index = s->rank[i->param_index];
    }
    f->nparams = s->nread;
    return s->nread;
}
