/* options.c - parsing of fxcc's options; nothing here compiles anything. */
#include "driver/options.h"
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "passes/passes.h"
#include "runtime/fxrt_check.h"
#include "sema/sema.h"
#include "support/warn.h"

void opt_defaults(FxOptions *o)
{
    memset(o, 0, sizeof *o);
    o->arch = tgt_default()->name;
    o->target = tgt_default();
    o->opt_level = 3;
    o->fp_contract = true;
    o->precision = (FxPrecision){ FXP_NATIVE, 0 };
}

void opt_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fxcc: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\n(run 'fxcc --help' for the options)\n", stderr);
    va_end(ap);
}

void opt_print_help(const char *prog)
{
    printf("usage: %s [options] FILE.fx\n"
           "Compiles .fx kernels to AMDGPU code objects (or host code).\n\n"
           "Output:\n"
           "  -o FILE                output file; '-' writes to stdout\n"
           "  -S                     assembly (.s); with --emit-llvm: LLVM IR text (.ll)\n"
           "  -c                     relocatable object (.o), not linked\n"
           "  --emit-llvm            LLVM bitcode (.bc); with -S: .ll\n"
           "  (default)              linked code object FILE.hsaco\n"
           "Target:\n"
           "  --offload-arch=GFX     AMDGPU processor (default %s)\n"
           "  --target=amdgcn-amd-amdhsa|host   with host and --offload-arch: host code that\n"
           "                         runs that GPU's kernels, its waves emulated (fxrun --arch)\n"
           "  -O0 -O1 -O2 -O3        LLVM optimization level (default -O3)\n"
           "Source:\n"
           "  -D NAME=VALUE          override const NAME\n"
           "  -I DIR                 search DIR for imports\n"
           "  -MD -MF FILE -MT TARGET   write a Make dependency file (-MMD: the same)\n"
           "  -M, -MM                print the dependency rule (to -MF) instead of compiling\n"
           "  -MP                    add a phony rule per imported file\n"
           "  -g                     DWARF line tables: .fx lines in disassembly and profilers\n"
           "  --no-assert            fx.assert makes no code (like NDEBUG); fx.printf stays\n"
           "  --check[=races,uninit] host code: report shared-memory races, reads of\n"
           "                         unwritten shared memory and divergent barriers (fxrun)\n"
           "  --host-barriers=regions|fibers   host code: a kernel whose barriers every\n"
           "                         work-item reaches runs as loops over the work-items\n"
           "                         between them (default), or each work-item on a fiber\n"
           "  --save-temps           keep the FXIR (.fxir), LLVM IR (.ll), assembly (.s) and\n"
           "                         object (.o) beside the output (-GFX added per processor\n"
           "                         of a bundle)\n"
           "  -x fx                  the input's language (the only one); '-' reads stdin\n"
           "Floating point:\n"
           "  --fp-contract=on|off   FMA contraction pass (default on)\n"
           "  --fastmath=SPEC        ambient fast-math flags, e.g. nnan,ninf or fast\n"
           "  --fast-fp-math         same as --fastmath=fast when --fastmath is absent\n"
           "  --contraction-precision=native|int8|int2..int7|ozaki|ozaki1[:s]|ozaki2[:L]|bf16x9|bf16x6|xf32|auto\n"
           "                         auto: native or guarded Ozaki-II, whichever the target's\n"
           "                         throughput figures estimate faster; xf32: Float32 products\n"
           "                         on gfx940-942's xf32 instruction (10-bit significands)\n"
           "  --quantize-rescaling=pow2|direct\n"
           "  --contraction-guard=none|fallback|adapt   fallback: run an Ozaki GEMM natively\n"
           "                         when its rows or columns need more bits than the scheme\n"
           "                         keeps (bf16x9, bf16x6: when its terms would underflow);\n"
           "                         adapt: run the fewest moduli or slices that keep enough\n"
           "                         bits, natively only beyond the largest\n"
           "Inspection:\n"
           "  --emit-ast             print the syntax tree\n"
           "  --print-after=PASS     print FXIR after PASS and stop; the stages, in order:\n"
           "                         %s\n"
           "  --print-plan           print the launch plan of programs\n"
           "  --print-interface      print the kernels and programs and their parameters (JSON)\n"
           "  --eval EXPR            print the static value of EXPR, e.g. Uint32(1)\n"
           "  --verify-each          run the FXIR verifier after every stage\n"
           "  --time-passes          print the time of every stage (stderr)\n"
           "Diagnostics:\n"
           "  -Wall -Wextra -WNAME -Wno-NAME -Werror=NAME -Wno-error=NAME   warnings by name:\n"
           "                         sign-compare, divergent-barrier (default), unused-variable,\n"
           "                         constant-condition, unreachable-code (-Wall),\n"
           "                         unused-parameter (-Wextra), shadow\n"
           "  -Werror  -w  --diagnostics-format=text|json\n"
           "  -Rpass=PASS            say what PASS did (fp-contraction, contraction-precision)\n"
           "  -Rpass-missed[=PASS]   say why PASS (or any pass) left something unchanged\n"
           "  --help  --version\n", prog, tgt_default()->name, pass_names());
}

