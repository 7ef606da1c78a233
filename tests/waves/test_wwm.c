/* test_wwm.c - wave operations in divergent code keep the registers of the
 * lanes that skip them (docs/waves.md, "Whole-wave mode").
 *
 * A reduction runs in whole-wave mode, where VALU writes reach every lane.
 * Every wave operation, of several types, is compiled inside divergent code
 * (an if, an if/else with an operation on both sides, nested ifs, a loop
 * that lanes leave with a break, a fn called from divergent code, Float64
 * values live across the branch) for gfx90a, gfx942, gfx1100 and gfx1201 at
 * -O0 to -O3, and the machine code is checked by wwm.c: no read may see
 * both what a whole-wave region wrote and a value from outside it. The
 * host's wave model cannot see this class of defect (it runs FXIR, not the
 * register allocation); the machine code can. */
#include "fxtest.h"
#include "fxsource.h"
#include "wwm.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/TargetMachine.h>

static const char *const arches[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };
enum { NARCH = sizeof arches / sizeof arches[0] };

/* ---- the shapes of divergence, written out ---- */

static const char *const shapes_src =
    "fn wsum(v: Int32) -> Int32 {\n"
    "    return fx.wave_sum(v)\n"
    "}\n"
    "\n"
    /* a reduction under an if, values of the skipping lanes used after it */
    "kernel after_if(c: Ptr[Int32], x: Ptr[Int32], o: Ptr[Int32], q: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    if c[g] != 0 {\n"
    "        o[g] = fx.wave_sum(x[g])\n"
    "    }\n"
    "    q[g] = fx.lane_id()\n"
    "}\n"
    "\n"
    "kernel if_else(c: Ptr[Int32], x: Ptr[Int32], o: Ptr[Int32], q: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let l = fx.lane_id()\n"
    "    if c[g] != 0 {\n"
    "        o[g] = fx.wave_sum(x[g])\n"
    "    } else {\n"
    "        o[g] = fx.wave_max(x[g] * 3)\n"
    "    }\n"
    "    q[g] = l + fx.wave_min(x[g])\n"
    "}\n"
    "\n"
    "kernel nested(c: Ptr[Int32], x: Ptr[Int32], o: Ptr[Int32], q: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let l = fx.lane_id()\n"
    "    let v = x[g]\n"
    "    if c[g] > 0 {\n"
    "        if c[g] > 1 {\n"
    "            o[g] = fx.wave_sum(v)\n"
    "        }\n"
    "        q[g] = fx.wave_max(v) + l\n"
    "    }\n"
    "    q[g + 64] = l * 5 + v\n"
    "}\n"
    "\n"
    "kernel loop_break(c: Ptr[Int32], x: Ptr[Int32], o: Ptr[Int32], q: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let l = fx.lane_id()\n"
    "    var acc = 0\n"
    "    for i in range(8) {\n"
    "        if i == c[g] {\n"
    "            break\n"
    "        }\n"
    "        acc += fx.wave_sum(x[g] + i)\n"
    "    }\n"
    "    o[g] = acc\n"
    "    q[g] = l + g\n"
    "}\n"
    "\n"
    "kernel called(c: Ptr[Int32], x: Ptr[Int32], o: Ptr[Int32], q: Ptr[Int32]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let l = fx.lane_id()\n"
    "    if c[g] != 0 {\n"
    "        o[g] = wsum(x[g])\n"
    "    }\n"
    "    q[g] = l\n"
    "}\n"
    "\n"
    "kernel doubles(c: Ptr[Int32], x: Ptr[Float64], o: Ptr[Float64], q: Ptr[Float64]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let a = x[g] * 3.0\n"
    "    let b = x[g + 1] + 0.5\n"
    "    if c[g] != 0 {\n"
    "        o[g] = fx.wave_sum(x[g] * x[g])\n"
    "    } else {\n"
    "        o[g] = fx.wave_max(b)\n"
    "    }\n"
    "    q[g] = a * b\n"
    "}\n"
    "\n"
    /* values of ordinary code that only the else side reads */
    "kernel only_else(c: Ptr[Int32], x: Ptr[Int32], o: Ptr[Int32], q: Ptr[Int32], d: Ptr[Float64]) {\n"
    "    let g = block_idx.x * block_dim.x + thread_idx.x\n"
    "    let v = x[g] * 7 + 3\n"
    "    let w = d[g] * 0.25\n"
    "    let l = fx.lane_id()\n"
    "    if c[g] != 0 {\n"
    "        o[g] = fx.wave_sum(x[g + 1])\n"
    "        d[g] = fx.wave_max(d[g + 1])\n"
    "    } else {\n"
    "        q[g] = v + l\n"
    "        d[g] = w\n"
    "    }\n"
    "}\n";

