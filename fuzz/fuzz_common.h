/* fuzz_common.h - what the fuzz harnesses share: compiling fuzz input
 * in-process with its diagnostics captured (never printed), and turning an
 * internal error into a finding.
 *
 * Each harness defines fz_one(data, size), the body of one iteration. It is
 * called by libFuzzer (fuzz_main_libfuzzer.c, LLVMFuzzerTestOneInput) in the
 * clang build, and by fuzz_replay.c, a plain main that feeds files, in the
 * normal build's regression test. A finding aborts: libFuzzer then saves the
 * input, and the regression test fails. */
#ifndef FX_FUZZ_COMMON_H
#define FX_FUZZ_COMMON_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "driver/pipeline.h"

/* The harness's iteration; returns 0 (libFuzzer's convention). */
int fz_one(const uint8_t *data, size_t size);
/* Once per process: LLVM's fatal-error handler (a fatal error exits with
 * status 70, which libFuzzer reports as "fuzz target exited"). */
void fz_init(void);

/* One compilation of fuzz input. */
typedef struct FzCompile {
    FxOptions opts;
    FxCompilation c;
    char *diag;          /* everything diagnosed, from open_memstream */
    size_t diag_len;
    FILE *diag_out;
} FzCompile;

/* Options for the host (arch NULL) or an AMDGPU processor; contraction off
 * (folded and run-time values then agree exactly), the FXIR verifier after
 * every pass. */
void fz_options(FzCompile *z, const char *arch, int opt_level);
/* Options for the host with the waves of AMDGPU processor waves_of
 * emulated (NULL: the host's own waves of one, as fxrun --arch), on fibers
 * only when `fibers` (--host-barriers=fibers); as fz_options otherwise. */
void fz_host_options(FzCompile *z, const char *waves_of, int opt_level, bool fibers);
/* Starts the compilation with diagnostics captured and parses the bytes
 * (below); the AST, or NULL after errors. */
AstNode *fz_parse_only(FzCompile *z, const uint8_t *data, size_t size);
/* Starts the compilation with diagnostics captured, and parses `size` bytes
 * as the source file "fuzz.fx" (NUL bytes included, as a file read from
 * disk would be), then registers the items with sema. False after errors. */
bool fz_parse(FzCompile *z, const uint8_t *data, size_t size);
/* Sema and the FXIR passes; the FXIR verifier also runs on sema's output
 * before the first pass. False after (ordinary) errors. */
bool fz_lower(FzCompile *z);
/* Ends the compilation: checks the diagnostics for an internal error (a
 * finding) and frees everything. */
void fz_finish(FzCompile *z);

/* A finding: prints what and the diagnostics so far, then aborts. */
void fz_finding(const FzCompile *z, const char *what) __attribute__((noreturn));
/* Aborts when the diagnostics so far contain an internal error. */
void fz_check_diag(FzCompile *z);
/* Aborts when the LLVM verifier rejects module m (after optimization;
 * cg_build verified it before); `target` names it in the report. */
void fz_check_llvm(FzCompile *z, CgModule *m, const char *target);
/* Runs one input for each target the harnesses cover: the host (NULL),
 * gfx942 (waves of 64) and gfx1100 (waves of 32). */
void fz_each_target(void (*run)(const char *arch, const uint8_t *data, size_t size), const uint8_t *data,
                    size_t size);

#endif
