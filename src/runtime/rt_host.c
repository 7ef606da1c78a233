/* rt_host.c - loading a host-target module into ORC LLJIT and finding its
 * kernels' entry points. */
#include "runtime/rt_internal.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>

char *rt_strdupf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    return s;
}

static char *take_error(LLVMErrorRef e, const char *what)
{
    char *m = LLVMGetErrorMessage(e);
    char *r = rt_strdupf("%s: %s", what, m);
    LLVMDisposeErrorMessage(m);
    return r;
}

static void init_native(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    LLVMInitializeNativeAsmParser();
}

/* Runtime-provided definitions that take precedence over the process's
 * symbols (support routines the C library or libgcc may lack). */
static LLVMErrorRef define_libcalls(LLVMOrcLLJITRef jit, LLVMOrcJITDylibRef jd)
{
    size_t n;
    const RtLibcall *calls = rt_libcalls(&n);
    LLVMOrcCSymbolMapPair *pairs = calloc(n ? n : 1, sizeof *pairs);
    if (!pairs)
        abort();
    for (size_t k = 0; k < n; k++) {
        pairs[k].Name = LLVMOrcLLJITMangleAndIntern(jit, calls[k].name);
        pairs[k].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)calls[k].addr;
        pairs[k].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported |
                                          LLVMJITSymbolGenericFlagsCallable;
        pairs[k].Sym.Flags.TargetFlags = 0;
    }
    LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, n);
    free(pairs);
    return LLVMOrcJITDylibDefine(jd, mu);
}

/* The name of the module's first exported definition (malloc'd), NULL if
 * none: looking it up makes the JIT compile the module. */
static char *first_definition(LLVMModuleRef m)
{
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage) {
            size_t n;
            const char *name = LLVMGetValueName2(f, &n);
            return rt_strdupf("%.*s", (int)n, name);
        }
    return NULL;
}

RtHostModule *rt_host_load(LLVMModuleRef mod, LLVMContextRef ctx, char **err)
{
    init_native();
    *err = NULL;
    rt_host_prepare_threads();   /* while the JIT works, the helpers start */
    /* The module moves into a ThreadSafeContext of its own (LLVM 19's C API
     * cannot wrap an existing context): through bitcode. */
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(mod);
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    LLVMOrcThreadSafeContextRef tsc = LLVMOrcCreateNewThreadSafeContext();
    LLVMModuleRef nm = NULL;
    if (LLVMParseBitcodeInContext2(LLVMOrcThreadSafeContextGetContext(tsc), bc, &nm)) {
        LLVMDisposeMemoryBuffer(bc);
        LLVMOrcDisposeThreadSafeContext(tsc);
        *err = rt_strdupf("cannot reload the host module");
        return NULL;
    }
    LLVMDisposeMemoryBuffer(bc);

    LLVMOrcLLJITRef jit = NULL;
    LLVMErrorRef e = LLVMOrcCreateLLJIT(&jit, LLVMOrcCreateLLJITBuilder());
    if (e) {
        *err = take_error(e, "cannot create the JIT");
        LLVMDisposeModule(nm);
        LLVMOrcDisposeThreadSafeContext(tsc);
        return NULL;
    }
    LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(jit);
    LLVMOrcDefinitionGeneratorRef gen = NULL;
    e = define_libcalls(jit, jd);
    if (!e)
        e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(jit),
                                                                 NULL, NULL);
    if (e) {
        *err = take_error(e, "cannot set up the JIT's symbols");
        LLVMDisposeModule(nm);
        LLVMOrcDisposeThreadSafeContext(tsc);
        LLVMOrcDisposeLLJIT(jit);
        return NULL;
    }
    LLVMOrcJITDylibAddGenerator(jd, gen);
    char *first = first_definition(nm);
    LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(nm, tsc);
    LLVMOrcDisposeThreadSafeContext(tsc);
    e = LLVMOrcLLJITAddLLVMIRModule(jit, jd, tsm);
    if (e) {
        *err = take_error(e, "cannot add the module to the JIT");
        LLVMOrcDisposeThreadSafeModule(tsm);
        LLVMOrcDisposeLLJIT(jit);
        free(first);
        return NULL;
    }
    /* Machine code now, for the whole module (it is one unit to the JIT):
     * a launch then only runs, and a compile error shows at load. */
    LLVMOrcExecutorAddress addr;
    e = first ? LLVMOrcLLJITLookup(jit, &addr, first) : NULL;
    free(first);
    if (e) {
        *err = take_error(e, "cannot compile the module");
        LLVMOrcDisposeLLJIT(jit);
        return NULL;
    }
    RtHostModule *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    m->jit = jit;
    return m;
}