/* "-Xvalue", "-X value", "--long=value" or "--long value". */
static const char *value_of(int argc, char **argv, int *i, const char *flag, bool *ok)
{
    const char *arg = argv[*i];
    size_t n = strlen(flag);
    *ok = true;
    if (arg[n] == '=' && flag[1] == '-')
        return arg + n + 1;
    if (arg[n] && flag[1] != '-')
        return arg + n;
    if (*i + 1 < argc)
        return argv[++*i];
    opt_usage_error("option '%s' needs a value", flag);
    *ok = false;
    return NULL;
}

static bool matches(const char *arg, const char *flag)
{
    size_t n = strlen(flag);
    if (strncmp(arg, flag, n) != 0)
        return false;
    if (flag[1] == '-')
        return arg[n] == 0 || arg[n] == '=';
    return true;
}

/* -Rpass=PASS / -Rpass-missed[=PASS] */
static int parse_remark_option(FxOptions *o, const char *arg)
{
    bool missed = !strncmp(arg, "-Rpass-missed", 13);
    const char *eq = strchr(arg, '=');
    if (!missed && strncmp(arg, "-Rpass=", 7) != 0)
        return 0;
    if (missed && arg[13] && arg[13] != '=')
        return 0;
    unsigned bit = eq ? pass_remark_bit(eq + 1) : ~0u;
    if (!bit) {
        opt_usage_error("'%s': no pass named '%s'; the passes are: %s", arg, eq + 1, pass_names());
        return -1;
    }
    *(missed ? &o->rpass_missed : &o->rpass) |= bit;
    return 1;
}

/* -Wall, -Wextra, -Wname, -Wno-name, -Werror=name, -Wno-error=name: kept in
 * order, applied by each compilation (support/warn.c knows the names). */
static int parse_warning_option(Arena *a, FxOptions *o, const char *arg)
{
    if (!warn_is_option(arg)) {
        int n;
        const WarnInfo *t = warn_table(&n);
        char names[512] = "";
        for (int k = 0; k < n; k++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? ", " : "", t[k].name);
        opt_usage_error("unknown warning option '%s'; the warnings are: %s (and -Wall, -Wextra)", arg, names);
        return -1;
    }
    ptrvec_push(a, &o->warnings, (void *)arg);
    return 1;
}

