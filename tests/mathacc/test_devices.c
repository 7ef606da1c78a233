/* test_devices.c - every function and float type compiled for gfx90a, gfx942,
 * gfx1100 and gfx1201 (the LLVM module verified, then down to assembly): the
 * instructions that show the lowering, with ocml's code linked and inlined.
 * (ROCm 5.2's ocml has no ISA-version file for gfx11/gfx12; fxcc defines
 * the switch itself, tests/codegen checks how.) */
#include "fxtest.h"
#include "fxsource.h"
#include "mathacc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };

static char *source(const MaFn *f, const MaType *t)
{
    char *s = malloc(512);
    snprintf(s, 512, "kernel k(x: const Ptr[%s], y: const Ptr[%s], o: Ptr[%s]) {\n"
                     "    let i = thread_idx.x\n    o[i] = fx.%s(x[i]%s)\n}\n",
             t->name, t->name, t->name, f->name, f->binary ? ", y[i]" : "");
    return s;
}

/* An instruction the lowering must contain: ocml's Float32 code is inlined
 * (exp-based functions keep v_exp_f32; log1p and expm1 scale with
 * v_ldexp_f32; atan2 divides through v_frexp_mant_f32), hypot below Float64
 * is the Float64 sqrt expansion (v_rsq_f64), and all Float64 code is fma. */
static const char *expected(const MaFn *f, const MaType *t)
{
    const char *n = f->name;
    if (strcmp(n, "copysign") == 0) return "v_bfi_b32";
    if (t->s == SC_FLOAT64) return "v_fma_f64";
    if (strcmp(n, "hypot") == 0) return "v_rsq_f64";
    if (strcmp(n, "log1p") == 0 || strcmp(n, "expm1") == 0) return "v_ldexp_f32";
    if (strcmp(n, "atan2") == 0) return "v_frexp_mant_f32";
    if (strcmp(n, "pow") == 0) return "v_log_f32";
    return "v_exp_f32";
}

static void check_one(const MaFn *f, const MaType *t, const char *arch)
{
    char *src = source(f, t);
    FxsModule m;
    fxt_capture_begin();
    char *s = fxs_assembly(&m, src, arch);
    char *diag = fxt_capture_end();
    const char *want = expected(f, t);
    bool ok = s && strstr(s, want) && !strstr(s, "__ocml");   /* linked and inlined */
    if (!ok)
        fprintf(stderr, "\n  fx.%s %s on %s: %s%s", f->name, t->name, arch,
                s ? "no " : "does not compile: ", s ? want : diag);
    CU_ASSERT(ok);
    free(s), free(diag), free(src);
    fxs_close(&m);
}

static void check_arch(int a)
{
    for (int fi = 0; fi < ma_nfns; fi++)
        for (int ti = 0; ti < ma_ntypes; ti++)
            check_one(&ma_fns[fi], &ma_types[ti], archs[a]);
}

static void test_gfx90a(void) { check_arch(0); }
static void test_gfx942(void) { check_arch(1); }
static void test_gfx1100(void) { check_arch(2); }
static void test_gfx1201(void) { check_arch(3); }

const FxtTest devices_tests[] = {
    { "gfx90a", test_gfx90a }, { "gfx942", test_gfx942 }, { "gfx1100", test_gfx1100 }, { "gfx1201", test_gfx1201 },
    { NULL, NULL },
};
