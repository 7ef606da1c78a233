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
 * an unrolled static_range body would otherwise appear once per iteration.
 * The set keeps each report's whole text, so two different messages are
 * never taken for one (a hash alone could collide). */
typedef struct Seen {
    char **keys;        /* "severity file:line:col message", malloc'd; NULL: empty slot */
    size_t cap, len;
} Seen;
static Seen seen;

static size_t key_hash(const char *k)
{
    size_t h = 5381;
    for (; *k; k++)
        h = h * 33 + (unsigned char)*k;
    return h;
}

static void seen_grow(void)
{
    size_t ncap = seen.cap ? seen.cap * 2 : 256;
    char **nk = calloc(ncap, sizeof *nk);
    if (!nk)
        abort();
    for (size_t i = 0; i < seen.cap; i++) {
        if (!seen.keys[i])
            continue;
        size_t h = key_hash(seen.keys[i]) & (ncap - 1);
        while (nk[h])
            h = (h + 1) & (ncap - 1);
        nk[h] = seen.keys[i];
    }
    free(seen.keys);
    seen.keys = nk;
    seen.cap = ncap;
}

static bool already_reported(const Loc *loc, const char *severity, const char *msg)
{
    char *key = NULL;
    if (asprintf(&key, "%s %p:%d:%d %s", severity, (const void *)loc->file, loc->line, loc->col, msg) < 0)
        abort();
    if ((seen.len + 1) * 2 > seen.cap)
        seen_grow();
    size_t h = key_hash(key) & (seen.cap - 1);
    for (; seen.keys[h]; h = (h + 1) & (seen.cap - 1))
        if (strcmp(seen.keys[h], key) == 0) {
            free(key);
            return true;
        }
    seen.keys[h] = key;
    seen.len++;
    return false;
}

void diag_reset(void)
{
    g.errors = 0;
    for (size_t i = 0; i < seen.cap; i++)
        free(seen.keys[i]);
    free(seen.keys);
    seen = (Seen){ 0 };
}
void diag_set_stream(FILE *out)
{
    diag_flush();
    g.out = out;
}
void diag_set_format(DiagFormat f)
{
    diag_flush();
    g.format = f;
}
void diag_set_werror(bool on) { g.werror = on; }
void diag_set_no_warnings(bool on) { g.no_warnings = on; }
bool diag_warnings_are_errors(void) { return g.werror; }
bool diag_warnings_suppressed(void) { return g.no_warnings; }
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

/* JSON: one object per line for each error, warning or remark, its notes
 * nested ("notes": [...]); a diagnostic without a place has no "file",
 * "line" or "column" (a driver error is about no file). The last object
 * waits for its notes until the next diagnostic or diag_flush(). */
static struct {
    char *text;
    size_t len;
    FILE *f;
    int nnotes;
} pending;

static void json_object(FILE *o, const char *severity, const Loc *loc, const char *msg)
{
    fputs("{\"severity\":", o);
    json_string(o, severity);
    if (loc->file && loc->line > 0) {
        fputs(",\"file\":", o);
        json_string(o, loc->file->name);
        fprintf(o, ",\"line\":%d,\"column\":%d", loc->line, loc->col);
        if (loc->end_line > 0)
            fprintf(o, ",\"end_line\":%d,\"end_column\":%d", loc->end_line, loc->end_col);
    }
    fputs(",\"message\":", o);
    json_string(o, msg);
}

void diag_flush(void)
{
    if (!pending.f)
        return;
    fputs(pending.nnotes ? "]}\n" : "}\n", pending.f);
    fclose(pending.f);
    fwrite(pending.text, 1, pending.len, stream());
    fflush(stream());
    free(pending.text);
    pending.f = NULL;
    pending.text = NULL;
}

static void json_report(const char *severity, const Loc *loc, const char *msg)
{
    bool note = strcmp(severity, "note") == 0;
    if (note && pending.f) {
        fputs(pending.nnotes++ ? "," : ",\"notes\":[", pending.f);
        json_object(pending.f, severity, loc, msg);
        fputc('}', pending.f);
        return;
    }
    diag_flush();
    pending.f = open_memstream(&pending.text, &pending.len);
    pending.nnotes = 0;
    if (!pending.f)
        abort();
    json_object(pending.f, severity, loc, msg);
    if (note)   /* a note with nothing before it stands alone */
        diag_flush();
}

void diag_vreport(const char *severity, Loc loc, const char *fmt, va_list ap)
{
    char msg[2048];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (g.dedupe && loc.file && loc.line > 0 && already_reported(&loc, severity, msg))
        return;
    FILE *o = stream();
    if (g.format == DIAG_JSON) {
        json_report(severity, &loc, msg);
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

static void report(const char *severity, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(severity, loc, fmt, ap);
    va_end(ap);
}

void diag_report_warning(Loc loc, bool as_error, const char *msg)
{
    if (g.no_warnings)
        return;
    if (as_error)
        g.errors++;
    report(as_error ? "error" : "warning", loc, "%s", msg);
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
        if (n > (size_t)DIAG_MAX_SOURCE_BYTES) {   /* one byte over is enough to know */
            fclose(fp);
            free(buf);
            errno = EFBIG;
            return NULL;
        }
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
