/* scope.c - scopes and bindings, builtin names, top-level items, imports,
 * consts with -D overrides, and the entry points of sema.h. */
#include "sema/sema_int.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- scopes ---- */

/* Below this many names a scope is searched as a list. */
enum { SCOPE_INDEX_MIN = 16 };

static size_t name_hash(const char *name)
{
    size_t h = 2166136261u;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 16777619u;
    return h;
}

/* The slot of `name` in s->index: its binding or the empty slot where it goes. */
static Binding **index_slot(Scope *s, const char *name)
{
    size_t mask = s->cap - 1;
    size_t h = name_hash(name) & mask;
    while (s->index[h] && strcmp(s->index[h]->name, name) != 0)
        h = (h + 1) & mask;
    return &s->index[h];
}

/* Rebuild the index at twice the size (the list holds every binding; the
 * oldest are inserted first so the newest of a repeated name wins). The old
 * table stays in the arena: the sizes double, so the waste is bounded by
 * the final table. */
static void index_grow(Arena *a, Scope *s)
{
    s->cap = s->cap ? s->cap * 2 : 4 * SCOPE_INDEX_MIN;
    s->index = arena_alloc(a, s->cap * sizeof *s->index);
    Binding **order = arena_alloc(a, (size_t)s->count * sizeof *order);
    int n = 0;
    for (Binding *b = s->first; b; b = b->next)
        order[n++] = b;
    while (n > 0) {
        Binding *b = order[--n];
        *index_slot(s, b->name) = b;
    }
}

static Binding *find_in(Scope *s, const char *name)
{
    if (s->index)
        return *index_slot(s, name);
    for (Binding *b = s->first; b; b = b->next)
        if (strcmp(b->name, name) == 0)
            return b;
    return NULL;
}

static Binding *add_binding(Arena *a, Scope *s, const char *name, BindingKind kind, AstNode *decl)
{
    Binding *b = arena_alloc(a, sizeof *b);
    b->name = name;
    b->kind = kind;
    b->decl = decl;
    b->next = s->first;
    s->first = b;
    s->count++;
    if (s->index && (size_t)s->count * 2 <= s->cap)
        *index_slot(s, name) = b;
    else if (s->count > SCOPE_INDEX_MIN)
        index_grow(a, s);
    return b;
}

static Val *static_val(Arena *a, TypeKind k, const char *str)
{
    Val *v = arena_alloc(a, sizeof *v);
    v->type = type_simple(k);
    v->is_static = true;
    v->str = str;
    return v;
}

Binding *sema_lookup(Ctx *c, const char *name)
{
    for (Scope *s = c->scope; s; s = s->parent) {
        Binding *b = find_in(s, name);
        if (b) {
            b->used = true;
            return b;
        }
    }
    Binding *b = find_in(&c->sema->builtins, name);
    if (b)
        return b;
    /* Vector aliases (Float32x4, Int8x16, ...) are made on first use. */
    const Type *t = type_from_name(name);
    if (!t)
        return NULL;
    b = add_binding(c->sema->arena, &c->sema->builtins, arena_strdup(c->sema->arena, name), B_BUILTIN, NULL);
    b->val = static_val(c->sema->arena, TY_TYPE, NULL);
    b->val->tval = t;
    return b;
}

Binding *sema_lookup_target(Ctx *c, const char *name)
{
    for (Scope *s = c->scope; s; s = s->parent) {
        Binding *b = find_in(s, name);
        if (b)
            return b;
    }
    return sema_lookup(c, name);
}

/* The warning a binding never read gets, by what declared it; -1: none
 * (loop variables, consts, fns; names starting with '_' say "unused on
 * purpose", as in Python). */
