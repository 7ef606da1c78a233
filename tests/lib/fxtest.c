/* fxtest.c - the shared test main, golden files and captures (fxtest.h). */
#include "fxtest.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "support/diag.h"

const char *fxt_dir = ".";
char **fxt_args;
int fxt_nargs;

float fxt_xf32(double x)
{
    float f = (float)x;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    bits &= 0xFFFFE000u;
    memcpy(&f, &bits, 4);
    return f;
}

char *fxt_read_bytes(const char *path, size_t *len)
{
    SrcFile *f = diag_load_file(path);
    if (!f)
        return NULL;
    char *text = malloc((size_t)f->len + 1);
    memcpy(text, f->text, (size_t)f->len + 1);
    if (len)
        *len = (size_t)f->len;
    diag_free_file(f);
    return text;
}

char *fxt_read_file(const char *path)
{
    return fxt_read_bytes(path, NULL);
}

bool fxt_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    bool ok = fputs(text, f) >= 0;
    return fclose(f) == 0 && ok;
}

bool fxt_updating(void)
{
    const char *u = getenv("FX_UPDATE_GOLDEN");
    return u && *u == '1';
}

bool fxt_golden(const char *expected, const char *got)
{
    if (fxt_updating())
        return fxt_write_file(expected, got);
    char *want = fxt_read_file(expected);
    bool same = want && strcmp(want, got) == 0;
    if (!want)
        fprintf(stderr, "\n  missing %s (FX_UPDATE_GOLDEN=1 creates it); the output is:\n%s", expected, got);
    else if (!same)
        fprintf(stderr, "\n  MISMATCH %s\n--- want\n%s--- got\n%s", expected, want, got);
    free(want);
    return same;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **fxt_list(const char *dir, const char *ext, int *n)
{
    *n = 0;
    DIR *dp = opendir(dir);
    if (!dp)
        return NULL;
    int cap = 64;
    char **names = malloc(sizeof(char *) * (size_t)cap);
    size_t el = strlen(ext);
    for (struct dirent *e; (e = readdir(dp));) {
        size_t l = strlen(e->d_name);
        if (l <= el || strcmp(e->d_name + l - el, ext) != 0)
            continue;
        if (*n == cap)
            names = realloc(names, sizeof(char *) * (size_t)(cap *= 2));
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(dp);
    qsort(names, (size_t)*n, sizeof(char *), by_name);
    return names;
}

void fxt_free_list(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

int fxt_golden_dir(const char *sub, const char *in_ext, const char *out_ext,
                   char *(*produce)(const char *in_path, const char *name, void *ctx), void *ctx)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", fxt_dir, sub);
    int n;
    char **names = fxt_list(dir, in_ext, &n);
    CU_ASSERT_PTR_NOT_NULL(names);
    for (int i = 0; i < n; i++) {
        char in[8192], out[8192];
        int stem = (int)(strlen(names[i]) - strlen(in_ext));
        snprintf(in, sizeof in, "%s/%s", dir, names[i]);
        snprintf(out, sizeof out, "%s/%.*s%s", dir, stem, names[i], out_ext);
        char *got = produce(in, names[i], ctx);
        CU_ASSERT_PTR_NOT_NULL(got);
        if (got && !fxt_golden(out, got)) {
            fprintf(stderr, "  (from %s)\n", in);
            CU_FAIL("output differs from the golden file");
        }
        free(got);
    }
    fxt_free_list(names, n);
    return n;
}

/* ---- captured diagnostics ---- */

static struct {
    FILE *f;
    char *buf;
    size_t len;
} capture;

void fxt_capture_begin(void)
{
    capture.buf = NULL;
    capture.len = 0;
    capture.f = open_memstream(&capture.buf, &capture.len);
    diag_set_stream(capture.f);
}

char *fxt_capture_end(void)
{
    diag_set_stream(NULL);
    fclose(capture.f);
    capture.f = NULL;
    return capture.buf;
}

/* ---- main ---- */

static const FxtSuite *find_suite(const FxtSuite *suites, const char *name)
{
    for (const FxtSuite *s = suites; s->name; s++)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

static bool register_suite(const FxtSuite *s)
{
    CU_pSuite cs = CU_add_suite(s->name, s->init, s->clean);
    if (!cs)
        return false;
    for (const FxtTest *t = s->tests; t->name; t++)
        if (!CU_add_test(cs, t->name, t->run))
            return false;
    return true;
}

int fxt_main(int argc, char **argv, const char *dir, const FxtSuite *suites)
{
    fxt_dir = dir;
    const FxtSuite *chosen[64];
    int nchosen = 0;
    fxt_args = calloc((size_t)argc + 1, sizeof(char *));
    for (int i = 1; i < argc; i++) {
        const FxtSuite *s = find_suite(suites, argv[i]);
        if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            fxt_dir = argv[++i];
        else if (s && nchosen < 64)
            chosen[nchosen++] = s;
        else
            fxt_args[fxt_nargs++] = argv[i];
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 2;
    bool ok = true;
    for (int i = 0; i < nchosen; i++)
        ok &= register_suite(chosen[i]);
    for (const FxtSuite *s = suites; !nchosen && s->name; s++)
        ok &= register_suite(s);
    if (!ok) {
        CU_cleanup_registry();
        return 2;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    /* a failed set-up runs no test of its suite: that is a failure too */
    unsigned failures = CU_get_number_of_failures() + CU_get_run_summary()->nSuitesFailed;
    CU_cleanup_registry();
    free(fxt_args);
    return failures != 0;
}

/* The line starting with `field` (e.g. "VmFlags:") of the mapping holding
 * addr in /proc/self/smaps (malloc'd), or NULL when no mapping holds it. */
char *fxt_smaps_line(const void *addr, const char *field)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return NULL;
    char line[512];
    bool inside = false;
    char *found = NULL;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
            inside = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
        else if (inside && strncmp(line, field, strlen(field)) == 0)
            found = strdup(line);
    }
    fclose(f);
    return found;
}

/* A "Field:   N kB" line's N, or -1. */
long fxt_smaps_kb(const void *addr, const char *field)
{
    char *line = fxt_smaps_line(addr, field);
    long kb = -1;
    if (line)
        sscanf(line + strlen(field), "%ld", &kb);
    free(line);
    return kb;
}
