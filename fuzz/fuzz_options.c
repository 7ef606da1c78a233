/* fuzz_options.c - harness: a command line drawn from fxcc's own options,
 * then the source compiled under it as fxcc compiles it: sema, the FXIR
 * passes (the verifier after each one), LLVM IR built, optimized and
 * verified, and the output fxcc would write when the command line names
 * one. The other .fx harnesses compile with fixed options, but sema, the
 * passes and codegen read many more (contraction precision, fast-math,
 * target ids, -D, host checks, remarks, the diagnostics' format), and a
 * defect may show under one of them only.
 *
 * The input has one of two forms:
 *  - bytes: byte 0 modulo 8 is the number of options; each option is two
 *    bytes, a group of fo_groups and an entry of that group (each modulo
 *    the count, so that a group of 4 entries is drawn as often as one of
 *    40); the rest of the input is the source;
 *  - text: a first line "#fxcc: OPTION OPTION ..." whose words are entries
 *    of the table (the line is an fx comment: the whole input is the
 *    source). The regression inputs use it: readable, and independent of
 *    the table's order.
 * fxcc's own parser reads the words (opt_parse_one, opt_finish); a command
 * line it rejects is skipped, as fxcc would stop there.
 *
 * FUZZ_OPTIONS_PRINT=1 prints each command line in the text form (to turn a
 * finding into a regression input), the parser's complaints, and for each
 * compilation how far it went and its diagnostics.
 * FUZZ_OPTIONS_STRICT=1 (the regression test) makes a text-form input whose
 * line names something the table lacks, or that fxcc rejects, a failure:
 * it would otherwise test nothing, silently. */
#include "fuzz_common.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "abi/fxplan.h"
#include "passes/passes.h"

/* ---- the options ----
 * One entry is one command-line word, or two separated by the first space
 * ("-D N=1": both spellings of a value occur). Left out, because they
 * compile nothing differently: --verify-each (always on: the harness's
 * oracle), --time-passes (times on stderr), --emit-ast (what fuzz_parse
 * checks), --eval (fuzz_diff), -M -MM -MD -MMD -MF -MT -MP and --save-temps
 * (files beside the output: the imports, and the stages' forms that
 * --print-after and -S already make), --help and --version. */

/* LLVM's pipeline: fuzz_llvm fixes -O1, fxcc's default is -O3. */
static const char *const fo_opt_levels[] = { "-O0", "-O1", "-O2", "-O3" };

/* Processors differ in wave size (64 or 32), LDS, matrix instructions (and
 * so program lowering); the target-id settings become LLVM features. Two of
 * them make a bundle, compiled once per processor. */
static const char *const fo_archs[] = {
    "--offload-arch=gfx600", "--offload-arch=gfx700", "--offload-arch=gfx801:xnack+", "--offload-arch=gfx803",
    "--offload-arch=gfx900:xnack-", "--offload-arch=gfx906:sramecc+:xnack+", "--offload-arch=gfx908",
    "--offload-arch=gfx90a", "--offload-arch=gfx90a:xnack+", "--offload-arch=gfx90a:sramecc-:xnack-",
    "--offload-arch=gfx940", "--offload-arch=gfx942", "--offload-arch=gfx942:xnack+",
    "--offload-arch=gfx942:sramecc-", "--offload-arch gfx1010:xnack-", "--offload-arch=gfx1030",
    "--offload-arch=gfx1100", "--offload-arch=gfx1103", "--offload-arch=gfx1151", "--offload-arch=gfx1200",
    "--offload-arch=gfx1201", "--offload-arch=gfx90a,gfx1100",
};

/* Host code (with --offload-arch: that GPU's waves emulated, the
 * wave-emulation pass) or AMDGPU code. */
static const char *const fo_targets[] = { "--target=host", "--target host", "--target=amdgcn-amd-amdhsa" };

/* Host code only (fxcc rejects them for AMDGPU): kernels with barriers as
 * work-item loops or on fibers, calls to the race and uninit checker. */
