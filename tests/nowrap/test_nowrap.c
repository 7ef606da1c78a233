/* test_nowrap.c - no-wrap flags end to end (issue 13; passes/int_ranges.c):
 * the LLVM IR carries nsw/nuw exactly where the int-ranges pass proved them,
 * the index rule derived them (GPU code only) or an @index_nowrap kernel
 * promised them, and nowhere else; host code checks the promise instead of
 * trusting it; and sgemm's global accesses share addresses through
 * immediate offsets on gfx942.
 * Every module is built through the whole pipeline, which runs LLVM's
 * verifier on it (fxsource.h). */
#include "fxtest.h"
#include "fxsource.h"
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codegen/codegen.h"
#include "isa.h"

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

/* `from` replaced by `to` everywhere in src (src freed; malloc'd). */
static char *replace_all(char *src, const char *from, const char *to)
{
    size_t n = 0, lf = strlen(from), lt = strlen(to);
    for (const char *p = strstr(src, from); p; p = strstr(p + lf, from))
        n++;
    char *out = malloc(strlen(src) + n * lt + 1), *o = out;
    const char *s = src;
    for (const char *p = strstr(s, from); p; s = p + lf, p = strstr(s, from)) {
        memcpy(o, s, (size_t)(p - s));
        o += p - s;
        memcpy(o, to, lt);
        o += lt;
    }
    strcpy(o, s);
    free(src);
    return out;
}

/* bench/perf's sgemm, optionally @index_nowrap, optionally reaching B and
 * C through views (B + 0), whose indices may be negative. */
static char *sgemm_source(bool nowrap, bool views)
{
    char *src = fxt_read_file(KERNEL_DIR "/sgemm.fx");
    CU_ASSERT_PTR_NOT_NULL_FATAL(src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(strstr(src, "@launch_bounds"));
    if (nowrap)
        src = replace_all(src, "@launch_bounds", "@index_nowrap\n@launch_bounds");
    if (views) {
        src = replace_all(src, "B[", "Bv[");
        src = replace_all(src, "C[", "Cv[");
        src = replace_all(src, "let t = thread_idx.x", "let Bv = B + 0\n    let Cv = C + 0\n    let t = thread_idx.x");
    }
    return src;
}

/* Instructions of an isa_kernel body that start with `mnemonic` and
 * contain `with` ("" for any). */
static int lines_with(const char *body, const char *mnemonic, const char *with)
{
    int n = 0;
    for (const char *l = body; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        size_t len = strcspn(l, "\n");
        if (strncmp(l, mnemonic, strlen(mnemonic)) != 0)
            continue;
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)(len < 255 ? len : 255), l);
        n += strstr(line, with) != NULL;
    }
    return n;
}

typedef struct Isa {
    int instrs, vmem, with_offset;
} Isa;

/* Counts over the kernel's body: instructions, global loads and stores,
 * and those of them that reach their address through an immediate offset. */
