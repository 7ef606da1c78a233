/* test_nowrap.c - no-wrap flags end to end (issue 13; passes/int_ranges.c):
 * the LLVM IR carries nsw/nuw exactly where the int-ranges pass proved them
 * or an @index_nowrap kernel promised them, and nowhere else; host code
 * checks the promise instead of trusting it; and with the promise sgemm's
 * global accesses share addresses through immediate offsets on gfx942.
 * Every module is built through the whole pipeline, which runs LLVM's
 * verifier on it (fxsource.h). */
#include "fxtest.h"
#include "fxsource.h"
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/codegen.h"

static const char flags_src[] =
    "@launch_bounds(256)\n"
    "kernel proved(p: Ptr[Int32], n: Int32) {\n"
    "    let t = thread_idx.x\n"
    "    p[t * 4 + 3] = n * n + t\n"          /* t*4, +3: proved; n*n, +t: not */
    "}\n"
    "\n"
    "@index_nowrap\n"
    "kernel promised(p: Ptr[Int32], n: Int32, u: Uint32) {\n"
    "    p[thread_idx.x] = n * n - 1\n"        /* promised: signed */
    "    p[0] = Int32(u * u)\n"                /* unsigned: no promise */
    "}\n";

static void opt0(FxOptions *o) { o->opt_level = 0; }

/* "mul nuw nsw, add" ...: the integer add/sub/mul of function `name` in
 * order, with their flags (malloc'd). */
static char *arith_flags(LLVMModuleRef mod, const char *name)
{
    char *out = calloc(1, 4096);
    LLVMValueRef fn = LLVMGetNamedFunction(mod, name);
    for (LLVMBasicBlockRef b = fn ? LLVMGetFirstBasicBlock(fn) : NULL; b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
            LLVMOpcode op = LLVMGetInstructionOpcode(i);
            if ((op != LLVMAdd && op != LLVMSub && op != LLVMMul) || !out || strlen(out) > 4000)
                continue;
            snprintf(out + strlen(out), 4096 - strlen(out), "%s%s%s%s", out[0] ? ", " : "",
                     op == LLVMAdd ? "add" : op == LLVMSub ? "sub" : "mul", LLVMGetNUW(i) ? " nuw" : "",
                     LLVMGetNSW(i) ? " nsw" : "");
        }
    return out;
}

static bool has_call_to(LLVMModuleRef mod, const char *prefix)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
        size_t n;
        const char *name = LLVMGetValueName2(f, &n);
        if (!strncmp(name, prefix, strlen(prefix)) && LLVMGetFirstUse(f))
            return true;
    }
    return false;
}

/* The flags as emitted (-O0, so LLVM has not rewritten anything). */
static void test_ir_flags(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_lower_tuned(&m, flags_src, "gfx942", false, opt0));
    CgModule *cg = pipe_codegen(&m.c);
    CU_ASSERT_FATAL(cg != NULL);
    LLVMModuleRef mod = cg_llvm_module(cg);
    char *proved = arith_flags(mod, "proved"), *promised = arith_flags(mod, "promised");
    CU_ASSERT_STRING_EQUAL(proved, "mul nuw nsw, add nuw nsw, mul, add");
    CU_ASSERT_STRING_EQUAL(promised, "mul nsw, sub nsw, mul");
    if (strcmp(proved, "mul nuw nsw, add nuw nsw, mul, add") || strcmp(promised, "mul nsw, sub nsw, mul"))
        fprintf(stderr, "\n  proved: %s\n  promised: %s", proved, promised);
    free(proved);
    free(promised);
    cg_free(cg);
    fxs_close(&m);
}

/* On the host the promise is checked (the overflow intrinsics), and the
 * proved operations need no check. */
static void test_host_checks(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_lower_tuned(&m, flags_src, NULL, true, opt0));
    CgModule *cg = pipe_codegen(&m.c);
    CU_ASSERT_FATAL(cg != NULL);
    LLVMModuleRef mod = cg_llvm_module(cg);
    CU_ASSERT(has_call_to(mod, "llvm.smul.with.overflow"));
    CU_ASSERT(has_call_to(mod, "llvm.ssub.with.overflow"));
    CU_ASSERT(!has_call_to(mod, "llvm.sadd.with.overflow"));   /* proved's adds are not promises */
    CU_ASSERT(!has_call_to(mod, "llvm.umul.with.overflow"));   /* unsigned wraps, promise or not */
    cg_free(cg);
    fxs_close(&m);
}