static int unused_warning(const Binding *b)
{
    if (b->used || !b->decl || b->name[0] == '_' || (b->kind != B_VALUE && b->kind != B_VAR))
        return -1;
    if (b->kind == B_VALUE && !b->val)
        return -1;   /* poisoned: its declaration already failed */
    switch (b->decl->kind) {
    case AST_LET: case AST_VAR: case AST_SHARED: return WARN_UNUSED_VARIABLE;
    case AST_PARAM: return WARN_UNUSED_PARAMETER;
    default: return -1;
    }
}

/* Where a binding's name is written: its own name in `let (q, r) = ...`. */
static Loc binding_name_loc(const Binding *b)
{
    const AstNode *d = b->decl;
    for (int i = 0; i < d->list2.len; i++)
        if (d->kind == AST_LET && strcmp(d->list2.items[i]->name, b->name) == 0)
            return d->list2.items[i]->loc;
    return d->name_loc.line > 0 ? d->name_loc : d->loc;
}

void sema_warn_unused(Ctx *c, Scope *s)
{
    if (!warn_enabled(WARN_UNUSED_VARIABLE) && !warn_enabled(WARN_UNUSED_PARAMETER))
        return;
    /* the list is newest first; warnings go in source order */
    Binding **order = arena_alloc(c->arena, (size_t)s->count * sizeof *order);
    int n = 0;
    for (Binding *b = s->first; b && n < s->count; b = b->next)
        order[n++] = b;
    while (n > 0) {
        Binding *b = order[--n];
        int w = unused_warning(b);
        if (w == WARN_UNUSED_VARIABLE)
            warn_at(WARN_UNUSED_VARIABLE, binding_name_loc(b), "unused variable '%s' (never read); "
                    "name it _%s if that is meant", b->name, b->name);
        else if (w == WARN_UNUSED_PARAMETER)
            warn_at(WARN_UNUSED_PARAMETER, binding_name_loc(b), "unused parameter '%s'", b->name);
    }
}

/* -Wshadow: a let, var or shared array hiding a name of an enclosing scope
 * (or an earlier one of its own: `let x` again). */
static void warn_shadow(Ctx *c, const char *name, AstNode *decl)
{
    if (!decl || (decl->kind != AST_LET && decl->kind != AST_VAR && decl->kind != AST_SHARED) ||
        !warn_enabled(WARN_SHADOW))
        return;
    for (Scope *s = c->scope; s; s = s->parent) {
        Binding *b = find_in(s, name);
        if (!b || !b->decl)
            continue;
        Loc at = decl->name_loc.line > 0 ? decl->name_loc : decl->loc;
        warn_at(WARN_SHADOW, at, "'%s' hides an earlier declaration", name);
        diag_note(b->decl->name_loc.line > 0 ? b->decl->name_loc : b->decl->loc, "'%s' was declared here", name);
        return;
    }
}

Binding *sema_lookup_local(Ctx *c, const char *name)
{
    return c->scope ? find_in(c->scope, name) : NULL;
}

Binding *sema_bind(Ctx *c, const char *name, BindingKind kind, AstNode *decl)
{
    warn_shadow(c, name, decl);
    return add_binding(c->arena, c->scope, name, kind, decl);
}

void sema_push_scope(Ctx *c, Scope *s)
{
    *s = (Scope){ 0 };
    s->parent = c->scope;
    c->scope = s;
}

void sema_pop_scope(Ctx *c)
{
    sema_warn_unused(c, c->scope);
    c->scope = c->scope->parent;
}

void sema_init_builtins(Sema *s)
{
    Arena *a = s->arena;
    for (int k = 0; k < SC_COUNT; k++) {
        Binding *b = add_binding(a, &s->builtins, type_scalars[k].name, B_BUILTIN, NULL);
        b->val = static_val(a, TY_TYPE, NULL);
        b->val->tval = type_scalar((ScalarId)k);
    }
    static const char *const funcs[] = { "Ptr", "Array", "Tensor", "range", "static_range", "len", "abs",
                                         "divmod" };
    for (size_t k = 0; k < sizeof funcs / sizeof funcs[0]; k++)
        add_binding(a, &s->builtins, funcs[k], B_BUILTIN, NULL)->val = static_val(a, TY_FUNC, funcs[k]);
    static const char *const specials[] = { "thread_idx", "block_idx", "block_dim", "grid_dim" };
    for (size_t k = 0; k < 4; k++)
        add_binding(a, &s->builtins, specials[k], B_BUILTIN, NULL)->val = static_val(a, TY_SPECIAL, specials[k]);
    add_binding(a, &s->builtins, "fx", B_BUILTIN, NULL)->val = static_val(a, TY_MODULE, "fx");
}

