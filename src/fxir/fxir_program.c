/* fxir_program.c - the stable text form of program graphs (MatMul, Map,
 * Reduce nodes), printed after the kernels by --print-after. */
#include "fxir/fxir.h"

static void print_tensor_type(FILE *out, const Type *t)
{
    Arena *a = arena_new();
    fputs(type_name(a, t), out);
    arena_free(a);
}

static void print_scalar_arg(FILE *out, const FxProgram *p, const char *what, FxScalarArg s)
{
    if (s.kind == FXS_STATIC)
        fprintf(out, " %s=%.17g", what, s.value);
    else if (s.kind == FXS_PARAM)
        fprintf(out, " %s=%%%s", what, p->params[s.param_index].name);
}

/* @body(%X, %Y, %scalar): a Map's, or a Reduce's that computes its elements. */
static void print_body_call(FILE *out, const FxProgram *p, const FxNode *n)
{
    fprintf(out, "@%s(", n->body->name);
    for (int i = 0; i < n->nins; i++)
        fprintf(out, "%s%%%s", i ? ", " : "", n->ins[i]->name);
    for (int i = 0; i < n->nscalars; i++)
        fprintf(out, "%s%%%s", n->nins + i ? ", " : "", p->params[n->scalar_params[i]].name);
    fputc(')', out);
}

static void print_node(FILE *out, const FxProgram *p, int idx, const FxNode *n)
{
    fprintf(out, "  node%d: %%%s = ", idx, n->out->name);
    switch (n->kind) {
    case FXN_MATMUL:
        fprintf(out, "matmul %%%s%s @ %%%s%s", n->ins[0]->name, n->trans_a ? ".T" : "", n->ins[1]->name,
                n->trans_b ? ".T" : "");
        print_scalar_arg(out, p, "alpha", n->alpha);
        if (n->beta.kind != FXS_NONE) {
            fprintf(out, " + beta*%%%s", n->ins[2]->name);
            print_scalar_arg(out, p, "beta", n->beta);
        }
        fprintf(out, " types(in=%s", type_info(n->in_type)->name);
        if (n->in_type_b != n->in_type)
            fprintf(out, ", in_b=%s", type_info(n->in_type_b)->name);
        fprintf(out, ", acc=%s, out=%s)%s", type_info(n->acc_type)->name, type_info(n->out_type)->name,
                n->xf32 ? " xf32" : "");
        break;
    case FXN_MAP:
        fputs("map ", out);
        print_body_call(out, p, n);
        break;
    case FXN_REDUCE:
        fprintf(out, "reduce.%s ", fxir_reduce_name(n->reduce));
        if (n->body) {
            print_body_call(out, p, n);
            fputs(" over ", out);
            print_tensor_type(out, n->domain->type);
        } else {
            fprintf(out, "%%%s", n->ins[0]->name);
        }
        fprintf(out, " axis=%d", n->axis);
        break;
    }
    fputs(" : ", out);
    print_tensor_type(out, n->out->type);
    if (n->when)
        fprintf(out, " when %%%s %s 0", n->when->name, n->when_nonzero ? "!=" : "==");
    if (n->note)
        fprintf(out, " note \"%s\"", n->note);
    if (n->with_previous)
        fputs(" with previous", out);
    fputc('\n', out);
}

void fxir_print_program(FILE *out, const FxProgram *p)
{
    fputc('\n', out);
    if (p->precision)
        fprintf(out, "@contraction_precision(\"%s\")\n", p->precision);
    fprintf(out, "program %s(", p->name);
    for (int i = 0; i < p->nparams; i++) {
        fprintf(out, "%s%%%s: ", i ? ", " : "", p->params[i].name);
        print_tensor_type(out, p->params[i].type);
    }
    fputs(") {\n", out);
    for (int i = 0; i < p->tensors.len; i++) {
        const FxTensor *t = p->tensors.items[i];
        if (t->param_index >= 0)
            continue;
        fprintf(out, "  %s %%%s : ", t->view_of ? "view" : "transient", t->name);
        print_tensor_type(out, t->type);
        if (t->view_of)
            fprintf(out, " = %%%s", t->view_of->name);
        fputc('\n', out);
    }
    for (int i = 0; i < p->nodes.len; i++)
        print_node(out, p, i, p->nodes.items[i]);
    fputs("}\n", out);
}
