/* wwm.c - see wwm.h. */
#include "wwm.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NREGS = 1024, MAX_OPS = 64, ENTRY = -1 };   /* v0..v511, then a0..a511 */

typedef struct Inst {
    char text[200];
    char mn[64];
    int origin;                 /* 0: ordinary code; k > 0: whole-wave region k */
    int block;
    int ndefs, nreads;
    short defs[MAX_OPS], reads[MAX_OPS];
    const char *target;         /* a branch's label, within the function's text copy */
} Inst;

typedef struct Label {
    char name[64];
    int at;                     /* the index of the instruction that follows */
} Label;

typedef struct Func {
    Inst *in;
    int n, cap;
    Label *lab;
    int nlab, caplab;
    int nregions;
    int *block_start, nblocks;  /* blocks by their first instruction */
    int (*succ)[2];             /* -1: none */
} Func;

/* ---- reading the assembly ---- */

static bool starts(const char *s, const char *p) { return strncmp(s, p, strlen(p)) == 0; }

/* The registers of one operand field, v and a ones, ranges expanded. */
static int scan_regs(const char *s, const char *end, short *out, int max)
{
    int n = 0;
    for (const char *p = s; p < end; p++) {
        if ((*p != 'v' && *p != 'a') || (p > s && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.')))
            continue;
        int base = *p == 'a' ? 512 : 0, lo, hi, len = 0;
        if (isdigit((unsigned char)p[1]) && sscanf(p + 1, "%d%n", &lo, &len) == 1) {
            hi = lo;
        } else if (p[1] == '[' && sscanf(p + 1, "[%d:%d]%n", &lo, &hi, &len) == 2) {
            ;
        } else {
            continue;
        }
        if (isalpha((unsigned char)p[1 + len]) || p[1 + len] == '_')
            continue;   /* a word such as "vcc" or "abs" */
        for (int r = lo; r <= hi && r < 512 && n < max; r++)
            out[n++] = (short)(base + r);
        p += len;
    }
    return n;
}

/* Whether the first operand is written (and, for tied operands, read too). */
static bool first_is_def(const Inst *i, const char *ops)
{
    const char *m = i->mn;
    if (starts(m, "v_"))
        return !starts(m, "v_cmp");
    if (strstr(m, "_lds_"))
        return false;   /* global_load_lds_*: the destination is LDS */
    if (starts(m, "global_load") || starts(m, "flat_load") || starts(m, "buffer_load") ||
        starts(m, "scratch_load") || starts(m, "ds_read") || starts(m, "ds_load") || starts(m, "ds_bpermute") ||
        starts(m, "ds_permute") || starts(m, "ds_swizzle") || starts(m, "ds_consume") || starts(m, "ds_append") ||
        starts(m, "image_"))
        return true;
    if (strstr(m, "_rtn"))
        return true;
    if (strstr(m, "atomic"))
        return strstr(ops, " glc") || strstr(ops, " sc0") || strstr(ops, "TH_ATOMIC_RETURN");
    return false;
}

static bool first_is_tied(const char *m)
{
    return strstr(m, "fmac") || strstr(m, "_mac_") || starts(m, "v_writelane") || strstr(m, "d16") ||
           starts(m, "v_dot2c");
}

static void add_inst(Func *f, const char *line)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 256;
        f->in = realloc(f->in, (size_t)f->cap * sizeof *f->in);
    }
    Inst *i = &f->in[f->n++];
    memset(i, 0, sizeof *i);
    snprintf(i->text, sizeof i->text, "%s", line);
    size_t k = strcspn(line, " \t");
    snprintf(i->mn, sizeof i->mn, "%.*s", (int)k, line);
    const char *ops = line + k, *end = ops + strlen(ops), *comma = strchr(ops, ',');
    const char *first_end = comma ? comma : end;
    if (first_is_def(i, ops)) {
        i->ndefs = scan_regs(ops, first_end, i->defs, MAX_OPS);
        if (first_is_tied(i->mn))
            i->nreads = scan_regs(ops, first_end, i->reads, MAX_OPS);
        i->nreads += scan_regs(first_end, end, i->reads + i->nreads, MAX_OPS - i->nreads);
    } else {
        i->nreads = scan_regs(ops, end, i->reads, MAX_OPS);
    }
}

