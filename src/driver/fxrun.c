/* fxrun.c - runs a kernel on the host CPU: compiles FILE.fx for the host,
 * JITs it, builds the arguments from NAME=VALUE, launches, prints results. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver/heap.h"
#include "driver/pipeline.h"
#include "fx_config.h"
#include "abi/fxplan.h"
#include "runtime/fxrt_program.h"
#include "runtime/fxrt.h"
#include "runtime/fxrt_check.h"
#include "support/timer.h"
#include "sema/fold.h"

/* The exit status of a run an fx.assert stopped (docs/debugging.md). */
enum { FXRUN_ASSERT_STATUS = 3 };

typedef struct Arg {
    const char *name;
    const char *text;       /* VALUE as written */
    bool used;
} Arg;

typedef struct Buffer {
    const Type *elem;       /* scalar element type */
    size_t count;
    unsigned char *data;
    bool alias;             /* y=@x: x's data, freed with x */
} Buffer;

typedef struct Run {
    FxCompilation comp;
    const char *entry;      /* the kernel's or program's name */
    const char *what;       /* "kernel" or "program" */
    FxParam *params;
    int nparams;
    FxFunc *kernel;         /* when running a kernel */
    FxPlan *plan;           /* when running a program */
    Arg *args;
    int nargs;
    const char **prints;
    int nprints;
    const char **saves;     /* NAME=FILE */
    int nsaves;
    unsigned grid[3], block[3];
    bool grid_given, block_given;
    long shared_bytes;      /* --shared-bytes: dynamic shared memory per block; -1: not given */
    double timeout;         /* --timeout seconds, 0 for none */
    Buffer *buffers;        /* per parameter (NULL data for scalars) */
    unsigned char (*scalars)[16];
    Val **scalar_vals;
} Run;

static int fail(const char *fmt, const char *a, const char *b)
{
    fputs("fxrun: error: ", stderr);
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 1;
}

/* ---- values <-> storage bytes ---- */

static size_t elem_bytes(const Type *t)
{
    return (size_t)type_storage_bits(t) / 8;
}

static void store_scalar(const Val *v, unsigned char *dst)
{
    size_t n = elem_bytes(v->type);
    BigInt b = type_info(v->type->scalar)->fmt ? big_from_u64(v->bits) : v->i;
    for (size_t k = 0; k < n; k++)
        dst[k] = (unsigned char)(b.w[k / 8] >> (8 * (k % 8)));
}

/* An element in its storage form as FXIR's constant of type t. */
static FxConst load_const(const Type *t, const unsigned char *src)
{
    size_t n = elem_bytes(t);
    BigInt b = big_from_u64(0);
    for (size_t k = 0; k < n; k++)
        b.w[k / 8] |= (uint64_t)src[k] << (8 * (k % 8));
    ScalarId s = t->scalar;
    if (type_info(s)->fmt)
        return (FxConst){ b.w[0], 0 };
    /* Sign-extend from the storage width, then wrap to the value width. */
    return fxf_from_value(s, big_wrap(b, (int)n * 8, type_info(s)->is_signed));
}

/* ---- argument parsing ---- */

static bool parse_dims(const char *s, unsigned out[3])
{
    out[0] = out[1] = out[2] = 1;
    for (int k = 0; k < 3; k++) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > (1L << 30))
            return false;
        out[k] = (unsigned)v;
        if (!*end)
            return true;
        if (*end != ',')
            return false;
        s = end + 1;
    }
    return false;
}

/* b->data for count elements of b->elem's storage, zeroed; a located error
 * when the size overflows or the memory is not there. */
static bool buffer_alloc(Buffer *b, size_t count, Loc loc)
{
    size_t eb = elem_bytes(b->elem);
    b->count = count;
    b->data = rt_buffer_alloc(count, eb);   /* aligned for the kernel's vector loads */
    if (!b->data)
        diag_error(loc, "cannot allocate a buffer of %zu %s elements", count, type_info(b->elem->scalar)->name);
    return b->data != NULL;
}

static Val *static_value(Run *r, AstNode *e)
{
    return sema_eval_static(r->comp.sema, e);
}

