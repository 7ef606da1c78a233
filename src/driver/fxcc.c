/* fxcc.c - the compiler's command line: parse options, run the pipeline,
 * write the requested output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "driver/heap.h"
#include "driver/interface.h"
#include "driver/pipeline.h"
#include "abi/fxbundle.h"
#include "fx_config.h"
#include "passes/passes.h"
#include "abi/fxplan.h"
#include "sema/fold.h"

static int eval_expression(FxCompilation *c, const char *text)
{
    SrcFile *f = diag_file_from_string("<eval>", text);
    AstNode *e = parse_expression(c->arena, f);
    int rc = 1;
    Val *v = e ? sema_eval(c->sema, e) : NULL;
    if (v && !v->is_static) {
        diag_error(e->loc, "a run-time value cannot be printed%s",
                   v->type->kind == TY_VECTOR ? " (a vector is always a run-time value)" : "");
    } else if (v && (v->type->kind == TY_FUNC || v->type->kind == TY_MODULE || v->type->kind == TY_SPECIAL)) {
        diag_error(e->loc, "'%s' is not a value that can be printed", v->str ? v->str : "expression");
    } else if (v) {
        fold_print(stdout, v, true);
        putchar('\n');
        rc = 0;
    }
    diag_free_file(f);
    return rc;
}

static CgOutputKind output_kind(const FxOptions *o)
{
    if (o->emit_llvm)
        return o->opt_S ? CG_OUT_LL : CG_OUT_BC;
    if (o->opt_S)
        return CG_OUT_ASM;
    if (o->opt_c || o->host)
        return CG_OUT_OBJ;
    return CG_OUT_HSACO;
}

/* gcc's rule: the input's base name with the output's extension, in the
 * current directory. */
static const char *default_output(Arena *a, const char *input, CgOutputKind k)
{
    static const char *const ext[] = { ".ll", ".bc", ".s", ".o", ".hsaco" };
    if (strcmp(input, "-") == 0)
        input = "stdin";   /* fxcc - -c writes stdin.o */
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    const char *dot = strrchr(base, '.');
    size_t n = dot ? (size_t)(dot - base) : strlen(base);
    return arena_printf(a, "%.*s%s", (int)n, base, ext[k]);
}