/* ---- every wave operation of several types, under an if ---- */

static const char *const types[] = { "Int32", "Float32", "Float64", "Float16", "Int8", "Int64", "Int128", "Float32x4" };
enum { NTYPES = sizeof types / sizeof types[0] };

static const struct {
    const char *name, *expr;   /* %s: the value */
} ops[] = {
    { "sum", "fx.wave_sum(%s)" },
    { "max", "fx.wave_max(%s)" },
    { "min", "fx.wave_min(%s)" },
    { "shuffle", "fx.shuffle(%s, l + 1)" },
    { "xor", "fx.shuffle_xor(%s, 5)" },
    { "up", "fx.shuffle_up(%s, 2)" },
    { "down", "fx.shuffle_down(%s, 3)" },
    { "readlane", "fx.readlane(%s, 7)" },
    { "first", "fx.readfirstlane(%s)" },
};
enum { NOPS = sizeof ops / sizeof ops[0] };

static void append(char **s, size_t *len, size_t *cap, const char *fmt, const char *a, const char *b,
                   const char *c)
{
    char buf[1024];
    int n = snprintf(buf, sizeof buf, fmt, a, b, c);
    if (*len + (size_t)n + 1 > *cap) {
        *cap = (*cap + (size_t)n + 1) * 2;
        *s = realloc(*s, *cap);
    }
    memcpy(*s + *len, buf, (size_t)n + 1);
    *len += (size_t)n;
}

/* One kernel per operation and type: the operation under an if, the lane
 * id, a Float64 and the thread id needed by every lane after it. */
static char *ops_source(void)
{
    char *s = NULL;
    size_t len = 0, cap = 0;
    for (int t = 0; t < NTYPES; t++)
        for (int k = 0; k < NOPS; k++) {
            char expr[128], name[64];
            snprintf(expr, sizeof expr, ops[k].expr, "x[g]");
            snprintf(name, sizeof name, "k_%s_%d", ops[k].name, t);
            append(&s, &len, &cap, "kernel %s(c: Ptr[Int32], x: Ptr[%s], o: Ptr[%s], ", name, types[t], types[t]);
            append(&s, &len, &cap, "q: Ptr[Int32], f: Ptr[Float64]) {\n%s%s%s", "",
                   "    let g = block_idx.x * block_dim.x + thread_idx.x\n    let l = fx.lane_id()\n",
                   "    let d = f[g] * 3.0\n");
            append(&s, &len, &cap, "    if c[g] != 0 {\n        o[g] = %s\n    }\n%s%s", expr,
                   "    q[g] = l + g * 7\n", "    f[g] = d\n}\n\n");
        }
    /* the mask operations: ballot, any, all */
    append(&s, &len, &cap, "%s%s%s",
           "kernel k_masks(c: Ptr[Int32], x: Ptr[Int32], m: Ptr[Uint64], q: Ptr[Int32]) {\n"
           "    let g = block_idx.x * block_dim.x + thread_idx.x\n    let l = fx.lane_id()\n",
           "    if c[g] != 0 {\n        m[g] = fx.ballot(x[g] > 0)\n"
           "        q[g + 64] = fx.any(x[g] > 3).select(1, 0) + fx.all(x[g] > 5).select(2, 0)\n    }\n",
           "    q[g] = l + g\n}\n");
    return s;
}

/* ---- the check ---- */

static const char *const shape_kernels[] = { "after_if", "if_else", "nested", "loop_break", "called", "doubles", "only_else" };

static int opt_level;
static void set_opt(FxOptions *o) { o->opt_level = opt_level; }

static char *assembly(const char *src, const char *arch, int opt)
{
    FxsModule m;
    opt_level = opt;
    char *text = NULL;
    if (fxs_lower_tuned(&m, src, arch, false, set_opt)) {
        CgModule *cg = pipe_codegen(&m.c);
        text = cg ? cg_assembly(cg) : NULL;
        cg_free(cg);
    }
    fxs_close(&m);
    return text;
}

/* Kernel `name` uses whole-wave mode (when it must) and no read mixes a
 * whole-wave write with another value. */