static const Type *type_arg(Run *r, AstNode *e, const char *what)
{
    Val *v = static_value(r, e);
    if (!v)
        return NULL;
    if (v->type->kind != TY_TYPE || v->tval->kind != TY_SCALAR) {
        diag_error(e->loc, "%s expects a scalar type such as Float32", what);
        return NULL;
    }
    return v->tval;
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Element i of iota(T, ...) or rand(T, ..., seed=S) (which advances *seed). */
static Val *generated_element(Arena *a, bool iota, ScalarId s, size_t i, uint64_t *seed, Loc loc)
{
    if (iota)
        return fold_convert(a, fold_make_litint(a, big_from_u64(i), loc), s, FF_RNE, loc);
    if (type_info(s)->fmt) {   /* uniform in [-1, 1) */
        double d = (double)(rng_next(seed) >> 11) * 0x1p-53 * 2.0 - 1.0;
        return fold_convert(a, fold_make_litfloat(a, d, loc), s, FF_RNE, loc);
    }
    int64_t x = (int64_t)(rng_next(seed) % 200) - 100;   /* integers: uniform in [-100, 100) */
    return fold_make_int(a, s, big_from_i64(x), loc);
}

/* Whether native_element computes elements of s: Float32 and Float64
 * (conversions round to nearest) and integers of 8 to 64 bits. */
static bool native_type(ScalarId s)
{
    const ScalarInfo *ti = type_info(s);
    if (s == SC_FLOAT32 || s == SC_FLOAT64)
        return true;
    return !ti->fmt && s != SC_BOOLEAN && ti->width >= 8 && ti->width <= 64 && ti->width % 8 == 0;
}

/* The same with the host's arithmetic where it is the folder's (native_type:
 * an integer wraps to the width, stored little-endian). */
static void native_element(bool iota, ScalarId s, int bytes, size_t i, uint64_t *seed, unsigned char *dst)
{
    if (s == SC_FLOAT32 || s == SC_FLOAT64) {
        double d = iota ? (double)i : (double)(rng_next(seed) >> 11) * 0x1p-53 * 2.0 - 1.0;
        float f = iota ? (float)i : (float)d;   /* one rounding from the exact value */
        if (s == SC_FLOAT64)
            memcpy(dst, &d, 8);
        else
            memcpy(dst, &f, 4);
        return;
    }
    uint64_t v = iota ? (uint64_t)i : (uint64_t)((int64_t)(rng_next(seed) % 200) - 100);
    for (int k = 0; k < bytes; k++)
        dst[k] = (unsigned char)(v >> (8 * k));
}

/* zeros(T, n...), iota(T, n...), rand(T, n..., seed=S) */
static bool generated_buffer(Run *r, AstNode *call, const char *fn, Buffer *b)
{
    if (call->list.len < 2) {
        diag_error(call->loc, "%s() needs an element type and at least one size: %s(Float32, 1024)", fn, fn);
        return false;
    }
    b->elem = type_arg(r, call->list.items[0], fn);
    if (!b->elem)
        return false;
    size_t count = 1;
    uint64_t seed = 1;
    for (int k = 1; k < call->list.len; k++) {
        AstNode *d = call->list.items[k];
        bool is_seed = d->kind == AST_KWARG && strcmp(d->name, "seed") == 0 && strcmp(fn, "rand") == 0;
        Val *v = static_value(r, d->kind == AST_KWARG ? d->a : d);
        if (!v)
            return false;
        if (d->kind == AST_KWARG && !is_seed) {
            diag_error(d->loc, "%s() has no keyword argument '%s'", fn, d->name);
            return false;
        }
        bool is_int = v->type->kind == TY_LITINT || (v->type->kind == TY_SCALAR && type_is_int(v->type->scalar));
        if (!is_int || big_sign(v->i) < 0) {
            diag_error(d->loc, "%s() sizes and seeds are non-negative integers", fn);
            return false;
        }
        if (!big_fits(v->i, is_seed ? 64 : 40, false)) {
            diag_error(d->loc, "%s() %s", fn, is_seed ? "seeds fit in 64 bits" : "sizes are below 2**40");
            return false;
        }
        uint64_t n = big_to_u64(v->i);
        if (is_seed)
            seed = n;
        else if (n && count > SIZE_MAX / n) {
            diag_error(call->loc, "cannot allocate %s(): more elements than memory has bytes", fn);
            return false;
        } else
            count *= n;
    }
    if (!buffer_alloc(b, count, call->loc))
        return false;
    if (strcmp(fn, "zeros") == 0)   /* the allocation is zeroed */
        return true;
    bool iota = strcmp(fn, "iota") == 0;
    ScalarId s = b->elem->scalar;
    size_t eb = elem_bytes(b->elem);
    if (native_type(s)) {   /* 2^24 elements: tens of ms, not hundreds */
        for (size_t i = 0; i < count; i++)
            native_element(iota, s, (int)eb, i, &seed, b->data + i * eb);
        return true;
    }
    /* each element is made by the folder (the constructor's conversion); its
     * values live in a scratch arena renewed every 4096 elements, so a 4M
     * buffer costs its bytes, not 400 per element */
    Arena *scratch = arena_new();
    for (size_t i = 0; i < count; i++) {
        if (i % 4096 == 4095) {
            arena_free(scratch);
            scratch = arena_new();
        }
        store_scalar(generated_element(scratch, iota, s, i, &seed, call->loc), b->data + i * eb);
    }
    arena_free(scratch);
    return true;
}

/* Float32[1, 2, fx.nan]: each element converted as Float32(...) converts. */
static bool literal_buffer(Run *r, AstNode *e, Buffer *b)
{
    Val *tv = static_value(r, e->a);
    if (!tv)
        return false;
    if (tv->type->kind != TY_TYPE || tv->tval->kind != TY_SCALAR) {
        diag_error(e->a->loc, "a buffer is written T[v0, v1, ...] with a scalar type T");
        return false;
    }
    b->elem = tv->tval;
    if (!buffer_alloc(b, (size_t)e->list.len, e->loc))
        return false;
    for (int i = 0; i < e->list.len; i++) {
        Val *v = static_value(r, e->list.items[i]);
        if (!v)
            return false;
        if (!sema_value_is_number(v)) {
            diag_error(e->list.items[i]->loc, "a buffer element must be a number");
            return false;
        }
        v = fold_convert(r->comp.arena, v, b->elem->scalar, FF_RNE, v->loc);
        store_scalar(v, b->data + (size_t)i * elem_bytes(b->elem));
    }
    return true;
}

static bool file_buffer(Run *r, const char *path, const Type *want, Buffer *b)
{
    (void)r;
    FILE *f = fopen(path, "rb");
    if (!f) {
        fail("cannot read '%s': %s", path, strerror(errno));
        return false;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    size_t eb = elem_bytes(want);
    if (n < 0 || (size_t)n % eb != 0) {
        fclose(f);
        fail("'%s': its size is not a whole number of %s elements", path, type_info(want->scalar)->name);
        return false;
    }
    b->elem = want;
    if (!buffer_alloc(b, (size_t)n / eb, (Loc){ 0 })) {
        fclose(f);
        return false;
    }
    bool ok = fread(b->data, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    if (!ok)
        fail("cannot read '%s'%s", path, "");
    return ok;
}

static bool buffer_arg(Run *r, const FxParam *p, Arg *arg, Buffer *b)
{
    const Type *elem = p->type->elem;
    const Type *scalar = type_scalar(elem->scalar);
    if (arg->text[0] == '@') {
        if (!file_buffer(r, arg->text + 1, scalar, b))
            return false;
    } else {
        SrcFile *f = diag_file_from_string(arena_printf(r->comp.arena, "<argument %s>", arg->name), arg->text);
        ptrvec_push(r->comp.arena, &r->comp.extra_files, f);
        AstNode *e = parse_expression(r->comp.arena, f);
        if (!e)
            return false;
        const char *fn = e->kind == AST_CALL && e->a->kind == AST_NAME ? e->a->name : NULL;
        bool ok;
        if (e->kind == AST_INDEX)
            ok = literal_buffer(r, e, b);
        else if (fn && (!strcmp(fn, "zeros") || !strcmp(fn, "iota") || !strcmp(fn, "rand")))
            ok = generated_buffer(r, e, fn, b);
        else {
            diag_error(e->loc, "parameter '%s' is a %s: give a buffer such as Float32[1, 2, 3], zeros(Float32, n), "
                       "iota(Int32, n), rand(Float32, n, seed=1) or @file.bin",
                       p->name, type_name(r->comp.arena, p->type));
            return false;
        }
        if (!ok)
            return false;
    }
    if (b->elem->scalar != elem->scalar) {
        fprintf(stderr, "fxrun: error: parameter '%s' is %s but the buffer holds %s elements\n", p->name,
                type_name(r->comp.arena, p->type), type_info(b->elem->scalar)->name);
        return false;
    }
    if (elem->kind == TY_VECTOR && b->count % (size_t)elem->lanes != 0) {
        fprintf(stderr, "fxrun: error: parameter '%s' is %s: the buffer's %zu elements are not whole vectors\n",
                p->name, type_name(r->comp.arena, p->type), b->count);
        return false;
    }
    return true;
}

/* Whether the text names a buffer (a literal list, zeros/iota/rand, @file). */
static bool looks_like_buffer(const AstNode *e, const char *text)
{
    if (text[0] == '@' || (e && e->kind == AST_INDEX))
        return true;
    const char *fn = e && e->kind == AST_CALL && e->a->kind == AST_NAME ? e->a->name : NULL;
    return fn && (!strcmp(fn, "zeros") || !strcmp(fn, "iota") || !strcmp(fn, "rand"));
}

/* The constructor rules of docs/decisions.md for a value given to a scalar
 * parameter: an integer parameter takes an integral value in its range (no
 * silent wrap: n=2**40 for an Int32 is an error), a Boolean True, False, 0
 * or 1, a float any number (rounded to nearest). */
static bool scalar_value_fits(const Val *v, ScalarId to)
{
    const ScalarInfo *ti = type_info(to);
    bool from_float = v->type->kind == TY_LITFLOAT || (v->type->kind == TY_SCALAR && type_info(v->type->scalar)->fmt);
    if (ti->fmt)
        return true;
    BigInt b;
    if (from_float) {
        double d = fold_as_double(v);
        if (isnan(d) || isinf(d) || d != trunc(d))
            return false;
        b = big_from_double_trunc(d);
    } else if (v->type->kind == TY_SCALAR && v->type->scalar == SC_BOOLEAN) {
        return to == SC_BOOLEAN;
    } else {
        b = v->i;
    }
    if (to == SC_BOOLEAN)
        return big_fits(b, 1, false);
    return big_fits(b, ti->width, ti->is_signed);
}

static bool scalar_arg(Run *r, int idx, const FxParam *p, Arg *arg)
{
    const char *tn = type_name(r->comp.arena, p->type);
    if (p->type->kind != TY_SCALAR) {
        fprintf(stderr, "fxrun: error: parameter '%s' of type %s cannot be given on the command line yet\n",
                p->name, tn);
        return false;
    }
    SrcFile *f = diag_file_from_string(arena_printf(r->comp.arena, "<argument %s>", arg->name), arg->text);
    ptrvec_push(r->comp.arena, &r->comp.extra_files, f);
    AstNode *e = arg->text[0] == '@' ? NULL : parse_expression(r->comp.arena, f);
    if (looks_like_buffer(e, arg->text)) {
        fprintf(stderr, "fxrun: error: parameter '%s' is %s, not a buffer: give a number such as %s=%s\n",
                p->name, tn, p->name, p->type->scalar == SC_BOOLEAN ? "True" : "1");
        return false;
    }
    Val *v = e ? static_value(r, e) : NULL;
    if (!v)
        return false;
    if (!sema_value_is_number(v)) {
        diag_error(e->loc, "parameter '%s' is %s: expected a number", p->name, tn);
        return false;
    }
    if (!scalar_value_fits(v, p->type->scalar)) {
        diag_error(e->loc, "parameter '%s' is %s: the value is not %s", p->name, tn,
                   type_is_int(p->type->scalar) ? "an integer in its range" : "True, False, 0 or 1");
        return false;
    }
    v = fold_convert(r->comp.arena, v, p->type->scalar, FF_RNE, v->loc);
    r->scalar_vals[idx] = v;
    store_scalar(v, r->scalars[idx]);
    return true;
}

static Arg *find_arg_n(Run *r, const char *name, size_t len)
{
    for (int i = 0; i < r->nargs; i++)
        if (strlen(r->args[i].name) == len && !strncmp(r->args[i].name, name, len))
            return &r->args[i];
    return NULL;
}

static Arg *find_arg(Run *r, const char *name)
{
    return find_arg_n(r, name, strlen(name));
}

static bool is_buffer_param(const FxParam *p)
{
    return p->type->kind == TY_PTR || p->type->kind == TY_TENSOR;
}

/* A Tensor argument holds exactly the product of its dims, in its storage order. */
static bool check_tensor_sizes(Run *r)
{
    for (int i = 0; i < r->nparams; i++) {
        const Type *t = r->params[i].type;
        if (t->kind != TY_TENSOR)
            continue;
        size_t want = 1;
        for (int d = 0; d < t->ndims; d++) {
            int64_t n = t->dims[d];
            for (int j = 0; t->dim_names[d] && j < r->nparams; j++)
                if (!strcmp(r->params[j].name, t->dim_names[d]))
                    n = big_to_i64(r->scalar_vals[j]->i);
            if (n < 0) {
                fprintf(stderr, "fxrun: error: dimension '%s' of '%s' is negative\n", t->dim_names[d], r->params[i].name);
                return false;
            }
            want *= (size_t)n;
        }
        if (r->buffers[i].count != want) {
            fprintf(stderr, "fxrun: error: '%s' is %s, which holds %zu elements, but the buffer has %zu\n",
                    r->params[i].name, type_name(r->comp.arena, t), want, r->buffers[i].count);
            return false;
        }
    }
    return true;
}

/* y=@x: the index of the buffer parameter x that argument y names, or -1
 * (then @x is a file; write @./x for a file named like a parameter). */
static int aliased_param(Run *r, const Arg *arg)
{
    if (arg->text[0] != '@')
        return -1;
    for (int i = 0; i < r->nparams; i++)
        if (is_buffer_param(&r->params[i]) && !strcmp(r->params[i].name, arg->text + 1))
            return i;
    return -1;
}

/* Gives parameter i the buffer of the parameter its argument names: two Ptr
 * parameters of a kernel may point at one buffer, as on the GPU. */
static bool share_buffer(Run *r, int i)
{
    const FxParam *p = &r->params[i];
    int j = aliased_param(r, find_arg(r, p->name));
    if (j < 0)
        return true;
    const char *what = NULL;
    if (r->plan)
        what = "a program's tensors cannot share a buffer (its plan may write one while reading the other)";
    else if (aliased_param(r, find_arg(r, r->params[j].name)) >= 0)
        what = "it must name a parameter that has a buffer of its own";
    else if (r->params[j].type->elem->scalar != p->type->elem->scalar)
        what = "the element types differ";
    if (what) {
        fprintf(stderr, "fxrun: error: parameter '%s' cannot share the buffer of '%s': %s\n", p->name,
                r->params[j].name, what);
        return false;
    }
    r->buffers[i] = r->buffers[j];
    r->buffers[i].alias = true;
    return true;
}

static bool build_args(Run *r, void **argv)
{
    r->buffers = calloc((size_t)r->nparams + 1, sizeof(Buffer));
    r->scalars = calloc((size_t)r->nparams + 1, 16);
    r->scalar_vals = calloc((size_t)r->nparams + 1, sizeof(Val *));
    for (int i = 0; i < r->nparams; i++) {
        const FxParam *p = &r->params[i];
        Arg *arg = find_arg(r, p->name);
        if (!arg) {
            fprintf(stderr, "fxrun: error: missing argument for parameter '%s: %s' of %s '%s'\n", p->name,
                    type_name(r->comp.arena, p->type), r->what, r->entry);
            return false;
        }
        arg->used = true;
        if (is_buffer_param(p) && aliased_param(r, arg) >= 0) {
            argv[i] = &r->buffers[i].data;   /* after every own buffer exists */
        } else if (is_buffer_param(p)) {
            if (!buffer_arg(r, p, arg, &r->buffers[i]))
                return false;
            argv[i] = &r->buffers[i].data;
        } else {
            if (!scalar_arg(r, i, p, arg))
                return false;
            argv[i] = r->scalars[i];
        }
    }
    for (int i = 0; i < r->nargs; i++)
        if (!r->args[i].used) {
            fprintf(stderr, "fxrun: error: %s '%s' has no parameter named '%s'\n", r->what, r->entry, r->args[i].name);
            return false;
        }
    for (int i = 0; i < r->nparams; i++)
        if (is_buffer_param(&r->params[i]) && !share_buffer(r, i))
            return false;
    return check_tensor_sizes(r);
}

/* ---- results ---- */

static int param_index(Run *r, const char *name)
{
    for (int i = 0; i < r->nparams; i++)
        if (strcmp(r->params[i].name, name) == 0)
            return i;
    return -1;
}

static bool print_param(Run *r, const char *name)
{
    int i = param_index(r, name);
    if (i < 0) {
        fprintf(stderr, "fxrun: error: --print %s: %s '%s' has no such parameter\n", name, r->what, r->entry);
        return false;
    }
    printf("%s = ", name);
    if (!is_buffer_param(&r->params[i])) {
        fold_print(stdout, r->scalar_vals[i], false);
        putchar('\n');
        return true;
    }
    Buffer *b = &r->buffers[i];
    char text[FXF_FORMAT_MAX];
    putchar('[');
    for (size_t k = 0; k < b->count; k++) {
        if (k)
            fputs(", ", stdout);
        fputs(fxf_format(b->elem->scalar, load_const(b->elem, b->data + k * elem_bytes(b->elem)), text), stdout);
    }
    puts("]");
    return true;
}

static bool save_param(Run *r, const char *spec)
{
    const char *eq = strchr(spec, '=');
    char *name = eq ? strndup(spec, (size_t)(eq - spec)) : strdup(spec);
    int i = param_index(r, name);
    bool ok = false;
    if (!eq || i < 0 || !is_buffer_param(&r->params[i])) {
        fprintf(stderr, "fxrun: error: --save expects BUFFER=FILE naming a buffer parameter, got '%s'\n", spec);
    } else {
        char *tmp = arena_printf(r->comp.arena, "%s.tmp", eq + 1);
        FILE *f = fopen(tmp, "wb");
        Buffer *b = &r->buffers[i];
        ok = f && fwrite(b->data, elem_bytes(b->elem), b->count, f) == b->count;
        ok = f && fclose(f) == 0 && ok && rename(tmp, eq + 1) == 0;
        if (!ok) {
            remove(tmp);
            fprintf(stderr, "fxrun: error: cannot write '%s'\n", eq + 1);
        }
    }
    free(name);
    return ok;
}

/* ---- main ---- */

static const char usage_text[] =
    "usage: fxrun FILE.fx ENTRY --grid X[,Y[,Z]] --block X[,Y[,Z]] [fxcc options]\n"
    "             [--arch GFX] [--timeout S] [--threads N] [--shared-bytes N] [NAME=VALUE ...]\n"
    "             [--print NAME ...] [--save NAME=FILE]\n";

/* A usage error's reminder, on stderr. */
static int usage(void)
{
    fputs(usage_text, stderr);
    fputs("(run 'fxrun --help' for the arguments)\n", stderr);
    return 2;
}

/* --help: on stdout, with the argument syntax. */
static void print_help(void)
{
    fputs(usage_text, stdout);
    fputs("\nRuns kernel or program ENTRY of FILE.fx on the host CPU.\n"
          "  --grid X[,Y[,Z]]   blocks of the launch (kernels; programs launch by their plan)\n"
          "  --block X[,Y[,Z]]  work-items per block, at most the kernel's @launch_bounds (1024)\n"
          "  --arch GFX         run the kernels compiled for GFX, its waves emulated on the host\n"
          "  --timeout S        stop a run still going after S seconds (exit status 124)\n"
          "  --no-assert        compile fx.assert away (fx.printf stays)\n"
          "  --threads N        run blocks on N threads (default: FX_THREADS, else every core)\n"
          "  --shared-bytes N   dynamic shared memory per block, for a kernel's Array[T, DYN]\n"
          "  --check[=races,uninit]  report shared-memory races, reads of unwritten shared memory\n"
          "                     and divergent barriers (exit status 1)\n"
          "  NAME=VALUE         an argument by parameter name:\n"
          "                       scalars: a static expression, n=1000  a=2.5  b=True\n"
          "                       buffers: Float32[1, 2, 3]  zeros(Float32, 1024)  iota(Int32, 64)\n"
          "                                rand(Float64, 64, 64, seed=1)  @file.bin (raw little-endian)\n"
          "  --print NAME       print a buffer after the run\n"
          "  --save NAME=FILE   write a buffer to FILE (raw little-endian)\n"
          "  fxcc options       -O0..-O3, -D NAME=VALUE, -I DIR, --fp-contract=..., ... (fxcc --help)\n"
          "Exit status: 0 success, 1 a compile or run error, 2 a usage error, 3 an fx.assert\n"
          "failed, 124 --timeout.\n",
          stdout);
}

static int parse_command_line(Run *r, FxOptions *o, Arena *a, int argc, char **argv, const char **entry)
{
    r->args = calloc((size_t)argc, sizeof(Arg));
    r->prints = calloc((size_t)argc, sizeof(char *));
    r->saves = calloc((size_t)argc, sizeof(char *));
    r->grid[0] = r->grid[1] = r->grid[2] = 1;
    r->shared_bytes = -1;
    r->block[0] = r->block[1] = r->block[2] = 1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
            print_help();
            return 0;
        }
        if (!strcmp(s, "--version")) {
            printf("fxrun %s (LLVM 19 host JIT)\n", FX_VERSION);
            return 0;
        }
        if ((!strcmp(s, "--grid") || !strcmp(s, "--block")) && i + 1 < argc) {
            if (s[2] == 'g')
                r->grid_given = true;
            else
                r->block_given = true;
            if (!parse_dims(argv[i + 1], s[2] == 'g' ? r->grid : r->block)) {
                fprintf(stderr, "fxrun: error: %s expects X[,Y[,Z]] with positive sizes, got '%s'\n", s, argv[i + 1]);
                return 2;
            }
            i++;
            continue;
        }
        if (!strncmp(s, "--arch=", 7) || (!strcmp(s, "--arch") && i + 1 < argc)) {   /* --offload-arch */
            o->arch = s[6] == '=' ? s + 7 : argv[++i];
            o->arch_given = true;
            continue;
        }
        if ((!strcmp(s, "--print") || !strcmp(s, "--save")) && i + 1 < argc) {
            if (s[2] == 'p')
                r->prints[r->nprints++] = argv[++i];
            else
                r->saves[r->nsaves++] = argv[++i];
            continue;
        }
        int rc = opt_parse_one(a, o, argc, argv, &i);
        if (rc < 0)
            return 2;
        if (rc > 0)
            continue;
        if (!strncmp(s, "--threads=", 10) || (!strcmp(s, "--threads") && i + 1 < argc)) {
            const char *t = s[9] == '=' ? s + 10 : argv[++i];
            char *end;
            long n = strtol(t, &end, 10);
            if (end == t || *end || n < 1 || n > 1024) {
                fprintf(stderr, "fxrun: error: --threads expects a number of threads from 1 to 1024, got '%s'\n", t);
                return 2;
            }
            rt_host_set_threads((unsigned)n);   /* before any launch: it sets FX_THREADS aside */
            continue;
        }
        if (!strncmp(s, "--shared-bytes=", 15) || (!strcmp(s, "--shared-bytes") && i + 1 < argc)) {
            const char *t = s[14] == '=' ? s + 15 : argv[++i];
            char *end;
            r->shared_bytes = strtol(t, &end, 10);
            if (end == t || *end || r->shared_bytes < 0 || r->shared_bytes > RT_MAX_SHARED_BYTES) {
                fprintf(stderr, "fxrun: error: --shared-bytes expects bytes from 0 to %d, got '%s'\n",
                        RT_MAX_SHARED_BYTES, t);
                return 2;
            }
            continue;
        }
        if (!strncmp(s, "--timeout=", 10) || (!strcmp(s, "--timeout") && i + 1 < argc)) {
            const char *t = s[9] == '=' ? s + 10 : argv[++i];
            char *end;
            r->timeout = strtod(t, &end);
            if (end == t || *end || !(r->timeout > 0 && r->timeout <= 1e6)) {
                fprintf(stderr, "fxrun: error: --timeout expects seconds between 0 and 1000000, got '%s'\n", t);
                return 2;
            }
            continue;
        }
        const char *eq = strchr(s, '=');
        if (s[0] != '-' && eq && eq != s && find_arg_n(r, s, (size_t)(eq - s))) {
            fprintf(stderr, "fxrun: error: argument '%.*s' is given twice\n", (int)(eq - s), s);
            return 2;
        }
        if (s[0] != '-' && eq && eq != s) {
            r->args[r->nargs].name = strndup(s, (size_t)(eq - s));
            r->args[r->nargs++].text = eq + 1;
        } else if (s[0] != '-' && !o->input) {
            o->input = s;
        } else if (s[0] != '-' && !*entry) {
            *entry = s;
        } else {
            fprintf(stderr, "fxrun: error: unexpected argument '%s'\n", s);
            return usage();
        }
    }
    if (!o->input || !*entry)
        return usage();
    o->host = true;
    return -1;
}

/* Levenshtein distance, capped: names longer than 64 are never "near". */
static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64)
        return 1000;
    int row[65];
    for (size_t j = 0; j <= m; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[m];
}

