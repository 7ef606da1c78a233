/* test_codegen.c - FXIR printing and FXIR -> LLVM for the AMDGPU and host
 * targets: modules verify, code objects link and carry the kernel descriptor
 * and the processor name, every construct of stage 1 compiles for gfx90a,
 * gfx942, gfx1100 and gfx1201 without tripping the backend, and unsupported
 * constructs get located errors instead of wrong code or a crash. */
#include "fxtest.h"
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Object.h>
#include "codegen/codegen.h"
#include "passes/passes.h"
#include "fxk.h"
#include "isa.h"

static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };
enum { NARCH = 4 };
static char g_dir[64];

/* ---- helpers ---- */


static bool contains(const char *hay, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(hay + i, needle, m) == 0)
            return true;
    return false;
}

static int count_dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void clear_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[512];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
}

static bool has_symbol(const char *path, const char *sym)
{
    LLVMMemoryBufferRef mb;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) {
        LLVMDisposeMessage(msg);
        return false;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMBinaryRef bin = LLVMCreateBinary(mb, ctx, &msg);
    bool found = false;
    if (bin) {
        LLVMSymbolIteratorRef si = LLVMObjectFileCopySymbolIterator(bin);
        while (!LLVMObjectFileIsSymbolIteratorAtEnd(bin, si)) {
            if (strcmp(LLVMGetSymbolName(si), sym) == 0)
                found = true;
            LLVMMoveToNextSymbol(si);
        }
        LLVMDisposeSymbolIterator(si);
        LLVMDisposeBinary(bin);
    } else {
        LLVMDisposeMessage(msg);
    }
    LLVMDisposeMemoryBuffer(mb);
    LLVMContextDispose(ctx);
    return found;
}

/* Diagnostics go to a temporary file while `body` runs. */
static FILE *g_diag;
static void capture_diags(void)
{
    g_diag = tmpfile();
    diag_set_stream(g_diag);
    diag_reset();
}
static char *captured(void)
{
    fflush(g_diag);
    long n = ftell(g_diag);
    rewind(g_diag);
    char *s = calloc(1, (size_t)n + 1);
    if (fread(s, 1, (size_t)n, g_diag) != (size_t)n)
        s[0] = 0;
    fclose(g_diag);
    diag_set_stream(stderr);
    return s;
}

/* ---- printer ---- */

static const char saxpy_text[] =
    "@launch_bounds(256)\n"
    "kernel saxpy(%x: const Ptr[Float32], %y: Ptr[Float32], %a: Float32, %n: Int32) {\n"
    "  %0 = special.block_idx.x : Int32\n"
    "  %1 = special.block_dim.x : Int32\n"
    "  %2 = binop.mul %0, %1 : Int32\n"
    "  %3 = special.thread_idx.x : Int32\n"
    "  %4 = binop.add %2, %3 : Int32  # i\n"
    "  %5 = cmp.lt %4, %n : Boolean\n"
    "  if %5 {\n"
    "    %6 = load %x[%4] : Float32\n"
    "    %7 = binop.mul %a, %6 : Float32\n"
    "    %8 = load %y[%4] : Float32\n"
    "    %9 = binop.add %7, %8 : Float32\n"
    "    store %y[%4] = %9\n"
    "  }\n"
    "}\n";

static void test_print_saxpy(void)
{
    Kb k = fxk_begin("p.fx");
    FxFunc *f = fxk_saxpy(&k, "saxpy");
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fxir_print_func(m, f);
    fclose(m);
    CU_ASSERT_STRING_EQUAL(buf, saxpy_text);
    free(buf);
    /* deterministic: printing twice gives the same text */
    m = open_memstream(&buf, &len);
    fxir_print_func(m, f);
    fclose(m);
    CU_ASSERT_STRING_EQUAL(buf, saxpy_text);
    free(buf);
    fxk_end(&k);
}

static void test_print_details(void)
{
    Kb k = fxk_begin("p.fx");
    fxk_func(&k, "details", FXF_KERNEL, 1, NULL);
    fxk_param_decl(&k, 0, "p", fxk_ptr(&k, SC_FLOAT16, false));
    FxInst *p = fxk_param(&k, 0);
    FxInst *c = fxk_int(&k, SC_INT8, -56);
    FxInst *big = fxk_int128(&k, SC_UINT128, ~UINT64_C(0), ~UINT64_C(0));
    FxInst *neg = fxk_int128(&k, SC_INT128, 0, UINT64_C(1) << 63);
    FxInst *f = fxk_f32(&k, 0.1f);
    FxInst *t = fxk_op(&k, FX_CONST, 0, fxk_s(SC_BOOLEAN), 0);
    t->cval.lo = 1;
    FxInst *h = fxk_op(&k, FX_CAST, 0, fxk_s(SC_FLOAT16), 1, f);
    h->rounding = FF_DOWN;
    h->fmf = FMF_NNAN | FMF_NINF;
    FxInst *e = fxk_op(&k, FX_MATH, FXM_EXP, fxk_s(SC_FLOAT32), 1, f);
    e->fmf = FMF_FAST;
    fxk_op(&k, FX_STORE, 0, NULL, 3, p, h, c);
    (void)big;
    (void)neg;
    (void)t;
    fxk_op(&k, FX_BARRIER, 0, NULL, 0);
    fxk_op(&k, FX_RETURN, 0, NULL, 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    fxir_print_module(m, k.m);
    fclose(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "%0 = const -56 : Int8\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "%1 = const 340282366920938463463374607431768211455 : Uint128\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "%2 = const -170141183460469231731687303715884105728 : Int128\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "%3 = const 0.1 : Float32\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "%4 = const True : Boolean\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "%5 = cast %3 : Float16 {nnan,ninf, round=downward}\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "%6 = math.exp %3 : Float32 {fast}\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  store %p[%0] = %5\n  barrier\n  return\n}\n"));
    CU_ASSERT_STRING_EQUAL(fxir_opcode_name(FX_ATOMIC), "atomic");
    CU_ASSERT_STRING_EQUAL(fxir_opcode_name(FX_OPCODE_COUNT), "?");
    free(buf);
    /* loops: cond block, "while", body, step */
    Kb k2 = fxk_begin("l.fx");
    fxk_loop(&k2);
    m = open_memstream(&buf, &len);
    fxir_print_module(m, k2.m);
    fclose(m);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  loop {\n    %4 = load %2 : Int32\n    %5 = cmp.lt %4, %n : Boolean\n"
                                       "  } while %5 {\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "      continue\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "  } step {\n"));
    free(buf);
    fxk_end(&k2);
    fxk_end(&k);
}

/* ---- targets ---- */