/* Whether the output would overwrite the file `input` (a link to it too). */
static bool same_file(const char *output, const char *input)
{
    struct stat a, b;
    return strcmp(output, "-") != 0 && stat(output, &a) == 0 && stat(input, &b) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

/* -MF, or OUTPUT with its extension replaced by .d */
static const char *depfile_path(FxCompilation *c, const char *output)
{
    if (c->opts->mf)
        return c->opts->mf;
    const char *dot = strrchr(output, '.');
    size_t n = dot && !strchr(dot, '/') ? (size_t)(dot - output) : strlen(output);
    return arena_printf(c->arena, "%.*s.d", (int)n, output);
}

/* `path` (absolute) relative to the current directory, as "../lib/a.fx":
 * how a relative input names its neighbours. Arena-allocated. */
static const char *relative_to_cwd(Arena *a, const char *path)
{
    char cwd[4096];
    if (path[0] != '/' || !getcwd(cwd, sizeof cwd))
        return path;
    size_t common = 0;   /* the length of the shared leading directories */
    for (size_t i = 0; cwd[i] && cwd[i] == path[i]; i++)
        if (path[i + 1] == '/' || (!cwd[i + 1] && path[i + 1] == '/'))
            common = i + 1;
    if (!cwd[common] && path[common] == '/')
        return arena_strdup(a, path + common + 1);   /* under the current directory */
    if (common == 0)
        common = 1;
    const char *rel = arena_strdup(a, "");
    for (const char *p = cwd + common; *p; p++)
        if (*p == '/' || p == cwd + common)
            rel = arena_printf(a, "%s../", rel);
    return arena_printf(a, "%s%s", rel, path + common + (path[common] == '/'));
}

/* A file name as make reads it in a rule (ninja and CMake's DEPFILE read
 * the same), quoted as gcc quotes it: a blank gets a backslash, and the
 * backslashes right before it are doubled so that they stay backslashes;
 * '#' (a comment) gets a backslash; '$' (a variable) is written twice. */
static void print_dep_path(FILE *f, const char *path)
{
    for (const char *p = path; *p; p++) {
        if (*p == ' ' || *p == '\t') {
            for (const char *q = p; q > path && q[-1] == '\\'; q--)
                fputc('\\', f);
            fputc('\\', f);
        } else if (*p == '#') {
            fputc('\\', f);
        } else if (*p == '$') {
            fputc('$', f);
        }
        fputc(*p, f);
    }
}

/* "target: input imports..." as gcc writes it (standard input is no file to
 * depend on), and with -MP an empty rule per import, so that make does not
 * stop when an import is deleted. File names are quoted (print_dep_path);
 * a -MT target is written as given, as gcc does: it is make text already. */
static void print_dep_rule(FILE *f, FxCompilation *c, const char *output)
{
    const FxOptions *o = c->opts;
    if (o->mt)
        fputs(o->mt, f);
    else
        print_dep_path(f, output);
    fputc(':', f);
    if (strcmp(o->input, "-") != 0) {
        fputc(' ', f);
        print_dep_path(f, o->input);
    }
    /* imports are named as the input is: relative when it is relative */
    bool relative = o->input[0] != '/';
    int n = sema_dependency_count(c->sema);
    const char **deps = arena_alloc(c->arena, sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        deps[i] = sema_dependency(c->sema, i);
        deps[i] = relative ? relative_to_cwd(c->arena, deps[i]) : deps[i];
        fputs(" \\\n  ", f);
        print_dep_path(f, deps[i]);
    }
    fputc('\n', f);
    for (int i = 0; o->mp && i < n; i++) {
        fputc('\n', f);
        print_dep_path(f, deps[i]);
        fputs(":\n", f);
    }
}

/* -MD: the rule, to `path`. */
static bool write_depfile(FxCompilation *c, const char *output, const char *path)
{
    char *tmp = arena_printf(c->arena, "%s.tmp%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        diag_error((Loc){ 0 }, "cannot write dependency file '%s'", path);
        return false;
    }
    print_dep_rule(f, c, output);
    bool ok = fclose(f) == 0 && rename(tmp, path) == 0;
    if (!ok) {
        remove(tmp);
        diag_error((Loc){ 0 }, "cannot write dependency file '%s'", path);
    }
    return ok;
}

/* Writes the output — module m as `kind`, or the given bytes — and -MD's
 * file, that one first: when either write fails, neither is left. */
static int write_outputs(FxCompilation *c, CgOutputKind kind, CgModule *m, const void *bytes, size_t len)
{
    const FxOptions *o = c->opts;
    const char *out = o->output ? o->output : default_output(c->arena, o->input, kind);
    if (same_file(out, o->input)) {
        opt_usage_error("the output '%s' is the input file", out);
        return 2;
    }
    bool md = o->md && strcmp(out, "-") != 0;
    const char *dep = md ? depfile_path(c, out) : NULL;
    bool ok = !md || write_depfile(c, out, dep);
    ok = ok && (m ? cg_write(m, kind, out) : cg_write_bytes(out, bytes, len));
    if (!ok && md)
        remove(dep);
    return ok ? 0 : 1;
}

/* --save-temps: the compilation's intermediate forms beside the output,
 * named OUTPUT-without-extension + tag + .fxir/.ll/.s/.o (tag: "-gfx942" in
 * a bundle), the output's own kind left to the output. */
static bool save_temps(FxCompilation *c, CgModule *m, const char *out, const char *tag, CgOutputKind own)
{
    if (strcmp(out, "-") == 0)   /* the output goes to stdout: the temps beside the default name */
        out = default_output(c->arena, c->opts->input, own);
    const char *dot = strrchr(out, '.');
    int n = dot && !strchr(dot, '/') ? (int)(dot - out) : (int)strlen(out);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bool ok = f != NULL;
    if (f) {
        fxir_print_module(f, c->module);
        ok = fclose(f) == 0 && cg_write_bytes(arena_printf(c->arena, "%.*s%s.fxir", n, out, tag), text, len);
    }
    free(text);
    static const struct { CgOutputKind kind; const char *ext; } kinds[] = {
        { CG_OUT_LL, ".ll" }, { CG_OUT_ASM, ".s" }, { CG_OUT_OBJ, ".o" },
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && ok; k++)
        if (kinds[k].kind != own)
            ok = cg_write(m, kinds[k].kind, arena_printf(c->arena, "%.*s%s%s", n, out, tag, kinds[k].ext));
    return ok;
}

/* -M: the rule alone, to -MF or standard output; nothing is compiled. */
static int dependencies_only(FxCompilation *c)
{
    const FxOptions *o = c->opts;
    const char *out = o->output ? o->output : default_output(c->arena, o->input, output_kind(o));
    if (o->mf)
        return write_depfile(c, out, o->mf) ? 0 : 1;
    print_dep_rule(stdout, c, out);
    return 0;
}

/* The input "-": all of standard input, read once (a bundle compiles it once
 * per processor). */
static bool read_stdin(Arena *a, FxOptions *o)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t r; buf && (r = fread(buf + n, 1, cap - n, stdin)) > 0;) {
        n += r;
        if (n == cap) {
            char *nb = cap < ((size_t)1 << 30) ? realloc(buf, 2 * cap + 1) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    if (!buf || ferror(stdin)) {
        fprintf(stderr, "fxcc: error: cannot read standard input%s\n", buf ? "" : ": larger than 1 GiB");
        free(buf);
        return false;
    }
    buf[n] = 0;
    o->stdin_text = arena_strndup(a, buf, n);
    free(buf);
    return true;
}

static int compile(FxCompilation *c)
{
    const FxOptions *o = c->opts;
    if (!pipe_lower(c))
        return 1;
    if (o->print_plan) {
        for (int i = 0; i < c->module->plans.len; i++)
            fxplan_print(stdout, c->module->plans.items[i]);
        if (c->module->plans.len == 0)
            fprintf(stderr, "fxcc: note: '%s' has no program, so no launch plan\n", o->input);
        return 0;
    }
    if (o->print_interface) {
        iface_print(stdout, c->arena, c->module);
        return 0;
    }
    if (o->print_after)
        return 0;
    CgModule *m = pipe_codegen(c);
    if (!m)
        return 1;
    CgOutputKind kind = output_kind(o);
    if (kind == CG_OUT_HSACO && o->host) {
        cg_free(m);
        opt_usage_error("a linked .hsaco needs the AMDGPU target; use -c, -S or --emit-llvm with --target=host");
        return 2;
    }
    int rc = 0;
    if (o->save_temps && !save_temps(c, m, o->output ? o->output : default_output(c->arena, o->input, kind), "", kind))
        rc = 1;
    rc = rc ? rc : write_outputs(c, kind, m, NULL, 0);
    cg_free(m);
    return rc;
}

/* Several --offload-arch: the whole pipeline once per processor (each has
 * its own wave size, LDS and matrix instructions), then one offload bundle
 * of the linked code objects. The first compilation names the -MD file's
 * dependencies (every processor reads the same files). */
static int compile_bundle(FxOptions *o)
{
    int n = o->archs.len, rc = 0;
    FxBundleEntry *entries = calloc((size_t)n, sizeof *entries);
    char **objects = calloc((size_t)n, sizeof *objects);
    FxOptions *each = calloc((size_t)n, sizeof *each);
    FxCompilation *first = calloc(1, sizeof *first);
    for (int i = 0; i < n && rc == 0; i++) {
        each[i] = *o;
        opt_select_arch(&each[i], o->archs.items[i]);
        FxCompilation own, *c = i == 0 ? first : &own;
        pipe_init(c, &each[i]);
        CgModule *m = pipe_parse(c) && pipe_lower(c) ? pipe_codegen(c) : NULL;
        const char *out = o->output ? o->output : default_output(c->arena, o->input, CG_OUT_HSACO);
        const char *tag = arena_printf(c->arena, "-%s", (const char *)o->archs.items[i]);
        bool temps = !m || !o->save_temps || save_temps(c, m, out, tag, CG_OUT_HSACO);
        objects[i] = m && temps ? cg_hsaco(m, &entries[i].size) : NULL;
        cg_free(m);
        entries[i].id = arena_printf(first->arena, FXBUNDLE_HIP_PREFIX "%s", each[i].target_id.canonical);
        entries[i].data = objects[i];
        rc = objects[i] ? 0 : 1;
        if (i > 0)
            pipe_free(c);
    }
    size_t len = 0;
    unsigned char *bundle = rc == 0 ? fxbundle_write(entries, n, &len) : NULL;
    if (rc == 0 && !bundle) {
        diag_error((Loc){ 0 }, "out of memory writing the offload bundle");
        rc = 1;
    }
    if (rc == 0)
        rc = write_outputs(first, CG_OUT_HSACO, NULL, bundle, len);
    free(bundle);
    for (int i = 0; i < n; i++)
        free(objects[i]);
    pipe_free(first);
    free(first);
    free(each);
    free(objects);
    free(entries);
    return rc;
}

/* Runs before LLVM's static constructors (priority 101 comes first), so
 * that all of the compilation's heap can be on huge pages (heap.c). */
__attribute__((constructor(101))) static void heap_on_huge_pages(void)
{
    heap_prefer_huge_pages();
}

int main(int argc, char **argv)
{
    cg_install_fatal_handler();
    Arena *args = arena_new();
    FxOptions o;
    opt_defaults(&o);
    int rc = 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            opt_print_help("fxcc");
            rc = 0;
            goto done;
        }
        if (!strcmp(a, "--version")) {
            printf("fxcc %s (LLVM 19 AMDGPU backend)\n", FX_VERSION);
            rc = 0;
            goto done;
        }
        int r = opt_parse_one(args, &o, argc, argv, &i);
        if (r < 0)
            goto done;
        if (r > 0)
            continue;
        if (a[0] == '-' && a[1]) {
            opt_usage_error("unknown option '%s'", a);
            goto done;
        }
        if (o.input) {
            opt_usage_error("more than one input file: '%s' and '%s'", o.input, a);
            goto done;
        }
        o.input = a;
    }
    if (!o.input && !o.eval) {
        opt_usage_error("no input file");
        goto done;
    }
    if (!opt_finish(&o))
        goto done;
    if (o.print_after && !pass_name_known(o.print_after)) {
        opt_usage_error("--print-after: unknown pass '%s'; the passes are: %s", o.print_after, pass_names());
        goto done;
    }
    if (o.input && !strcmp(o.input, "-") && !read_stdin(args, &o)) {
        rc = 1;
        goto done;
    }
    if (o.archs.len > 1 && !o.eval && !o.emit_ast && !o.deps_only) {
        rc = compile_bundle(&o);
        goto done;
    }
    FxCompilation c;
    pipe_init(&c, &o);
    if (!pipe_parse(&c))
        rc = 1;
    else if (o.emit_ast) {
        ast_dump(stdout, c.ast);
        rc = 0;
    } else if (o.eval)
        rc = eval_expression(&c, o.eval);
    else if (o.deps_only)
        rc = dependencies_only(&c);
    else
        rc = compile(&c);
    pipe_free(&c);
done:
    arena_free(args);
    rc = opt_finish_stdout("fxcc", rc);
    return rc;
}