/* The kernel or program whose name is closest to `entry` (at most a third
 * of its letters off), for "did you mean". */
static const char *nearest_entry(FxCompilation *c, const char *entry)
{
    const char *best = NULL;
    int bestd = (int)strlen(entry) / 3 + 1;
    for (int i = 0; i < c->module->funcs.len; i++) {
        FxFunc *f = c->module->funcs.items[i];
        int d = f->kind == FXF_KERNEL ? edit_distance(entry, f->name) : 1000;
        if (d < bestd)
            bestd = d, best = f->name;
    }
    for (int i = 0; i < c->module->programs.len; i++) {
        FxProgram *p = c->module->programs.items[i];
        int d = edit_distance(entry, p->name);
        if (d < bestd)
            bestd = d, best = p->name;
    }
    return best;
}

/* A kernel runs over the grid the command line gives (one work-item by
 * default hid a forgotten --block), within its @launch_bounds. */
static bool launch_shape_ok(const Run *r)
{
    if (!r->grid_given || !r->block_given) {
        fprintf(stderr, "fxrun: error: kernel '%s' needs %s: the launch shape, e.g. --grid 4 --block 256\n", r->entry,
                !r->grid_given && !r->block_given ? "--grid and --block" : !r->grid_given ? "--grid" : "--block");
        return false;
    }
    const FxInst *dyn = fxir_dynamic_shared(r->kernel);
    if (dyn && r->shared_bytes < 0) {
        fprintf(stderr, "fxrun: error: kernel '%s' has a dynamic shared array '%s': give its size in bytes with "
                "--shared-bytes N\n", r->entry, dyn->name ? dyn->name : "?");
        return false;
    }
    unsigned long long n = (unsigned long long)r->block[0] * r->block[1] * r->block[2];
    if (n > (unsigned long long)r->kernel->launch_bounds) {
        fprintf(stderr, "fxrun: error: --block %u,%u,%u is %llu work-items, more than kernel '%s' allows (%d%s)\n",
                r->block[0], r->block[1], r->block[2], n, r->entry, r->kernel->launch_bounds,
                r->kernel->launch_bounds == 1024 ? "" : ", its @launch_bounds");
        return false;
    }
    return true;
}