static void expect_clean(const char *text, const char *arch, int opt, const char *name, bool needs_wwm)
{
    char why[2048];
    int bad = wwm_clobbered_reads(text, name, why, sizeof why);
    CU_ASSERT(bad == 0);
    if (bad)
        fprintf(stderr, "\n  %s -O%d %s: %d read(s) may see a whole-wave write meant for other lanes; the first: %s",
                arch, opt, name, bad, bad < 0 ? "(no such function)" : why);
    if (needs_wwm) {
        int n = wwm_regions(text, name);
        CU_ASSERT(n > 0);
        if (n <= 0)
            fprintf(stderr, "\n  %s -O%d %s: no whole-wave region (the check would prove nothing)", arch, opt, name);
    }
}

static void test_shapes(void)
{
    for (int a = 0; a < NARCH; a++)
        for (int opt = 0; opt <= 3; opt++) {
            char *text = assembly(shapes_src, arches[a], opt);
            CU_ASSERT_FATAL(text != NULL);
            for (size_t k = 0; k < sizeof shape_kernels / sizeof shape_kernels[0]; k++)
                expect_clean(text, arches[a], opt, shape_kernels[k], true);
            free(text);
        }
}

static void test_every_operation(void)
{
    char *src = ops_source();
    for (int a = 0; a < NARCH; a++)
        for (int opt = 0; opt <= 3; opt += 3) {
            char *text = assembly(src, arches[a], opt);
            CU_ASSERT_FATAL(text != NULL);
            for (int t = 0; t < NTYPES; t++)
                for (int k = 0; k < NOPS; k++) {
                    char name[64];
                    snprintf(name, sizeof name, "k_%s_%d", ops[k].name, t);
                    expect_clean(text, arches[a], opt, name, k < 3);
                }
            expect_clean(text, arches[a], opt, "k_masks", false);
            free(text);
        }
    free(src);
}

/* The check itself finds the defect in machine code written to have it:
 * a then-block's whole-wave region writes v1, which the else path reads. */
static void test_check_finds_clobber(void)
{
    static const char *const bad =
        "\nk:\n"
        "\tv_mbcnt_lo_u32_b32 v1, -1, 0\n"
        "\ts_and_saveexec_b64 s[0:1], vcc\n"
        "\ts_xor_b64 s[0:1], exec, s[0:1]\n"
        "\ts_cbranch_execz .LBB0_2\n"
        "\ts_or_saveexec_b64 s[2:3], -1\n"
        "\tv_lshlrev_b32_e32 v1, 2, v2\n"
        "\tds_bpermute_b32 v3, v1, v4\n"
        "\ts_mov_b64 exec, s[2:3]\n"
        "\tv_mov_b32_e32 v0, v3\n"
        ".LBB0_2:\n"
        "\ts_andn2_saveexec_b64 s[0:1], s[0:1]\n"
        "\tv_mbcnt_hi_u32_b32 v2, -1, v1\n"
        "\ts_or_b64 exec, exec, s[0:1]\n"
        "\ts_endpgm\n"
        ".Lfunc_end0:\n";
    char why[1024];
    CU_ASSERT_EQUAL(wwm_clobbered_reads(bad, "k", why, sizeof why), 1);
    CU_ASSERT(strstr(why, "v_mbcnt_hi_u32_b32 v2, -1, v1") != NULL);
    CU_ASSERT_EQUAL(wwm_regions(bad, "k"), 1);
    /* the same code with the region writing v5 instead: nothing to report */
    char *good = strdup(bad);
    char *p = strstr(good, "v_lshlrev_b32_e32 v1");
    p[strlen("v_lshlrev_b32_e32 v")] = '5';
    p = strstr(good, "ds_bpermute_b32 v3, v1");
    p[strlen("ds_bpermute_b32 v3, v")] = '5';
    CU_ASSERT_EQUAL(wwm_clobbered_reads(good, "k", why, sizeof why), 0);
    free(good);
    /* the inactive lanes' identity (s_not of exec) is a whole-wave write too */
    static const char *const inv =
        "\nk:\n"
        "\tv_mov_b32_e32 v4, v0\n"
        "\ts_cbranch_execz .LBB0_1\n"
        "\ts_not_b64 exec, exec\n"
        "\tv_mov_b32_e32 v0, 0\n"
        "\ts_not_b64 exec, exec\n"
        ".LBB0_1:\n"
        "\tv_add_u32_e32 v5, v0, v4\n"
        "\ts_endpgm\n"
        ".Lfunc_end0:\n";
    CU_ASSERT_EQUAL(wwm_clobbered_reads(inv, "k", why, sizeof why), 1);
}

/* The register allocation itself: LLVM IR that computes the lane id before
 * a branch, reads it only on the else side and runs a whole-wave butterfly
 * on the then side. With LLVM 19's SIOptimizeVGPRLiveRange the butterfly
 * reuses the lane id's register; fxcc's code generation turns that pass off
 * for the process (cg_module.c), so once fxcc has compiled anything the
 * same IR keeps it. */
