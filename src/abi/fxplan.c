/* fxplan.c - printing and parsing the launch-plan text form (fxplan.h). */
#include "abi/fxplan.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- printing ---- */

static void print_extent(FILE *out, const FxPlanExtent *e)
{
    if (e->div != 1)
        fputs("ceildiv(", out);
    for (int i = 0; i < e->nfactors; i++) {
        if (i)
            fputc('*', out);
        if (e->names[i])
            fputs(e->names[i], out);
        else
            fprintf(out, "%lld", (long long)e->values[i]);
    }
    if (e->nfactors == 0)
        fputc('1', out);
    if (e->div != 1)
        fprintf(out, ", %lld)", (long long)e->div);
}

void fxplan_print(FILE *out, const FxPlan *p)
{
    fprintf(out, "plan %s\n", p->program);
    fputs("  args:", out);
    for (int i = 0; i < p->nargs; i++)
        fprintf(out, " %s", p->args[i]);
    fputc('\n', out);
    for (int i = 0; i < p->ntransients; i++) {
        const FxPlanBuffer *t = &p->transients[i];
        fprintf(out, "  transient %s %s %d ", t->name, t->elem, t->elem_bytes);
        print_extent(out, &t->count);
        fputc('\n', out);
    }
    for (int i = 0; i < p->nsteps; i++) {
        const FxPlanStep *s = &p->steps[i];
        fprintf(out, "  launch %s grid(", s->kernel);
        for (int d = 0; d < 3; d++) {
            if (d)
                fputs(", ", out);
            print_extent(out, &s->grid[d]);
        }
        fprintf(out, ") block(%u, %u, %u)", s->block[0], s->block[1], s->block[2]);
        for (int a = 0; a < s->nbind; a++)
            fprintf(out, "%s%s", a ? " " : " args(", p->args[s->bind[a]]);
        if (s->nbind)
            fputc(')', out);
        if (s->when)
            fprintf(out, " when %s %s 0", s->when, s->when_nonzero ? "!=" : "==");
        if (s->note)
            fprintf(out, " note \"%s\"", s->note);
        fputc('\n', out);
    }
}

char *fxplan_to_text(const FxPlan *p)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return NULL;
    fxplan_print(f, p);
    fclose(f);
    return buf;
}

/* ---- parsing ---- */

/* Every allocation of a parsed plan, freed together. */
typedef struct Block {
    struct Block *next;
    max_align_t data[];
} Block;

static void *alloc(FxPlan *p, size_t n)
{
    Block *b = calloc(1, sizeof *b + n);
    if (!b)
        abort();
    b->next = p->owned;
    p->owned = b;
    return b->data;
}

static char *dup_n(FxPlan *p, const char *s, size_t n)
{
    char *d = alloc(p, n + 1);
    memcpy(d, s, n);
    return d;
}

static void *grow(FxPlan *p, void *old, int n, size_t size)
{
    void *v = alloc(p, size * (size_t)(n + 1));
    if (old)
        memcpy(v, old, size * (size_t)n);
    return v;
}