static const char *const fo_host[] = {
    "--host-barriers=regions", "--host-barriers=fibers", "--check",
    "--check=races", "--check=uninit", "--check=races,uninit",
};

/* Every value fxir_parse_precision accepts: which rewrite the
 * contraction-precision pass makes of a program's float MatMuls. */
static const char *const fo_precisions[] = {
    "--contraction-precision=native", "--contraction-precision=ozaki",
    "--contraction-precision=int2", "--contraction-precision int3", "--contraction-precision=int3",
    "--contraction-precision=int4", "--contraction-precision=int5", "--contraction-precision=int6",
    "--contraction-precision=int7", "--contraction-precision=int8",
    "--contraction-precision=ozaki1", "--contraction-precision=ozaki1:1", "--contraction-precision=ozaki1:2",
    "--contraction-precision=ozaki1:3", "--contraction-precision=ozaki1:4", "--contraction-precision=ozaki1:5",
    "--contraction-precision=ozaki1:6", "--contraction-precision=ozaki1:7", "--contraction-precision=ozaki1:8",
    "--contraction-precision=ozaki1:9", "--contraction-precision=ozaki1:10", "--contraction-precision=ozaki1:11",
    "--contraction-precision=ozaki1:12",
    "--contraction-precision=ozaki2", "--contraction-precision=ozaki2:1", "--contraction-precision=ozaki2:2",
    "--contraction-precision=ozaki2:3", "--contraction-precision=ozaki2:4", "--contraction-precision=ozaki2:5",
    "--contraction-precision=ozaki2:6", "--contraction-precision=ozaki2:7", "--contraction-precision=ozaki2:8",
    "--contraction-precision=ozaki2:9", "--contraction-precision=ozaki2:10", "--contraction-precision=ozaki2:11",
    "--contraction-precision=ozaki2:12", "--contraction-precision=ozaki2:13", "--contraction-precision=ozaki2:14",
    "--contraction-precision=ozaki2:15", "--contraction-precision=ozaki2:16", "--contraction-precision=ozaki2:17",
    "--contraction-precision=ozaki2:18", "--contraction-precision=ozaki2:19", "--contraction-precision=ozaki2:20",
};

/* How that rewrite scales its quantized operands, and whether a guarded
 * GEMM falls back to the native one. */
static const char *const fo_rewrite[] = {
    "--quantize-rescaling=pow2", "--quantize-rescaling=direct",
    "--contraction-guard=none", "--contraction-guard=fallback",
};

/* Floating point: the fp-contraction pass, and the ambient fast-math flags
 * sema puts on every float operation (each flag alone, some sets). */
static const char *const fo_float[] = {
    "--fp-contract=off", "--fp-contract on", "--fast-fp-math", "--fastmath=fast", "--fastmath=none",
    "--fastmath=reassoc", "--fastmath=nnan", "--fastmath=ninf", "--fastmath=nsz", "--fastmath=arcp",
    "--fastmath=contract", "--fastmath=afn", "--fastmath=nnan,ninf", "--fastmath reassoc,nsz,arcp,contract",
};

/* What sema builds: fx.assert dropped, DWARF line tables in codegen. */
static const char *const fo_debug[] = { "--no-assert", "-g" };

/* Sema's inputs besides the source: a const overridden (names the tests'
 * sources use, with values of other types, a bad expression and a name
 * that may be missing: command-line errors), import directories, the one
 * language. */
static const char *const fo_source[] = {
    "-D N=1", "-DN=0", "-D N=-3", "-D BLOCK=128", "-D BLOCK=1", "-D TILE=8", "-DTILE=0", "-D T=Float64",
    "-D T=Int8", "-D FAST=False", "-D X=2**40", "-D X=Uint8(255)", "-D A=Float16(0.5)", "-D X=1 +",
    "-I examples", "-Itests/sema", "-x fx",
};

/* Which warnings are on, or errors; JSON changes how every diagnostic is
 * written (and the harness reads both forms). */