int rt_host_symbol(RtHostModule *m, const char *head, const char *tail, uintptr_t *addr)
{
    char *sym = rt_strdupf("%s%s", head, tail);
    LLVMOrcExecutorAddress a = 0;
    LLVMErrorRef e = LLVMOrcLLJITLookup(m->jit, &a, sym);
    free(sym);
    if (e) {
        LLVMConsumeError(e);   /* the caller says what is missing, without the internal symbol */
        return -1;
    }
    *addr = (uintptr_t)a;
    return 0;
}

static int lookup(RtHostModule *m, const char *kernel, const char *suffix, uintptr_t *addr, char **err)
{
    if (rt_host_symbol(m, kernel, suffix, addr) == 0)
        return 0;
    *err = rt_strdupf("no kernel '%s' in the module", kernel);
    return -1;
}

int rt_host_kernel(RtHostModule *m, const char *name, RtKernel *k, char **err)
{
    uintptr_t fn, shared, dyn, sync, wave, params, block;
    /* a kernel whose barriers run as loops has K__fxblock only (fxhost.h) */
    bool whole_block = rt_host_symbol(m, name, "__fxhost", &fn) != 0 &&
                       rt_host_symbol(m, name, "__fxblock", &block) == 0;
    if ((!whole_block && lookup(m, name, "__fxhost", &fn, err)) || lookup(m, name, "__fxshared", &shared, err) ||
        lookup(m, name, "__fxdyn", &dyn, err) ||
        lookup(m, name, "__fxsync", &sync, err) || lookup(m, name, "__fxwave", &wave, err) ||
        lookup(m, name, "__fxparams", &params, err))
        return -1;
    k->entry = whole_block ? NULL : (RtEntry)fn;
    k->shared_bytes = *(const int64_t *)shared;
    k->dyn_elem_bytes = *(const int64_t *)dyn;
    k->waits = *(const int32_t *)sync != 0;
    if (whole_block && k->waits) {
        *err = rt_strdupf("kernel '%s' has no K__fxhost but waits (K__fxsync): the module is not fxcc's", name);
        return -1;
    }
    k->wave_size = *(const int32_t *)wave;
    k->params = (const FxParamInfo *)params;
    /* optional: kernels that wait have none, nor modules of older fxcc */
    k->block = rt_host_symbol(m, name, "__fxblock", &block) == 0 ? (RtEntry)block : NULL;
    uintptr_t check;   /* optional: only --check modules export it */
    k->checked = rt_host_symbol(m, name, "__fxcheck", &check) == 0 && *(const int32_t *)check != 0;
    uintptr_t state;   /* optional: only kernels whose per-work-item copies do not fit a stack */
    k->state_bytes = rt_host_symbol(m, name, "__fxstate", &state) == 0 ? *(const int64_t *)state : 0;
    k->nparams = 0;
    while (k->params[k->nparams].name)
        k->nparams++;
    return 0;
}

void rt_host_free(RtHostModule *m)
{
    if (!m)
        return;
    LLVMOrcDisposeLLJIT(m->jit);
    free(m);
}

RtHostModule *rt_host_load_file(const char *path, char **err)
{
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        *err = rt_strdupf("cannot read '%s': %s", path, msg ? msg : "error");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = NULL;
    bool bad = LLVMParseBitcodeInContext2(ctx, buf, &mod);
    LLVMDisposeMemoryBuffer(buf);
    if (bad) {
        *err = rt_strdupf("'%s' is not LLVM bitcode written by fxcc --target=host --emit-llvm", path);
        LLVMContextDispose(ctx);
        return NULL;
    }
    return rt_host_load(mod, ctx, err);
}