/* ---- the global context ---- */

/* Outside kernels (consts, static_assert items, types, --eval), run-time
 * values such as vectors can still be built: they go to a scratch block that
 * is never emitted, and kernel-only builtins are refused. */
void sema_global_ctx(Sema *s, Ctx *c)
{
    memset(c, 0, sizeof *c);
    c->sema = s;
    c->arena = s->arena;
    c->scope = &s->globals;
    c->fmf = s->opts->fastmath;
    c->fn = &s->scratch_fn;
    c->block = &s->scratch;
    s->scratch_fn.is_eval = true;
}

Sema *sema_new(Arena *arena, const SemaOptions *opts)
{
    Sema *s = arena_alloc(arena, sizeof *s);
    s->arena = arena;
    s->opts = opts;
    s->module = fxir_module_new(arena, "");
    sema_init_builtins(s);
    return s;
}

void sema_free(Sema *s)
{
    for (int i = 0; s && i < s->files.len; i++)
        diag_free_file(s->files.items[i]);
}

/* ---- consts ---- */

Val *sema_const_value(Ctx *c, Binding *b, Loc use)
{
    if (b->val)
        return b->val;
    if (b->failed)
        return NULL;
    if (b->evaluating) {
        diag_error(use, "const '%s' depends on itself", b->name);
        b->failed = true;
        return NULL;
    }
    if (!sema_enter_const(c, b->name, use))
        return NULL;
    b->evaluating = true;
    Ctx g;
    sema_global_ctx(c->sema, &g);
    AstNode *d = b->decl;
    Val *v = sema_expr_static(&g, d->b, "a const initializer");
    if (v && d->a) {
        const Type *t = sema_type_expr(&g, d->a);
        v = t ? sema_assign_convert(&g, v, t, d->b->loc) : NULL;
    }
    if (!v && !c->sema->deep_reported)
        diag_note(d->loc, "in the value of const '%s'", b->name);
    c->sema->const_depth--;
    b->evaluating = false;
    b->failed = v == NULL;
    b->val = v;
    return v;
}

/* ---- items ---- */

static const char *item_name(AstNode *item)
{
    switch (item->kind) {
    case AST_CONST: case AST_FN: case AST_KERNEL: case AST_PROGRAM:
        return item->name;
    default:
        return NULL;
    }
}

static BindingKind item_kind(AstNode *item)
{
    return item->kind == AST_CONST ? B_CONST : item->kind == AST_FN ? B_FN
         : item->kind == AST_KERNEL ? B_KERNEL : B_PROGRAM;
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    return strndup(path, (size_t)(slash - path));
}

static char *find_import(Sema *s, const SrcFile *from, const char *path)
{
    char buf[PATH_MAX];
    if (path[0] == '/')
        return realpath(path, NULL);
    char *dir = from ? dir_of(from->name) : strdup(".");
    snprintf(buf, sizeof buf, "%s/%s", dir, path);
    free(dir);
    char *r = realpath(buf, NULL);
    for (int i = 0; !r && i < s->opts->nincludes; i++) {
        snprintf(buf, sizeof buf, "%s/%s", s->opts->include_dirs[i], path);
        r = realpath(buf, NULL);
    }
    return r;
}

static bool already_imported(Sema *s, const char *real)
{
    for (int i = 0; i < s->imported.len; i++)
        if (strcmp(s->imported.items[i], real) == 0)
            return true;
    return false;
}