static const char *const fo_diagnostics[] = {
    "-Wall", "-Wextra", "-Werror", "-w", "--diagnostics-format=json", "--diagnostics-format text",
    "-Wsign-compare", "-Wno-sign-compare", "-Werror=sign-compare", "-Wno-error=sign-compare",
    "-Wdivergent-barrier", "-Wno-divergent-barrier", "-Werror=divergent-barrier", "-Wno-error=divergent-barrier",
    "-Wunused-variable", "-Wno-unused-variable", "-Werror=unused-variable", "-Wno-error=unused-variable",
    "-Wunused-parameter", "-Wno-unused-parameter", "-Werror=unused-parameter", "-Wno-error=unused-parameter",
    "-Wconstant-condition", "-Wno-constant-condition", "-Werror=constant-condition",
    "-Wno-error=constant-condition", "-Wunreachable-code", "-Wno-unreachable-code", "-Werror=unreachable-code",
    "-Wno-error=unreachable-code", "-Wshadow", "-Wno-shadow", "-Werror=shadow", "-Wno-error=shadow",
};

/* Remarks: what the passes say they did, or why they did not. */
static const char *const fo_remarks[] = {
    "-Rpass=sema", "-Rpass=fp-contraction", "-Rpass=contraction-precision", "-Rpass=map-fusion",
    "-Rpass=program-lowering", "-Rpass=wave-emulation", "-Rpass=int-ranges", "-Rpass-missed",
    "-Rpass-missed=fp-contraction", "-Rpass-missed=contraction-precision", "-Rpass-missed=map-fusion",
};

/* What is made: the FXIR printed after a stage (fxcc then stops), the
 * launch plans, or an output: assembly, object, LLVM IR or bitcode, the
 * linked code object. Every output goes to /dev/null (-o asks for the
 * default one, its name is not used; "/dev/" in the input would make
 * fz_parse skip it). Only when an output is asked for does the backend
 * run (fo_output_kind). */
static const char *const fo_outputs[] = {
    "--print-after=sema", "--print-after=fp-contraction", "--print-after=contraction-precision",
    "--print-after=map-fusion", "--print-after=program-lowering", "--print-after=wave-emulation",
    "--print-after=int-ranges", "--print-plan", "-S", "-c", "--emit-llvm", "-o fuzz.out",
};

typedef struct FoGroup {
    const char *const *entries;
    size_t n;
} FoGroup;

#define FO_GROUP(a) { a, sizeof a / sizeof a[0] }
static const FoGroup fo_groups[] = {
    FO_GROUP(fo_opt_levels), FO_GROUP(fo_archs), FO_GROUP(fo_targets), FO_GROUP(fo_host),
    FO_GROUP(fo_precisions), FO_GROUP(fo_rewrite), FO_GROUP(fo_float), FO_GROUP(fo_debug),
    FO_GROUP(fo_source), FO_GROUP(fo_diagnostics), FO_GROUP(fo_remarks), FO_GROUP(fo_outputs),
};
#undef FO_GROUP
enum {
    FO_NGROUPS = sizeof fo_groups / sizeof fo_groups[0],
    FO_MAX_PICKS = 16,   /* a text-form line; the bytes give at most 7 */
};

/* ---- the input: the picked entries and where the source starts ---- */

typedef struct FoLine {
    const char *picked[FO_MAX_PICKS];
    int n;
    size_t source_at;
} FoLine;

/* The bytes form: how many options, then a (group, entry) pair for each;
 * an input that ends early has fewer options and no source. */
static void fo_from_bytes(const uint8_t *data, size_t size, FoLine *l)
{
    size_t at = size > 0;
    int want = size > 0 ? data[0] % 8 : 0;
    for (; l->n < want && at + 2 <= size; at += 2) {
        const FoGroup *g = &fo_groups[data[at] % FO_NGROUPS];
        l->picked[l->n++] = g->entries[data[at + 1] % g->n];
    }
    l->source_at = at;
}

