/* diag.c - prints "file:line:col: error: msg", the source line and a caret. */
#include "support/diag.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct {
    FILE *out;
    DiagFormat format;
    bool werror, no_warnings, dedupe;
    int errors;
} g = { NULL, DIAG_TEXT, false, false, false, 0 };

/* Exact repeats (same place, same message) are printed once: an error inside
 * an unrolled static_range body would otherwise appear once per iteration. */
enum { SEEN_MAX = 4096 };
static unsigned long seen[SEEN_MAX];
static int nseen;

static unsigned long diag_hash(const Loc *loc, const char *severity, const char *msg)
{
    unsigned long h = 5381;
    for (const char *p = msg; *p; p++)
        h = h * 33 + (unsigned char)*p;
    for (const char *p = severity; *p; p++)
        h = h * 33 + (unsigned char)*p;
    return h ^ ((unsigned long)(uintptr_t)loc->file * 31 + (unsigned long)loc->line * 131071 + (unsigned long)loc->col);
}

static bool already_reported(const Loc *loc, const char *severity, const char *msg)
{
    unsigned long h = diag_hash(loc, severity, msg);
    for (int i = 0; i < nseen; i++)
        if (seen[i] == h)
            return true;
    if (nseen < SEEN_MAX)
        seen[nseen++] = h;
    return false;
}

void diag_reset(void)
{
    g.errors = 0;
    nseen = 0;
}
void diag_set_stream(FILE *out) { g.out = out; }
void diag_set_format(DiagFormat f) { g.format = f; }
void diag_set_werror(bool on) { g.werror = on; }
void diag_set_no_warnings(bool on) { g.no_warnings = on; }
void diag_set_dedupe(bool on) { g.dedupe = on; }
int diag_error_count(void) { return g.errors; }

static FILE *stream(void) { return g.out ? g.out : stderr; }

/* Start of the 1-based line `line` in f, or NULL. */
static const char *line_start(const SrcFile *f, int line)
{
    const char *p = f->text;
    for (int l = 1; l < line; l++) {
        p = strchr(p, '\n');
        if (!p)
            return NULL;
        p++;
    }
    return p;
}

static void print_caret(const Loc *loc)
{
    const char *p = line_start(loc->file, loc->line);
    if (!p)
        return;
    const char *e = strchr(p, '\n');
    int n = e ? (int)(e - p) : (int)strlen(p);
    FILE *o = stream();
    fprintf(o, "  %.*s\n  ", n, p);
    for (int i = 1; i < loc->col && i <= n; i++)
        fputc(p[i - 1] == '\t' ? '\t' : ' ', o);
    fputc('^', o);
    /* Underline the rest of a single-line range with '~'. */
    if (loc->end_line == loc->line && loc->end_col > loc->col)
        for (int i = loc->col + 1; i <= loc->end_col && i <= n; i++)
            fputc('~', o);
    fputc('\n', o);
}

static void json_string(FILE *o, const char *s)
{
    fputc('"', o);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(o, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(o, "\\u%04x", *s);
        else
            fputc(*s, o);
    }
    fputc('"', o);
}

void diag_vreport(const char *severity, Loc loc, const char *fmt, va_list ap)
{
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (g.dedupe && loc.file && loc.line > 0 && already_reported(&loc, severity, msg))
        return;
    FILE *o = stream();
    if (g.format == DIAG_JSON) {
        fputs("{\"severity\":", o);
        json_string(o, severity);
        fputs(",\"file\":", o);
        json_string(o, loc.file ? loc.file->name : "");
        fprintf(o, ",\"line\":%d,\"column\":%d,\"message\":", loc.line, loc.col);
        json_string(o, msg);
        fputs("}\n", o);
        return;
    }
    if (loc.file && loc.line > 0)
        fprintf(o, "%s:%d:%d: %s: %s\n", loc.file->name, loc.line, loc.col, severity, msg);
    else
        fprintf(o, "fxcc: %s: %s\n", severity, msg);
    if (loc.file && loc.line > 0)
        print_caret(&loc);
}

void diag_error(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g.errors++;
    diag_vreport("error", loc, fmt, ap);
    va_end(ap);
}

void diag_warning(Loc loc, const char *fmt, ...)
{
    if (g.no_warnings)
        return;
    va_list ap;
    va_start(ap, fmt);
    if (g.werror)
        g.errors++;
    diag_vreport(g.werror ? "error" : "warning", loc, fmt, ap);
    va_end(ap);
}

void diag_note(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport("note", loc, fmt, ap);
    va_end(ap);
}

void diag_remark(Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport("remark", loc, fmt, ap);
    va_end(ap);
}

SrcFile *diag_file_from_string(const char *name, const char *text)
{
    SrcFile *f = calloc(1, sizeof *f);
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    if (!f || !copy) {
        free(f);
        free(copy);
        return NULL;
    }
    memcpy(copy, text, n + 1);
    f->name = strdup(name);
    f->text = copy;
    f->len = (long)n;
    return f;
}

SrcFile *diag_load_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, fp)) > 0;) {
        n += got;
        if (cap - n - 1 == 0) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    int err = ferror(fp);
    fclose(fp);
    if (!buf || err) {
        free(buf);
        errno = err ? EIO : ENOMEM;
        return NULL;
    }
    buf[n] = 0;
    SrcFile *f = calloc(1, sizeof *f);
    f->name = strdup(path);
    f->text = buf;
    f->len = (long)n;
    return f;
}

void diag_free_file(SrcFile *f)
{
    if (!f)
        return;
    free((char *)f->name);
    free((char *)f->text);
    free(f);
}

Loc loc_span(Loc a, Loc b)
{
    Loc r = a;
    r.end_line = b.end_line;
    r.end_col = b.end_col;
    return r;
}