static void add_label(Func *f, const char *name, size_t len)
{
    if (f->nlab == f->caplab) {
        f->caplab = f->caplab ? 2 * f->caplab : 32;
        f->lab = realloc(f->lab, (size_t)f->caplab * sizeof *f->lab);
    }
    Label *l = &f->lab[f->nlab++];
    snprintf(l->name, sizeof l->name, "%.*s", (int)len, name);
    l->at = f->n;
}

/* One line of the function: a label, a directive (skipped) or an instruction. */
static void read_line(Func *f, char *line)
{
    char *semi = strchr(line, ';');
    if (semi)
        *semi = 0;
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = strlen(line);
    while (n && isspace((unsigned char)line[n - 1]))
        line[--n] = 0;
    if (!n)
        return;
    if (line[n - 1] == ':')
        add_label(f, line, n - 1);
    else if (line[0] != '.')
        add_inst(f, line);
}

static bool read_function(Func *f, const char *text, const char *name)
{
    char head[128];
    snprintf(head, sizeof head, "\n%s:", name);
    const char *p = strstr(text, head);
    if (!p)
        return false;
    p = strchr(p + 1, '\n');
    while (p && *p) {
        const char *e = strchr(p + 1, '\n');
        size_t len = e ? (size_t)(e - p - 1) : strlen(p + 1);
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)len, p + 1);
        if (strstr(line, ".Lfunc_end"))
            break;
        read_line(f, line);
        p = e;
    }
    return true;
}

/* ---- whole-wave regions ---- */

static bool writes_exec(const char *ops) { return starts(ops, "exec,") || starts(ops, "exec_lo,"); }

static void mark_regions(Func *f)
{
    int region = 0, inverted = 0;
    for (int k = 0; k < f->n; k++) {
        Inst *i = &f->in[k];
        const char *ops = i->text + strlen(i->mn);
        while (*ops == ' ' || *ops == '\t')
            ops++;
        size_t ol = strlen(ops);
        if (starts(i->mn, "s_or_saveexec") && ol >= 2 && strcmp(ops + ol - 2, "-1") == 0 && !region) {
            region = ++f->nregions;
        } else if (starts(i->mn, "s_not_b") && writes_exec(ops)) {
            inverted = inverted ? 0 : ++f->nregions;
        } else if (region && (starts(i->mn, "s_mov_b64") || starts(i->mn, "s_mov_b32")) && writes_exec(ops)) {
            region = 0;
        }
        i->origin = inverted ? inverted : region;
    }
}

/* ---- the control-flow graph ---- */

static int label_at(const Func *f, const char *name)
{
    for (int k = 0; k < f->nlab; k++)
        if (strcmp(f->lab[k].name, name) == 0)
            return f->lab[k].at;
    return -1;
}

static bool is_branch(const char *m) { return starts(m, "s_branch") || starts(m, "s_cbranch_"); }
static bool ends_flow(const char *m) { return starts(m, "s_branch") || starts(m, "s_endpgm") || starts(m, "s_setpc"); }

static int branch_target(const Func *f, const Inst *i)
{
    char name[64] = "";
    sscanf(i->text + strlen(i->mn), " %63s", name);
    return label_at(f, name);
}

static void build_blocks(Func *f)
{
    bool *leader = calloc((size_t)f->n + 1, 1);
    leader[0] = true;
    for (int k = 0; k < f->nlab; k++)
        leader[f->lab[k].at] = true;
    for (int k = 0; k < f->n; k++)
        if (is_branch(f->in[k].mn) || ends_flow(f->in[k].mn))
            leader[k + 1] = true;
    f->block_start = malloc(((size_t)f->n + 1) * sizeof(int));
    f->nblocks = 0;
    for (int k = 0; k < f->n; k++) {
        if (leader[k])
            f->block_start[f->nblocks++] = k;
        f->in[k].block = f->nblocks - 1;
    }
    f->block_start[f->nblocks] = f->n;
    f->succ = malloc((size_t)f->nblocks * sizeof *f->succ);
    for (int b = 0; b < f->nblocks; b++) {
        const Inst *last = &f->in[f->block_start[b + 1] - 1];
        int t = is_branch(last->mn) ? branch_target(f, last) : -1;
        f->succ[b][0] = t >= 0 && t < f->n ? f->in[t].block : -1;
        f->succ[b][1] = !ends_flow(last->mn) && b + 1 < f->nblocks ? b + 1 : -1;
    }
    free(leader);
}

/* ---- reaching definitions of one read ---- */

/* Whether a register holds a value at the function's entry: the work-item
 * ids (v0-v2 of a kernel, v31 of a callable function). Any other register
 * read before a write is undefined there (the unused half of a 64-bit
 * operand, say), and no lane needs it. */