static int parse_value_option(Arena *a, FxOptions *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    bool ok;
    const char *v;
#define VALUE(flag) (v = value_of(argc, argv, i, flag, &ok), ok)
    if (matches(arg, "-o")) {
        if (!VALUE("-o")) return -1;
        o->output = v;
    } else if (matches(arg, "--offload-arch")) {
        if (!VALUE("--offload-arch")) return -1;
        o->arch_given = true;
        /* repeated or a comma list, as hipcc takes them: one code object each */
        for (const char *p = v; *p;) {
            size_t n = strcspn(p, ",");
            ptrvec_push(a, &o->archs, arena_strndup(a, p, n));
            p += n + (p[n] == ',');
        }
        o->arch = o->archs.items[o->archs.len - 1];
    } else if (matches(arg, "--target")) {
        if (!VALUE("--target")) return -1;
        if (strcmp(v, "host") == 0)
            o->host = true;
        else if (strcmp(v, "amdgcn-amd-amdhsa") == 0)
            o->host = false;
        else {
            opt_usage_error("unknown target '%s'; expected amdgcn-amd-amdhsa or host", v);
            return -1;
        }
    } else if (matches(arg, "-D")) {
        if (!VALUE("-D")) return -1;
        if (!strchr(v, '=') || v[0] == '=') {
            opt_usage_error("-D expects NAME=VALUE, got '%s'", v);
            return -1;
        }
        ptrvec_push(a, &o->defines, (void *)v);
    } else if (matches(arg, "-I")) {
        if (!VALUE("-I")) return -1;
        ptrvec_push(a, &o->includes, (void *)v);
    } else if (matches(arg, "-x")) {
        if (!VALUE("-x")) return -1;
        if (strcmp(v, "fx") != 0) {
            opt_usage_error("-x %s: fxcc compiles only the fx language (-x fx)", v);
            return -1;
        }
    } else if (!strncmp(arg, "--host-barriers=", 16)) {
        if (strcmp(arg + 16, "regions") && strcmp(arg + 16, "fibers")) {
            opt_usage_error("%s: expected regions or fibers", arg);
            return -1;
        }
        o->host_fibers = !strcmp(arg + 16, "fibers");
    } else if (!strcmp(arg, "--check")) {
        o->check = RT_CHECK_RACES | RT_CHECK_UNINIT;
    } else if (!strncmp(arg, "--check=", 8)) {
        o->check = 0;
        for (const char *p = arg + 8; *p;) {
            size_t n = strcspn(p, ",");
            if (n == 5 && !strncmp(p, "races", 5))
                o->check |= RT_CHECK_RACES;
            else if (n == 6 && !strncmp(p, "uninit", 6))
                o->check |= RT_CHECK_UNINIT;
            else {
                opt_usage_error("--check=%s: expected races, uninit or both (races,uninit)", arg + 8);
                return -1;
            }
            p += n + (p[n] == ',');
        }
    } else if (matches(arg, "-MF")) {
        if (!VALUE("-MF")) return -1;
        o->mf = v;
    } else if (matches(arg, "-MT")) {
        if (!VALUE("-MT")) return -1;
        o->mt = v;
    } else if (matches(arg, "--fp-contract")) {
        if (!VALUE("--fp-contract")) return -1;
        if (strcmp(v, "on") && strcmp(v, "off")) {
            opt_usage_error("--fp-contract expects on or off, got '%s'", v);
            return -1;
        }
        o->fp_contract = strcmp(v, "on") == 0;
    } else if (matches(arg, "--fastmath")) {
        if (!VALUE("--fastmath")) return -1;
        if (!sema_parse_fastmath(v, &o->fastmath)) {
            opt_usage_error("invalid --fastmath spec '%s'; expected fast, none or a comma-separated list of "
                            "reassoc, nnan, ninf, nsz, arcp, contract, afn", v);
            return -1;
        }
        o->fastmath_set = true;
    } else if (matches(arg, "--contraction-precision")) {
        if (!VALUE("--contraction-precision")) return -1;
        if (!fxir_parse_precision(v, &o->precision)) {
            opt_usage_error("invalid --contraction-precision '%s'; expected %s", v, fxir_precision_choices());
            return -1;
        }
    } else if (matches(arg, "--quantize-rescaling")) {
        if (!VALUE("--quantize-rescaling")) return -1;
        if (strcmp(v, "pow2") && strcmp(v, "direct")) {
            opt_usage_error("--quantize-rescaling expects pow2 or direct, got '%s'", v);
            return -1;
        }
        o->direct_rescaling = strcmp(v, "direct") == 0;
    } else if (matches(arg, "--contraction-guard")) {
        if (!VALUE("--contraction-guard")) return -1;
        if (strcmp(v, "none") && strcmp(v, "fallback") && strcmp(v, "adapt")) {
            opt_usage_error("--contraction-guard expects none, fallback or adapt, got '%s'", v);
            return -1;
        }
        o->guard_fallback = strcmp(v, "none") != 0;
        o->guard_adapt = strcmp(v, "adapt") == 0;
    } else if (matches(arg, "--print-after")) {
        if (!VALUE("--print-after")) return -1;
        o->print_after = v;
    } else if (matches(arg, "--eval")) {
        if (!VALUE("--eval")) return -1;
        o->eval = v;
    } else if (matches(arg, "--diagnostics-format")) {
        if (!VALUE("--diagnostics-format")) return -1;
        if (strcmp(v, "text") && strcmp(v, "json")) {
            opt_usage_error("--diagnostics-format expects text or json, got '%s'", v);
            return -1;
        }
        o->diag_format = strcmp(v, "json") == 0 ? DIAG_JSON : DIAG_TEXT;
    } else {
        return 0;
    }
#undef VALUE
    return 1;
}

