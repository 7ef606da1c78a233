/* matrix_isa.c - what the GEMM kernels of programs become on each GPU,
 * read from the assembly fxcc writes (no GPU needed):
 *
 *   matrix_isa [--size N] [OUT.md]
 *
 * For each GEMM (Float64, Float32, Int8 x Int8 -> Int32, Float16,
 * BFloat16 and Float8 (FNUZ and OCP E4M3) -> Float32, Int4 -> Int32;
 * N x N x N; each of the
 * four transposes) and each
 * processor (gfx90a, gfx942, gfx1100, gfx1201) it finds the steady-state
 * loop (the smallest loop of the kernel with matrix instructions in it) and
 * counts, per iteration, the matrix instructions and the other instructions
 * by kind; it reads the VGPRs, AGPRs, LDS bytes and spills from the code
 * object's metadata, and estimates the matrix-core utilisation:
 *
 *   matrix cycles  Cm = sum of the issue-to-issue cycles of the matrix
 *                       instructions (the vendor's detail text, src/target/)
 *   other cycles   Co = 4 per VALU instruction on wave64 (a SIMD16 takes four
 *                       passes), 1 on wave32; 1 per other instruction
 *   utilisation       = Cm / (Cm + Co)
 *
 * which assumes nothing else overlaps the matrix pipe: a lower bound for one
 * wave, not a measurement (other waves of the CU hide some of Co). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver/pipeline.h"
#include "support/arena.h"

typedef struct Counts {
    int matrix, valu, lds, global, salu, wait, barrier, total;
    double matrix_cycles, other_cycles;
    long vgpr, agpr, sgpr, lds_bytes, private_bytes, spill_vgpr, spill_sgpr;   /* -1: not in the metadata */
    const char *mnemonic;
    bool found;
} Counts;

static char *assembly(const char *src, const char *arch, char *err, size_t errlen)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/matrix-isa-%d.fx", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs(src, f);
    fclose(f);
    FxOptions o;
    opt_defaults(&o);
    o.input = path;
    o.arch = arch;
    o.arch_given = true;
    if (!opt_finish(&o))
        return NULL;
    FxCompilation c;
    pipe_init(&c, &o);
    char *text = NULL;
    if (pipe_parse(&c) && pipe_lower(&c)) {
        CgModule *m = pipe_codegen(&c);
        text = m ? cg_assembly(m) : NULL;
        cg_free(m);
    }
    if (!text)
        snprintf(err, errlen, "does not compile");
    pipe_free(&c);
    remove(path);
    return text;
}

/* ---- the assembly as lines ---- */

typedef struct Line {
    char *text;
    char label[32];     /* ".LBB0_3" when the line defines it */
    char target[32];    /* the label a branch goes to */
    char mnemonic[48];
} Line;