static bool import_file(Sema *s, AstNode *item)
{
    char *real = find_import(s, item->loc.file, item->text);
    if (!real) {
        diag_error(item->loc, "cannot find imported file \"%s\" (searched beside the importing file "
                   "and in the -I directories)", item->text);
        return false;
    }
    if (already_imported(s, real)) {
        free(real);
        return true;
    }
    ptrvec_push(s->arena, &s->imported, arena_strdup(s->arena, real));
    SrcFile *f = diag_load_file(real);
    free(real);
    if (!f && errno == EFBIG) {
        diag_error(item->loc, "cannot import \"%s\": the file is larger than %ld MiB, the most fxcc reads "
                   "(docs/limits.md)", item->text, DIAG_MAX_SOURCE_BYTES >> 20);
        return false;
    }
    if (!f) {
        diag_error(item->loc, "cannot read \"%s\": %s", item->text, strerror(errno));
        return false;
    }
    ptrvec_push(s->arena, &s->files, f);
    ptrvec_push(s->arena, &s->deps, (void *)f->name);
    AstNode *m = parse_file(s->arena, f);
    return m && sema_add_module(s, m);
}

bool sema_add_module(Sema *s, AstNode *module)
{
    bool ok = true;
    if (module->loc.file && module->loc.file->name) {
        char *real = realpath(module->loc.file->name, NULL);
        if (real && !already_imported(s, real))
            ptrvec_push(s->arena, &s->imported, arena_strdup(s->arena, real));
        free(real);
    }
    for (int i = 0; i < module->list.len; i++) {
        AstNode *item = module->list.items[i];
        if (item->kind == AST_IMPORT) {
            ok &= import_file(s, item);
            continue;
        }
        ptrvec_push(s->arena, &s->items, item);
        const char *name = item_name(item);
        if (!name)
            continue;
        Binding *prev = find_in(&s->globals, name);
        if (prev) {
            diag_error(item->loc, "duplicate definition of '%s'", name);
            diag_note(prev->decl->loc, "'%s' was first defined here", name);
            ok = false;
            continue;
        }
        Binding *b = add_binding(s->arena, &s->globals, name, item_kind(item), item);
        if (item->kind == AST_KERNEL)
            ptrvec_push(s->arena, &s->kernels, b);
    }
    return ok;
}

/* -D NAME=VALUE replaces the initializer of const NAME. */
static bool apply_defines(Sema *s)
{
    bool ok = true;
    for (int i = 0; i < s->opts->ndefines; i++) {
        const char *d = s->opts->defines[i];
        const char *eq = strchr(d, '=');
        char *name = eq ? arena_strndup(s->arena, d, (size_t)(eq - d)) : arena_strdup(s->arena, d);
        Binding *b = find_in(&s->globals, name);
        if (!b || b->kind != B_CONST) {
            diag_error((Loc){ 0 }, "-D %s: there is no const named '%s' to override", d, name);
            ok = false;
            continue;
        }
        SrcFile *f = diag_file_from_string("<command line>", eq ? eq + 1 : "True");
        ptrvec_push(s->arena, &s->files, f);
        AstNode *e = parse_expression(s->arena, f);
        if (!e) {
            ok = false;
            continue;
        }
        AstNode *copy = arena_alloc(s->arena, sizeof *copy);
        *copy = *b->decl;
        copy->b = e;
        b->decl = copy;
        b->val = NULL;
    }
    return ok;
}

static void check_static_assert(Ctx *c, AstNode *sa)
{
    Val *v = sema_expr(c, sa->a);
    if (!v)
        return;
    if (!v->is_static) {
        diag_error(sa->a->loc, "static_assert needs a static condition, but this is a run-time value");
        return;
    }
    if (!(v->type->kind == TY_SCALAR && v->type->scalar == SC_BOOLEAN)) {
        diag_error(sa->a->loc, "static_assert needs a Boolean condition, got %s", type_name(c->arena, v->type));
        return;
    }
    if (fold_truthy(v))
        return;
    if (sa->b && sa->b->kind == AST_STRING)
        diag_error(sa->loc, "static assertion failed: %s", sa->b->text);
    else
        diag_error(sa->loc, "static assertion failed");
}