static void test_saxpy_ir(void)
{
    Kb k = fxk_begin("saxpy.fx");
    fxk_saxpy(&k, "saxpy");
    CgOptions o = { .target = tgt_lookup("gfx942"), .opt_level = 3 };
    CgModule *cm = cg_build(k.m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
    char *ir = LLVMPrintModuleToString(cg_llvm_module(cm));
    CU_ASSERT_PTR_NOT_NULL(strstr(ir, "target triple = \"amdgcn-amd-amdhsa\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(ir, "define amdgpu_kernel void @saxpy(ptr addrspace(1) noalias readonly %x, "
                                      "ptr addrspace(1) %y, float %a, i32 %n)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ir, "\"amdgpu-flat-work-group-size\"=\"1,256\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(ir, "!{i32 1, !\"amdhsa_code_object_version\", i32 500}"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ir, "@llvm.amdgcn.workitem.id.x()"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ir, "@llvm.amdgcn.workgroup.id.x()"));
    CU_ASSERT_PTR_NOT_NULL(strstr(ir, "@llvm.amdgcn.implicitarg.ptr()"));
    LLVMDisposeMessage(ir);
    CU_ASSERT(cg_optimize(cm));
    LLVMValueRef fn = LLVMGetNamedFunction(cg_llvm_module(cm), "saxpy");
    CU_ASSERT_PTR_NOT_NULL(fn);
    if (fn)
        CU_ASSERT_EQUAL(LLVMGetFunctionCallConv(fn), LLVMAMDGPUKERNELCallConv);
    cg_free(cm);
    fxk_end(&k);
}

static void test_hsaco_archs(void)
{
    Kb k = fxk_begin("saxpy.fx");
    fxk_saxpy(&k, "saxpy");
    for (int a = 0; a < NARCH; a++) {
        clear_dir(g_dir);
        CgOptions o = { .target = tgt_lookup(archs[a]), .opt_level = 3 };
        CgModule *cm = cg_build(k.m, &o);
        CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
        CU_ASSERT(cg_optimize(cm));
        char path[256];
        snprintf(path, sizeof path, "%s/saxpy-%s.hsaco", g_dir, archs[a]);
        CU_ASSERT_FATAL(cg_write(cm, CG_OUT_HSACO, path));
        CU_ASSERT_EQUAL(count_dir_entries(g_dir), 1); /* no temporaries left behind */
        size_t len;
        char *bin = fxt_read_bytes(path, &len);
        CU_ASSERT_PTR_NOT_NULL_FATAL(bin);
        CU_ASSERT(len > 64 && memcmp(bin, "\177ELF", 4) == 0);
        CU_ASSERT_EQUAL(bin[16], 3); /* ET_DYN: a linked code object */
        char target[64];
        snprintf(target, sizeof target, "amdgcn-amd-amdhsa--%s", archs[a]);
        CU_ASSERT(contains(bin, len, target));
        CU_ASSERT(has_symbol(path, "saxpy.kd"));
        CU_ASSERT(has_symbol(path, "saxpy"));
        free(bin);
        cg_free(cm);
    }
    clear_dir(g_dir);
    fxk_end(&k);
}

static void test_output_kinds(void)
{
    Kb k = fxk_begin("saxpy.fx");
    fxk_saxpy(&k, "saxpy");
    fxk_reverse(&k)->launch_bounds = 256; /* more than one wave: a real s_barrier */
    CgOptions o = { .target = tgt_lookup("gfx942"), .opt_level = 3 };
    CgModule *cm = cg_build(k.m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
    CU_ASSERT(cg_optimize(cm));
    char p[256];
    size_t len;
    char *s;
    clear_dir(g_dir);

    snprintf(p, sizeof p, "%s/k.s", g_dir);
    CU_ASSERT_FATAL(cg_write(cm, CG_OUT_ASM, p));
    s = fxt_read_bytes(p, &len);
    CU_ASSERT(contains(s, len, "global_load_dword"));
    CU_ASSERT(contains(s, len, ".amdhsa_kernel saxpy"));
    CU_ASSERT(contains(s, len, "s_barrier"));
    CU_ASSERT(contains(s, len, "ds_write_b32"));
    free(s);
    /* a second emission from the same module works (the module is cloned) */
    CU_ASSERT(cg_write(cm, CG_OUT_ASM, p));

    snprintf(p, sizeof p, "%s/k.ll", g_dir);
    CU_ASSERT_FATAL(cg_write(cm, CG_OUT_LL, p));
    s = fxt_read_bytes(p, &len);
    CU_ASSERT(strncmp(s, "; ModuleID", 10) == 0);
    CU_ASSERT(contains(s, len, "addrspace(3) global [64 x float]"));
    CU_ASSERT(contains(s, len, "fence syncscope(\"workgroup\") release"));
    free(s);

    snprintf(p, sizeof p, "%s/k.bc", g_dir);
    CU_ASSERT_FATAL(cg_write(cm, CG_OUT_BC, p));
    s = fxt_read_bytes(p, &len);
    CU_ASSERT(len > 4 && memcmp(s, "BC\xC0\xDE", 4) == 0);
    free(s);

    snprintf(p, sizeof p, "%s/k.o", g_dir);
    CU_ASSERT_FATAL(cg_write(cm, CG_OUT_OBJ, p));
    s = fxt_read_bytes(p, &len);
    CU_ASSERT(len > 64 && memcmp(s, "\177ELF", 4) == 0 && s[16] == 1); /* ET_REL */
    free(s);
    CU_ASSERT(has_symbol(p, "saxpy.kd"));
    CU_ASSERT_EQUAL(count_dir_entries(g_dir), 4);

    /* failures leave nothing behind */
    capture_diags();
    CU_ASSERT(!cg_write(cm, CG_OUT_LL, "/nonexistent-dir/k.ll"));
    snprintf(p, sizeof p, "%s/missing/k.hsaco", g_dir);
    CU_ASSERT(!cg_write(cm, CG_OUT_HSACO, p));
    char *d = captured();
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "cannot write '/nonexistent-dir/k.ll'"));
    free(d);
    CU_ASSERT_EQUAL(count_dir_entries(g_dir), 4);
    clear_dir(g_dir);
    cg_free(cm);
    fxk_end(&k);
}

/* Occurrences of `what` in text[from, to). */
static int count_in(const char *from, const char *to, const char *what)
{
    int n = 0;
    for (const char *q = strstr(from, what); q && q < to; q = strstr(q + 1, what))
        n++;
    return n;
}

/* The bounds check's call is declared as changing only the runtime's state
 * (fxhost.h), and the bounds are invariant loads from a dereferenceable
 * array: at -O3 the block's checked work-item loop reads only x[i] and y[i]
 * (once more on the cold path after a failed check); the bounds are read
 * before it. Without the declarations every iteration reloaded the bounds pointer,
 * both bounds, the block's index and size and the handler's address. */
static void test_host_bounds_leave_the_loop(void)
{
    Kb k = fxk_begin("bounds.fx");
    fxk_saxpy(&k, "saxpy");
    CgOptions o = { .target = tgt_host(), .opt_level = 3 };
    CgModule *cm = cg_build(k.m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
    CU_ASSERT_FATAL(cg_optimize(cm));
    char *ir = LLVMPrintModuleToString(cg_llvm_module(cm));
    const char *fn = strstr(ir, "define void @saxpy__fxblock(");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fn);
    /* the checked loop comes after the one whose accesses are proved per
     * block (host/cg_hostproof.c): the last work-item loop */
    const char *end = strstr(fn, "\n}\n"), *loop = NULL;
    for (const char *q = strstr(fn, "\nitem.x"); q && q < end; q = strstr(q + 1, "\nitem.x"))
        loop = q;
    CU_ASSERT_FATAL(loop && end && loop < end);
    CU_ASSERT(count_in(fn, loop, " = load i64, ") >= 2);   /* x's and y's bounds, hoisted */
    CU_ASSERT_EQUAL(count_in(loop, end, " = load i64, "), 0);
    CU_ASSERT(count_in(loop, end, " = load ") <= 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(ir, "memory(read, inaccessiblemem: readwrite)"));
    LLVMDisposeMessage(ir);
    cg_free(cm);
    fxk_end(&k);
}

static void test_host_module(void)
{
    Kb k = fxk_begin("host.fx");
    fxk_saxpy(&k, "saxpy");
    fxk_reverse(&k);
    fxk_saxpy_call(&k);
    CgOptions o = { .target = tgt_host(), .opt_level = 2 };
    CgModule *cm = cg_build(k.m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
    LLVMModuleRef m = cg_llvm_module(cm);
    CU_ASSERT_PTR_NOT_NULL(LLVMGetNamedFunction(m, "saxpy__fxhost"));
    /* reverse's barrier is reached by every work-item: the kernel runs the
     * whole block as work-item loops, with no per-work-item entry */
    CU_ASSERT_PTR_NULL(LLVMGetNamedFunction(m, "reverse__fxhost"));
    CU_ASSERT_PTR_NOT_NULL(LLVMGetNamedFunction(m, "reverse__fxblock"));
    LLVMValueRef g = LLVMGetNamedGlobal(m, "reverse__fxshared");
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    CU_ASSERT_EQUAL(LLVMConstIntGetZExtValue(LLVMGetInitializer(g)), 256);
    g = LLVMGetNamedGlobal(m, "reverse__fxsync");
    CU_ASSERT_EQUAL(LLVMConstIntGetZExtValue(LLVMGetInitializer(g)), 0);
    g = LLVMGetNamedGlobal(m, "saxpy__fxsync");
    CU_ASSERT_EQUAL(LLVMConstIntGetZExtValue(LLVMGetInitializer(g)), 0);
    g = LLVMGetNamedGlobal(m, "saxpy__fxshared");
    CU_ASSERT_EQUAL(LLVMConstIntGetZExtValue(LLVMGetInitializer(g)), 0);
    /* parameter names and Ptr strides, ended by { NULL, 0 } */
    g = LLVMGetNamedGlobal(m, "saxpy__fxparams");
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    LLVMValueRef tab = LLVMGetInitializer(g);
    CU_ASSERT_EQUAL(LLVMGetArrayLength2(LLVMTypeOf(tab)), 5);
    CU_ASSERT_EQUAL(LLVMConstIntGetZExtValue(LLVMGetOperand(LLVMGetOperand(tab, 1), 1)), 4);  /* y: Float32 */
    CU_ASSERT_EQUAL(LLVMConstIntGetZExtValue(LLVMGetOperand(LLVMGetOperand(tab, 2), 1)), 0);  /* a: scalar */
    /* fns take one i32 origin per Ptr parameter before the context */
    LLVMValueRef fn = LLVMGetNamedFunction(m, "fx.fn.axpy1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(fn);
    CU_ASSERT_EQUAL(LLVMCountParams(fn), 4); /* a, x, y (no Ptr), ctx */
    CU_ASSERT(cg_optimize(cm));
    clear_dir(g_dir);
    char p[256];
    snprintf(p, sizeof p, "%s/h.o", g_dir);
    CU_ASSERT(cg_write(cm, CG_OUT_OBJ, p));
    CU_ASSERT(has_symbol(p, "saxpy__fxhost"));
    capture_diags();
    snprintf(p, sizeof p, "%s/h.hsaco", g_dir);
    CU_ASSERT(!cg_write(cm, CG_OUT_HSACO, p));
    free(captured());
    CU_ASSERT_EQUAL(count_dir_entries(g_dir), 1);
    clear_dir(g_dir);
    cg_free(cm);
    /* --host-barriers=fibers: a work-item entry for fibers, K__fxsync 1 */
    o.host_fibers = true;
    cm = cg_build(k.m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
    m = cg_llvm_module(cm);
    CU_ASSERT_PTR_NOT_NULL(LLVMGetNamedFunction(m, "reverse__fxhost"));
    CU_ASSERT_PTR_NULL(LLVMGetNamedFunction(m, "reverse__fxblock"));
    g = LLVMGetNamedGlobal(m, "reverse__fxsync");
    CU_ASSERT_EQUAL(LLVMConstIntGetZExtValue(LLVMGetInitializer(g)), 1);
    cg_free(cm);
    fxk_end(&k);
}

/* ---- everything of stage 1, for every tested processor ---- */

static const ScalarId ints[] = { SC_INT4, SC_INT8, SC_INT16, SC_INT32, SC_INT64, SC_INT128, SC_UINT8,
                                 SC_UINT16, SC_UINT32, SC_UINT64, SC_UINT128, SC_INDEX };
static const ScalarId floats[] = { SC_FLOAT16, SC_BFLOAT16, SC_FLOAT32, SC_FLOAT64 };

static char *nm(Kb *k, const char *w, ScalarId a, int x)
{
    return arena_printf(k->a, "%s_%s_%d", w, type_info(a)->name, x);
}

static void build_everything(Kb *k)
{
    fxk_saxpy(k, "saxpy");
    fxk_saxpy_call(k);
    fxk_loop(k);
    fxk_reverse(k);
    fxk_atomic_kernel(k, "counter");
    for (size_t t = 0; t < sizeof ints / sizeof ints[0]; t++) {
        ScalarId s = ints[t];
        for (int op = 0; op < FXB_COUNT; op++)
            if (op != FXB_DIV)
                fxk_binop_kernel(k, nm(k, "bin", s, op), s, op);
        fxk_binop_kernel(k, nm(k, "ceildiv", s, 0), s, -1);
        for (int u = 0; u < 3; u++)
            fxk_unop_kernel(k, nm(k, "un", s, u), s, u);
        for (int c = 0; c < 6; c++)
            fxk_cmp_kernel(k, nm(k, "cmp", s, c), s, c);
        if (s != SC_INDEX)
            for (int w = 0; w < 2; w++)
                fxk_minmax_kernel(k, nm(k, "mm", s, w), s, w);
        for (size_t f = 0; f < 4; f++) {
            fxk_cast_kernel(k, arena_printf(k->a, "c_%d_%d", (int)s, (int)floats[f]), s, floats[f]);
            fxk_cast_kernel(k, arena_printf(k->a, "c_%d_%d", (int)floats[f], (int)s), floats[f], s);
        }
        for (size_t u = 0; u < sizeof ints / sizeof ints[0]; u++)
            if (u != t)
                fxk_cast_kernel(k, arena_printf(k->a, "c_%d_%d", (int)s, (int)ints[u]), s, ints[u]);
    }
    for (size_t t = 0; t < 4; t++) {
        ScalarId s = floats[t];
        for (int op = 0; op <= FXB_POW; op++)
            if (!(s == SC_FLOAT64 && op == FXB_POW))
                fxk_binop_kernel(k, nm(k, "bin", s, op), s, op);
        for (int m = 0; m <= FXM_RINT; m++) {   /* erf .. atan2 (ocml, two operands): tests/mathacc */
            bool transcendental = m == FXM_EXP || m == FXM_EXP2 || m == FXM_LOG || m == FXM_LOG2 ||
                                  m == FXM_SIN || m == FXM_COS || m == FXM_TANH;
            if (!(s == SC_FLOAT64 && transcendental))
                fxk_math_kernel(k, nm(k, "math", s, m), s, m);
        }
        for (int w = 0; w < 4; w++)
            fxk_minmax_kernel(k, nm(k, "mm", s, w), s, w);
        for (int c = 0; c < 6; c++)
            fxk_cmp_kernel(k, nm(k, "cmp", s, c), s, c);
        fxk_unop_kernel(k, nm(k, "neg", s, 0), s, FXU_NEG);
        fxk_unop_kernel(k, nm(k, "abs", s, 0), s, FXU_ABS);
        fxk_fma_kernel(k, nm(k, "fma", s, 0), s);
        for (size_t u = 0; u < 4; u++)
            if (u != t)
                fxk_cast_kernel(k, arena_printf(k->a, "c_%d_%d", (int)s, (int)floats[u]), s, floats[u]);
        fxk_cast_kernel(k, nm(k, "tobool", s, 0), s, SC_BOOLEAN);
        fxk_cast_kernel(k, nm(k, "frombool", s, 0), SC_BOOLEAN, s);
    }
    fxk_early_return(k);
    static const struct { ScalarId s; int lanes; } ivt[] = {
        { SC_INT32, 4 }, { SC_INT8, 16 }, { SC_UINT64, 2 }, { SC_INT128, 2 }, { SC_INT4, 8 }, { SC_UINT16, 3 } };
    for (size_t v = 0; v < sizeof ivt / sizeof ivt[0]; v++) {
        const Type *t = type_vector(ivt[v].s, ivt[v].lanes);
        for (int op = -1; op < FXB_COUNT; op++)
            if (op != FXB_DIV)
                fxk_vbinop_kernel(k, arena_printf(k->a, "vi_%d_%d", (int)v, op), t, op);
    }
    static const struct { ScalarId s; int lanes; } fvt[] = {
        { SC_FLOAT16, 8 }, { SC_BFLOAT16, 8 }, { SC_FLOAT32, 4 }, { SC_FLOAT64, 2 } };
    for (size_t v = 0; v < sizeof fvt / sizeof fvt[0]; v++) {
        const Type *t = type_vector(fvt[v].s, fvt[v].lanes);
        for (int op = 0; op <= FXB_POW; op++)
            if (!(fvt[v].s == SC_FLOAT64 && op == FXB_POW))
                fxk_vbinop_kernel(k, arena_printf(k->a, "vf_%d_%d", (int)v, op), t, op);
    }
    struct { const Type *from, *to; FxOpcode op; } vc[] = {
        { type_vector(SC_FLOAT64, 2), type_vector(SC_BFLOAT16, 2), FX_CAST },
        { type_vector(SC_FLOAT64, 2), type_vector(SC_FLOAT16, 2), FX_CAST },
        { type_vector(SC_INT32, 4), type_vector(SC_FLOAT16, 4), FX_CAST },
        { type_vector(SC_INT64, 2), type_vector(SC_BFLOAT16, 2), FX_CAST },
        { type_vector(SC_FLOAT32, 4), type_vector(SC_INT128, 4), FX_CAST },
        { type_vector(SC_FLOAT16, 8), type_vector(SC_UINT8, 8), FX_CAST },
        { type_vector(SC_UINT128, 2), type_vector(SC_FLOAT32, 2), FX_CAST },
        { type_vector(SC_FLOAT32, 4), type_vector(SC_INT8, 16), FX_BITCAST },
        { type_vector(SC_INT4, 8), type_scalar(SC_INT32), FX_BITCAST },
        { type_scalar(SC_FLOAT64), type_vector(SC_BFLOAT16, 4), FX_BITCAST },
    };
    for (size_t v = 0; v < sizeof vc / sizeof vc[0]; v++)
        fxk_vconv_kernel(k, arena_printf(k->a, "vc_%d", (int)v), vc[v].from, vc[v].to, vc[v].op);
    fxk_vector_kernel(k, "vec");
    fxk_narrow_int_kernel(k, "narrow");
    fxk_array_kernel(k, "arr");
    fxk_specials_kernel(k, "specials");
    static const ScalarId at[] = { SC_INT32, SC_UINT32, SC_INT64, SC_UINT64, SC_FLOAT32, SC_FLOAT64 };
    for (size_t t = 0; t < sizeof at / sizeof at[0]; t++)
        for (int op = 0; op < 4; op++)
            for (int sh = 0; sh < 2; sh++)
                fxk_atomic_op_kernel(k, arena_printf(k->a, "at_%s_%d_%d", type_info(at[t])->name, op, sh),
                                     at[t], op, sh);
}

/* In a child process, so that a backend abort is a test failure, not the end
 * of the test program. */
static int compile_in_child(FxModule *m, const char *arch, int opt, const char *out)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        CgOptions o = { .target = tgt_lookup(arch), .opt_level = opt };
        CgModule *cm = cg_build(m, &o);
        bool ok = cm && cg_optimize(cm) && cg_write(cm, CG_OUT_OBJ, out);
        _exit(ok ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void test_everything_compiles(void)
{
    Kb k = fxk_begin("everything.fx");
    build_everything(&k);
    for (int a = 0; a < NARCH; a++) {
        char p[256];
        snprintf(p, sizeof p, "%s/all-%s.o", g_dir, archs[a]);
        int rc = compile_in_child(k.m, archs[a], 3, p);
        if (rc)
            fprintf(stderr, "\n%s: exit %d", archs[a], rc);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT(has_symbol(p, "saxpy.kd"));
        CU_ASSERT(has_symbol(p, "at_Float64_3_1.kd"));
    }
    char p[256];
    snprintf(p, sizeof p, "%s/all-O0.o", g_dir);
    CU_ASSERT_EQUAL(compile_in_child(k.m, "gfx942", 0, p), 0);
    /* and the host, after the host's wave model */
    PassOptions po = { .target = tgt_host(), .host_codegen = true };
    CU_ASSERT(pass_run_one(k.m, "wave-emulation", &po));
    CgOptions o = { .target = tgt_host(), .opt_level = 1 };
    CgModule *cm = cg_build(k.m, &o);
    CU_ASSERT_PTR_NOT_NULL(cm);
    if (cm) {
        CU_ASSERT(cg_optimize(cm));
        snprintf(p, sizeof p, "%s/all-host.o", g_dir);
        CU_ASSERT(cg_write(cm, CG_OUT_OBJ, p));
        cg_free(cm);
    }
    clear_dir(g_dir);
    fxk_end(&k);
}

/* ---- located errors instead of wrong code ---- */

/* whether cg_devlib.c will find AMD's ocml.bc (tests adapt when it is missing) */
static bool ocml_available(void)
{
    const char *env = getenv("FXCC_DEVICE_LIBS");
    char p[1024];
    snprintf(p, sizeof p, "%s/ocml.bc", env && *env ? env : "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode");
    return access(p, R_OK) == 0;
}

typedef struct ErrCase {
    const char *arch;   /* NULL: the host */
    int what;           /* 0 exp, 1 pow, 2 atomic_add, 3 atomic_cas, 4 atomic_max on shared */
    ScalarId s;
    const char *msg;
} ErrCase;

static void check_error_case(const ErrCase *ec, SrcFile *src)
{
    Loc at = { src, 2, 12, 2, 22 };
    Kb k = fxk_begin("u.fx");
    fxk_func(&k, "k", FXF_KERNEL, 1, NULL);
    ScalarId es = ec->s;
    fxk_param_decl(&k, 0, "p", fxk_ptr(&k, es, false));
    FxInst *p = fxk_param(&k, 0);
    FxInst *x = fxk_op(&k, FX_LOAD, 0, fxk_s(es), 2, p, fxk_int(&k, SC_INT32, 1));
    FxInst *r = NULL;
    switch (ec->what) {
    case 0: r = fxk_op(&k, FX_MATH, FXM_EXP, fxk_s(es), 1, x); break;
    case 1: r = fxk_op(&k, FX_BINOP, FXB_POW, fxk_s(es), 2, x, x); break;
    case 2: r = fxk_op(&k, FX_ATOMIC, FXA_ADD, fxk_s(es), 3, p, fxk_int(&k, SC_INT32, 0), x); break;
    case 3: r = fxk_op(&k, FX_ATOMIC, FXA_CAS, fxk_s(es), 4, p, fxk_int(&k, SC_INT32, 0), x, x); break;
    case 4: {
        int64_t dims[1] = { 8 };
        FxInst *sh = fxk_op(&k, FX_ALLOCA, 0, type_array(k.a, fxk_s(es), 1, dims), 0);
        sh->space = FXSPACE_SHARED;
        r = fxk_op(&k, FX_ATOMIC, FXA_MAX, fxk_s(es), 3, sh, fxk_int(&k, SC_INT32, 0), x);
        break;
    }
    }
    r->loc = at;
    fxk_op(&k, FX_STORE, 0, NULL, 3, p, r, fxk_int(&k, SC_INT32, 0));
    capture_diags();
    CgOptions o = { .target = ec->arch ? tgt_lookup(ec->arch) : tgt_host(), .opt_level = 3 };
    CgModule *cm = cg_build(k.m, &o);
    char *d = captured();
    CU_ASSERT_PTR_NULL(cm);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, ec->msg));
    if (!strstr(d, ec->msg))
        fprintf(stderr, "\nwant: %s\ngot: %s", ec->msg, d);
    free(d);
    cg_free(cm);
    fxk_end(&k);
}

static void test_unsupported(void)
{
    SrcFile *src = diag_file_from_string("u.fx", "kernel k(p: Ptr[Float64]) {\n    p[0] = fx.exp(p[1])\n}\n");
    /* the reason differs per type (fxir/atomics.c) */
    const char *natom = "u.fx:2:12: error: fx.atomic_add on %s elements is not supported: atomics ";
    static const ScalarId bad_atomic[] = { SC_INT128, SC_UINT128, SC_BOOLEAN, SC_INT4, SC_INT8, SC_UINT8,
                                           SC_F8E4M3FN, SC_F4E2M1FN };
    ErrCase cases[] = {
        { "gfx942", 3, SC_INT128, "u.fx:2:12: error: fx.atomic_cas on Int128 elements is not supported" },
        { NULL, 3, SC_UINT128, "u.fx:2:12: error: fx.atomic_cas on Uint128 elements is not supported" },
        { "gfx90a", 4, SC_INT8, "u.fx:2:12: error: fx.atomic_max on Int8 elements is not supported" },
        { NULL, 4, SC_BOOLEAN, "u.fx:2:12: error: fx.atomic_max on Boolean elements is not supported" },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        check_error_case(&cases[c], src);
    const char *targets[] = { "gfx942", NULL };
    for (size_t t = 0; t < sizeof bad_atomic / sizeof bad_atomic[0]; t++)
        for (int a = 0; a < 2; a++) {
            char msg[256];
            snprintf(msg, sizeof msg, natom, type_info(bad_atomic[t])->name);
            ErrCase ec = { targets[a], 2, bad_atomic[t], msg };
            check_error_case(&ec, src);
        }
    /* the f64 transcendentals are fine on the host */
    Kb k = fxk_begin("h.fx");
    fxk_math_kernel(&k, "e", SC_FLOAT64, FXM_EXP);
    fxk_binop_kernel(&k, "pw", SC_FLOAT64, FXB_POW);
    CgOptions o = { .target = tgt_host(), .opt_level = 3 };
    CgModule *cm = cg_build(k.m, &o);
    CU_ASSERT_PTR_NOT_NULL(cm);
    cg_free(cm);
    fxk_end(&k);
    diag_free_file(src);
}

/* ---- Float64 transcendentals from AMD's ocml ---- */

static void build_f64_math(Kb *k)
{
    static const int fns[] = { FXM_EXP, FXM_EXP2, FXM_LOG, FXM_LOG2, FXM_SIN, FXM_COS, FXM_TANH };
    for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++)
        fxk_math_kernel(k, nm(k, "m64", SC_FLOAT64, fns[f]), SC_FLOAT64, fns[f]);
    fxk_binop_kernel(k, "pow64", SC_FLOAT64, FXB_POW);
    fxk_vbinop_kernel(k, "vpow64", type_vector(SC_FLOAT64, 2), FXB_POW);
    fxk_vbinop_kernel(k, "vmod64", type_vector(SC_FLOAT64, 2), FXB_MOD);
}

static char *asm_for(FxModule *m, const char *arch, int opt, size_t *len)
{
    CgOptions o = { .target = tgt_lookup(arch), .opt_level = opt };
    CgModule *cm = cg_build(m, &o);
    if (!cm)
        return NULL;
    char p[256];
    snprintf(p, sizeof p, "%s/k-%s-O%d.s", g_dir, arch, opt);
    bool ok = cg_optimize(cm) && cg_write(cm, CG_OUT_ASM, p);
    cg_free(cm);
    char *s = ok ? fxt_read_bytes(p, len) : NULL;
    unlink(p);
    return s;
}

/* Writes DIR/ocml.bc holding one function, __ocml_erf_f32, that returns
 * ocml's processor switch __oclc_ISA_version: none of the functions fxcc
 * uses from the real library reads it, but a library that does must get
 * the target's number. */
static void write_fake_ocml(const char *dir)
{
    LLVMContextRef C = LLVMContextCreate();
    LLVMModuleRef M = LLVMModuleCreateWithNameInContext("fake-ocml", C);
    LLVMSetTarget(M, "amdgcn-amd-amdhsa");
    LLVMTypeRef i32 = LLVMInt32TypeInContext(C), f32 = LLVMFloatTypeInContext(C);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(M, i32, "__oclc_ISA_version", 4);
    LLVMSetGlobalConstant(g, 1);
    LLVMValueRef f = LLVMAddFunction(M, "__ocml_erf_f32", LLVMFunctionType(f32, &f32, 1, 0));
    LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
    LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
    LLVMPositionBuilderAtEnd(B, LLVMAppendBasicBlockInContext(C, f, "entry"));
    LLVMBuildRet(B, LLVMBuildSIToFP(B, LLVMBuildLoad2(B, i32, g, ""), f32, ""));
    char p[512];
    snprintf(p, sizeof p, "%s/ocml.bc", dir);
    CU_ASSERT_EQUAL(LLVMWriteBitcodeToFile(M, p), 0);
    LLVMDisposeBuilder(B);
    LLVMDisposeModule(M);
    LLVMContextDispose(C);
}

/* fxcc defines __oclc_ISA_version from the target description (ROCm 5.2 has
 * no file for gfx11 and gfx12): internal, constant, the target's number. */
static void test_devlib_isa_version(void)
{
    write_fake_ocml(g_dir);
    setenv("FXCC_DEVICE_LIBS", g_dir, 1);
    Kb k = fxk_begin("v.fx");
    fxk_math_kernel(&k, "e", SC_FLOAT32, FXM_ERF);
    static const char *archs[] = { "gfx906", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1201", "gfx12-generic" };
    static const int want[] = { 9006, 9010, 9402, 10300, 11000, 12001, 12000 };
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        CgOptions o = { .target = tgt_lookup(archs[a]), .opt_level = 0 };
        CgModule *cm = cg_build(k.m, &o);
        CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
        CU_ASSERT_EQUAL(tgt_lookup(archs[a])->devlib_isa_version, want[a]);
        LLVMValueRef g = LLVMGetNamedGlobal(cg_llvm_module(cm), "__oclc_ISA_version");
        CU_ASSERT_PTR_NOT_NULL_FATAL(g);
        CU_ASSERT(!LLVMIsDeclaration(g) && LLVMIsGlobalConstant(g));
        CU_ASSERT(LLVMGetLinkage(g) == LLVMInternalLinkage);
        CU_ASSERT_EQUAL(LLVMConstIntGetSExtValue(LLVMGetInitializer(g)), want[a]);
        cg_free(cm);
    }
    fxk_end(&k);
    unsetenv("FXCC_DEVICE_LIBS");
    clear_dir(g_dir);
}

static void test_f64_devlib(void)
{
    if (!ocml_available()) {
        fprintf(stderr, "\n  rocm-device-libs is not installed: only the error path is tested ");
        Kb k = fxk_begin("d.fx");
        fxk_math_kernel(&k, "e", SC_FLOAT64, FXM_EXP);
        capture_diags();
        CgOptions o = { .target = tgt_lookup("gfx942"), .opt_level = 3 };
        CgModule *cm = cg_build(k.m, &o);
        char *d = captured();
        CU_ASSERT_PTR_NULL(cm);
        CU_ASSERT_PTR_NOT_NULL(strstr(d, "install the Debian package rocm-device-libs"));
        free(d);
        fxk_end(&k);
        return;
    }
    Kb k = fxk_begin("d.fx");
    build_f64_math(&k);
    /* gfx11 and gfx12 have no ISA-version file in ROCm 5.2: fxcc defines it */
    static const char *covered[] = { "gfx942", "gfx90a", "gfx940", "gfx1030", "gfx906",
                                      "gfx1100", "gfx1201", "gfx11-generic", "gfx12-generic" };
    for (size_t a = 0; a < sizeof covered / sizeof covered[0]; a++) {
        clear_dir(g_dir);
        CgOptions o = { .target = tgt_lookup(covered[a]), .opt_level = 3 };
        CgModule *cm = cg_build(k.m, &o);
        CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
        /* the library's definitions are internal: nothing of it is exported */
        for (LLVMValueRef f = LLVMGetFirstFunction(cg_llvm_module(cm)); f; f = LLVMGetNextFunction(f)) {
            size_t n;
            const char *name = LLVMGetValueName2(f, &n);
            if (strncmp(name, "__ocml", 6) == 0)
                CU_ASSERT(LLVMGetLinkage(f) == LLVMInternalLinkage && !LLVMIsDeclaration(f));
        }
        CU_ASSERT(cg_optimize(cm));
        char p[256];
        snprintf(p, sizeof p, "%s/f64-%s.hsaco", g_dir, covered[a]);
        CU_ASSERT(cg_write(cm, CG_OUT_HSACO, p)); /* ld.lld --no-undefined */
        CU_ASSERT(has_symbol(p, "m64_Float64_6.kd"));
        CU_ASSERT(!has_symbol(p, "__ocml_sin_f64"));
        cg_free(cm);
    }
    clear_dir(g_dir);
    /* the code is really there: sin and cos reduce with v_trig_preop_f64 */
    size_t len;
    char *s = asm_for(k.m, "gfx942", 3, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT(contains(s, len, "v_trig_preop_f64"));
    CU_ASSERT(contains(s, len, "v_fma_f64"));
    CU_ASSERT(!contains(s, len, "__ocml"));   /* inlined at -O3 */
    free(s);
    s = asm_for(k.m, "gfx942", 0, &len);    /* -O0: real calls to internal functions */
    CU_ASSERT_PTR_NOT_NULL(s);
    free(s);
    /* in a child: the compile must not hit a backend failure */
    char p[256];
    snprintf(p, sizeof p, "%s/f64-O1.o", g_dir);
    CU_ASSERT_EQUAL(compile_in_child(k.m, "gfx942", 1, p), 0);
    clear_dir(g_dir);

    /* a missing installation: a located error that names the package */
    SrcFile *src = diag_file_from_string("d.fx", "kernel k(p: Ptr[Float64]) {\n    p[0] = fx.sin(p[1])\n}\n");
    Kb k2 = fxk_begin("d.fx");
    fxk_math_kernel(&k2, "e", SC_FLOAT64, FXM_SIN);
    for (FxInst *i = k2.f->body.first; i; i = i->next)
        if (i->op == FX_MATH)
            i->loc = (Loc){ src, 2, 12, 2, 22 };
    char *saved = getenv("FXCC_DEVICE_LIBS") ? strdup(getenv("FXCC_DEVICE_LIBS")) : NULL;
    setenv("FXCC_DEVICE_LIBS", "/nonexistent/bitcode", 1);
    capture_diags();
    CgOptions o = { .target = tgt_lookup("gfx942"), .opt_level = 3 };
    CgModule *cm = cg_build(k2.m, &o);
    char *d = captured();
    CU_ASSERT_PTR_NULL(cm);
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "d.fx:2:12: error: Float64 fx.sin on gfx942 needs AMD's device math "
                                     "library (ocml.bc), which is not installed: install the Debian package "
                                     "rocm-device-libs (searched /nonexistent/bitcode (FXCC_DEVICE_LIBS))"));
    free(d);
    if (saved) {
        setenv("FXCC_DEVICE_LIBS", saved, 1);
        free(saved);
    } else {
        unsetenv("FXCC_DEVICE_LIBS");
    }
    diag_free_file(src);
    fxk_end(&k2);
    fxk_end(&k);
}

/* ---- ISA golden checks on gfx942 ---- */

/* index of the first line of body starting with prefix, or -1 */
static int line_of(const char *body, const char *prefix)
{
    int n = 0;
    size_t pl = strlen(prefix);
    for (const char *p = body; p && *p; n++) {
        if (strncmp(p, prefix, pl) == 0)
            return n;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return -1;
}

static char *kernel_isa(FxModule *m, const char *arch, const char *name, int *n)
{
    char *as = isa_module_asm(m, arch, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(as);
    char *body = isa_kernel(as, name, n);
    free(as);
    CU_ASSERT_PTR_NOT_NULL_FATAL(body);
    return body;
}

static void test_isa_golden(void)
{
    Kb k = fxk_begin("isa.fx");
    fxk_binop_kernel(&k, "add32", SC_FLOAT32, FXB_ADD);
    fxk_round_kernel(&k, "up16", type_scalar(SC_FLOAT32), type_scalar(SC_FLOAT16), FF_UP);
    fxk_round_kernel(&k, "down16", type_scalar(SC_FLOAT32), type_scalar(SC_FLOAT16), FF_DOWN);
    fxk_round_kernel(&k, "rtz16", type_scalar(SC_FLOAT32), type_scalar(SC_FLOAT16), FF_TOWARD_ZERO);
    fxk_round_kernel(&k, "rne16", type_scalar(SC_FLOAT32), type_scalar(SC_FLOAT16), FF_RNE);
    fxk_round_kernel(&k, "fp8", type_scalar(SC_FLOAT32), type_scalar(SC_F8E4M3FNUZ), FF_RNE);
    fxk_round_kernel(&k, "fp8in", type_scalar(SC_F8E4M3FNUZ), type_scalar(SC_FLOAT32), FF_RNE);
    fxk_reverse(&k)->launch_bounds = 256; /* more than one wave: a real s_barrier */
    char *as = isa_module_asm(k.m, "gfx942", 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(as);
    int n;
    /* Float32 add: exactly one v_add_f32 and no other Float32 instruction */
    char *b = isa_kernel(as, "add32", &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL(isa_count(b, "v_add_f32"), 1);
    CU_ASSERT_EQUAL(isa_count(b, "v_pk_add_f32") + isa_count(b, "v_fma") + isa_count(b, "v_mul_f32") +
                    isa_count(b, "v_cndmask") + isa_count(b, "v_cmp"), 0);
    CU_ASSERT_EQUAL(isa_count(b, "global_load_dword"), 2);
    CU_ASSERT_EQUAL(isa_count(b, "global_store_dword"), 1);
    free(b);
    /* to(Float16, upward/downward): the mode register's Float16/Float64 rounding
     * field (bits 2-3: 1 = +inf, 2 = -inf) set right before v_cvt_f16_f32 */
    static const struct { const char *name, *setreg; } dir[] = {
        { "up16", "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 2, 1), 1" },
        { "down16", "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 3, 1), 1" },
    };
    for (int d = 0; d < 2; d++) {
        b = isa_kernel(as, dir[d].name, &n);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        int set = line_of(b, dir[d].setreg), cvt = line_of(b, "v_cvt_f16_f32");
        CU_ASSERT(set >= 0 && cvt > set);
        CU_ASSERT_EQUAL(isa_count(b, "v_cvt_f16_f32"), 1);
        if (set < 0 || cvt < set)
            fprintf(stderr, "\n%s:\n%s", dir[d].name, b);
        free(b);
    }
    /* nearest even: the plain instruction, no mode change */
    b = isa_kernel(as, "rne16", &n);
    CU_ASSERT_EQUAL(isa_count(b, "v_cvt_f16_f32"), 1);
    CU_ASSERT_EQUAL(isa_count(b, "s_setreg") + isa_count(b, "s_round_mode"), 0);
    free(b);
    /* toward zero has no mode the backend selects: the nearest-even
     * conversion, widened back and compared in magnitude, then one step of
     * the encoding toward zero (v_sub_u16); no mode change, no bit-by-bit
     * rounding */
    b = isa_kernel(as, "rtz16", &n);
    CU_ASSERT_EQUAL(isa_count(b, "v_cvt_f16_f32"), 1);
    CU_ASSERT_EQUAL(isa_count(b, "v_cvt_f32_f16"), 1);
    CU_ASSERT_EQUAL(isa_count(b, "s_setreg") + isa_count(b, "s_round_mode"), 0);
    CU_ASSERT_EQUAL(isa_count(b, "v_bfe") + isa_count(b, "v_lshrrev") + isa_count(b, "v_med3"), 0);
    CU_ASSERT(n < 20);
    if (n >= 20)
        fprintf(stderr, "\nrtz16 (%d instructions):\n%s", n, b);
    free(b);
    /* FP8 stays in software (docs/codegen.md says why) */
    b = isa_kernel(as, "fp8", &n);
    CU_ASSERT_EQUAL(isa_count(b, "v_cvt_pk_fp8") + isa_count(b, "v_cvt_sr_fp8"), 0);
    free(b);
    b = isa_kernel(as, "fp8in", &n);
    CU_ASSERT_EQUAL(isa_count(b, "v_cvt_f32_fp8"), 0);
    free(b);
    /* shared memory: LDS accesses and the barrier */
    b = isa_kernel(as, "reverse", &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT(isa_count(b, "ds_write_b32") == 1 && isa_count(b, "ds_read_b32") == 1);
    CU_ASSERT_EQUAL(isa_count(b, "s_barrier"), 1);
    CU_ASSERT(line_of(b, "ds_write_b32") < line_of(b, "s_barrier") &&
              line_of(b, "s_barrier") < line_of(b, "ds_read_b32"));
    free(b);
    free(as);
    /* the other processors change the mode too (s_setreg, or gfx12's s_round_mode) */
    const char *others[] = { "gfx90a", "gfx1100", "gfx1201" };
    for (int a = 0; a < 3; a++) {
        b = kernel_isa(k.m, others[a], "up16", &n);
        CU_ASSERT(isa_count(b, "s_setreg") + isa_count(b, "s_round_mode") >= 1);
        CU_ASSERT_EQUAL(isa_count(b, "v_cvt_f16_f32"), 1);
        free(b);
    }
    fxk_end(&k);
}

/* Signed `//` and `%` by a run-time divisor go through the magnitudes (one
 * unsigned division, no MIN / -1 guard): Int32 `//` was 54 instructions
 * with sdiv, the guard and the floor correction, `%` 50 (docs/codegen.md).
 * A `%` beside a `//` by the same divisor is a - (a // b) * b: both in 51
 * instructions, 54 when the `%` is computed apart; beside a `//` whose
 * value nothing uses, the `%` alone (44, 51 if it took the quotient). */
static void test_isa_division(void)
{
    Kb k = fxk_begin("div.fx");
    fxk_binop_kernel(&k, "fdiv32", SC_INT32, FXB_FLOORDIV);
    fxk_binop_kernel(&k, "mod32", SC_INT32, FXB_MOD);
    fxk_pmod_kernel(&k, "pmod32", SC_INT32, FXK_Q_XOR);
    fxk_pmod_kernel(&k, "lone_mod32", SC_INT32, FXK_Q_UNUSED);
    static const struct { const char *name; int most; } want[] = { { "fdiv32", 49 }, { "mod32", 44 }, { "pmod32", 51 },
                                                                     { "lone_mod32", 44 } };
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        int n;
        char *b = kernel_isa(k.m, "gfx942", want[w].name, &n);
        CU_ASSERT(n <= want[w].most);
        CU_ASSERT_EQUAL(isa_count(b, "v_rcp_iflag_f32"), 1);
        if (n > want[w].most)
            fprintf(stderr, "\n%s (%d):\n%s", want[w].name, n, b);
        free(b);
    }
    fxk_end(&k);
}

/* Every float conversion (all pairs, all modes) and every narrow <-> integer
 * conversion compiles for every tested processor without tripping the
 * backend, at -O3 and -O0. */
static void test_conversions_compile(void)
{
    static const ScalarId fl[] = {
        SC_FLOAT16, SC_BFLOAT16, SC_FLOAT32, SC_FLOAT64, SC_F8E5M2, SC_F8E4M3FN, SC_F8E4M3FNUZ,
        SC_F8E4M3B11FNUZ, SC_F8E4M3, SC_F6E2M3FN, SC_F6E3M2FN, SC_F8E8M0FNU, SC_F4E2M1FN, SC_F8E5M2FNUZ };
    enum { NFL = sizeof fl / sizeof fl[0] };
    Kb k = fxk_begin("conv.fx");
    for (int a = 0; a < NFL; a++)
        for (int b = 0; b < NFL; b++)
            if (a != b)
                for (int rm = 0; rm < 5; rm++)
                    fxk_round_kernel(&k, arena_printf(k.a, "c_%d_%d_%d", a, b, rm), type_scalar(fl[a]),
                                     type_scalar(fl[b]), (FfRound)rm);
    for (size_t t = 0; t < sizeof ints / sizeof ints[0]; t++)
        for (int f = 4; f < NFL; f++) {
            fxk_cast_kernel(&k, arena_printf(k.a, "i_%d_%d", (int)t, f), ints[t], fl[f]);
            fxk_cast_kernel(&k, arena_printf(k.a, "o_%d_%d", (int)t, f), fl[f], ints[t]);
        }
    fxk_round_kernel(&k, "v1", type_vector(SC_FLOAT32, 4), type_vector(SC_F8E4M3FN, 4), FF_UP);
    fxk_round_kernel(&k, "v2", type_vector(SC_FLOAT32, 3), type_vector(SC_FLOAT16, 3), FF_DOWN);
    fxk_round_kernel(&k, "v3", type_vector(SC_F4E2M1FN, 8), type_vector(SC_BFLOAT16, 8), FF_RNE);
    fxk_round_kernel(&k, "v4", type_vector(SC_FLOAT64, 2), type_vector(SC_F8E8M0FNU, 2), FF_TOWARD_ZERO);
    for (int a = 0; a < NARCH; a++) {
        char p[256];
        snprintf(p, sizeof p, "%s/conv-%s.o", g_dir, archs[a]);
        int rc = compile_in_child(k.m, archs[a], 3, p);
        if (rc)
            fprintf(stderr, "\n%s: exit %d", archs[a], rc);
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT(has_symbol(p, "c_3_12_4.kd"));
    }
    char p[256];
    snprintf(p, sizeof p, "%s/conv-O0.o", g_dir);
    CU_ASSERT_EQUAL(compile_in_child(k.m, "gfx942", 0, p), 0);
    clear_dir(g_dir);
    fxk_end(&k);
}

/* IR that LLVM's AMDGPU backend accepted at -O3 but not at -O0 (issue 15):
 * each kernel file compiles for every processor at -O0 and -O3, and for the
 * host at -O0. */
static void test_o0_regressions(void)
{
    static const struct { const char *file, *kernel; } cases[] = {
        { "o0_unused_fmod", "unused_fmod" },
        { "o0_lane3", "lane3" },
        { "o0_bool_bf16", "bool_bf16" },
    };
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        Kb k = fxk_begin(cases[t].file);
        fxk_read(&k, cases[t].file, cases[t].kernel);
        for (int a = 0; a < NARCH; a++)
            for (int opt = 0; opt <= 3; opt += 3) {
                char p[256], sym[64];
                snprintf(p, sizeof p, "%s/%s-%s-O%d.o", g_dir, cases[t].file, archs[a], opt);
                int rc = compile_in_child(k.m, archs[a], opt, p);
                if (rc)
                    fprintf(stderr, "\n%s for %s at -O%d: exit %d", cases[t].file, archs[a], opt, rc);
                CU_ASSERT_EQUAL(rc, 0);
                snprintf(sym, sizeof sym, "%s.kd", cases[t].kernel);
                CU_ASSERT(rc != 0 || has_symbol(p, sym));
            }
        PassOptions po = { .target = tgt_host(), .host_codegen = true };
        CU_ASSERT(pass_run_one(k.m, "wave-emulation", &po));
        CgOptions o = { .target = tgt_host(), .opt_level = 0 };
        CgModule *cm = cg_build(k.m, &o);
        CU_ASSERT_PTR_NOT_NULL(cm);
        if (cm) {
            char p[256];
            snprintf(p, sizeof p, "%s/%s-host.o", g_dir, cases[t].file);
            CU_ASSERT(cg_optimize(cm) && cg_write(cm, CG_OUT_OBJ, p));
            cg_free(cm);
        }
        clear_dir(g_dir);
        fxk_end(&k);
    }
}

/* ---- LLVM's errors and crashes reach the user located (issue 15) ---- */

/* saxpy for gfx942 at -O0, its kernel declared at line 3 of `src`. */
static CgModule *located_saxpy(Kb *k, SrcFile *src)
{
    FxFunc *f = fxk_saxpy(k, "saxpy");
    f->loc = (Loc){ src, 3, 1, 3, 7 };
    k->m->source_name = "crash.fx";
    CgOptions o = { .target = tgt_lookup("gfx942"), .opt_level = 0 };
    return cg_build(k->m, &o);
}

/* Runs what(cm) in a child whose stderr goes to a file; returns the exit
 * status (128 + signal) and the child's stderr in *err. */
static int in_child(CgModule *cm, void (*what)(CgModule *), char **err)
{
    FILE *e = tmpfile();
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fileno(e), 2);
        what(cm);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    long n = ftell(e) >= 0 ? (fseek(e, 0, SEEK_END), ftell(e)) : 0;
    rewind(e);
    *err = calloc(1, (size_t)n + 1);
    if (fread(*err, 1, (size_t)n, e) != (size_t)n)
        (*err)[0] = 0;
    fclose(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Under AddressSanitizer SIGSEGV is the sanitizer's, which fxcc leaves in
 * place: the test then crashes with SIGILL, which ASan does not handle. */
#if defined(__SANITIZE_ADDRESS__)
enum { CRASH_SIGNAL = SIGILL };
#define CRASH_TEXT "an illegal instruction (SIGILL)"
#else
enum { CRASH_SIGNAL = SIGSEGV };
#define CRASH_TEXT "a segmentation fault (SIGSEGV)"
#endif

static void segfault_while_optimizing(CgModule *cm)
{
    cg_optimize(cm);
    raise(CRASH_SIGNAL);
}

/* An instruction gfx942 cannot select (gfx908's Int8 MFMA), its result
 * stored so that nothing removes it: LLVM's fatal "Cannot select". */
static void unselectable(CgModule *cm)
{
    LLVMModuleRef m = cg_llvm_module(cm);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMValueRef fn = LLVMGetNamedFunction(m, "saxpy");
    const char *name = "llvm.amdgcn.mfma.i32.16x16x16i8";
    unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
    LLVMValueRef decl = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
    LLVMTypeRef fty = LLVMIntrinsicGetType(ctx, id, NULL, 0);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetLastBasicBlock(fn)));
    LLVMValueRef zero = LLVMConstInt(i32, 0, 0);
    LLVMValueRef args[6] = { zero, zero, LLVMConstNull(LLVMVectorType(i32, 4)), zero, zero, zero };
    LLVMValueRef r = LLVMBuildCall2(b, fty, decl, args, 6, "");
    LLVMSetVolatile(LLVMBuildStore(b, LLVMBuildExtractElement(b, r, zero, ""), LLVMGetParam(fn, 1)), 1);
    LLVMDisposeBuilder(b);
    cg_write(cm, CG_OUT_OBJ, "/dev/null");
}

static void test_crash_notes(void)
{
    SrcFile *src = diag_file_from_string("crash.fx", "# crash\n\nkernel saxpy() {\n}\n");
    Kb k = fxk_begin("crash.fx");
    CgModule *cm = located_saxpy(&k, src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
    char *err;
    int rc = in_child(cm, segfault_while_optimizing, &err);
    CU_ASSERT_EQUAL(rc, 70);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "fxcc: internal compiler error: " CRASH_TEXT " inside the compiler\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "fxcc: note: currently compiling: kernel 'saxpy' (line 3) in crash.fx "
                                       "(LLVM optimization)\n"));
    if (rc != 70 || !strstr(err, "(line 3)"))
        fprintf(stderr, "\nexit %d:\n%s", rc, err);
    free(err);
    rc = in_child(cm, unselectable, &err);
    CU_ASSERT_EQUAL(rc, 70);
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "fxcc: internal compiler error: Cannot select"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err, "fxcc: note: currently compiling: kernel 'saxpy' (line 3) in crash.fx "
                                       "(LLVM code generation)\n"));
    if (rc != 70 || !strstr(err, "(LLVM code generation)"))
        fprintf(stderr, "\nexit %d:\n%s", rc, err);
    free(err);
    cg_free(cm);
    fxk_end(&k);
    diag_free_file(src);
}

/* A stack frame over gfx942's 131056 bytes of scratch per work-item (here
 * an alloca fxcc did not count, as spills would be) is a located error at
 * the kernel, not an internal error at <unknown>:0:0. */
static void test_scratch_over_limit(void)
{
    SrcFile *src = diag_file_from_string("crash.fx", "# crash\n\nkernel saxpy() {\n}\n");
    Kb k = fxk_begin("crash.fx");
    CgModule *cm = located_saxpy(&k, src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
    LLVMModuleRef m = cg_llvm_module(cm);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMValueRef fn = LLVMGetNamedFunction(m, "saxpy");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
    LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx);
    LLVMValueRef big = LLVMBuildAlloca(b, LLVMArrayType2(f32, 35000), "spills");
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetLastBasicBlock(fn)));
    LLVMValueRef at = LLVMBuildGEP2(b, f32, big, (LLVMValueRef[]){ LLVMGetParam(fn, 3) }, 1, "");
    LLVMSetVolatile(LLVMBuildStore(b, LLVMConstReal(f32, 1.0), at), 1);
    LLVMDisposeBuilder(b);
    capture_diags();
    CU_ASSERT_FALSE(cg_write(cm, CG_OUT_OBJ, "/dev/null"));
    char *d = captured();
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "crash.fx:3:1: error: kernel 'saxpy' needs "));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, " bytes of scratch memory per work-item, more than the 131056 bytes gfx942 "
                                     "allows (docs/limits.md)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "note: it holds no private array: it is registers spilled to memory"));
    CU_ASSERT_PTR_NULL(strstr(d, "internal compiler error"));
    CU_ASSERT_PTR_NULL(strstr(d, "<unknown>"));
    if (!strstr(d, "crash.fx:3:1: error"))
        fprintf(stderr, "\ngot:\n%s", d);
    free(d);
    cg_free(cm);
    fxk_end(&k);
    diag_free_file(src);
}