static const char *const then_wwm_else_reads_ir =
    "define amdgpu_kernel void @k(ptr addrspace(1) %c, ptr addrspace(1) %x, ptr addrspace(1) %o, ptr addrspace(1) %q) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.amdgcn.workitem.id.x()\n"
    "  %i = zext i32 %t to i64\n"
    "  %lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n"
    "  %lane = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo)\n"
    "  %pc = getelementptr i32, ptr addrspace(1) %c, i64 %i\n"
    "  %cv = load i32, ptr addrspace(1) %pc\n"
    "  %z = icmp eq i32 %cv, 0\n"
    "  br i1 %z, label %else, label %then\n"
    "then:\n"
    "  %px = getelementptr i32, ptr addrspace(1) %x, i64 %i\n"
    "  %xv = load i32, ptr addrspace(1) %px\n"
    "  %a = call i32 @llvm.amdgcn.set.inactive.i32(i32 %xv, i32 0)\n"
    "  %lo2 = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n"
    "  %l2 = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lo2)\n"
    "  %ad = shl i32 %l2, 2\n"
    "  %a1 = xor i32 %ad, 4\n"
    "  %b1 = call i32 @llvm.amdgcn.ds.bpermute(i32 %a1, i32 %a)\n"
    "  %s1 = add i32 %a, %b1\n"
    "  %a2 = xor i32 %ad, 8\n"
    "  %b2 = call i32 @llvm.amdgcn.ds.bpermute(i32 %a2, i32 %s1)\n"
    "  %s2 = add i32 %s1, %b2\n"
    "  %r = call i32 @llvm.amdgcn.strict.wwm.i32(i32 %s2)\n"
    "  %po = getelementptr i32, ptr addrspace(1) %o, i64 %i\n"
    "  store i32 %r, ptr addrspace(1) %po\n"
    "  br label %end\n"
    "else:\n"
    "  %pq = getelementptr i32, ptr addrspace(1) %q, i64 %i\n"
    "  store i32 %lane, ptr addrspace(1) %pq\n"
    "  br label %end\n"
    "end:\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.amdgcn.workitem.id.x()\n"
    "declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)\n"
    "declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)\n"
    "declare i32 @llvm.amdgcn.set.inactive.i32(i32, i32)\n"
    "declare i32 @llvm.amdgcn.ds.bpermute(i32, i32)\n"
    "declare i32 @llvm.amdgcn.strict.wwm.i32(i32)\n"
    ;

static char *ir_assembly(const char *ir, const char *arch)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "then_wwm");
    LLVMModuleRef mod;
    char *msg = NULL, *text = NULL;
    LLVMTargetRef t;
    if (LLVMParseIRInContext(ctx, buf, &mod, &msg) == 0 &&
        LLVMGetTargetFromTriple("amdgcn-amd-amdhsa", &t, &msg) == 0) {
        LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, "amdgcn-amd-amdhsa", arch, "", LLVMCodeGenLevelDefault,
                                                          LLVMRelocPIC, LLVMCodeModelDefault);
        LLVMMemoryBufferRef out;
        if (!LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &out)) {
            size_t n = LLVMGetBufferSize(out);
            text = malloc(n + 1);
            memcpy(text, LLVMGetBufferStart(out), n);
            text[n] = 0;
            LLVMDisposeMemoryBuffer(out);
        }
        LLVMDisposeTargetMachine(tm);
        LLVMDisposeModule(mod);
    }
    if (msg)
        fprintf(stderr, "\n  %s", msg);
    LLVMDisposeMessage(msg);
    LLVMContextDispose(ctx);
    return text;
}

static void test_register_allocation(void)
{
    char *warm = assembly("kernel k(p: Ptr[Int32]) {\n    p[0] = 1\n}\n", "gfx942", 2);
    CU_ASSERT_FATAL(warm != NULL);
    free(warm);
    for (int a = 0; a < NARCH; a++) {
        char *text = ir_assembly(then_wwm_else_reads_ir, arches[a]);
        CU_ASSERT_FATAL(text != NULL);
        expect_clean(text, arches[a], 2, "k", true);
        free(text);
    }
}

static const FxtTest wwm_tests[] = {
    { "check finds a clobber", test_check_finds_clobber },
    { "register allocation keeps the else side's values", test_register_allocation },
    { "shapes of divergence", test_shapes },
    { "every wave operation under an if", test_every_operation },
    { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "whole-wave", wwm_tests, NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
