/* cg_module.c - target setup, building a module from FXIR, the optimization
 * pipeline, and writing .ll/.bc/.s/.o/.hsaco files. */
#include "codegen/cg_internal.h"
#include "codegen/host/cg_host.h"
#include "codegen/amdgpu/cg_amdgpu.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/Support.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include "fx_config.h"
#include "support/timer.h"
#include "codegen/amdgpu/cg_elflink.h"
#include "codegen/amdgpu/cg_lld.h"

static const Loc no_loc;

/* ---- pointer map ---- */

static size_t hash_ptr(const void *p)
{
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return (size_t)x;
}

void cg_map_put(CgMap *m, const void *key, void *val)
{
    if ((m->len + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 64;
        const void **nk = calloc(ncap, sizeof *nk);
        void **nv = calloc(ncap, sizeof *nv);
        if (!nk || !nv) {
            fputs("fxcc: out of memory\n", stderr);
            abort();
        }
        for (size_t k = 0; k < m->cap; k++) {
            if (!m->keys[k])
                continue;
            size_t h = hash_ptr(m->keys[k]) & (ncap - 1);
            while (nk[h])
                h = (h + 1) & (ncap - 1);
            nk[h] = m->keys[k];
            nv[h] = m->vals[k];
        }
        free(m->keys);
        free(m->vals);
        m->keys = nk;
        m->vals = nv;
        m->cap = ncap;
    }
    size_t h = hash_ptr(key) & (m->cap - 1);
    while (m->keys[h] && m->keys[h] != key)
        h = (h + 1) & (m->cap - 1);
    if (!m->keys[h])
        m->len++;
    m->keys[h] = key;
    m->vals[h] = val;
}

void *cg_map_get(const CgMap *m, const void *key)
{
    if (!m->cap)
        return NULL;
    size_t h = hash_ptr(key) & (m->cap - 1);
    while (m->keys[h]) {
        if (m->keys[h] == key)
            return m->vals[h];
        h = (h + 1) & (m->cap - 1);
    }
    return NULL;
}

void cg_map_clear(CgMap *m)
{
    if (m->cap) {
        memset(m->keys, 0, m->cap * sizeof *m->keys);
        memset(m->vals, 0, m->cap * sizeof *m->vals);
    }
    m->len = 0;
}

void cg_map_free(CgMap *m)
{
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

/* ---- diagnostics ---- */

void cg_error(CgCtx *c, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport("error", loc, fmt, ap);
    va_end(ap);
    c->errors++;
}

const char *cg_tyname(CgCtx *c, const Type *t)
{
    return type_name(c->fm->arena, t);
}

/* Errors the backend reports through the context (e.g. "no libcall
 * available") would otherwise print and exit(1): keep the first one, and let
 * the emission fail with an internal compiler error instead. */
static void diag_handler(LLVMDiagnosticInfoRef di, void *arg)
{
    CgModule *cm = arg;
    if (LLVMGetDiagInfoSeverity(di) != LLVMDSError)
        return;
    char *d = LLVMGetDiagInfoDescription(di);
    if (!cm->backend_error)
        cm->backend_error = strdup(d);
    LLVMDisposeMessage(d);
}

/* ---- targets ---- */

/* LLVM 19's SIOptimizeVGPRLiveRange ends the live range of a VGPR that
 * only the else side of a branch reads at the start of the then side, so
 * the then side may reuse its register. That is sound for ordinary code,
 * which writes only the then lanes, and wrong for a whole-wave region
 * there (a wave reduction), whose writes reach the else lanes too: they
 * read the region's temporaries instead of their own values. Without the
 * pass the register stays live through the then side, as the linearized
 * control flow says it is, and nothing else changes (docs/waves.md,
 * "Whole-wave mode"; tests/waves/test_wwm.c checks the machine code). The
 * option is LLVM's process-wide setting, parsed once. */
static void keep_inactive_lanes_registers(void)
{
    static const char *const argv[] = { "fxcc", "-amdgpu-opt-vgpr-liverange=false" };
    LLVMParseCommandLineOptions(2, argv, NULL);
}

static void init_targets(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    LLVMInitializeNativeAsmParser();
    keep_inactive_lanes_registers();
}

/* The code generator's level for -O<o>. -O3 on AMDGPU generates code at
 * LLVM's default level, as -O2 does: the AMDGPU pass list of the
 * aggressive one differs only in running GVN instead of EarlyCSE (twice)
 * on the IR the instruction selector gets, which took 16% of a 128-deep
 * unrolled sgemm's compilation and changed no code object of the
 * benchmarks, examples or tests but 11 of 258 (10 of them shorter):
 * docs/decisions.md, "Compile time". The host keeps the aggressive level;
 * its code runs in fxrun. */
static LLVMCodeGenOptLevel cg_level(int o, const TgtTarget *t)
{
    if (o <= 0)
        return LLVMCodeGenLevelNone;
    if (o == 1)
        return LLVMCodeGenLevelLess;
    return o == 2 || t->kind != TGT_HOST ? LLVMCodeGenLevelDefault : LLVMCodeGenLevelAggressive;
}

/* The host's features, minus the x86 BFloat16 conversion instructions
 * (vcvtneps2bf16 flushes subnormals to zero; the language rounds them
 * exactly). Without them LLVM calls __truncsfbf2, which libfxrt provides. */
static char *host_features(void)
{
    static const char *const drop[] = { "+avx512bf16", "+avxneconvert" };
    char *f = LLVMGetHostCPUFeatures();
    for (size_t k = 0; k < sizeof drop / sizeof drop[0]; k++) {
        size_t n = strlen(drop[k]);
        for (char *p = strstr(f, drop[k]); p; p = strstr(p + 1, drop[k]))
            if (p[n] == ',' || p[n] == 0)
                *p = '-';
    }
    return f;
}

static LLVMTargetMachineRef make_tm(const CgOptions *o, char **triple_out)
{
    char *triple, *cpu, *features;
    if (o->target->kind == TGT_HOST) {
        char *t = LLVMGetDefaultTargetTriple();
        triple = LLVMNormalizeTargetTriple(t);
        LLVMDisposeMessage(t);
        cpu = LLVMGetHostCPUName();
        features = host_features();
    } else {
        triple = LLVMCreateMessage("amdgcn-amd-amdhsa");
        cpu = LLVMCreateMessage(o->target->name);
        features = LLVMCreateMessage(o->features ? o->features : "");   /* the code object's xnack/sramecc flags */
    }
    LLVMTargetRef target;
    char *err = NULL;
    LLVMTargetMachineRef tm = NULL;
    if (LLVMGetTargetFromTriple(triple, &target, &err)) {
        diag_error(no_loc, "no LLVM target for '%s': %s", triple, err ? err : "?");
        LLVMDisposeMessage(err);
    } else {
        tm = LLVMCreateTargetMachine(target, triple, cpu, features, cg_level(o->opt_level, o->target),
                                     LLVMRelocPIC, LLVMCodeModelDefault);
        if (!tm)
            diag_error(no_loc, "cannot create a target machine for %s (%s)", triple, cpu);
    }
    LLVMDisposeMessage(cpu);
    LLVMDisposeMessage(features);
    *triple_out = triple;
    return tm;
}

/* ---- IR-text helpers ---- */

LLVMValueRef cg_text_helper(CgCtx *c, const char *name, LLVMTypeRef fnty, const char *def)
{
    LLVMValueRef fn = LLVMGetNamedFunction(c->M, name);
    if (fn)
        return fn;
    fn = LLVMAddFunction(c->M, name, fnty);
    size_t n = strlen(def);
    if (c->helper_len + n + 1 > c->helper_cap) {
        size_t cap = (c->helper_cap + n + 1) * 2;
        char *p = realloc(c->helper_ir, cap);
        if (!p) {
            fputs("fxcc: out of memory\n", stderr);
            abort();
        }
        c->helper_ir = p;
        c->helper_cap = cap;
    }
    memcpy(c->helper_ir + c->helper_len, def, n + 1);
    c->helper_len += n;
    ptrvec_push(c->fm->arena, &c->helper_names, (void *)arena_strdup(c->fm->arena, name));
    return fn;
}

LLVMValueRef cg_text_helper_sibling(CgCtx *c, const char *name, LLVMTypeRef fnty)
{
    LLVMValueRef fn = LLVMGetNamedFunction(c->M, name);
    if (fn)
        return fn;
    ptrvec_push(c->fm->arena, &c->helper_names, (void *)arena_strdup(c->fm->arena, name));
    return LLVMAddFunction(c->M, name, fnty);
}

static bool link_helpers(CgCtx *c, const char *triple)
{
    if (!c->helper_len)
        return true;
    const char *dl = LLVMGetDataLayoutStr(c->M);
    char *text = arena_printf(c->fm->arena, "target datalayout = \"%s\"\ntarget triple = \"%s\"\n%s",
                              dl, triple, c->helper_ir);
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "fx-helpers");
    LLVMModuleRef hm;
    char *msg = NULL;
    if (LLVMParseIRInContext(c->C, buf, &hm, &msg)) {
        diag_error(no_loc, "internal compiler error: helper IR does not parse: %s", msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return false;
    }
    if (LLVMLinkModules2(c->M, hm)) {
        diag_error(no_loc, "internal compiler error: cannot link helper IR");
        return false;
    }
    for (int k = 0; k < c->helper_names.len; k++) {
        LLVMValueRef fn = LLVMGetNamedFunction(c->M, c->helper_names.items[k]);
        if (fn && !LLVMIsDeclaration(fn))
            LLVMSetLinkage(fn, LLVMInternalLinkage);
    }
    return true;
}

/* Deletes the internal functions nothing calls (a helper whose only user was
 * folded away, device-library functions pulled in beside the one needed),
 * until none is left. At -O0 nothing else removes them, and LLVM 19's AMDGPU
 * "Function register usage analysis" crashes (SIGSEGV) on an uncalled
 * internal function that uses the stack. */
static void drop_unused_internals(CgCtx *c)
{
    for (bool again = true; again;) {
        again = false;
        LLVMValueRef next;
        for (LLVMValueRef f = LLVMGetFirstFunction(c->M); f; f = next) {
            next = LLVMGetNextFunction(f);
            LLVMLinkage l = LLVMGetLinkage(f);
            if (LLVMIsDeclaration(f) || LLVMGetFirstUse(f)
                || (l != LLVMInternalLinkage && l != LLVMPrivateLinkage))
                continue;
            LLVMDeleteFunction(f);
            again = true;
        }
    }
}

/* ---- building ---- */

static void describe(CgModule *cm, FxModule *m)
{
    size_t n = 0;
    char buf[512] = "";
    int nk = 0, shown = 0;
    for (int k = 0; k < m->funcs.len; k++)
        nk += ((FxFunc *)m->funcs.items[k])->kind == FXF_KERNEL;
    for (int k = 0; k < m->funcs.len && shown < 4; k++) {
        FxFunc *f = m->funcs.items[k];
        if (f->kind != FXF_KERNEL)
            continue;
        int w = snprintf(buf + n, sizeof buf - n, "%s%s", n ? ", " : nk > 1 ? "kernels " : "kernel ",
                         f->name);
        if (w < 0 || (size_t)w >= sizeof buf - n - 64)
            break;
        n += (size_t)w;
        shown++;
    }
    if (shown < nk)
        n += (size_t)snprintf(buf + n, sizeof buf - n, " and %d more", nk - shown);
    if (m->source_name && n + 8 < sizeof buf)
        snprintf(buf + n, sizeof buf - n, "%s(%s)", n ? " " : "", m->source_name);
    cm->what = strdup(buf);
}

CgModule *cg_build(FxModule *m, const CgOptions *o)
{
    init_targets();
    CgCtx cx = { 0 }, *c = &cx;
    c->fm = m;
    c->opt = *o;
    c->tgt = o->target;
    c->facts = o->target->cg;
    char *triple = NULL;
    c->TM = make_tm(o, &triple);
    if (!c->TM) {
        LLVMDisposeMessage(triple);
        return NULL;
    }
    CgModule *cm = calloc(1, sizeof *cm);
    if (!cm) {
        fputs("fxcc: out of memory\n", stderr);
        abort();
    }
    describe(cm, m);
    cm->fm = m;
    cg_crash_begin(m);
    c->C = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(c->C, diag_handler, cm);
    c->M = LLVMModuleCreateWithNameInContext(m->source_name ? m->source_name : "fx", c->C);
    LLVMSetTarget(c->M, triple);
    c->TD = LLVMCreateTargetDataLayout(c->TM);
    char *dl = LLVMCopyStringRepOfTargetData(c->TD);
    LLVMSetDataLayout(c->M, dl);
    LLVMDisposeMessage(dl);
    if (c->tgt->kind == TGT_AMDGPU) {
        LLVMValueRef v = LLVMConstInt(LLVMInt32TypeInContext(c->C),
                                      (unsigned long long)c->tgt->code_object_version, 0);
        LLVMAddModuleFlag(c->M, LLVMModuleFlagBehaviorError, "amdhsa_code_object_version", 26,
                          LLVMValueAsMetadata(v));
    }
    c->B = LLVMCreateBuilderInContext(c->C);
    cg_debug_begin(c);

    cg_declare_funcs(c);
    if (cg_check_memory_limits(c))
        cm->kernels = cg_kernel_infos(c, &cm->nkernels);
    cm->target = o->target;
    if (cg_host_abi(c))
        cg_layout_shared(c);
    for (int k = 0; k < m->funcs.len; k++) {
        CgFunc *cf = cg_map_get(&c->funcs, m->funcs.items[k]);
        cg_crash_func(cf->f);
        cg_debug_func(c, cf);
        cg_begin_func(c, cf);
        if (cf->regions)
            cg_emit_regions(c, cf);
        else
            cg_emit_body(c, &cf->f->body);
        cg_end_func(c);
        cg_debug_end_func(c);
        if (cg_host_abi(c) && cf->f->kind == FXF_KERNEL)
            cg_host_entry_points(c, cf);
    }
    cg_emit_data(c);
    cg_debug_finish(c);
    bool ok = c->errors == 0 && link_helpers(c, triple) && cg_devlib_link(c);
    if (ok)
        drop_unused_internals(c);
    if (ok && cm->backend_error) {
        diag_error(no_loc, "internal compiler error: %s", cm->backend_error);
        ok = false;
    }
    if (ok && c->tgt->kind == TGT_HOST) {
        /* pin CPU and features per function: the JIT's own target machine
         * would otherwise use every feature of the host */
        char *cpu = LLVMGetHostCPUName(), *feat = host_features();
        for (LLVMValueRef fn = LLVMGetFirstFunction(c->M); fn; fn = LLVMGetNextFunction(fn)) {
            if (LLVMIsDeclaration(fn))
                continue;
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                LLVMCreateStringAttribute(c->C, "target-cpu", 10, cpu, (unsigned)strlen(cpu)));
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                LLVMCreateStringAttribute(c->C, "target-features", 15, feat, (unsigned)strlen(feat)));
        }
        LLVMDisposeMessage(cpu);
        LLVMDisposeMessage(feat);
    }
    if (ok) {
        char *msg = NULL;
        if (LLVMVerifyModule(c->M, LLVMReturnStatusAction, &msg)) {
            diag_error(no_loc, "internal compiler error: the generated LLVM module does not verify:\n%s",
                       msg ? msg : "");
            ok = false;
        }
        LLVMDisposeMessage(msg);
    }
    LLVMDisposeBuilder(c->B);
    LLVMDisposeTargetData(c->TD);
    LLVMDisposeMessage(triple);
    cg_map_free(&c->values);
    for (int k = 0; k < m->funcs.len; k++) {
        CgFunc *cf = cg_map_get(&c->funcs, m->funcs.items[k]);
        cg_region_plan_free(cf ? cf->regions : NULL);
    }
    cg_map_free(&c->funcs);
    cg_map_free(&c->shared);
    cg_map_free(&c->floordivs);
    cg_map_free(&c->floordivs_used);
    free(c->helper_ir);
    if (!ok) {
        cg_crash_end();
        LLVMDisposeModule(c->M);
        LLVMContextDispose(c->C);
        LLVMDisposeTargetMachine(c->TM);
        free(cm->backend_error);
        free(cm->what);
        free(cm);
        return NULL;
    }
    cm->ctx = c->C;
    cm->mod = c->M;
    cm->tm = c->TM;
    cm->host = c->tgt->kind == TGT_HOST;
    cm->opt_level = o->opt_level;
    return cm;
}