static int split_lines(char *asmtext, Line **out)
{
    int n = 0, cap = 1024;
    Line *v = calloc((size_t)cap, sizeof *v);
    for (char *p = strtok(asmtext, "\n"); p; p = strtok(NULL, "\n")) {
        if (n == cap)
            v = realloc(v, sizeof *v * (size_t)(cap *= 2));
        Line *l = &v[n++];
        memset(l, 0, sizeof *l);
        l->text = p;
        if (p[0] == '.' && strchr(p, ':') && strncmp(p, ".LBB", 4) == 0) {
            snprintf(l->label, sizeof l->label, "%.*s", (int)(strchr(p, ':') - p), p);
            continue;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (p == l->text || *p == ';' || *p == '.' || !isalpha((unsigned char)*p))
            continue;
        int k = 0;
        while (p[k] && !isspace((unsigned char)p[k]) && k < 47)
            k++;
        snprintf(l->mnemonic, sizeof l->mnemonic, "%.*s", k, p);
        if (strncmp(l->mnemonic, "s_cbranch", 9) == 0 || strcmp(l->mnemonic, "s_branch") == 0) {
            const char *t = strstr(p, ".LBB");
            if (t) {
                int m = 0;
                while (t[m] && !isspace((unsigned char)t[m]) && m < 31)
                    m++;
                snprintf(l->target, sizeof l->target, "%.*s", m, t);
            }
        }
    }
    *out = v;
    return n;
}

static bool is_matrix(const char *m) { return !strncmp(m, "v_mfma", 6) || !strncmp(m, "v_wmma", 6); }

/* The smallest loop (a branch back to an earlier label) with matrix instructions. */
static bool steady_loop(const Line *l, int n, int *from, int *to)
{
    int best = -1;
    for (int j = 0; j < n; j++) {
        if (!l[j].target[0])
            continue;
        for (int i = 0; i < j; i++)
            if (l[i].label[0] && strcmp(l[i].label, l[j].target) == 0) {
                int mats = 0;
                for (int k = i; k <= j; k++)
                    mats += l[k].mnemonic[0] && is_matrix(l[k].mnemonic);
                if (mats && (best < 0 || j - i < best)) {
                    best = j - i;
                    *from = i;
                    *to = j;
                }
            }
    }
    return best >= 0;
}

static long metadata(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static Counts analyse(char *text, const TgtTarget *t)
{
    Counts c = { 0 };
    c.vgpr = metadata(text, ".vgpr_count:");
    c.agpr = metadata(text, ".agpr_count:");
    c.sgpr = metadata(text, ".sgpr_count:");
    c.lds_bytes = metadata(text, ".group_segment_fixed_size:");
    c.private_bytes = metadata(text, ".private_segment_fixed_size:");
    c.spill_vgpr = metadata(text, ".vgpr_spill_count:");
    c.spill_sgpr = metadata(text, ".sgpr_spill_count:");
    Line *l;
    int n = split_lines(text, &l), from, to;
    if (!steady_loop(l, n, &from, &to)) {
        free(l);
        return c;
    }
    c.found = true;
    double valu_cost = t->wave_size == 64 ? 4 : 1;
    for (int k = from; k <= to; k++) {
        const char *m = l[k].mnemonic;
        if (!m[0])
            continue;
        c.total++;
        if (is_matrix(m)) {
            c.matrix++;
            for (const TgtMatrixId *id = t->matrix; *id != TGT_MI_COUNT; id++) {
                const TgtMatrixInst *mi = tgt_matrix_inst(*id);
                if (strcmp(mi->mnemonic, m) == 0) {
                    c.matrix_cycles += mi->cycles;
                    c.mnemonic = mi->mnemonic;
                }
            }
            continue;
        }
        if (m[0] == 'v' && m[1] == '_') {
            c.valu++;
            c.other_cycles += valu_cost;
            continue;
        }
        c.other_cycles += 1;
        if (!strncmp(m, "ds_", 3))
            c.lds++;
        else if (!strncmp(m, "global_", 7) || !strncmp(m, "buffer_", 7) || !strncmp(m, "flat_", 5))
            c.global++;
        else if (!strncmp(m, "s_wait", 6) || !strcmp(m, "s_nop"))   /* gfx12: s_wait_loadcnt, ... */
            c.wait++;
        else if (!strncmp(m, "s_barrier", 9))                       /* gfx12: s_barrier_signal/_wait */
            c.barrier++;
        else
            c.salu++;
    }
    free(l);
    return c;
}

static const struct { const char *name, *in, *out; } gemms[] = {
    { "Float64", "Float64", "Float64" },
    { "Float32", "Float32", "Float32" },
    { "Int8", "Int8", "Int32" },
    { "Float16", "Float16", "Float32" },
    { "BFloat16", "BFloat16", "Float32" },
    { "Float8E4M3FNUZ", "Float8E4M3FNUZ", "Float32" },   /* gfx94x's fp8 */
    { "Float8E4M3FN", "Float8E4M3FN", "Float32" },       /* gfx12's fp8 */
    { "Int4", "Int4", "Int32" },
};
static const char *const layouts[] = { "A @ B", "A.T @ B", "A @ B.T", "A.T @ B.T" };
static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };

/* One table row: GEMM in/out, layout y (bit 0: A transposed, bit 1: B),
 * on processor arch; 1 when it does not compile. */
static int row(FILE *out, const char *name, const char *in, const char *outt, int y, const char *layout,
               const char *arch, int size)
{
    char src[512], err[128] = "";
    bool ta = y & 1, tb = y >> 1;
    snprintf(src, sizeof src,
             "program gemm(A: Tensor[%s, %d, %d], B: Tensor[%s, %d, %d], C: Tensor[%s, %d, %d]) {\n"
             "    C = A%s @ B%s\n}\n",
             in, size, size, in, size, size, outt, size, size, ta ? ".T" : "", tb ? ".T" : "");
    char *text = assembly(src, arch, err, sizeof err);
    if (!text) {
        fprintf(out, "| %s | %s | %s | %s |\n", name, layout, arch, err);
        return 1;
    }
    Counts c = analyse(text, tgt_lookup(arch));
    long agpr = c.agpr > 0 ? c.agpr : 0, vsp = c.spill_vgpr > 0 ? c.spill_vgpr : 0;
    long ssp = c.spill_sgpr > 0 ? c.spill_sgpr : 0;
    if (!c.found)
        fprintf(out, "| %s | %s | %s | none (FMA tiles) | 0 | | | | | | | %ld | %ld | %ld | %ld | %ld | | | |\n", name,
                layout, arch, c.vgpr, agpr, c.lds_bytes, vsp, ssp);
    else
        fprintf(out, "| %s | %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %ld | %ld | %ld | %ld | %ld | %.0f | "
                     "%.0f | %.2f |\n",
                name, layout, arch, c.mnemonic ? c.mnemonic : "?", c.matrix, c.valu, c.lds, c.global, c.salu, c.wait,
                c.barrier, c.vgpr, agpr, c.lds_bytes, vsp, ssp, c.matrix_cycles, c.other_cycles,
                c.matrix_cycles / (c.matrix_cycles + c.other_cycles));
    free(text);
    return 0;
}

int main(int argc, char **argv)
{
    int size = 1024;
    const char *out_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = atoi(argv[++i]);
        else
            out_path = argv[i];
    }
    FILE *out = out_path ? fopen(out_path, "w") : stdout;
    if (!out) {
        perror(out_path);
        return 1;
    }
    fprintf(out, "GEMMs C = op(A) @ op(B), %d x %d x %d, row-major; per iteration of the steady-state loop, per wave.\n"
                 "util = Cm / (Cm + Co): matrix cycles over matrix plus other issue cycles (VALU 4 on wave64, "
                 "1 on wave32; others 1), nothing overlapped.\n\n",
            size, size, size);
    fprintf(out, "| GEMM | layout | arch | matrix instruction | matrix | VALU | LDS | global | SALU | wait | barrier | "
                 "VGPR | AGPR | LDS bytes | VGPR spills (scratch) | SGPR spills (to VGPR lanes) | Cm | Co | util |\n");
    fprintf(out, "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    int rc = 0;
    for (size_t g = 0; g < sizeof gemms / sizeof gemms[0]; g++)
        for (size_t y = 0; y < sizeof layouts / sizeof layouts[0]; y++)
            for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++)
                rc |= row(out, gemms[g].name, gemms[g].in, gemms[g].out, (int)y, layouts[y], archs[a], size);
    if (out != stdout)
        fclose(out);
    return rc;
}
