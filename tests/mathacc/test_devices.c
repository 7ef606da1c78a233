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

/* A kernel with a dynamic shared array (an external LDS symbol the loader
 * places) that calls a device-library function compiles to a code object:
 * the symbol is the kernel's own, not one ocml must provide. Every function
 * of ocml and ockl that fxcc calls, on every GPU. */
static bool compiles_with_dyn(const char *call, const char *ty, const char *arch)
{
    char src[768];
    snprintf(src, sizeof src,
             "kernel k(x: Ptr[%s], y: const Ptr[%s]) {\n"
             "    shared s: Array[%s, DYN]\n"
             "    let i = thread_idx.x\n"
             "    s[i] = x[i]\n"
             "    fx.barrier()\n"
             "    let v = s[block_dim.x - 1 - i]\n"
             "    %s\n"
             "}\n", ty, ty, ty, call);
    FxsModule m;
    fxt_capture_begin();
    char *a = fxs_assembly(&m, src, arch);
    char *diag = fxt_capture_end();
    bool ok = a && !strstr(a, "__ocml");   /* ocml is inlined; ockl's printf may stay a call */
    if (!ok)
        fprintf(stderr, "\n  '%s' (%s) with a dynamic shared array on %s: %s", call, ty, arch,
                a ? "a device-library call is left" : diag);
    free(a), free(diag);
    fxs_close(&m);
    return ok;
}

static void test_dynamic_shared(void)
{
    static const char *const f64_only[] = { "exp", "exp2", "log", "log2", "sin", "cos", "tanh" };
    static const char *const tys[] = { "Float32", "Float64" };
    char call[128];
    for (int a = 0; a < 4; a++) {
        for (int fi = 0; fi < ma_nfns; fi++)
            for (int ti = 0; ti < 2; ti++) {
                if (ma_fns[fi].fn < 0)
                    snprintf(call, sizeof call, "x[i] = v ** y[i]");
                else
                    snprintf(call, sizeof call, "x[i] = fx.%s(v%s)", ma_fns[fi].name, ma_fns[fi].binary ? ", y[i]" : "");
                CU_ASSERT(compiles_with_dyn(call, tys[ti], archs[a]));
            }
        for (size_t k = 0; k < sizeof f64_only / sizeof f64_only[0]; k++) {
            snprintf(call, sizeof call, "x[i] = fx.%s(v)", f64_only[k]);
            CU_ASSERT(compiles_with_dyn(call, "Float64", archs[a]));
        }
        CU_ASSERT(compiles_with_dyn("fx.printf(\"%f\\n\", v)", "Float32", archs[a]));
    }
}

const FxtTest devices_tests[] = {
    { "gfx90a", test_gfx90a }, { "gfx942", test_gfx942 }, { "gfx1100", test_gfx1100 }, { "gfx1201", test_gfx1201 },
    { "a dynamic shared array and the device library, every GPU", test_dynamic_shared },
    { NULL, NULL },
};
