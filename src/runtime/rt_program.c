/* rt_program.c - parses a launch plan and executes it: transients are
 * allocated, each kernel is launched with grid sizes evaluated from the
 * symbolic dims, in order. */

#include "runtime/fxrt_program.h"
#include <elf.h>
#include "runtime/rt_internal.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Extent {
    int n;
    long long values[8];
    char *names[8];
    long long div;
} Extent;

typedef struct Transient {
    char *name;
    size_t elem_bytes;
    Extent count;
} Transient;

typedef struct Step {
    char *kernel;
    Extent grid[3];
    unsigned block[3];
} Step;

struct RtPlan {
    char *program;
    char **args;
    int nargs;
    Transient *transients;
    int ntransients;
    Step *steps;
    int nsteps;
};

/* "ceildiv(M*N, 256)" or "M*N" or "1" */
static bool parse_extent(const char **pp, Extent *e)
{
    const char *p = *pp;
    memset(e, 0, sizeof *e);
    e->div = 1;
    bool ceil = strncmp(p, "ceildiv(", 8) == 0;
    if (ceil)
        p += 8;
    for (;;) {
        if (e->n == 8)
            return false;
        if (*p >= '0' && *p <= '9') {
            e->values[e->n++] = strtoll(p, (char **)&p, 10);
        } else {
            const char *s = p;
            while (*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
                p++;
            if (p == s)
                return false;
            e->names[e->n++] = strndup(s, (size_t)(p - s));
        }
        if (*p != '*')
            break;
        p++;
    }
    if (ceil) {
        if (strncmp(p, ", ", 2) != 0)
            return false;
        p += 2;
        e->div = strtoll(p, (char **)&p, 10);
        if (*p++ != ')' || e->div <= 0)
            return false;
    }
    *pp = p;
    return true;
}

static void free_extent(Extent *e)
{
    for (int i = 0; i < e->n; i++)
        free(e->names[i]);
}

static bool parse_line(RtPlan *p, const char *line)
{
    while (*line == ' ')
        line++;
    char word[256];
    if (sscanf(line, "%255s", word) != 1)
        return true;
    if (!strcmp(word, "plan")) {
        free(p->program);
        p->program = strdup(line + 5);
        return true;
    }
    if (!strcmp(word, "args:")) {
        for (const char *s = line + 5; *s;) {
            while (*s == ' ')
                s++;
            const char *e = s;
            while (*e && *e != ' ')
                e++;
            if (e > s) {
                p->args = realloc(p->args, sizeof(char *) * (size_t)(p->nargs + 1));
                p->args[p->nargs++] = strndup(s, (size_t)(e - s));
            }
            s = e;
        }
        return true;
    }
    if (!strcmp(word, "transient")) {
        char name[256], type[64];
        int bytes, used = 0;
        if (sscanf(line, "transient %255s %63s %d %n", name, type, &bytes, &used) < 3 || bytes <= 0)
            return false;
        p->transients = realloc(p->transients, sizeof(Transient) * (size_t)(p->ntransients + 1));
        Transient *t = &p->transients[p->ntransients++];
        t->name = strdup(name);
        t->elem_bytes = (size_t)bytes;
        const char *s = line + used;
        return parse_extent(&s, &t->count);
    }
    if (!strcmp(word, "launch")) {
        char kernel[256];
        int used = 0;
        if (sscanf(line, "launch %255s grid(%n", kernel, &used) < 1 || !used)
            return false;
        p->steps = realloc(p->steps, sizeof(Step) * (size_t)(p->nsteps + 1));
        Step *st = &p->steps[p->nsteps++];
        memset(st, 0, sizeof *st);
        st->kernel = strdup(kernel);
        const char *s = line + used;
        for (int d = 0; d < 3; d++) {
            if (!parse_extent(&s, &st->grid[d]))
                return false;
            if (d < 2 && strncmp(s, ", ", 2) != 0)
                return false;
            s += d < 2 ? 2 : 0;
        }
        return sscanf(s, ") block(%u, %u, %u)", &st->block[0], &st->block[1], &st->block[2]) == 3;
    }
    return false;
}

RtPlan *rt_plan_parse(const char *text, char **err)
{
    RtPlan *p = calloc(1, sizeof *p);
    char *copy = strdup(text), *save = NULL;
    int lineno = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        if (!parse_line(p, line)) {
            *err = rt_strdupf("malformed launch plan, line %d: %s", lineno, line);
            free(copy);
            rt_plan_free(p);
            return NULL;
        }
    }
    free(copy);
    if (!p->program) {
        *err = rt_strdupf("malformed launch plan: no 'plan' line");
        rt_plan_free(p);
        return NULL;
    }
    return p;
}

void rt_plan_free(RtPlan *p)
{
    if (!p)
        return;
    free(p->program);
    for (int i = 0; i < p->nargs; i++)
        free(p->args[i]);
    free(p->args);
    for (int i = 0; i < p->ntransients; i++) {
        free(p->transients[i].name);
        free_extent(&p->transients[i].count);
    }
    free(p->transients);
    for (int i = 0; i < p->nsteps; i++) {
        free(p->steps[i].kernel);
        for (int d = 0; d < 3; d++)
            free_extent(&p->steps[i].grid[d]);
    }
    free(p->steps);
    free(p);
}