int opt_parse_one(Arena *a, FxOptions *o, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    static const struct { const char *flag; size_t off; } flags[] = {
        { "-S", offsetof(FxOptions, opt_S) },
        { "-c", offsetof(FxOptions, opt_c) },
        { "--emit-llvm", offsetof(FxOptions, emit_llvm) },
        { "-MD", offsetof(FxOptions, md) },
        { "-MMD", offsetof(FxOptions, md) },   /* no system files to leave out */
        { "-M", offsetof(FxOptions, deps_only) },
        { "-MM", offsetof(FxOptions, deps_only) },
        { "-MP", offsetof(FxOptions, mp) },
        { "--save-temps", offsetof(FxOptions, save_temps) },
        { "-g", offsetof(FxOptions, debug) },
        { "-save-temps", offsetof(FxOptions, save_temps) },
        { "--fast-fp-math", offsetof(FxOptions, fast_fp_math) },
        { "--emit-ast", offsetof(FxOptions, emit_ast) },
        { "--print-plan", offsetof(FxOptions, print_plan) },
        { "--print-interface", offsetof(FxOptions, print_interface) },
        { "--verify-each", offsetof(FxOptions, verify_each) },
        { "--time-passes", offsetof(FxOptions, time_passes) },
        { "-Werror", offsetof(FxOptions, werror) },
        { "-w", offsetof(FxOptions, no_warnings) },
        { "--no-assert", offsetof(FxOptions, no_assert) },
    };
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
        if (strcmp(arg, flags[k].flag) == 0) {
            *(bool *)((char *)o + flags[k].off) = true;
            return 1;
        }
    if (!strncmp(arg, "-Rpass", 6))
        return parse_remark_option(o, arg);
    if (!strncmp(arg, "-W", 2))
        return parse_warning_option(a, o, arg);
    if (arg[0] == '-' && arg[1] == 'O' && arg[2] >= '0' && arg[2] <= '3' && !arg[3]) {
        o->opt_level = arg[2] - '0';
        return 1;
    }
    if (arg[0] == '-' && arg[1] == 'O') {
        opt_usage_error("unknown optimization level '%s'; expected -O0, -O1, -O2 or -O3", arg);
        return -1;
    }
    return parse_value_option(a, o, argc, argv, i);
}

