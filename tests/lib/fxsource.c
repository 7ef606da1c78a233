/* fxsource.c - compiling .fx source text in a suite (fxsource.h). */
#include "fxsource.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "codegen/codegen.h"
#include "fxir/verify.h"

static void write_source(char *path, size_t n, const char *src)
{
    static int serial;
    snprintf(path, n, "/tmp/fxcc-test-%d-%d.fx", (int)getpid(), serial++);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(src, f);
        fclose(f);
    }
}

bool fxs_lower(FxsModule *m, const char *src, const char *arch, bool host)
{
    return fxs_lower_tuned(m, src, arch, host, NULL);
}

bool fxs_lower_tuned(FxsModule *m, const char *src, const char *arch, bool host, void (*tune)(FxOptions *o))
{
    memset(m, 0, sizeof *m);
    write_source(m->path, sizeof m->path, src);
    opt_defaults(&m->o);
    m->o.input = m->path;
    m->o.host = host;
    m->o.arch = arch ? arch : "gfx942";
    m->o.arch_given = arch != NULL;
    m->o.verify_each = true;
    if (tune)
        tune(&m->o);
    if (!opt_finish(&m->o)) {
        remove(m->path);
        return false;
    }
    pipe_init(&m->c, &m->o);
    m->inited = true;
    bool ok = pipe_parse(&m->c) && pipe_lower(&m->c);
    remove(m->path);
    return ok;
}

bool fxs_open(FxsModule *m, const char *src)
{
    return fxs_open_tuned(m, src, NULL);
}

bool fxs_open_tuned(FxsModule *m, const char *src, void (*tune)(FxOptions *o))
{
    return fxs_open_as(m, src, NULL, tune);
}

bool fxs_open_as(FxsModule *m, const char *src, const char *arch, void (*tune)(FxOptions *o))
{
    if (!fxs_lower_tuned(m, src, arch, true, tune))
        return false;
    char *err = NULL;
    m->hm = pipe_jit(&m->c, &err);
    if (!m->hm && err)
        fprintf(stderr, "\n  jit: %s", err);
    free(err);
    return m->hm != NULL;
}

char *fxs_assembly(FxsModule *m, const char *src, const char *arch)
{
    if (!fxs_lower(m, src, arch, false))
        return NULL;
    CgModule *cg = pipe_codegen(&m->c);
    char *s = cg ? cg_assembly(cg) : NULL;
    cg_free(cg);
    return s;
}

bool fxs_launch(FxsModule *m, const char *k, unsigned grid, unsigned block, void **args, const size_t *bytes)
{
    const unsigned g[3] = { grid, 1, 1 }, b[3] = { block, 1, 1 };
    char *err = NULL;
    int rc = rt_host_launch_checked(m->hm, k, g, b, args, bytes, &err);
    if (rc != 0)
        fprintf(stderr, "\n  launch of %s: %s", k, err ? err : "(no message)");
    free(err);
    return rc == 0;
}

void fxs_close(FxsModule *m)
{
    rt_host_free(m->hm);
    m->hm = NULL;
    if (m->inited)
        pipe_free(&m->c);
    m->inited = false;
}

char *fxs_fxir_text(FxModule *fm)
{
    char *text = NULL;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    fxir_print_module(f, fm);
    fclose(f);
    return text;
}

bool fxs_fxir_round_trips(const char *text)
{
    Arena *a = arena_new();
    SrcFile sf = { .name = "roundtrip.fxir", .text = text, .len = (long)strlen(text) };
    FxModule *back = fxir_read(a, &sf);
    bool ok = back && fxir_verify(back);
    if (ok) {
        char *again = fxs_fxir_text(back);
        ok = strcmp(again, text) == 0;
        if (!ok)
            fprintf(stderr, "\n  FXIR printed differently after reading it back:\n%s\n  was:\n%s", again, text);
        free(again);
    }
    arena_free(a);
    return ok;
}

