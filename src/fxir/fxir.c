/* fxir.c - construction and editing of FXIR (the printer is in fxir_print.c). */
#include "fxir/fxir.h"

FxModule *fxir_module_new(Arena *arena, const char *source_name)
{
    FxModule *m = arena_alloc(arena, sizeof *m);
    m->arena = arena;
    m->source_name = source_name;
    return m;
}

FxFunc *fxir_func_new(FxModule *m, const char *name, FxFuncKind kind, int nparams,
                      const Type *ret, Loc loc)
{
    FxFunc *f = arena_alloc(m->arena, sizeof *f);
    f->name = name;
    f->kind = kind;
    f->nparams = nparams;
    f->params = arena_alloc(m->arena, sizeof(FxParam) * (size_t)(nparams ? nparams : 1));
    f->ret = ret;
    f->launch_bounds = 1024;
    f->loc = loc;
    ptrvec_push(m->arena, &m->funcs, f);
    return f;
}

FxInst *fxir_new(Arena *a, FxOpcode op, const Type *type, int nops, Loc loc)
{
    FxInst *i = arena_alloc(a, sizeof *i);
    i->op = op;
    i->type = type ? type : type_simple(TY_VOID);
    i->nops = nops;
    i->ops = arena_alloc(a, sizeof(FxInst *) * (size_t)(nops ? nops : 1));
    i->loc = loc;
    i->rounding = FF_RNE;
    return i;
}

bool fxir_is_shared_array(const FxInst *base)
{
    if (!base || base->type->kind != TY_ARRAY)
        return false;
    return (base->op == FX_ALLOCA && base->space == FXSPACE_SHARED) || base->op == FX_PARAM;
}

static const FxInst *dynamic_in(const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_ALLOCA && type_is_dyn_array(i->type))
            return i;
        for (int k = 0; k < i->nblocks; k++) {
            const FxInst *d = dynamic_in(&i->blocks[k]);
            if (d)
                return d;
        }
    }
    return NULL;
}

const FxInst *fxir_dynamic_shared(const FxFunc *f)
{
    return dynamic_in(&f->body);
}

void fxir_append(FxBlock *block, FxInst *inst)
{
    inst->parent = block;
    inst->next = NULL;
    inst->prev = block->last;
    if (block->last)
        block->last->next = inst;
    else
        block->first = inst;
    block->last = inst;
}

void fxir_insert_before(FxInst *before, FxInst *inst)
{
    FxBlock *b = before->parent;
    inst->parent = b;
    inst->next = before;
    inst->prev = before->prev;
    if (before->prev)
        before->prev->next = inst;
    else
        b->first = inst;
    before->prev = inst;
}

void fxir_remove(FxInst *inst)
{
    FxBlock *b = inst->parent;
    if (inst->prev)
        inst->prev->next = inst->next;
    else
        b->first = inst->next;
    if (inst->next)
        inst->next->prev = inst->prev;
    else
        b->last = inst->prev;
    inst->prev = inst->next = NULL;
    inst->parent = NULL;
}

static int count_uses_in(FxFunc *f, const FxBlock *b, const FxInst *v)
{
    int n = 0;
    for (const FxInst *i = b->first; i; i = i->next) {
        f->use_scan_visits++;
        for (int k = 0; k < i->nops; k++)
            n += i->ops[k] == v;
        for (int k = 0; k < i->nblocks; k++)
            n += count_uses_in(f, &i->blocks[k], v);
    }
    return n;
}

int fxir_count_uses(FxFunc *f, const FxInst *v)
{
    return count_uses_in(f, &f->body, v);
}

static void number_all(FxFunc *f, FxBlock *b, int *next)
{
    for (FxInst *i = b->first; i; i = i->next) {
        f->use_scan_visits++;
        i->id = (*next)++;
        for (int k = 0; k < i->nblocks; k++)
            number_all(f, &i->blocks[k], next);
    }
}

static void tally_uses(FxFunc *f, const FxBlock *b, int *counts, int n)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        f->use_scan_visits++;
        for (int k = 0; k < i->nops; k++)
            if (i->ops[k]->id >= 0 && i->ops[k]->id < n)
                counts[i->ops[k]->id]++;
        for (int k = 0; k < i->nblocks; k++)
            tally_uses(f, &i->blocks[k], counts, n);
    }
}

int fxir_number(FxFunc *f)
{
    int n = 0;
    number_all(f, &f->body, &n);
    return n;
}

int *fxir_use_counts(Arena *a, FxFunc *f, int *n_out)
{
    int n = fxir_number(f);
    int *counts = arena_alloc(a, sizeof(int) * (size_t)(n ? n : 1));   /* zeroed, like every arena block */
    tally_uses(f, &f->body, counts, n);
    *n_out = n;
    return counts;
}

void fxir_forwarding_init(FxForwarding *fw, Arena *a, FxFunc *f)
{
    int n = fxir_number(f);
    fw->n = n;
    fw->from = arena_alloc(a, sizeof(FxInst *) * (size_t)(n ? n : 1));
    fw->to = arena_alloc(a, sizeof(FxInst *) * (size_t)(n ? n : 1));
}

void fxir_forward(FxForwarding *fw, FxInst *from, FxInst *to)
{
    if (from->id >= 0 && from->id < fw->n) {
        fw->from[from->id] = from;
        fw->to[from->id] = to;
    }
}

/* An instruction made after the numbering has id 0 like another one, so the
 * entry counts only where its `from` is the operand itself. */
void fxir_forward_operands(const FxForwarding *fw, FxInst *i)
{
    for (int k = 0; k < i->nops; k++) {
        const FxInst *op = i->ops[k];
        if (op->id >= 0 && op->id < fw->n && fw->from[op->id] == op)
            i->ops[k] = fw->to[op->id];
    }
}

bool fxir_float8_operand(ScalarId s)
{
    return s == SC_F8E4M3FNUZ || s == SC_F8E5M2FNUZ || s == SC_F8E4M3FN || s == SC_F8E5M2;
}

ScalarId fxir_matrix_elem(TgtElem e)
{
    switch (e) {
    case TGT_E_F64: return SC_FLOAT64;
    case TGT_E_F32: case TGT_E_XF32: return SC_FLOAT32;
    case TGT_E_I32: return SC_INT32;
    case TGT_E_F16: return SC_FLOAT16;
    case TGT_E_BF16: return SC_BFLOAT16;
    case TGT_E_F8E4M3FNUZ: return SC_F8E4M3FNUZ;
    case TGT_E_F8E5M2FNUZ: return SC_F8E5M2FNUZ;
    case TGT_E_F8E4M3FN: return SC_F8E4M3FN;
    case TGT_E_F8E5M2: return SC_F8E5M2;
    case TGT_E_I4: return SC_INT4;
    default: return SC_INT8;
    }
}

void fxir_special_range(const FxFunc *f, const FxInst *i, int wave_size, int64_t *lo, int64_t *hi)
{
    int64_t lb = f && f->kind == FXF_KERNEL && f->launch_bounds > 0 ? f->launch_bounds : 1024;
    switch (i->sub) {
    case FXS_THREAD_IDX: *lo = 0, *hi = lb - 1; break;
    case FXS_BLOCK_DIM: *lo = 1, *hi = lb; break;
    case FXS_BLOCK_IDX: *lo = 0, *hi = INT32_MAX - 1; break;
    case FXS_GRID_DIM: *lo = 1, *hi = INT32_MAX; break;
    default: *lo = 0, *hi = wave_size > 0 ? wave_size - 1 : 63; break;   /* the lane id */
    }
}