/* Several --offload-arch make one offload bundle of linked code objects,
 * each processor named once; other outputs take one processor. */
static bool several_archs_ok(const FxOptions *o)
{
    for (int i = 0; i < o->archs.len; i++)
        for (int j = 0; j < i; j++) {
            TgtTargetId a, b;
            const char *why;
            if (!tgt_parse_target_id(o->archs.items[i], &a, &why) || !tgt_parse_target_id(o->archs.items[j], &b, &why)
                || a.proc != b.proc)
                continue;   /* an unknown one is reported by opt_select_arch */
            if (!strcmp(a.canonical, b.canonical)) {
                opt_usage_error("--offload-arch=%s is given twice", a.canonical);
                return false;
            }
            /* as clang: gfx90a (xnack any) and gfx90a:xnack+ would be two entries for one device */
            if (((a.on | a.off) ^ (b.on | b.off)) != 0) {
                opt_usage_error("--offload-arch=%s and %s overlap: a device runs either; give both the same "
                                "features, set differently", b.canonical, a.canonical);
                return false;
            }
        }
    const char *other = o->host ? "--target=host" : o->opt_S ? "-S" : o->opt_c ? "-c" : o->emit_llvm ? "--emit-llvm"
                      : o->print_after ? "--print-after" : o->print_plan ? "--print-plan"
                      : o->print_interface ? "--print-interface" : NULL;
    if (other) {
        opt_usage_error("%s takes one --offload-arch; several make one offload bundle of .hsaco code objects", other);
        return false;
    }
    return true;
}

bool opt_finish(FxOptions *o)
{
    if (o->opt_c && o->opt_S) {
        opt_usage_error("-c and -S cannot be combined");
        return false;
    }
    if (o->fast_fp_math && !o->fastmath_set)
        o->fastmath = 0x7f;
    if (o->host_fibers && !o->host) {
        opt_usage_error("--host-barriers=fibers is about host code (--target=host); AMDGPU runs barriers itself");
        return false;
    }
    if (o->check && !o->host) {
        opt_usage_error("--check instruments host code (--target=host, fxrun); AMDGPU code is not checked");
        return false;
    }
    if (o->guard_adapt && o->precision.kind != FXP_OZAKI1 && o->precision.kind != FXP_OZAKI2 &&
        o->precision.kind != FXP_AUTO) {
        opt_usage_error("--contraction-guard=adapt chooses Ozaki-II's moduli or Ozaki-I's slices at run time; "
                        "it needs --contraction-precision=ozaki, ozaki1[:s], ozaki2[:L] or auto");
        return false;
    }
    if (o->archs.len > 1 && !several_archs_ok(o))
        return false;
    for (int i = 0; i < o->archs.len; i++)
        if (!opt_select_arch(o, o->archs.items[i]))
            return false;
    return opt_select_arch(o, o->archs.len ? o->archs.items[0] : o->arch);
}

bool opt_select_arch(FxOptions *o, const char *arch)
{
    const char *why = NULL;
    bool ok = tgt_parse_target_id(arch, &o->target_id, &why);
    const TgtTarget *gpu = ok ? o->target_id.proc : NULL;
    if ((!o->host || o->arch_given) && !ok) {
        if (strcmp(why, "no such processor") == 0)
            opt_usage_error("unknown --offload-arch '%s'; the AMDGPU processors are: %s", arch, tgt_known_names());
        else
            opt_usage_error("--offload-arch '%s': %s", arch, why);
        return false;
    }
    o->arch = arch;
    o->target = o->host ? tgt_host() : gpu;
    o->lowering = o->host && o->arch_given ? gpu : o->target;
    return true;
}

int opt_finish_stdout(const char *prog, int rc)
{
    diag_flush();
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "%s: error: cannot write to standard output: %s\n", prog, strerror(errno));
        if (rc == 0)
            rc = 1;
    }
    return rc;
}