bool cg_optimize(CgModule *cm)
{
    char passes[32];
    int o = cm->opt_level < 0 ? 0 : cm->opt_level > 3 ? 3 : cm->opt_level;
    snprintf(passes, sizeof passes, "default<O%d>", o);
    cg_crash_phase(cm->fm, "LLVM optimization");
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(cm->mod, passes, cm->tm, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (!err && cm->backend_error) {
        diag_error(no_loc, "internal compiler error: %s while optimizing %s", cm->backend_error,
                   cm->what ? cm->what : "the module");
        return false;
    }
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        diag_error(no_loc, "internal compiler error: LLVM passes failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return false;
    }
    return true;
}

LLVMModuleRef cg_llvm_module(CgModule *cm)
{
    return cm->mod;
}

void cg_release(CgModule *cm, LLVMModuleRef *mod, LLVMContextRef *ctx)
{
    *mod = cm->mod;
    *ctx = cm->ctx;
    LLVMContextSetDiagnosticHandler(cm->ctx, NULL, NULL);
    cg_crash_end();
    LLVMDisposeTargetMachine(cm->tm);
    free(cm->what);
    free(cm->backend_error);
    free(cm);
}

void cg_free(CgModule *cm)
{
    if (!cm)
        return;
    cg_crash_end();
    LLVMDisposeModule(cm->mod);
    LLVMContextDispose(cm->ctx);
    LLVMDisposeTargetMachine(cm->tm);
    free(cm->what);
    free(cm->backend_error);
    free(cm);
}

/* ---- writing ---- */

/* "<dir>/.<base>.<pid>.<n><suffix>" next to `path`. */
static char *temp_name_near(const char *path, const char *suffix)
{
    static unsigned counter;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
    const char *base = slash ? slash + 1 : path;
    size_t n = strlen(path) + strlen(suffix) + 64;
    char *t = malloc(n);
    if (!t)
        abort();
    snprintf(t, n, "%.*s.%s.%ld.%u%s", (int)dirlen, path, base, (long)getpid(), counter++, suffix);
    return t;
}

static bool write_all(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t w = write(fd, data, len);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        data += w;
        len -= (size_t)w;
    }
    return true;
}