static void find_entry(Run *r, FxCompilation *c, const char *entry)
{
    r->entry = entry;
    for (int i = 0; i < c->module->funcs.len; i++) {
        FxFunc *f = c->module->funcs.items[i];
        if (f->kind == FXF_KERNEL && strcmp(f->name, entry) == 0) {
            r->kernel = f;
            r->what = "kernel";
            r->params = f->params;
            r->nparams = f->nparams;
        }
    }
    for (int i = 0; i < c->module->programs.len; i++) {
        FxProgram *p = c->module->programs.items[i];
        if (strcmp(p->name, entry) == 0) {
            r->plan = pipe_plan(c, entry);
            r->what = "program";
            r->params = p->params;
            r->nparams = p->nparams;
        }
    }
}

/* --timeout: a kernel stuck in `while True` must not hang a CI run. The
 * handler may only write and exit, so the message is formatted beforehand. */
static char timeout_message[512];

static void on_timeout(int sig)
{
    (void)sig;
    ssize_t n = write(2, timeout_message, strlen(timeout_message));
    (void)n;
    _exit(124);
}

static void arm_timeout(const Run *r)
{
    if (r->timeout <= 0)
        return;
    snprintf(timeout_message, sizeof timeout_message, "fxrun: error: %s '%s' still running after --timeout=%g s\n",
             r->what, r->entry, r->timeout);
    signal(SIGALRM, on_timeout);
    struct itimerval it = { { 0, 0 }, { (time_t)r->timeout, (suseconds_t)((r->timeout - (double)(time_t)r->timeout) * 1e6) } };
    setitimer(ITIMER_REAL, &it, NULL);
}