void sema_check_static_assert(Ctx *c, AstNode *sa) { check_static_assert(c, sa); }

FxModule *sema_lower(Sema *s)
{
    int errors = diag_error_count();
    if (!s->defines_applied) {
        s->defines_applied = true;
        apply_defines(s);
    }
    Ctx g;
    sema_global_ctx(s, &g);
    for (int i = 0; i < s->items.len; i++) {
        AstNode *item = s->items.items[i];
        if (item->kind == AST_STATIC_ASSERT)
            check_static_assert(&g, item);
        else if (item->kind == AST_CONST)
            sema_const_value(&g, find_in(&s->globals, item->name), item->loc);
    }
    for (Binding *b = s->globals.first; b; b = b->next)
        if (b->kind == B_FN)
            sema_lower_fn(s, b);
    for (int i = 0; i < s->kernels.len; i++)
        sema_lower_kernel(s, s->kernels.items[i]);
    for (int i = 0; i < s->items.len; i++) {
        AstNode *item = s->items.items[i];
        if (item->kind == AST_PROGRAM)
            sema_lower_program(s, find_in(&s->globals, item->name));
    }
    return diag_error_count() == errors ? s->module : NULL;
}

/* Evaluate in a scratch function so that run-time values (vectors) can be
 * built; they just cannot be printed. */
static Val *eval_in_scratch(Sema *s, AstNode *expr)
{
    if (!s->defines_applied) {
        s->defines_applied = true;
        if (!apply_defines(s))
            return NULL;
    }
    Ctx c;
    sema_global_ctx(s, &c);
    return sema_expr(&c, expr);
}

Val *sema_eval(Sema *s, AstNode *expr)
{
    return eval_in_scratch(s, expr);
}

Val *sema_eval_static(Sema *s, AstNode *expr)
{
    Val *v = eval_in_scratch(s, expr);
    if (v && !v->is_static) {
        diag_error(expr->loc, "expected a static value, but this is a run-time value");
        return NULL;
    }
    return v;
}

int sema_dependency_count(Sema *s)
{
    return s->deps.len;
}

const char *sema_dependency(Sema *s, int i)
{
    return s->deps.items[i];
}

/* One divergent barrier (fxir_divergent_barriers), as -Wdivergent-barrier. */
static void warn_divergent_barrier(void *data, const FxInst *i, const FxInst *why)
{
    (void)data;
    const char *what = i->op == FX_BARRIER ? "fx.barrier()" : "this call reaches fx.barrier(), which";
    warn_at(WARN_DIVERGENT_BARRIER, i->loc, "%s may run in only some work-items of the block: the path to it "
            "depends on thread_idx, and a barrier that not all work-items reach hangs the block", what);
    if (warn_enabled(WARN_DIVERGENT_BARRIER) && why)
        diag_note(why->loc, "%s", why->op == FX_IF     ? "this condition depends on thread_idx"
                                : why->op == FX_LOOP ? "this loop's trip count depends on thread_idx"
                                : why->op == FX_RETURN || why->op == FX_BREAK || why->op == FX_CONTINUE
                                    ? "work-items may leave here, depending on thread_idx"
                                    : "the call's argument is this value, which depends on thread_idx, "
                                      "and so does the path to a barrier in the fn");
}

/* A lowered fn's FXIR does not change during sema, so one memo serves
 * every fn's analysis. */
void sema_warn_divergent_barriers(Sema *s, FxFunc *f)
{
    if (warn_enabled(WARN_DIVERGENT_BARRIER))
        fxir_divergent_barriers(s->arena, &s->divergence, f, warn_divergent_barrier, NULL);
}