static bool write_stdout(const char *data, size_t len)
{
    fflush(stdout);
    if (!write_all(STDOUT_FILENO, data, len)) {
        diag_error(no_loc, "cannot write to standard output: %s", strerror(errno));
        return false;
    }
    return true;
}

static mode_t file_mode(void)
{
    mode_t um = umask(0);
    umask(um);
    return 0666 & ~um;
}

/* Where writing `path` should land: a symbolic link's target (the link
 * stays a link), else path itself. malloc'd. */
static char *final_path(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
        return strdup(path);
    char *real = realpath(path, NULL);
    if (real)
        return real;
    char target[4096];   /* a dangling link: its target, relative to the link's folder */
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n <= 0)
        return strdup(path);
    target[n] = 0;
    const char *slash = strrchr(path, '/');
    if (target[0] == '/' || !slash)
        return strdup(target);
    char *joined = malloc((size_t)(slash - path) + (size_t)n + 2);
    if (!joined)
        abort();
    sprintf(joined, "%.*s/%s", (int)(slash - path), path, target);
    return joined;
}

/* A device or FIFO (-o /dev/null, -o /dev/stdout) is written in place. */
static bool write_in_place(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    bool ok = fd >= 0 && write_all(fd, data, len);
    int e = errno;
    if (fd >= 0 && close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok)
        diag_error(no_loc, "cannot write '%s': %s", path, strerror(e));
    return ok;
}

