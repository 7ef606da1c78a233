/* fxir_print.c - the stable text form of FXIR (fxcc --print-after=PASS).
 *
 *   kernel saxpy(%x: Ptr[Float32], %y: Ptr[Float32], %a: Float32, %n: Int32) {
 *     %0 = special.block_idx.x : Int32
 *     %3 = binop.add %2, %1 : Int32  # i
 *     %4 = cmp.lt %3, %n : Boolean
 *     if %4 {
 *       %5 = load %x[%3] : Float32
 *       %6 = binop.mul %a, %5 : Float32 {contract}
 *       store %y[%3] = %8
 *     }
 *   }
 *
 * One instruction per line, nested blocks indented by two spaces. Values are
 * numbered %0, %1, ... in program order per function (the numbers are stored
 * in FxInst.id); parameters print as %name. Fast-math flags and a rounding
 * mode other than to_nearest_even are shown in braces; constants print as
 * decimal integers, True/False, or the shortest float that round-trips in the
 * value's own format. */
#include "fxir/fxir.h"
#include <string.h>

static const char *sub_name(const FxInst *i)
{
    return i->op == FX_ALLOCA ? NULL : fxir_sub_name(i->op, i->sub);
}

/* A print format or assert message, quoted: \" \\ \n and \xHH for other
 * control characters, so that the reader gets the same bytes back. */
static void print_string(FILE *o, const char *s)
{
    fputc('"', o);
    for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
        if (*c == '"' || *c == '\\')
            fprintf(o, "\\%c", *c);
        else if (*c == '\n')
            fputs("\\n", o);
        else if (*c < 0x20 || *c == 0x7f)
            fprintf(o, "\\x%02x", *c);
        else
            fputc(*c, o);
    }
    fputc('"', o);
}

/* ---- numbering ---- */

static bool has_value(const FxInst *i)
{
    return i->type && i->type->kind != TY_VOID && i->op != FX_PARAM;
}

static void number_block(const FxBlock *b, int *next)
{
    for (FxInst *i = b->first; i; i = i->next) {
        i->id = has_value(i) ? (*next)++ : -1;
        for (int k = 0; k < i->nblocks; k++)
            number_block(&i->blocks[k], next);
    }
}

/* ---- pieces ---- */

typedef struct Printer {
    FILE *out;
    const FxFunc *f;
    Arena *tmp;
} Printer;

static void indent(Printer *p, int depth)
{
    for (int k = 0; k < depth; k++)
        fputs("  ", p->out);
}

static void print_value(Printer *p, const FxInst *v)
{
    if (!v) {
        fputs("<null>", p->out);
        return;
    }
    if (v->op == FX_PARAM) {
        const char *n = NULL;
        if (p->f && v->param_index >= 0 && v->param_index < p->f->nparams)
            n = p->f->params[v->param_index].name;
        if (n)
            fprintf(p->out, "%%%s", n);
        else
            fprintf(p->out, "%%arg%d", v->param_index);
        return;
    }
    fprintf(p->out, "%%%d", v->id);
}

static void print_values(Printer *p, FxInst *const *ops, int n)
{
    for (int k = 0; k < n; k++) {
        if (k)
            fputs(", ", p->out);
        print_value(p, ops[k]);
    }
}