static Isa sgemm_isa(bool nowrap, bool views)
{
    Isa r = { 0 };
    FxsModule m;
    char *src = sgemm_source(nowrap, views);
    char *s = fxs_assembly(&m, src, "gfx942");
    free(src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    char *body = isa_kernel(s, "sgemm", &r.instrs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(body);
    r.vmem = lines_with(body, "global_load", "") + lines_with(body, "global_store", "");
    r.with_offset = lines_with(body, "global_load", "offset:") + lines_with(body, "global_store", "offset:");
    free(body);
    free(s);
    fxs_close(&m);
    return r;
}

/* sgemm's indices into B and C end in `+ 16 * q` (or `+ tx`): the index
 * rule gives that last add nsw, so the four loads of B and the four stores
 * of each row of C share one address and immediate offsets 64, 128 and 192,
 * as clang's code does, with or without the promise. Through views the
 * rule does not apply: every one of the 24 global accesses computes its own
 * 64-bit address (the add may wrap before widening) unless the kernel is
 * @index_nowrap. */
static void test_sgemm_offsets(void)
{
    Isa plain = sgemm_isa(false, false), nw = sgemm_isa(true, false);
    Isa views = sgemm_isa(false, true), views_nw = sgemm_isa(true, true);
    CU_ASSERT(plain.vmem == 24 && nw.vmem == 24 && views.vmem == 24 && views_nw.vmem == 24);
    CU_ASSERT(plain.with_offset >= 15);
    CU_ASSERT(nw.with_offset >= 15);
    CU_ASSERT_EQUAL(views.with_offset, 0);
    CU_ASSERT(views_nw.with_offset >= 15);
    CU_ASSERT(plain.instrs < views.instrs);
    fprintf(stderr, "\n  sgemm gfx942: %d instructions, %d with an offset; @index_nowrap: %d, %d;"
            " through views: %d, %d; views and @index_nowrap: %d, %d", plain.instrs, plain.with_offset, nw.instrs,
            nw.with_offset, views.instrs, views.with_offset, views_nw.instrs, views_nw.with_offset);
}

/* The index rule in LLVM IR: `p[n + t]` is an add nsw in GPU code, a plain
 * add in host code (which checks the index it gives: the run goldens
 * index_wrap and index_ok). */
static void test_index_rule(void)
{
    static const char src[] = "kernel poke(p: Ptr[Int32], n: Int32) {\n"
                              "    p[n + thread_idx.x] = 7\n"
                              "}\n";
    for (int host = 0; host < 2; host++) {
        FxsModule m;
        CU_ASSERT_FATAL(fxs_lower_tuned(&m, src, host ? NULL : "gfx942", host, opt0));
        CgModule *cg = pipe_codegen(&m.c);
        CU_ASSERT_FATAL(cg != NULL);
        char *flags = arith_flags(cg_llvm_module(cg), host ? "poke__fxhost" : "poke");
        CU_ASSERT_STRING_EQUAL(flags, host ? "add" : "add nsw");
        if (strcmp(flags, host ? "add" : "add nsw"))
            fprintf(stderr, "\n  %s: %s", host ? "host" : "gfx942", flags);
        free(flags);
        cg_free(cg);
        fxs_close(&m);
    }
}

/* A 2-byte element of a Ptr parameter at an Int32 index is reached through
 * a 32-bit byte offset and the parameter in SGPRs (`global_store_short
 * vOFF, vDATA, s[..]`), the index being non-negative in a program without
 * out-of-bounds accesses; a 4-byte element (its byte offset may pass 2^32)
 * and any access through a view keep a 64-bit address (`off`). */
static void test_param_offsets(void)
{
    static const char src[] =
        "kernel halves(x: const Ptr[Float32], a: Ptr[Float16], b: Ptr[Float16], n: Int32) {\n"
        "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
        "    if i < n {\n"
        "        a[i] = x[i].to(Float16)\n"
        "        b[i] = (x[i] * 2.0).to(Float16)\n"
        "    }\n"
        "}\n"
        "kernel viewed(x: const Ptr[Float32], a: Ptr[Float16], n: Int32) {\n"
        "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
        "    let v = a + 0\n"
        "    if i < n {\n"
        "        v[i] = x[i].to(Float16)\n"
        "    }\n"
        "}\n";
    FxsModule m;
    char *s = fxs_assembly(&m, src, "gfx942");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    int n;
    char *halves = isa_kernel(s, "halves", &n), *viewed = isa_kernel(s, "viewed", &n);
    CU_ASSERT_FATAL(halves && viewed);
    CU_ASSERT_EQUAL(lines_with(halves, "global_store_short", ", s["), 2);
    CU_ASSERT_EQUAL(lines_with(halves, "global_store_short", ", off"), 0);
    CU_ASSERT_EQUAL(lines_with(halves, "global_load_dword", ", off"), 1);
    CU_ASSERT_EQUAL(lines_with(viewed, "global_store_short", ", off"), 1);
    CU_ASSERT_EQUAL(lines_with(viewed, "global_store_short", ", s["), 0);
    free(halves);
    free(viewed);
    free(s);
    fxs_close(&m);
}

static const FxtTest tests[] = {
    { "IR flags: proved, promised, neither", test_ir_flags },
    { "host code checks promises only", test_host_checks },
    { "host run: promise kept, promise broken", test_host_run },
    { "index rule: nsw on the GPU, wrapping and checked on the host", test_index_rule },
    { "gfx942: 2-byte parameter elements through a 32-bit offset", test_param_offsets },
    { "sgemm gfx942: immediate offsets (index rule, views, @index_nowrap)", test_sgemm_offsets },
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