/* Writes data to a temporary file next to path, then renames it over path,
 * so a failed write leaves no partial file (through a symbolic link: its
 * target; a device or FIFO: in place). */
static bool write_file(const char *given, const char *data, size_t len)
{
    if (strcmp(given, "-") == 0)
        return write_stdout(data, len);
    char *path = final_path(given);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        bool ok = write_in_place(path, data, len);
        free(path);
        return ok;
    }
    char *tmp = temp_name_near(path, ".tmp");
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, file_mode());
    bool ok = fd >= 0;
    int e = errno;
    if (ok) {
        ok = write_all(fd, data, len);
        e = errno;
        if (close(fd) != 0 && ok) {
            ok = false;
            e = errno;
        }
        if (ok && rename(tmp, path) != 0) {
            ok = false;
            e = errno;
        }
        if (!ok)
            unlink(tmp);
    }
    if (!ok)
        diag_error(no_loc, "cannot write '%s': %s", given, strerror(e));
    free(tmp);
    free(path);
    return ok;
}

static const CgKernelInfo *kernel_named(const CgModule *cm, const char *name)
{
    for (int k = 0; k < cm->nkernels; k++)
        if (strcmp(cm->kernels[k].f->name, name) == 0)
            return &cm->kernels[k];
    return NULL;
}