static bool entry_value(int reg) { return reg <= 2 || reg == 31; }

typedef struct Reach {
    int defs[64];
    int n;
} Reach;

static void reach_add(Reach *r, int d)
{
    for (int k = 0; k < r->n; k++)
        if (r->defs[k] == d)
            return;
    if (r->n < 64)
        r->defs[r->n++] = d;
}

static bool inst_defines(const Inst *i, int reg)
{
    for (int k = 0; k < i->ndefs; k++)
        if (i->defs[k] == reg)
            return true;
    return false;
}

/* The last definition of reg in [from, to) scanning backwards, or -2. */
static int last_def(const Func *f, int from, int to, int reg)
{
    for (int k = to - 1; k >= from; k--)
        if (inst_defines(&f->in[k], reg))
            return k;
    return -2;
}

static void reaching(const Func *f, int at, int reg, Reach *r)
{
    r->n = 0;
    int b0 = f->in[at].block;
    int d = last_def(f, f->block_start[b0], at, reg);
    if (d != -2) {
        reach_add(r, d);
        return;
    }
    bool *seen = calloc((size_t)f->nblocks, 1);
    int *work = malloc(((size_t)f->nblocks + 1) * sizeof(int)), nw = 0;
    work[nw++] = b0;
    bool first = true;
    while (nw) {
        int b = work[--nw];
        if (!first) {
            d = last_def(f, f->block_start[b], f->block_start[b + 1], reg);
            if (d != -2) {
                reach_add(r, d);
                continue;
            }
        }
        first = false;
        if (b == 0 && entry_value(reg))
            reach_add(r, ENTRY);
        for (int p = 0; p < f->nblocks; p++)
            if ((f->succ[p][0] == b || f->succ[p][1] == b) && !seen[p]) {
                seen[p] = true;
                work[nw++] = p;
            }
    }
    free(seen);
    free(work);
}

static int origin_of(const Func *f, int def) { return def == ENTRY ? 0 : f->in[def].origin; }


/* Whether the definitions come from two origins, one of them whole-wave. */
static bool mixes_origins(const Func *f, const Reach *r)
{
    bool whole_wave = false, two = false;
    for (int k = 0; k < r->n; k++) {
        int o = origin_of(f, r->defs[k]);
        whole_wave |= o != 0;
        two |= o != origin_of(f, r->defs[0]);
    }
    return whole_wave && two;
}

static void describe(const Func *f, int at, int reg, const Reach *r, char *why, size_t cap)
{
    int len = snprintf(why, cap, "'%s' (%s) reads %c%d, which these write:", f->in[at].text,
                       f->in[at].origin ? "whole-wave" : "ordinary", reg >= 512 ? 'a' : 'v', reg % 512);
    for (int k = 0; k < r->n && len > 0 && (size_t)len < cap; k++) {
        int d = r->defs[k];
        if (d == ENTRY)
            len += snprintf(why + len, cap - (size_t)len, " [the function's entry]");
        else
            len += snprintf(why + len, cap - (size_t)len, " ['%s' %s %d]", f->in[d].text,
                            f->in[d].origin ? "in whole-wave region" : "ordinary", f->in[d].origin);
    }
}

static void free_func(Func *f)
{
    free(f->in);
    free(f->lab);
    free(f->block_start);
    free(f->succ);
}

static bool load(Func *f, const char *asm_text, const char *name)
{
    memset(f, 0, sizeof *f);
    if (!read_function(f, asm_text, name)) {
        free_func(f);
        return false;
    }
    mark_regions(f);
    build_blocks(f);
    return true;
}

int wwm_clobbered_reads(const char *asm_text, const char *name, char *why, size_t cap)
{
    Func f;
    if (!load(&f, asm_text, name))
        return -1;
    int bad = 0;
    if (cap)
        why[0] = 0;
    for (int k = 0; k < f.n; k++)
        for (int j = 0; j < f.in[k].nreads; j++) {
            Reach r;
            reaching(&f, k, f.in[k].reads[j], &r);
            if (!mixes_origins(&f, &r))
                continue;
            if (!bad++ && cap)
                describe(&f, k, f.in[k].reads[j], &r, why, cap);
        }
    free_func(&f);
    return bad;
}

int wwm_regions(const char *asm_text, const char *name)
{
    Func f;
    if (!load(&f, asm_text, name))
        return -1;
    int n = f.nregions;
    free_func(&f);
    return n;
}