static void disarm_timeout(void)
{
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
}

/* A kernel runs over --grid/--block; a program runs the launch plan the
 * compilation made (the artifact carries the same plan as text). */
static int launch(Run *r, RtHostModule *hm, void **argv, char **err)
{
    if (r->kernel) {
        /* Checked launch: an index outside an argument buffer stops the run
         * with an error instead of corrupting memory. */
        size_t *bytes = calloc((size_t)r->nparams + 1, sizeof *bytes);
        for (int i = 0; i < r->nparams; i++)
            bytes[i] = r->params[i].type->kind == TY_PTR ? r->buffers[i].count * elem_bytes(r->buffers[i].elem) : 0;
        RtLaunchOptions lo = { .arg_bytes = bytes, .checks = r->comp.opts->check,
                               .shared_bytes = r->shared_bytes > 0 ? (size_t)r->shared_bytes : 0 };
        int rc = rt_host_launch_with(hm, r->kernel->name, r->grid, r->block, argv, &lo, err);
        free(bytes);
        return rc;
    }
    RtRunReport report = { 0 };
    int rc = rt_program_run_report(hm, r->plan, argv, &report, err);
    /* what the plan decided at run time (a contraction guard's fallback) */
    for (const char *line = report.notes; line && *line;) {
        const char *end = strchr(line, '\n');
        int len = end ? (int)(end - line) : (int)strlen(line);
        fprintf(stderr, "fxrun: note: %.*s\n", len, line);
        line = end ? end + 1 : NULL;
    }
    rt_run_report_free(&report);
    return rc;
}