const char *rt_plan_program(const RtPlan *p) { return p->program; }

int rt_plan_nargs(const RtPlan *p) { return p->nargs - p->ntransients; }

/* Value of an extent, reading symbolic dims from the Int32 arguments. */
static bool evaluate(const RtPlan *p, const Extent *e, void **args, long long *out, char **err)
{
    long long v = 1;
    for (int i = 0; i < e->n; i++) {
        long long f = e->values[i];
        if (e->names[i]) {
            int k = -1;
            for (int j = 0; j < p->nargs; j++)
                if (!strcmp(p->args[j], e->names[i]))
                    k = j;
            if (k < 0) {
                *err = rt_strdupf("launch plan names an unknown dimension '%s'", e->names[i]);
                return false;
            }
            f = *(const int32_t *)args[k];
            if (f < 0) {
                *err = rt_strdupf("dimension '%s' is negative (%lld)", e->names[i], f);
                return false;
            }
        }
        v *= f;
    }
    *out = (v + e->div - 1) / e->div;
    return true;
}

int rt_program_run(RtHostModule *m, const RtPlan *p, void **args, char **err)
{
    int nparams = rt_plan_nargs(p);
    void **all = calloc((size_t)p->nargs + 1, sizeof(void *));
    void **buffers = calloc((size_t)p->ntransients + 1, sizeof(void *));
    int rc = -1;
    for (int i = 0; i < nparams; i++)
        all[i] = args[i];
    for (int i = 0; i < p->ntransients; i++) {
        long long n;
        if (!evaluate(p, &p->transients[i].count, args, &n, err))
            goto out;
        buffers[i] = calloc((size_t)(n ? n : 1), p->transients[i].elem_bytes);
        all[nparams + i] = &buffers[i];
    }
    for (int s = 0; s < p->nsteps; s++) {
        const Step *st = &p->steps[s];
        unsigned grid[3];
        for (int d = 0; d < 3; d++) {
            long long g;
            if (!evaluate(p, &st->grid[d], args, &g, err))
                goto out;
            grid[d] = (unsigned)g;
        }
        if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
            continue;   /* an empty tensor: nothing to compute */
        if (rt_host_launch(m, st->kernel, grid, st->block, all, err) != 0)
            goto out;
    }
    rc = 0;
out:
    for (int i = 0; i < p->ntransients; i++)
        free(buffers[i]);
    free(buffers);
    free(all);
    return rc;
}

/* ---- plans inside artifacts ---- */

char *rt_host_plan(RtHostModule *m, const char *program, char **err)
{
    char *name = rt_strdupf("__fxplan_%s", program);
    LLVMOrcExecutorAddress addr = 0;
    LLVMErrorRef e = LLVMOrcLLJITLookup(m->jit, &addr, name);
    if (e) {
        char *msg = LLVMGetErrorMessage(e);
        *err = rt_strdupf("the module has no launch plan for '%s' (%s)", program, msg);
        LLVMDisposeErrorMessage(msg);
        free(name);
        return NULL;
    }
    free(name);
    return strdup((const char *)(uintptr_t)addr);
}

/* Look `name` up in one ELF symbol table section; returns its bytes. */
static char *elf_symbol_bytes(const unsigned char *img, size_t size, const Elf64_Shdr *sh, int n,
                              const Elf64_Shdr *symtab, const char *name)
{
    if (symtab->sh_link >= (unsigned)n || symtab->sh_offset + symtab->sh_size > size)
        return NULL;
    const Elf64_Shdr *strtab = &sh[symtab->sh_link];
    const Elf64_Sym *syms = (const Elf64_Sym *)(img + symtab->sh_offset);
    size_t count = symtab->sh_size / sizeof(Elf64_Sym);
    for (size_t i = 0; i < count; i++) {
        if (syms[i].st_name >= strtab->sh_size || strtab->sh_offset + strtab->sh_size > size)
            continue;
        const char *sname = (const char *)img + strtab->sh_offset + syms[i].st_name;
        if (strcmp(sname, name) != 0 || syms[i].st_shndx == SHN_UNDEF || syms[i].st_shndx >= n)
            continue;
        const Elf64_Shdr *sec = &sh[syms[i].st_shndx];
        uint64_t off = sec->sh_offset + (syms[i].st_value - sec->sh_addr);
        if (off + syms[i].st_size > size)
            return NULL;
        char *text = calloc(1, syms[i].st_size + 1);
        memcpy(text, img + off, syms[i].st_size);
        return text;
    }
    return NULL;
}

char *rt_artifact_plan(const void *image, size_t size, const char *program, char **err)
{
    const unsigned char *img = image;
    const Elf64_Ehdr *eh = image;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > size) {
        *err = rt_strdupf("not an ELF64 code object");
        return NULL;
    }
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
    char *name = rt_strdupf("__fxplan_%s", program);
    char *text = NULL;
    for (int i = 0; i < eh->e_shnum && !text; i++)
        if (sh[i].sh_type == SHT_SYMTAB || sh[i].sh_type == SHT_DYNSYM)
            text = elf_symbol_bytes(img, size, sh, eh->e_shnum, &sh[i], name);
    if (!text)
        *err = rt_strdupf("the code object has no launch plan for '%s'", program);
    free(name);
    return text;
}
