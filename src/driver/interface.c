/* interface.c - fxcc --print-interface: the kernels and programs of a
 * compilation and their parameters as JSON, for tools that call them
 * without a compiler of their own (the Python module fxrt builds its calls
 * from it: docs/python.md). Everything said here comes from the type
 * tower, so that a tool never decides a type's storage itself. */
#include "driver/interface.h"
#include <string.h>
#include "fx_config.h"

/* Identifiers and type names hold no character JSON must escape but these. */
static void put_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static const char *kind_name(TypeKind k)
{
    switch (k) {
    case TY_SCALAR: return "scalar";
    case TY_VECTOR: return "vector";
    case TY_PTR: return "ptr";
    case TY_TENSOR: return "tensor";
    case TY_ARRAY: return "array";
    default: return "other";
    }
}

static const char *class_name(ScalarClass k)
{
    switch (k) {
    case SCK_BOOL: return "bool";
    case SCK_INT: return "int";
    case SCK_FLOAT: return "float";
    default: return "narrow";   /* the storage floats: Float8E4M3FN, ... */
    }
}

/* The element a parameter holds (a Ptr's or Tensor's, or the value's own
 * type): its scalar (name, class, value width, signedness), lanes, and the
 * storage bytes of one element (Boolean and Int4 one byte each). */
static void put_element(FILE *out, const Type *elem)
{
    const ScalarInfo *si = type_info(type_elem_scalar(elem));
    fputs("\"scalar\": ", out);
    put_string(out, si->name);
    fprintf(out, ", \"class\": \"%s\", \"width\": %d, \"signed\": %s, \"lanes\": %d, \"bytes\": %d",
            class_name(si->cls), si->width, si->is_signed ? "true" : "false",
            elem->kind == TY_VECTOR ? elem->lanes : 1, type_storage_bits(elem) / 8);
}

static void put_dims(FILE *out, const Type *t)
{
    fputs(", \"dims\": [", out);
    for (int d = 0; d < t->ndims; d++) {
        if (d)
            fputs(", ", out);
        if (t->dim_names && t->dim_names[d])
            put_string(out, t->dim_names[d]);
        else
            fprintf(out, "%lld", (long long)t->dims[d]);
    }
    fprintf(out, "], \"col_major\": %s", t->col_major ? "true" : "false");
}

static void put_param(FILE *out, Arena *a, const FxParam *p)
{
    const Type *t = p->type;
    fputs("{\"name\": ", out);
    put_string(out, p->name);
    fputs(", \"type\": ", out);
    put_string(out, type_name(a, t));
    fprintf(out, ", \"kind\": \"%s\", ", kind_name(t->kind));
    bool holds = t->kind == TY_PTR || t->kind == TY_TENSOR || t->kind == TY_ARRAY;
    put_element(out, holds ? t->elem : t);
    if (t->kind == TY_PTR)
        fprintf(out, ", \"const\": %s", t->is_const ? "true" : "false");
    if (t->kind == TY_TENSOR)
        put_dims(out, t);
    fputc('}', out);
}

static void put_params(FILE *out, Arena *a, const FxParam *ps, int n)
{
    fputs("\"params\": [", out);
    for (int i = 0; i < n; i++) {
        fputs(i ? ",\n      " : "\n      ", out);
        put_param(out, a, &ps[i]);
    }
    fputs(n ? "\n    ]" : "]", out);
}

static void put_kernel(FILE *out, Arena *a, const FxFunc *f)
{
    fputs("{\"name\": ", out);
    put_string(out, f->name);
    fprintf(out, ", \"launch_bounds\": %d, \"dynamic_shared\": ", f->launch_bounds);
    const FxInst *dyn = fxir_dynamic_shared(f);
    if (dyn) {
        fputs("{\"name\": ", out);
        put_string(out, dyn->name ? dyn->name : "");
        fputs(", ", out);
        put_element(out, dyn->type->kind == TY_ARRAY ? dyn->type->elem : dyn->type);
        fputs("}", out);
    } else {
        fputs("null", out);
    }
    fputs(",\n    ", out);
    put_params(out, a, f->params, f->nparams);
    fputc('}', out);
}

/* The kernels that program lowering made (passes/lower_program.c names
 * them PROGRAM__kN) are the plan's, not the user's to call. */
static bool made_for_program(const FxModule *m, const char *kernel)
{
    for (int i = 0; i < m->programs.len; i++) {
        const FxProgram *p = m->programs.items[i];
        size_t n = strlen(p->name);
        if (!strncmp(kernel, p->name, n) && !strncmp(kernel + n, "__k", 3))
            return true;
    }
    return false;
}

/* The type tower itself, so that a caller knows every scalar type's storage
 * without a table of its own. */
static void put_scalars(FILE *out)
{
    fputs(" \"scalars\": [", out);
    for (int s = 0; s < SC_COUNT; s++) {
        fputs(s ? ",\n   {" : "\n   {", out);
        put_element(out, type_scalar((ScalarId)s));
        fputc('}', out);
    }
    fputs("\n ],\n", out);
}

void iface_print(FILE *out, Arena *a, const FxModule *m)
{
    fprintf(out, "{\"fxcc\": \"%s\",\n", FX_VERSION);
    put_scalars(out);
    fputs(" \"kernels\": [", out);
    int n = 0;
    for (int i = 0; i < m->funcs.len; i++) {
        const FxFunc *f = m->funcs.items[i];
        if (f->kind != FXF_KERNEL || made_for_program(m, f->name))
            continue;
        fputs(n++ ? ",\n   " : "\n   ", out);
        put_kernel(out, a, f);
    }
    fputs(n ? "\n ],\n \"programs\": [" : "],\n \"programs\": [", out);
    for (int i = 0; i < m->programs.len; i++) {
        const FxProgram *p = m->programs.items[i];
        fputs(i ? ",\n   {\"name\": " : "\n   {\"name\": ", out);
        put_string(out, p->name);
        fputs(",\n    ", out);
        put_params(out, a, p->params, p->nparams);
        fputc('}', out);
    }
    fputs(m->programs.len ? "\n ]}\n" : "]}\n", out);
}
