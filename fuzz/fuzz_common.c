/* fuzz_common.c - compiling fuzz input in-process (see fuzz_common.h). */
#include "fuzz_common.h"
#include <llvm-c/Analysis.h>
#include <stdlib.h>
#include <string.h>
#include "fxir/verify.h"

void fz_init(void)
{
    static bool done;
    if (!done)
        cg_install_fatal_handler();
    done = true;
}

static void set_options(FzCompile *z, bool host, const char *arch, int opt_level, bool fibers)
{
    memset(z, 0, sizeof *z);
    FxOptions *o = &z->opts;
    opt_defaults(o);
    o->input = "fuzz.fx";
    o->host = host;
    if (arch) {
        o->arch = arch;
        o->arch_given = true;
    }
    o->opt_level = opt_level;
    o->fp_contract = false;
    o->verify_each = true;
    o->host_fibers = fibers;
    if (!opt_finish(o))
        abort(); /* the harness names a processor that does not exist */
}

void fz_options(FzCompile *z, const char *arch, int opt_level)
{
    set_options(z, arch == NULL, arch, opt_level, false);
}

void fz_host_options(FzCompile *z, const char *waves_of, int opt_level, bool fibers)
{
    set_options(z, true, waves_of, opt_level, fibers);
}

/* The bytes as a source file, the way diag_load_file reads one: the whole
 * contents plus a terminating NUL. */
static SrcFile *file_from_bytes(const uint8_t *data, size_t size)
{
    SrcFile *f = calloc(1, sizeof *f);
    char *text = malloc(size + 1);
    char *name = strdup("fuzz.fx");
    if (!f || !text || !name)
        abort();
    memcpy(text, data, size);
    text[size] = 0;
    f->name = name;
    f->text = text;
    f->len = (long)size;
    return f;
}

/* An import of a device or a kernel file (`import "/dev/zero"`) reads
 * forever: a known limit (docs/limits.md), not something to rediscover on
 * every campaign. */
static bool names_special_file(const uint8_t *data, size_t size)
{
    static const char *const prefixes[] = { "/dev/", "/proc/", "/sys/" };
    for (size_t p = 0; p < sizeof prefixes / sizeof *prefixes; p++)
        if (memmem(data, size, prefixes[p], strlen(prefixes[p])))
            return true;
    return false;
}

AstNode *fz_parse_only(FzCompile *z, const uint8_t *data, size_t size)
{
    pipe_init(&z->c, &z->opts);
    z->diag_out = open_memstream(&z->diag, &z->diag_len);
    if (!z->diag_out)
        abort();
    diag_set_stream(z->diag_out);
    if (names_special_file(data, size))
        return NULL;
    FxCompilation *c = &z->c;
    c->file = file_from_bytes(data, size);
    c->ast = parse_file(c->arena, c->file);
    return c->ast;
}

bool fz_parse(FzCompile *z, const uint8_t *data, size_t size)
{
    FxCompilation *c = &z->c;
    if (!fz_parse_only(z, data, size))
        return false;
    return sema_add_module(c->sema, c->ast) && diag_error_count() == 0;
}

bool fz_lower(FzCompile *z)
{
    /* --verify-each: the verifier runs after every pass; a failure is
     * diagnosed as an internal compiler error (fz_check_diag) */
    bool ok = pipe_lower(&z->c);
    if (!ok && diag_error_count() == 0 && z->c.module)
        fz_finding(z, "the passes failed without an error");
    fz_check_diag(z);
    return ok;
}

void fz_finding(const FzCompile *z, const char *what)
{
    if (z->diag_out)
        fflush(z->diag_out);
    diag_set_stream(NULL);
    fprintf(stderr, "fuzz: FINDING: %s\n", what);
    if (z->diag && z->diag_len)
        fprintf(stderr, "fuzz: the diagnostics:\n%.*s\n", (int)(z->diag_len > 8000 ? 8000 : z->diag_len), z->diag);
    abort();
}

/* The message of a diagnostic line ("FILE:L:C: error: MSG", "fxcc: error:
 * MSG"), or NULL for the source excerpt and caret lines below one (they
 * start with two spaces and quote the input, which may say anything). */
static const char *message_of(const char *line, const char *eol)
{
    static const char *const severities[] = { ": error: ", ": warning: ", ": note: ", ": remark: " };
    if (line[0] == ' ')
        return NULL;
    for (size_t i = 0; i < sizeof severities / sizeof *severities; i++) {
        const char *m = memmem(line, (size_t)(eol - line), severities[i], strlen(severities[i]));
        if (m)
            return m + strlen(severities[i]);
    }
    return NULL;
}

/* A -D that names no const is an error about the command line, which has
 * no file:line:col (fuzz_options draws -D options). */
static bool about_command_line(const char *msg)
{
    return strncmp(msg, "-D ", 3) == 0;
}

/* --diagnostics-format=json (fuzz_options): one object per line, notes
 * nested. The input cannot forge the keys: json_string escapes every '"'
 * it copies. An object with no "file" has its "message" right after its
 * "severity". */
static void check_json_line(const FzCompile *z, const char *line, const char *eol)
{
    static const char key[] = "\"message\":\"";
    for (const char *p = line; (p = memmem(p, (size_t)(eol - p), key, sizeof key - 1)); p++) {
        const char *msg = p + sizeof key - 1;
        if (strncmp(msg, "internal compiler error", 23) == 0)
            fz_finding(z, "an internal compiler error");
        if (p[-1] == ',' && p[-2] == '"' && !about_command_line(msg)) {
            const char *sev = p - 2;   /* the closing quote of the value before: a severity? */
            while (sev > line && sev[-1] != '"')
                sev--;
            if (sev - line >= 12 && strncmp(sev - 12, "\"severity\":\"", 12) == 0)
                fz_finding(z, "a diagnostic without a location");
        }
    }
}

void fz_check_diag(FzCompile *z)
{
    if (!z->diag_out)
        return;
    diag_flush();   /* JSON holds its last object back for notes */
    fflush(z->diag_out);
    for (const char *line = z->diag; line && *line;) {
        const char *eol = strchr(line, '\n');
        if (!eol)
            eol = line + strlen(line);
        const char *msg = message_of(line, eol);
        if (strncmp(line, "{\"severity\":", 12) == 0)
            check_json_line(z, line, eol);
        else if (msg && strncmp(msg, "internal compiler error", 23) == 0)
            fz_finding(z, "an internal compiler error");
        else if (msg && strncmp(line, "fxcc: ", 6) == 0 && !about_command_line(msg))
            fz_finding(z, "a diagnostic without a location");
        line = *eol ? eol + 1 : eol;
    }
}

void fz_check_llvm(FzCompile *z, CgModule *m, const char *target)
{
    char *msg = NULL;
    if (LLVMVerifyModule(cg_llvm_module(m), LLVMReturnStatusAction, &msg)) {
        fprintf(stderr, "fuzz: the LLVM verifier after optimization (%s):\n%s\n", target, msg);
        fz_finding(z, "LLVM IR that does not verify after optimization");
    }
    LLVMDisposeMessage(msg);
}

void fz_finish(FzCompile *z)
{
    fz_check_diag(z);
    diag_set_stream(NULL);
    if (z->diag_out)
        fclose(z->diag_out);
    free(z->diag);
    pipe_free(&z->c);
    memset(z, 0, sizeof *z);
}

void fz_each_target(void (*run)(const char *arch, const uint8_t *data, size_t size), const uint8_t *data,
                    size_t size)
{
    static const char *const targets[] = { NULL, "gfx942", "gfx1100" };
    for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++)
        run(targets[k], data, size);
}