/* LLVM found a kernel's stack frame (its scratch memory) over what the
 * target can give a work-item: what fxcc counted cannot explain all of it
 * (spills, -O0's variables in memory), so say what it knows. */
static void report_scratch(const CgModule *cm, const CgKernelInfo *k, long long size, long long limit)
{
    diag_error(k->f->loc, "kernel '%s' needs %lld bytes of scratch memory per work-item, more than the %lld bytes "
               "%s allows (docs/limits.md)", k->f->name, size, limit, cm->target->name);
    if (k->private_bytes > 0)
        diag_note(k->f->loc, "%lld bytes of it are private arrays, the rest registers spilled to memory%s",
                  (long long)k->private_bytes, cm->opt_level == 0 ? " and variables that -O0 keeps in memory" : "");
    else
        diag_note(k->f->loc, "it holds no private array: it is registers spilled to memory%s; smaller unrolled "
                  "loops or fewer inlined calls need less", cm->opt_level == 0 ? " and variables that -O0 keeps in "
                  "memory" : "");
    for (int n = 0; n < k->nnotes; n++)
        diag_note(k->notes[n].loc, "%s", k->notes[n].text);
}

/* LLVM found a kernel's LDS over the target's: fxcc counted its shared
 * arrays within the limit, so the rest is LLVM's own use of LDS. */