/* The longest entry of the table that p starts with, as whole words. */
static const char *fo_entry_at(const char *p, const char *end)
{
    const char *best = NULL;
    size_t best_len = 0;
    for (size_t g = 0; g < FO_NGROUPS; g++)
        for (size_t k = 0; k < fo_groups[g].n; k++) {
            const char *e = fo_groups[g].entries[k];
            size_t n = strlen(e);
            if (n > best_len && (size_t)(end - p) >= n && memcmp(p, e, n) == 0 && (p + n == end || p[n] == ' ')) {
                best = e;
                best_len = n;
            }
        }
    return best;
}

/* "#fxcc: WORDS\n..." (the caller saw the prefix); false when a word is no
 * entry of the table. */
static bool fo_from_text(const uint8_t *data, size_t size, FoLine *l)
{
    const char *p = (const char *)data + 6, *end = memchr(p, '\n', size - 6);
    if (!end)
        end = (const char *)data + size;
    l->source_at = 0;
    for (;;) {
        while (p < end && *p == ' ')
            p++;
        if (p == end)
            return true;
        const char *e = fo_entry_at(p, end);
        if (!e || l->n == FO_MAX_PICKS)
            return false;
        l->picked[l->n++] = e;
        p += strlen(e);
    }
}

/* ---- the command line ---- */

/* fxcc's parser prints its usage errors on stderr: one for every command
 * line the fuzzer draws and fxcc rejects. */
static int fo_stderr_off(void)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    if (null >= 0)
        close(null);
    return saved;
}

static void fo_stderr_on(int saved)
{
    if (saved < 0)
        return;
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
}

/* Parses the picked entries as fxcc's main does; false when fxcc would
 * reject the command line. The words live in arena a, as argv would. */
static bool fo_parse(Arena *a, const FoLine *l, FxOptions *o, bool quiet)
{
    char *argv[2 * FO_MAX_PICKS + 2];
    int argc = 0;
    argv[argc++] = arena_strdup(a, "fxcc");
    for (int k = 0; k < l->n; k++) {
        const char *e = l->picked[k], *space = strchr(e, ' ');
        argv[argc++] = space ? arena_strndup(a, e, (size_t)(space - e)) : arena_strdup(a, e);
        if (space)
            argv[argc++] = arena_strdup(a, space + 1);
    }
    argv[argc] = NULL;
    opt_defaults(o);
    o->verify_each = true;
    int saved = quiet ? fo_stderr_off() : -1;
    bool ok = true;
    for (int i = 1; i < argc && ok; i++)
        ok = opt_parse_one(a, o, argc, argv, &i) > 0;
    o->input = "fuzz.fx";
    ok = ok && opt_finish(o) && (!o->print_after || pass_name_known(o->print_after));
    fo_stderr_on(saved);
    return ok;
}

/* In the text form, to paste as a regression input's first line. */
static void fo_print(const FoLine *l, const char *verdict)
{
    fprintf(stderr, "fuzz_options: #fxcc:");
    for (int k = 0; k < l->n; k++)
        fprintf(stderr, " %s", l->picked[k]);
    fprintf(stderr, "%s%s\n", *verdict ? "    " : "", verdict);
}

/* ---- compiling ---- */

/* What fxcc writes (its output_kind) when the command line names an output
 * (-o, -S, -c, --emit-llvm). Without one the harness stops after the LLVM
 * verifier, as fuzz_llvm does: the backend costs several times the rest,
 * and the fuzzer chooses when to pay for it. */
static bool fo_output_kind(const FxOptions *o, CgOutputKind *kind)
{
    if (!o->output && !o->opt_S && !o->opt_c && !o->emit_llvm)
        return false;
    if (o->emit_llvm)
        *kind = o->opt_S ? CG_OUT_LL : CG_OUT_BC;
    else if (o->opt_S)
        *kind = CG_OUT_ASM;
    else
        *kind = o->opt_c || o->host ? CG_OUT_OBJ : CG_OUT_HSACO;
    return true;
}