/* LDS over gfx942's 65536 bytes (here a variable fxcc did not count, as
 * LDS the code generator used would be): a located error naming the
 * kernel's shared arrays. */
static void test_lds_over_limit(void)
{
    SrcFile *src = diag_file_from_string("lds.fx", "# lds\n\nkernel reverse() {\n}\n");
    Kb k = fxk_begin("lds.fx");
    FxFunc *f = fxk_reverse(&k);
    f->loc = (Loc){ src, 3, 1, 3, 7 };
    for (FxInst *i = f->body.first; i; i = i->next) /* the .fxir file's locations are gone */
        i->loc = (Loc){ src, 4, 1, 4, 1 };
    CgOptions o = { .target = tgt_lookup("gfx942"), .opt_level = 0 };
    CgModule *cm = cg_build(k.m, &o);
    CU_ASSERT_PTR_NOT_NULL_FATAL(cm);
    LLVMModuleRef m = cg_llvm_module(cm);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx), big = LLVMArrayType2(f32, 16384);
    LLVMValueRef g = LLVMAddGlobalInAddressSpace(m, big, "extra_lds", 3);
    LLVMSetInitializer(g, LLVMGetUndef(big));
    LLVMSetLinkage(g, LLVMInternalLinkage);
    LLVMValueRef fn = LLVMGetNamedFunction(m, "reverse");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetLastBasicBlock(fn)));
    LLVMSetVolatile(LLVMBuildStore(b, LLVMConstReal(f32, 1.0), g), 1);
    LLVMDisposeBuilder(b);
    capture_diags();
    CU_ASSERT_FALSE(cg_write(cm, CG_OUT_OBJ, "/dev/null"));
    char *d = captured();
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "lds.fx:3:1: error: kernel 'reverse' needs "));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, " bytes of shared memory (LDS), more than the 65536 bytes gfx942 has per "
                                     "workgroup (docs/limits.md)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(d, "note: 256 bytes of it are shared arrays"));
    CU_ASSERT_PTR_NULL(strstr(d, "internal compiler error"));
    if (!strstr(d, "lds.fx:3:1: error"))
        fprintf(stderr, "\ngot:\n%s", d);
    free(d);
    cg_free(cm);
    fxk_end(&k);
    diag_free_file(src);
}