/* A promise kept runs; a broken one stops the launch (the message and
 * exit status are tests/driver/run/nowrap_*'s). */
static void test_host_run(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, flags_src));
    int32_t p[4] = { 0 }, n = 46340, u = 3;   /* 46340^2 - 1 fits */
    void *pp = p;
    void *args[3] = { &pp, &n, &u };
    size_t bytes[3] = { sizeof p, 0, 0 };
    CU_ASSERT(fxs_launch(&m, "promised", 1, 4, args, bytes));
    CU_ASSERT_EQUAL(p[0], 9);
    CU_ASSERT_EQUAL(p[1], 46340 * 46340 - 1);
    n = 46341;                                /* 46341^2 > 2^31 - 1 */
    fprintf(stderr, "\n  (an overflow report is expected next)");
    CU_ASSERT(!fxs_launch(&m, "promised", 1, 4, args, bytes));
    fxs_close(&m);
}

static char *sgemm_source(bool nowrap)
{
    char *src = fxt_read_file(KERNEL_DIR "/sgemm.fx");
    CU_ASSERT_PTR_NOT_NULL_FATAL(src);
    char *at = strstr(src, "@launch_bounds");
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    if (!nowrap)
        return src;
    const char *dec = "@index_nowrap\n";
    char *out = malloc(strlen(src) + strlen(dec) + 1);
    sprintf(out, "%.*s%s%s", (int)(at - src), src, dec, at);
    free(src);
    return out;
}

typedef struct Isa {
    int instrs, vmem, with_offset;
} Isa;

/* Counts over the kernel's body: instructions, global loads and stores,
 * and those of them that reach their address through an immediate offset. */
static Isa sgemm_isa(bool nowrap)
{
    Isa r = { 0 };
    FxsModule m;
    char *src = sgemm_source(nowrap);
    char *s = fxs_assembly(&m, src, "gfx942");
    free(src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    char *body = strstr(s, "\nsgemm:"), *end = body ? strstr(body, ".Lfunc_end") : NULL;
    CU_ASSERT_FATAL(body && end);
    for (char *l = strchr(body + 1, '\n'); l && l < end; l = strchr(l + 1, '\n')) {
        const char *t = l + 1;
        if (*t != '\t' || t[1] == '.' || t[1] == ';')
            continue;
        size_t len = strcspn(t, "\n");
        r.instrs++;
        if (!strncmp(t + 1, "global_load", 11) || !strncmp(t + 1, "global_store", 12)) {
            r.vmem++;
            for (size_t k = 0; k + 7 <= len; k++)
                if (!strncmp(t + k, "offset:", 7)) {
                    r.with_offset++;
                    break;
                }
        }
    }
    free(s);
    fxs_close(&m);
    return r;
}

/* Without the promise every one of sgemm's 24 global accesses computes its
 * own 64-bit address (`... + 16 * q` may wrap in Int32 before widening);
 * with it the four loads of B and the four stores of each row of C share
 * one address and immediate offsets 64, 128 and 192, as clang's code does. */
static void test_sgemm_offsets(void)
{
    Isa plain = sgemm_isa(false), nw = sgemm_isa(true);
    CU_ASSERT_EQUAL(plain.vmem, 24);
    CU_ASSERT_EQUAL(nw.vmem, 24);
    CU_ASSERT_EQUAL(plain.with_offset, 0);
    CU_ASSERT(nw.with_offset >= 15);
    CU_ASSERT(nw.instrs < plain.instrs);
    fprintf(stderr, "\n  sgemm gfx942: %d instructions, %d with an offset; @index_nowrap: %d, %d", plain.instrs,
            plain.with_offset, nw.instrs, nw.with_offset);
}

static const FxtTest tests[] = {
    { "IR flags: proved, promised, neither", test_ir_flags },
    { "host code checks promises only", test_host_checks },
    { "host run: promise kept, promise broken", test_host_run },
    { "sgemm gfx942: immediate offsets with @index_nowrap", test_sgemm_offsets },
    { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "nowrap", tests, NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