static const char *fo_target_name(const FxOptions *o)
{
    static char name[128];
    if (!o->host)
        return o->arch;
    snprintf(name, sizeof name, "host%s%s", o->arch_given ? ", waves of " : "", o->arch_given ? o->arch : "");
    return name;
}

/* After the passes, as fxcc's compile(): plans or FXIR printed (to `out`,
 * fxcc's standard output) and stop, or LLVM IR and maybe the output.
 * Returns how far it went. */
static const char *fo_generate(FzCompile *z, FILE *out)
{
    const FxOptions *o = &z->opts;
    if (o->print_plan) {
        for (int i = 0; i < z->c.module->plans.len; i++)
            fxplan_print(out, z->c.module->plans.items[i]);
        return "launch plans printed";
    }
    if (o->print_after)
        return "FXIR printed";   /* by the pass manager */
    CgModule *m = pipe_codegen(&z->c);
    fz_check_diag(z);
    if (!m)
        return "errors in codegen";
    fz_check_llvm(z, m, fo_target_name(o));
    CgOutputKind kind;
    const char *reached = "LLVM IR verified";
    if (fo_output_kind(o, &kind)) {
        /* fails only with located errors (a stack frame over the limit) */
        reached = cg_write(m, kind, "/dev/null") ? "output written" : "errors writing the output";
        fz_check_diag(z);
    }
    cg_free(m);
    return reached;
}

/* FUZZ_OPTIONS_PRINT: how far a compilation went, and its diagnostics. */
static void fo_report(FzCompile *z, const char *reached)
{
    diag_flush();
    fflush(z->diag_out);
    fprintf(stderr, "fuzz_options: %s: %s\n", fo_target_name(&z->opts), reached);
    if (z->diag_len)
        fprintf(stderr, "%.*s", (int)(z->diag_len > 4000 ? 4000 : z->diag_len), z->diag);
}

static void fo_compile(const FxOptions *o, const uint8_t *src, size_t n, bool print)
{
    FzCompile z;
    memset(&z, 0, sizeof z);
    z.opts = *o;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        abort();
    const char *reached = "errors in parsing or sema";
    if (fz_parse(&z, src, n)) {
        z.c.print_out = out;   /* after pipe_init, which clears it */
        reached = fz_lower(&z) ? fo_generate(&z, out) : "errors in sema or the passes";
    }
    if (print && z.diag_out)
        fo_report(&z, reached);
    fz_finish(&z);
    fclose(out);
    free(text);
}

/* Several --offload-arch: fxcc compiles the source once per processor
 * (compile_bundle); the bundle file itself is not made. */
static void fo_compile_each(const FxOptions *o, const uint8_t *src, size_t n, bool print)
{
    if (o->archs.len <= 1) {
        fo_compile(o, src, n, print);
        return;
    }
    for (int i = 0; i < o->archs.len; i++) {
        FxOptions each = *o;
        if (opt_select_arch(&each, o->archs.items[i]))   /* opt_finish checked each one */
            fo_compile(&each, src, n, print);
    }
}

int fz_one(const uint8_t *data, size_t size)
{
    FoLine l = { .n = 0 };
    bool text = size >= 6 && memcmp(data, "#fxcc:", 6) == 0;
    bool known = true;
    if (text)
        known = fo_from_text(data, size, &l);
    else
        fo_from_bytes(data, size, &l);
    bool print = getenv("FUZZ_OPTIONS_PRINT") != NULL;
    Arena *a = arena_new();
    FxOptions o;
    bool ok = known && fo_parse(a, &l, &o, !print);
    if (print)
        fo_print(&l, !known ? "(a word the table lacks: skipped)" : ok ? "" : "(fxcc rejects it: skipped)");
    if (!ok && text && getenv("FUZZ_OPTIONS_STRICT")) {
        fprintf(stderr, "fuzz_options: a regression input whose command line %s\n",
                known ? "fxcc rejects" : "names an option the table lacks");
        abort();
    }
    if (ok)
        fo_compile_each(&o, data + l.source_at, size - l.source_at, print);
    arena_free(a);
    return 0;
}