static void print_u128(FILE *out, unsigned __int128 v)
{
    char buf[48];
    int n = 0;
    do {
        buf[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    while (n)
        fputc(buf[--n], out);
}

static void print_const(Printer *p, const FxInst *i)
{
    const Type *t = i->type;
    if (!type_is_numeric_value(t)) {
        fprintf(p->out, "0x%016llx%016llx", (unsigned long long)i->cval.hi,
                (unsigned long long)i->cval.lo);
        return;
    }
    const ScalarInfo *si = type_info(t->scalar);
    if (si->cls == SCK_BOOL) {
        fputs(i->cval.lo & 1 ? "True" : "False", p->out);
        return;
    }
    if (si->cls == SCK_INT) {
        unsigned __int128 v = ((unsigned __int128)i->cval.hi << 64) | i->cval.lo;
        if (si->width < 128)
            v &= ((unsigned __int128)1 << si->width) - 1;
        if (si->is_signed && si->width > 0 && (v >> (si->width - 1)) & 1) {
            /* negative: print the magnitude of the sign-extended value */
            unsigned __int128 mag = (((unsigned __int128)1 << (si->width - 1)) << 1) - v;
            if (si->width == 128)
                mag = ~v + 1;
            fputc('-', p->out);
            print_u128(p->out, mag);
        } else {
            print_u128(p->out, v);
        }
        return;
    }
    uint64_t bits = i->cval.lo;
    if (si->width < 64)
        bits &= (UINT64_C(1) << si->width) - 1;
    if (!si->fmt) {
        fprintf(p->out, "0x%llx", (unsigned long long)bits);
        return;
    }
    char buf[FF_REPR_MAX];
    fputs(ff_repr(si->fmt, bits, buf), p->out);
    if (ff_is_nan(si->fmt, bits))
        fprintf(p->out, "(0x%llx)", (unsigned long long)bits);
}

static void print_flags(Printer *p, const FxInst *i)
{
    bool any = false;
    if (i->fmf) {
        fputs(" {", p->out);
        if ((i->fmf & FMF_FAST) == FMF_FAST) {
            fputs("fast", p->out);
        } else {
            for (int k = 0; k < 7; k++)
                if (i->fmf & (1u << k)) {
                    fprintf(p->out, "%s%s", any ? "," : "", fxir_fmf_name(k));
                    any = true;
                }
        }
        any = true;
    }
    static const char *const nowrap[] = { "nsw", "nuw", "promised", "wraps", "last", "index" };
    for (int k = 0; k < 6; k++)
        if (i->nowrap & (1u << k)) {
            fprintf(p->out, "%s%s", any ? "," : " {", nowrap[k]);
            any = true;
        }
    if (i->op == FX_CAST && i->rounding != FF_RNE) {
        fprintf(p->out, "%sround=%s", any ? ", " : " {", fxir_rounding_name(i->rounding));
        any = true;
    }
    if (any)
        fputc('}', p->out);
}

/* base[indices] for loads, stores and atomics */
static void print_access(Printer *p, FxInst *base, FxInst *const *idx, int n)
{
    print_value(p, base);
    if (n > 0) {
        fputc('[', p->out);
        print_values(p, idx, n);
        fputc(']', p->out);
    }
}

static void print_block(Printer *p, const FxBlock *b, int depth);

static void print_inst(Printer *p, FxInst *i, int depth)
{
    FILE *o = p->out;
    if (i->op == FX_PARAM)
        return; /* parameters are named in the header */
    indent(p, depth);
    if (has_value(i))
        fprintf(o, "%%%d = ", i->id);
    const char *sub = sub_name(i);
    switch (i->op) {
    case FX_CONST:
        fputs("const ", o);
        print_const(p, i);
        break;
    case FX_SPECIAL:
        fprintf(o, "special.%s", sub);
        if (i->sub != FXS_LANE_ID)
            fprintf(o, ".%c", "xyz"[i->dim >= 0 && i->dim < 3 ? i->dim : 0]);
        break;
    case FX_ALLOCA:
        fprintf(o, "alloca.%s", fxir_sub_name(FX_ALLOCA, i->space));
        break;
    case FX_LOAD:
        fputs("load ", o);
        print_access(p, i->ops[0], i->ops + 1, i->nops - 1);
        break;
    case FX_STORE:
        fputs("store ", o);
        print_access(p, i->ops[0], i->ops + 2, i->nops - 2);
        fputs(" = ", o);
        print_value(p, i->ops[1]);
        break;
    case FX_ATOMIC:
        fprintf(o, "atomic.%s ", sub);
        print_access(p, i->ops[0], i->ops + 1, i->nops > 1 ? 1 : 0);
        if (i->nops > 2) {
            fputs(", ", o);
            print_values(p, i->ops + 2, i->nops - 2);
        }
        break;
    case FX_IF:
        fputs("if ", o);
        print_value(p, i->ops[0]);
        fputs(" {\n", o);
        print_block(p, &i->blocks[0], depth + 1);
        if (i->nblocks > 1 && i->blocks[1].first) {
            indent(p, depth);
            fputs("} else {\n", o);
            print_block(p, &i->blocks[1], depth + 1);
        }
        indent(p, depth);
        fputs("}\n", o);
        return;
    case FX_LOOP:
        fputs("loop {\n", o);
        print_block(p, &i->blocks[0], depth + 1);
        indent(p, depth);
        fputs("} while ", o);
        if (i->ops[0])
            print_value(p, i->ops[0]);
        else
            fputs("True", o);
        fputs(" {\n", o);
        print_block(p, &i->blocks[1], depth + 1);
        if (i->nblocks > 2 && i->blocks[2].first) {
            indent(p, depth);
            fputs("} step {\n", o);
            print_block(p, &i->blocks[2], depth + 1);
        }
        indent(p, depth);
        fputs("}\n", o);
        return;
    case FX_PRINT:
        fputs("print ", o);
        print_string(o, i->text);
        if (i->nops > 0) {
            fputs(", ", o);
            print_values(p, i->ops, i->nops);
        }
        break;
    case FX_ASSERT:
        fputs("assert ", o);
        print_values(p, i->ops, i->nops);
        fputs(", ", o);
        print_string(o, i->text);
        break;
    case FX_CALL:
        fprintf(o, "call @%s(", i->callee && i->callee->name ? i->callee->name : "?");
        print_values(p, i->ops, i->nops);
        fputc(')', o);
        break;
    default:
        fputs(fxir_opcode_name(i->op), o);
        if (sub)
            fprintf(o, ".%s", sub);
        if (i->nops > 0 && !(i->op == FX_RETURN && !i->ops[0])) {
            fputc(' ', o);
            print_values(p, i->ops, i->nops);
        }
        break;
    }
    if (has_value(i))
        fprintf(o, " : %s", type_name(p->tmp, i->type));
    print_flags(p, i);
    if (i->name && has_value(i))
        fprintf(o, "  # %s", i->name);
    fputc('\n', o);
}

static void print_block(Printer *p, const FxBlock *b, int depth)
{
    for (FxInst *i = b->first; i; i = i->next)
        print_inst(p, i, depth);
}

void fxir_print_func(FILE *out, FxFunc *f)
{
    Arena *tmp = arena_new();
    Printer p = { out, f, tmp };
    int next = 0;
    number_block(&f->body, &next);
    if (f->kind == FXF_KERNEL && f->index_nowrap)
        fputs("@index_nowrap\n", out);
    if (f->kind == FXF_FN && f->outlined)
        fputs("@outlined\n", out);
    if (f->kind == FXF_KERNEL && f->launch_bounds != 1024)
        fprintf(out, "@launch_bounds(%d)\n", f->launch_bounds);
    fprintf(out, "%s %s(", f->kind == FXF_KERNEL ? "kernel" : "fn", f->name ? f->name : "?");
    for (int k = 0; k < f->nparams; k++) {
        if (k)
            fputs(", ", out);
        if (f->params[k].name)
            fprintf(out, "%%%s", f->params[k].name);
        else
            fprintf(out, "%%arg%d", k);
        fprintf(out, ": %s", f->params[k].type ? type_name(tmp, f->params[k].type) : "?");
    }
    fputc(')', out);
    if (f->kind == FXF_FN && f->ret && f->ret->kind != TY_VOID)
        fprintf(out, " -> %s", type_name(tmp, f->ret));
    fputs(" {\n", out);
    print_block(&p, &f->body, 1);
    fputs("}\n", out);
    arena_free(tmp);
}

void fxir_print_module(FILE *out, FxModule *m)
{
    fprintf(out, "# FXIR module %s\n", m->source_name ? m->source_name : "");
    for (int k = 0; k < m->funcs.len; k++) {
        fputc('\n', out);
        fxir_print_func(out, m->funcs.items[k]);
    }
}
