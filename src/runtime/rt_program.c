/* rt_program.c - executes a launch plan (abi/fxplan.h): transients are
 * allocated, each kernel is launched with grid sizes evaluated from the
 * symbolic dims, in order; and finds the plan text inside artifacts. */

#include "runtime/fxrt_program.h"
#include <elf.h>
#include "runtime/rt_internal.h"
#include "abi/fxbundle.h"
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Value of an extent, reading symbolic dims from the Int32 arguments. */
static bool evaluate(const FxPlan *p, const FxPlanExtent *e, void **args, long long *out, char **err)
{
    long long v = 1;
    for (int i = 0; i < e->nfactors; i++) {
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

/* Whether a conditional step runs: the first Int32 of its `when` buffer. */
static bool step_runs(const FxPlan *p, const FxPlanStep *st, void **all, int32_t *value, char **err)
{
    if (!st->when)
        return true;
    for (int j = 0; j < p->nargs; j++)
        if (!strcmp(p->args[j], st->when)) {
            *value = *(const int32_t *)*(void *const *)all[j];
            return st->when_nonzero ? *value != 0 : *value == 0;
        }
    *err = rt_strdupf("launch plan of '%s': a step depends on the unknown buffer '%s'", p->program, st->when);
    return false;
}

/* The step's note with {} replaced by the value that let it run. */
static void add_note(RtRunReport *report, const char *note, int32_t value)
{
    const char *brace = strstr(note, "{}");
    char *line = brace ? rt_strdupf("%.*s%d%s", (int)(brace - note), note, value, brace + 2) : rt_strdupf("%s", note);
    char *all = rt_strdupf("%s%s\n", report->notes ? report->notes : "", line);
    free(line);
    free(report->notes);
    report->notes = all;
}

void rt_run_report_free(RtRunReport *r)
{
    free(r->notes);
    r->notes = NULL;
}

/* A step with its own arguments (args(...)) passes those, in its order. */
static int launch_step(RtHostModule *m, const FxPlanStep *st, const unsigned grid[3], void **all, char **err)
{
    if (!st->nbind)
        return rt_host_launch(m, st->kernel, grid, st->block, all, err);
    void **bound = calloc((size_t)st->nbind, sizeof(void *));
    for (int a = 0; a < st->nbind; a++)
        bound[a] = all[st->bind[a]];
    int rc = rt_host_launch(m, st->kernel, grid, st->block, bound, err);
    free(bound);
    return rc;
}

int rt_program_run(RtHostModule *m, const FxPlan *p, void **args, char **err)
{
    return rt_program_run_report(m, p, args, NULL, err);
}

int rt_program_run_report(RtHostModule *m, const FxPlan *p, void **args, RtRunReport *report, char **err)
{
    int nparams = fxplan_nparams(p);
    *err = NULL;
    void **all = calloc((size_t)p->nargs + 1, sizeof(void *));
    void **buffers = calloc((size_t)p->ntransients + 1, sizeof(void *));
    int rc = -1;
    for (int i = 0; i < nparams; i++)
        all[i] = args[i];
    for (int i = 0; i < p->ntransients; i++) {
        long long n;
        if (!evaluate(p, &p->transients[i].count, args, &n, err))
            goto out;
        buffers[i] = rt_buffer_alloc((size_t)n, (size_t)p->transients[i].elem_bytes);
        if (!buffers[i]) {
            *err = rt_strdupf("program %s: cannot allocate transient '%s' of %lld elements", p->program,
                              p->transients[i].name, n);
            goto out;
        }
        all[nparams + i] = &buffers[i];
    }
    for (int s = 0; s < p->nsteps; s++) {
        const FxPlanStep *st = &p->steps[s];
        unsigned grid[3];
        for (int d = 0; d < 3; d++) {
            long long g;
            if (!evaluate(p, &st->grid[d], args, &g, err))
                goto out;
            grid[d] = (unsigned)g;
        }
        if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0)
            continue;   /* an empty tensor: nothing to compute */
        int32_t value = 0;
        if (!step_runs(p, st, all, &value, err)) {
            if (*err)
                goto out;
            continue;
        }
        if (st->note && report)
            add_note(report, st->note, value);
        if (launch_step(m, st, grid, all, err) != 0)
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
    uintptr_t addr;
    if (rt_host_symbol(m, "__fxplan_", program, &addr) != 0) {
        *err = rt_strdupf("the module has no launch plan for program '%s'", program);
        return NULL;
    }
    return strdup((const char *)addr);
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

const void *rt_code_object(const void *image, size_t size, const char *arch, size_t *out_size, char **err)
{
    if (size < strlen(FXBUNDLE_MAGIC) || memcmp(image, FXBUNDLE_MAGIC, strlen(FXBUNDLE_MAGIC)) != 0) {
        *out_size = size;
        return image;
    }
    char *id = rt_strdupf(FXBUNDLE_HIP_PREFIX "%s", arch);
    const void *obj = fxbundle_find(image, size, id, out_size);
    free(id);
    if (!obj)
        *err = rt_strdupf("the offload bundle has no code object for %s", arch);
    return obj;
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
