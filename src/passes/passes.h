/* passes.h - the FXIR pass pipeline (spec §8). The pass table in
 * pass_manager.c is the only list of stages: --print-after, --help, the
 * verifier's messages and --time-passes take their names from it. */
#ifndef FX_PASSES_H
#define FX_PASSES_H
#include <stdbool.h>
#include <stdio.h>
#include "fxir/fxir.h"

typedef struct PassOptions {
    const TgtTarget *target;    /* what program lowering builds kernels for */
    bool host_codegen;          /* code is generated for the host: waves of target's size are emulated */
    bool verify_each;           /* run fxir_verify after every stage */
    bool fp_contract;           /* --fp-contract=on|off */
    FxPrecision precision;      /* --contraction-precision (a program's decorator overrides it) */
    bool direct_rescaling;      /* --quantize-rescaling=direct */
    bool guard_fallback;        /* --contraction-guard=fallback (or adapt) */
    bool guard_adapt;           /* --contraction-guard=adapt: Ozaki schemes choose their count at run time */
    unsigned remarks;           /* -Rpass=PASS: bit i for row i of the pass table; ~0u: all */
    unsigned remarks_missed;    /* -Rpass-missed[=PASS] */
    const char *print_after;    /* --print-after=PASS, or NULL */
    FILE *print_out;            /* where --print-after writes (stdout) */
    /* Target hook: asked once per fma after contraction; true splits it back
     * into a product and an add (UnfuseFMA), for units that prefer that form. */
    bool (*prefers_split_fma)(const FxInst *fma, void *ctx);
    void *hook_ctx;
} PassOptions;

/* Runs every pass in order (the FXIR sema produced is the "sema" stage).
 * False when a pass or the verifier reported an error. */
bool pass_run_pipeline(FxModule *m, const PassOptions *o);
/* Runs the one stage `name` (e.g. on FXIR read from a file, for tests);
 * false when there is no such stage or it reported an error. */
bool pass_run_one(FxModule *m, const char *name, const PassOptions *o);
/* Whether `name` is a stage of the table. */
bool pass_name_known(const char *name);
/* The remark bit of stage `name` (for PassOptions.remarks); 0 if none. */
unsigned pass_remark_bit(const char *name);
/* Whether stage `name` should say what it did (missed: why it did not). */
bool pass_remark_on(const PassOptions *o, const char *name, bool missed);
/* "sema, fp-contraction, ..." in pipeline order, for messages and --help. */
const char *pass_names(void);

/* fp-contraction: FuseFMA applied in every block to a fixed point.
 * Returns the number of fusions. */
int pass_fp_contraction(FxModule *m, const PassOptions *o);
/* One FuseFMA rewrite at `add` (an FXB_ADD or FXB_SUB); false (and, with
 * remarks_missed, a remark saying why) when it is not legal. */
bool pass_fuse_fma(FxModule *m, FxFunc *f, FxInst *add, const PassOptions *o);
/* UnfuseFMA: fma(a, b, c) -> t = a * b; d = t + c, with t a new transient
 * placed right before the add. Explicit fx.fma calls are unfused too when a
 * caller asks; the pipeline never does. */
void pass_unfuse_fma(Arena *arena, FxInst *fma);
/* Unfuse every FMA of a module (the target hook for units that prefer the
 * split form, and the inverse used by the tests). Returns the count. */
int pass_unfuse_all(FxModule *m);
/* Unfuse every fma for which the target hook asks; returns the count. */
int pass_unfuse_where_preferred(FxModule *m, const PassOptions *o);

/* contraction-precision (contraction_precision.c): every eligible Float32/
 * Float64 MatMul or GEMM of a program becomes Int8 MatMuls plus splitting and
 * combining maps (seed 003); the others stay native with a -Rpass-missed
 * remark saying why. Returns the number rewritten. */
int pass_contraction_precision(FxModule *m, const PassOptions *o);
/* The operations --contraction-precision=auto assumes guarded Ozaki-II
 * with L moduli spends in its maps: per element of A (or of B) and per
 * result, Float64 and other (Int32, comparisons, casts). */
typedef struct PassMapOps {
    double split_f64, split_other, combine_f64, combine_other;
} PassMapOps;
PassMapOps pass_ozaki2_map_ops(int L);

/* map-fusion: Map nodes of programs fold into the Map that reads them or run
 * in one kernel with their siblings (fuse_maps.c), with -Rpass remarks;
 * returns the count. */
int pass_fuse_maps(FxModule *m, const PassOptions *o);

/* program-lowering: every program becomes kernels for the target and a
 * launch plan (m->plans; also the artifact's __fxplan_<program> data);
 * lower_program.c. Returns the number of programs. */
int pass_lower_programs(FxModule *m, const TgtTarget *target);

/* wave-emulation (wave_emulation.c): with host_codegen, lane ids, wave
 * operations and matrix instructions become exchanges among the lanes of a
 * wave and plain FXIR computing each lane's result. Returns the count. */
int pass_wave_emulation(FxModule *m, const PassOptions *o);

/* int-ranges (int_ranges.c): integer add/sub/mul get FXNW_NSW/NUW where
 * the ranges of their operands prove it, and NSW|PROMISED in @index_nowrap
 * kernels where they do not. The only pass that sets FxInst.nowrap.
 * Returns the number of functions analysed. */
int pass_int_ranges(FxModule *m, const PassOptions *o);

#endif