static void report_lds(const CgModule *cm, const CgKernelInfo *k, long long size, long long limit)
{
    diag_error(k->f->loc, "kernel '%s' needs %lld bytes of shared memory (LDS), more than the %lld bytes %s has per "
               "workgroup (docs/limits.md)", k->f->name, size, limit, cm->target->name);
    diag_note(k->f->loc, "%lld bytes of it are shared arrays, the rest is LDS the code generator uses",
              (long long)k->shared_bytes);
    for (int n = 0; n < k->nshared_notes; n++)
        diag_note(k->shared_notes[n].loc, "%s", k->shared_notes[n].text);
}

/* An error LLVM reported through the context while generating code. Its
 * descriptions name the function ("... in function 'k'"): located at that
 * kernel when it is one. */
static void report_backend_error(const CgModule *cm)
{
    const char *d = cm->backend_error;
    char fn[256] = "";
    const char *in = strstr(d, "in function '");
    if (in)
        sscanf(in, "in function '%255[^']'", fn);
    const CgKernelInfo *k = kernel_named(cm, fn);
    long long size, limit;
    const char *stack = strstr(d, "stack frame size (");
    if (k && stack && sscanf(stack, "stack frame size (%lld) exceeds limit (%lld)", &size, &limit) == 2) {
        report_scratch(cm, k, size, limit);
        return;
    }
    const char *lds = strstr(d, "local memory (");
    if (k && lds && sscanf(lds, "local memory (%lld) exceeds limit (%lld)", &size, &limit) == 2) {
        report_lds(cm, k, size, limit);
        return;
    }
    if (k)
        diag_error(k->f->loc, "internal compiler error: %s", d);
    else
        diag_error(no_loc, "internal compiler error: %s while compiling %s", d, cm->what ? cm->what : "the module");
}

static LLVMMemoryBufferRef emit(CgModule *cm, LLVMCodeGenFileType type)
{
    cg_crash_phase(cm->fm, "LLVM code generation");
    /* the AMDGPU backend changes the module it emits: always emit a copy */
    TimerMark t = timer_mark();
    LLVMModuleRef clone = LLVMCloneModule(cm->mod);
    char *err = NULL;
    LLVMMemoryBufferRef buf = NULL;
    free(cm->backend_error);
    cm->backend_error = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(cm->tm, clone, type, &err, &buf)) {
        diag_error(no_loc, "internal compiler error: code generation failed: %s", err ? err : "?");
        LLVMDisposeMessage(err);
        buf = NULL;
    } else if (cm->backend_error) {
        report_backend_error(cm);
        LLVMDisposeMemoryBuffer(buf);
        buf = NULL;
    }
    LLVMDisposeModule(clone);
    timer_add("LLVM code generation", t);
    return buf;
}

char *cg_assembly(CgModule *cm)
{
    LLVMMemoryBufferRef buf = emit(cm, LLVMAssemblyFile);
    if (!buf)
        return NULL;
    size_t n = LLVMGetBufferSize(buf);
    char *text = malloc(n + 1);
    if (text) {
        memcpy(text, LLVMGetBufferStart(buf), n);
        text[n] = 0;
    }
    LLVMDisposeMemoryBuffer(buf);
    return text;
}

