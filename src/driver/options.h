/* options.h - the fxcc command line (spec §9), shared by fxcc and fxrun. */
#ifndef FX_OPTIONS_H
#define FX_OPTIONS_H
#include <stdbool.h>
#include "codegen/codegen.h"
#include "support/arena.h"
#include "support/diag.h"

typedef struct FxOptions {
    const char *input;
    const char *output;           /* -o; NULL: derived from the input name */
    bool opt_S, opt_c, emit_llvm;
    const char *arch;             /* --offload-arch as written (the one being compiled) */
    PtrVec archs;                 /* char*: every --offload-arch, in order (a bundle when > 1) */
    TgtTargetId target_id;        /* arch parsed: processor and xnack/sramecc settings */
    bool arch_given;              /* --offload-arch was on the command line */
    bool host;                    /* --target=host */
    const TgtTarget *target;      /* what both select, resolved by opt_finish */
    /* The target whose FXIR is built (wave size, program lowering, matrix
     * instructions): `target` itself, or with --target=host and an explicit
     * --offload-arch that GPU, whose waves the host then emulates. */
    const TgtTarget *lowering;
    int opt_level;
    PtrVec defines;               /* char*: NAME=VALUE */
    PtrVec includes;              /* char*: -I dirs */
    bool md;                      /* -MD, -MMD */
    bool deps_only;               /* -M, -MM: the dependency rule instead of a compile */
    bool mp;                      /* -MP: a phony rule per import */
    bool save_temps;              /* --save-temps: .fxir, .ll, .s, .o beside the output */
    unsigned check;               /* --check[=races,uninit]: RT_CHECK_* bits (host code only) */
    bool debug;                   /* -g: DWARF line tables */
    bool host_fibers;             /* --host-barriers=fibers (host code only) */
    const char *stdin_text;       /* the input "-", read once by fxcc */
    const char *mf, *mt;          /* -MF, -MT */
    bool fp_contract;
    unsigned fastmath;            /* ambient flags from --fastmath / --fast-fp-math */
    bool fastmath_set, fast_fp_math;
    FxPrecision precision;        /* --contraction-precision */
    bool direct_rescaling;        /* --quantize-rescaling=direct */
    bool guard_fallback;          /* --contraction-guard=fallback (or adapt) */
    bool guard_adapt;             /* --contraction-guard=adapt */
    bool emit_ast, print_plan;
    bool print_interface;         /* --print-interface: kernels, programs, parameters as JSON */
    bool verify_each;             /* --verify-each: the FXIR verifier after every stage */
    bool time_passes;             /* --time-passes: stage timings on stderr */
    const char *print_after;
    const char *eval;
    bool werror, no_warnings;
    PtrVec warnings;              /* char*: -Wall, -Wextra, -W[no-][error=]NAME, in order */
    unsigned rpass, rpass_missed; /* -Rpass=PASS, -Rpass-missed[=PASS]: remark bits (passes.h) */
    DiagFormat diag_format;
    bool no_assert;               /* --no-assert: fx.assert makes no code (docs/debugging.md) */
} FxOptions;

void opt_defaults(FxOptions *o);
/* Try to consume argv[*i] (and maybe its value) as an fxcc option.
 * Returns 1 if consumed, 0 if it is not an fxcc option, -1 after printing a
 * usage error. */
int opt_parse_one(Arena *a, FxOptions *o, int argc, char **argv, int *i);
/* Checks combinations after parsing; prints a usage error and returns false. */
bool opt_finish(FxOptions *o);
/* Makes `arch` the processor compiled for (target, lowering), or prints a
 * usage error. For compiling the processors of a bundle one by one. */
bool opt_select_arch(FxOptions *o, const char *arch);
void opt_print_help(const char *prog);
void opt_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Flushes standard output at exit: a write that failed (a full disk, a
 * closed pipe) makes a successful run's status 1, with a message. */
int opt_finish_stdout(const char *prog, int rc);

#endif