static bool is_name_char(char c)
{
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* "ceildiv(M*N, 256)" or "M*N" or "1" */
static bool parse_extent(FxPlan *p, const char **pp, FxPlanExtent *e)
{
    const char *s = *pp;
    memset(e, 0, sizeof *e);
    e->div = 1;
    bool ceil = strncmp(s, "ceildiv(", 8) == 0;
    if (ceil)
        s += 8;
    for (;;) {
        if (e->nfactors == FXPLAN_MAX_FACTORS)
            return false;
        if (*s >= '0' && *s <= '9') {
            e->values[e->nfactors++] = strtoll(s, (char **)&s, 10);
        } else {
            const char *start = s;
            while (is_name_char(*s))
                s++;
            if (s == start)
                return false;
            e->names[e->nfactors++] = dup_n(p, start, (size_t)(s - start));
        }
        if (*s != '*')
            break;
        s++;
    }
    if (ceil) {
        if (strncmp(s, ", ", 2) != 0)
            return false;
        s += 2;
        e->div = strtoll(s, (char **)&s, 10);
        if (*s++ != ')' || e->div <= 0)
            return false;
    }
    *pp = s;
    return true;
}

static bool parse_args(FxPlan *p, const char *s)
{
    while (*s) {
        while (*s == ' ')
            s++;
        const char *e = s;
        while (*e && *e != ' ')
            e++;
        if (e > s) {
            p->args = grow(p, p->args, p->nargs, sizeof(char *));
            p->args[p->nargs++] = dup_n(p, s, (size_t)(e - s));
        }
        s = e;
    }
    return true;
}

/* The next space-delimited word of *pp, copied (names have no length limit:
 * a program's kernels are named after it); NULL when there is none. */
static char *take_word(FxPlan *p, const char **pp)
{
    const char *s = *pp, *e = s;
    while (*e && *e != ' ')
        e++;
    if (e == s)
        return NULL;
    *pp = *e ? e + 1 : e;
    return dup_n(p, s, (size_t)(e - s));
}

/* transient NAME TYPE BYTES EXTENT */
static bool parse_transient(FxPlan *p, const char *line)
{
    const char *s = line + strlen("transient ");
    char *name = take_word(p, &s), *type = take_word(p, &s), *end;
    if (!name || !type)
        return false;
    long bytes = strtol(s, &end, 10);
    if (end == s || *end != ' ' || bytes <= 0 || bytes > 4096)
        return false;
    s = end + 1;
    p->transients = grow(p, p->transients, p->ntransients, sizeof(FxPlanBuffer));
    FxPlanBuffer *t = &p->transients[p->ntransients++];
    t->name = name;
    t->elem = type;
    t->elem_bytes = (int)bytes;
    return parse_extent(p, &s, &t->count) && !*s;
}

/* [ when NAME ==|!= 0][ note "TEXT"] */
static bool parse_condition(FxPlan *p, FxPlanStep *st, const char *s)
{
    if (!strncmp(s, " when ", 6)) {
        s += 6;
        const char *start = s;
        while (is_name_char(*s))
            s++;
        if (s == start)
            return false;
        st->when = dup_n(p, start, (size_t)(s - start));
        if (!strncmp(s, " != 0", 5))
            st->when_nonzero = 1;
        else if (strncmp(s, " == 0", 5))
            return false;
        s += 5;
    }
    if (!strncmp(s, " note \"", 7)) {
        const char *start = s + 7, *end = strchr(start, '"');
        if (!end)
            return false;
        st->note = dup_n(p, start, (size_t)(end - start));
        s = end + 1;
    }
    return !*s;
}

/* The index of the argument spelt s[0..n) in the plan's args, or -1. */
static int arg_index(const FxPlan *p, const char *s, size_t n)
{
    for (int k = 0; k < p->nargs; k++)
        if (n && strlen(p->args[k]) == n && !strncmp(p->args[k], s, n))
            return k;
    return -1;
}

/* [ args(NAME ...)]: each NAME one of the plan's args (listed before). */
static bool parse_binding(FxPlan *p, FxPlanStep *st, const char **pp)
{
    const char *s = *pp;
    if (strncmp(s, " args(", 6) != 0)
        return true;
    s += 6;
    int *bind = NULL;
    for (;;) {
        const char *start = s;
        while (is_name_char(*s))
            s++;
        int k = arg_index(p, start, (size_t)(s - start));
        if (k < 0)
            return false;
        bind = grow(p, bind, st->nbind, sizeof(int));
        bind[st->nbind++] = k;
        if (*s == ')')
            break;
        if (*s++ != ' ')
            return false;
    }
    st->bind = bind;
    *pp = s + 1;
    return true;
}

/* launch KERNEL grid(X, Y, Z) block(X, Y, Z)[ args(...)][ when ...][ note ...] */
static bool parse_launch(FxPlan *p, const char *line)
{
    const char *s = line + strlen("launch ");
    char *kernel = take_word(p, &s);
    if (!kernel || strncmp(s, "grid(", 5) != 0)
        return false;
    s += 5;
    p->steps = grow(p, p->steps, p->nsteps, sizeof(FxPlanStep));
    FxPlanStep *st = &p->steps[p->nsteps++];
    st->kernel = kernel;
    for (int d = 0; d < 3; d++) {
        if (!parse_extent(p, &s, &st->grid[d]))
            return false;
        if (d < 2 && strncmp(s, ", ", 2) != 0)
            return false;
        s += d < 2 ? 2 : 0;
    }
    int tail = 0;
    if (sscanf(s, ") block(%u, %u, %u)%n", &st->block[0], &st->block[1], &st->block[2], &tail) != 3 || !tail)
        return false;
    s += tail;
    return parse_binding(p, st, &s) && parse_condition(p, st, s);
}

static bool parse_line(FxPlan *p, const char *line)
{
    while (*line == ' ')
        line++;
    if (!*line)
        return true;
    if (!strncmp(line, "plan ", 5) && !p->program) {
        p->program = dup_n(p, line + 5, strlen(line + 5));
        return true;
    }
    if (!strncmp(line, "args:", 5))
        return parse_args(p, line + 5);
    if (!strncmp(line, "transient ", 10))
        return parse_transient(p, line);
    if (!strncmp(line, "launch ", 7))
        return parse_launch(p, line);
    return false;
}

static char *error_text(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

FxPlan *fxplan_parse(const char *text, char **err)
{
    FxPlan *p = calloc(1, sizeof *p);
    char *copy = strdup(text ? text : "");
    if (!p || !copy)
        abort();
    char *save = NULL;
    int lineno = 0;
    *err = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line && !*err; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        if (!parse_line(p, line))
            *err = error_text("malformed launch plan, line %d: %s", lineno, line);
    }
    free(copy);
    if (!*err && !p->program)
        *err = error_text("malformed launch plan: no 'plan' line");
    if (!*err && p->nargs < p->ntransients)
        *err = error_text("malformed launch plan: fewer arguments than transients");
    if (*err) {
        fxplan_free(p);
        return NULL;
    }
    return p;
}

void fxplan_free(FxPlan *p)
{
    if (!p)
        return;
    for (Block *b = p->owned, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(p);
}