static int run(Run *r, const FxOptions *o, const char *entry)
{
    FxCompilation *c = &r->comp;
    pipe_init(c, o);
    if (!pipe_parse(c) || !pipe_lower(c))
        return 1;
    find_entry(r, c, entry);
    if (!r->params) {
        const char *near = nearest_entry(c, entry);
        fprintf(stderr, "fxrun: error: '%s' has no kernel or program named '%s'", o->input, entry);
        if (near)
            fprintf(stderr, "; did you mean '%s'?", near);
        fputc('\n', stderr);
        return 1;
    }
    if (r->kernel && !launch_shape_ok(r))
        return 1;
    if (r->plan && o->check) {
        fprintf(stderr, "fxrun: error: --check runs kernels; program '%s' launches the compiler's own\n", entry);
        return 1;
    }
    if (r->plan && r->shared_bytes >= 0) {
        fprintf(stderr, "fxrun: error: --shared-bytes sizes a kernel's dynamic shared array; program '%s' "
                "launches the compiler's own kernels\n", entry);
        return 1;
    }
    void **argv = calloc((size_t)r->nparams + 1, sizeof(void *));
    int rc = 1;
    char *err = NULL;
    RtHostModule *hm = pipe_jit(c, &err);
    if (!hm && !err)
        goto out;   /* located errors were printed */
    /* The buffers are read or made after the JIT, right before the launch:
     * what was written last is still in the caches then, as a program's
     * freshly written buffers are when it launches a kernel (the JIT in
     * between went through tens of MiB of its own memory). */
    if (!build_args(r, argv)) {
        rt_host_free(hm);
        free(err);
        goto out;
    }
    arm_timeout(r);
    TimerMark t = timer_mark();   /* --time-passes: the kernels' run (rt_host_load compiled them) */
    int launched = hm ? launch(r, hm, argv, &err) : 1;
    timer_add("run on the host", t);
    disarm_timeout();
    if (launched == RT_LAUNCH_ASSERT) {
        /* located like a compiler's message; its own status (docs/debugging.md) */
        fflush(stdout);
        fprintf(stderr, "%s\n", err ? err : "assertion failed");
        free(err);
        rt_host_free(hm);
        rc = FXRUN_ASSERT_STATUS;
        goto out;
    }
    if (launched != 0) {
        /* one error per line: the checker reports several */
        for (const char *line = err ? err : "launch failed"; *line;) {
            size_t n = strcspn(line, "\n");
            fprintf(stderr, "fxrun: error: %.*s\n", (int)n, line);
            line += n + (line[n] == '\n');
        }
        free(err);
        rt_host_free(hm);
        goto out;
    }
    rt_host_free(hm);
    rc = 0;
    for (int i = 0; i < r->nprints; i++)
        rc |= !print_param(r, r->prints[i]);
    for (int i = 0; i < r->nsaves; i++)
        rc |= !save_param(r, r->saves[i]);
out:
    free(argv);
    return rc;
}

static void free_run(Run *r)
{
    for (int i = 0; r->buffers && i < r->nparams; i++)
        if (!r->buffers[i].alias)
            free(r->buffers[i].data);
    for (int i = 0; i < r->nargs; i++)
        free((char *)r->args[i].name);
    free(r->buffers);
    free(r->scalars);
    free(r->scalar_vals);
    free(r->args);
    free(r->prints);
    free(r->saves);
    pipe_free(&r->comp);
}

/* Before LLVM's static constructors, as in fxcc: the JIT's heap on huge
 * pages (heap.c). */
__attribute__((constructor(101))) static void heap_on_huge_pages(void)
{
    heap_prefer_huge_pages();
}

int main(int argc, char **argv)
{
    cg_install_fatal_handler();
    Arena *a = arena_new();
    FxOptions o;
    opt_defaults(&o);
    Run r;
    memset(&r, 0, sizeof r);
    const char *entry = NULL;
    int rc = parse_command_line(&r, &o, a, argc, argv, &entry);
    if (rc < 0)
        rc = opt_finish(&o) ? run(&r, &o, entry) : 2;
    rc = opt_finish_stdout("fxrun", rc);
    free_run(&r);
    arena_free(a);
    return rc;
}