static int make_dir(void)
{
    cg_install_fatal_handler();
    snprintf(g_dir, sizeof g_dir, "/tmp/fxcc-cgtest-XXXXXX");
    return mkdtemp(g_dir) ? 0 : 1;
}

static int remove_dir(void)
{
    clear_dir(g_dir);
    return rmdir(g_dir);
}

/* Runs last: fxk_end verified every module the tests built. */
static void test_modules_verified(void)
{
    CU_ASSERT_EQUAL(fxk_unverified, 0);
}

static const FxtTest printer_tests[] = {
    { "saxpy text", test_print_saxpy },
    { "constants, flags, loops", test_print_details },
    { NULL, NULL },
};
static const FxtTest codegen_tests[] = {
    { "saxpy LLVM IR (kernel ABI, code object v5)", test_saxpy_ir },
    { "saxpy .hsaco for gfx90a/gfx942/gfx1100/gfx1201", test_hsaco_archs },
    { "every output kind; failures leave nothing", test_output_kinds },
    { "host module entry points", test_host_module },
    { "host bounds leave the work-item loop", test_host_bounds_leave_the_loop },
    { "every stage-1 construct compiles for every processor", test_everything_compiles },
    { "unsupported constructs: located errors", test_unsupported },
    { "Float64 transcendentals on AMDGPU from ocml", test_f64_devlib },
    { "ocml's processor switch comes from the target description", test_devlib_isa_version },
    { "ISA on gfx942: add, rounding-mode conversion, shared memory", test_isa_golden },
    { "ISA on gfx942: signed // and % through the magnitudes", test_isa_division },
    { "every conversion and rounding mode compiles for every processor", test_conversions_compile },
    { "-O0 backend failures of issue 15 compile at -O0 and -O3", test_o0_regressions },
    { "LLVM fatal errors and crashes name the kernel and line (exit 70)", test_crash_notes },
    { "scratch over the target's limit: a located error", test_scratch_over_limit },
    { "LDS over the target's limit: a located error", test_lds_over_limit },
    { "every hand-built module verifies", test_modules_verified },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = {
        { "fxir printer", printer_tests, NULL, NULL },
        { "codegen", codegen_tests, make_dir, remove_dir },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