/* lld prints "ld.lld: error: ..." lines; our diagnostics say it once. */
static void report_lld(const char *messages, bool failed)
{
    if (failed)
        diag_error(no_loc, "linking the code object failed: %s", messages ? messages : "lld gave no reason");
    else if (messages)
        diag_warning(no_loc, "linking the code object: %s", messages);
}

static bool run_lld(const char *in, const char *out)
{
    TimerMark t = timer_mark();
    char *messages = NULL;
    int rc = cg_lld_link(in, out, &messages);
    size_t n = messages ? strlen(messages) : 0;
    if (n > 0 && messages[n - 1] == '\n')   /* the diagnostic ends the line */
        messages[n - 1] = 0;
    report_lld(messages, rc != 0);
    free(messages);
    timer_add("link (lld)", t);
    return rc == 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t r;
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* The object as a code object without lld, when it has the shape of
 * fxcc's kernel modules (amdgpu/cg_elflink.h); NULL leaves it to lld. */
static char *link_in_memory(LLVMMemoryBufferRef obj, size_t *len)
{
    TimerMark t = timer_mark();
    char *data = (char *)cg_elf_link((const unsigned char *)LLVMGetBufferStart(obj),
                                     LLVMGetBufferSize(obj), "Linker: fxcc " FX_VERSION, len);
    if (data)
        timer_add("link (in memory)", t);
    return data;
}

char *cg_hsaco(CgModule *cm, size_t *len)
{
    if (cm->host) {
        diag_error(no_loc, "a linked code object (.hsaco) needs the AMDGPU target; "
                           "use -c or -S with --target=host");
        return NULL;
    }
    LLVMMemoryBufferRef obj = emit(cm, LLVMObjectFile);
    if (!obj)
        return NULL;
    char *data = link_in_memory(obj, len);
    if (data) {
        LLVMDisposeMemoryBuffer(obj);
        return data;
    }
    const char *td = getenv("TMPDIR");
    char near[4096];
    snprintf(near, sizeof near, "%s/fxcc-out", td && *td ? td : "/tmp");
    char *objtmp = temp_name_near(near, ".o");
    char *outtmp = temp_name_near(near, ".hsaco");
    int fd = open(objtmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    bool w = fd >= 0 && write_all(fd, LLVMGetBufferStart(obj), LLVMGetBufferSize(obj));
    int e = errno;
    if (fd >= 0 && close(fd) != 0 && w) {
        w = false;
        e = errno;
    }
    if (!w) {
        diag_error(no_loc, "cannot write '%s': %s", objtmp, strerror(e));
    } else if (run_lld(objtmp, outtmp)) {
        data = slurp(outtmp, len);
        if (!data)
            diag_error(no_loc, "cannot read '%s': %s", outtmp, strerror(errno));
    }
    unlink(objtmp);
    unlink(outtmp);
    free(objtmp);
    free(outtmp);
    LLVMDisposeMemoryBuffer(obj);
    return data;
}

bool cg_write_bytes(const char *path, const void *data, size_t len)
{
    return write_file(path, data, len);
}

/* Links in the temporary directory, then writes the code object as any
 * other output (so a link, a device or standard output is treated alike). */
static bool write_hsaco(CgModule *cm, const char *path)
{
    size_t len;
    char *data = cg_hsaco(cm, &len);
    bool ok = data && write_file(path, data, len);
    free(data);
    return ok;
}

bool cg_write(CgModule *cm, CgOutputKind kind, const char *path)
{
    switch (kind) {
    case CG_OUT_LL: {
        char *s = LLVMPrintModuleToString(cm->mod);
        bool ok = write_file(path, s, strlen(s));
        LLVMDisposeMessage(s);
        return ok;
    }
    case CG_OUT_BC: {
        LLVMMemoryBufferRef b = LLVMWriteBitcodeToMemoryBuffer(cm->mod);
        bool ok = write_file(path, LLVMGetBufferStart(b), LLVMGetBufferSize(b));
        LLVMDisposeMemoryBuffer(b);
        return ok;
    }
    case CG_OUT_ASM:
    case CG_OUT_OBJ: {
        LLVMMemoryBufferRef b = emit(cm, kind == CG_OUT_ASM ? LLVMAssemblyFile : LLVMObjectFile);
        if (!b)
            return false;
        bool ok = write_file(path, LLVMGetBufferStart(b), LLVMGetBufferSize(b));
        LLVMDisposeMemoryBuffer(b);
        return ok;
    }
    case CG_OUT_HSACO:
        return write_hsaco(cm, path);
    }
    return false;
}
