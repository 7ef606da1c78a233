/* cg_debug.c - -g: DWARF line tables. One compile unit per module, a
 * subprogram per kernel and fn, and every instruction emitted for an FXIR
 * instruction at that instruction's source position, so profilers and
 * disassemblers (llvm-objdump --line-numbers, rocprof) show .fx lines.
 * Variables are not described (no DW_TAG_variable): lines only. */
#include "codegen/cg_internal.h"
#include <string.h>

void cg_debug_begin(CgCtx *c)
{
    if (!c->opt.debug)
        return;
    const char *path = c->fm->source_name ? c->fm->source_name : "<stdin>";
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    size_t dirlen = slash ? (size_t)(slash - path) : 1;
    const char *dir = slash ? path : ".";
    c->dib = LLVMCreateDIBuilder(c->M);
    c->di_file = LLVMDIBuilderCreateFile(c->dib, name, strlen(name), dir, dirlen);
    const char *producer = "fxcc";
    LLVMDIBuilderCreateCompileUnit(c->dib, LLVMDWARFSourceLanguageC11, c->di_file, producer, strlen(producer),
                                   c->opt.opt_level > 0, "", 0, 0, "", 0, LLVMDWARFEmissionFull, 0, 0, 0,
                                   "", 0, "", 0);
    LLVMValueRef ver = LLVMConstInt(LLVMInt32TypeInContext(c->C), LLVMDebugMetadataVersion(), 0);
    LLVMAddModuleFlag(c->M, LLVMModuleFlagBehaviorWarning, "Debug Info Version", 18, LLVMValueAsMetadata(ver));
    LLVMValueRef dwarf = LLVMConstInt(LLVMInt32TypeInContext(c->C), 5, 0);
    LLVMAddModuleFlag(c->M, LLVMModuleFlagBehaviorWarning, "Dwarf Version", 13, LLVMValueAsMetadata(dwarf));
}

/* The subprogram of the function being emitted; instructions from here on
 * carry positions in it. */
void cg_debug_func(CgCtx *c, CgFunc *cf)
{
    if (!c->dib)
        return;
    const FxFunc *f = cf->f;
    LLVMMetadataRef type = LLVMDIBuilderCreateSubroutineType(c->dib, c->di_file, NULL, 0, LLVMDIFlagZero);
    size_t n = strlen(f->name);
    c->di_scope = LLVMDIBuilderCreateFunction(c->dib, c->di_file, f->name, n, f->name, n, c->di_file,
                                              (unsigned)f->loc.line, type, f->kind != FXF_KERNEL, 1,
                                              (unsigned)f->loc.line, LLVMDIFlagZero, c->opt.opt_level > 0);
    LLVMSetSubprogram(cf->fn, c->di_scope);
}

/* The host's entry wrapper K__fxhost, into which LLVM inlines the kernel:
 * an inlined function keeps its positions only in a caller that has a
 * subprogram too. Its own code is at the kernel's line. */
void cg_debug_wrapper(CgCtx *c, LLVMValueRef w, const FxFunc *f)
{
    if (!c->dib)
        return;
    size_t n;
    const char *name = LLVMGetValueName2(w, &n);
    LLVMMetadataRef type = LLVMDIBuilderCreateSubroutineType(c->dib, c->di_file, NULL, 0, LLVMDIFlagZero);
    LLVMMetadataRef sp = LLVMDIBuilderCreateFunction(c->dib, c->di_file, name, n, name, n, c->di_file,
                                                     (unsigned)f->loc.line, type, 0, 1, (unsigned)f->loc.line,
                                                     LLVMDIFlagArtificial, c->opt.opt_level > 0);
    LLVMSetSubprogram(w, sp);
    LLVMSetCurrentDebugLocation2(c->B, LLVMDIBuilderCreateDebugLocation(c->C, (unsigned)f->loc.line,
                                                                        (unsigned)f->loc.col, sp, NULL));
}

void cg_debug_loc(CgCtx *c, const FxInst *i)
{
    if (!c->dib || !c->di_scope || i->loc.line <= 0)
        return;
    LLVMMetadataRef loc = LLVMDIBuilderCreateDebugLocation(c->C, (unsigned)i->loc.line, (unsigned)i->loc.col,
                                                           c->di_scope, NULL);
    LLVMSetCurrentDebugLocation2(c->B, loc);
}

/* After a function: code emitted next (the host's entry wrappers) has no
 * position, as it has no subprogram. */
void cg_debug_end_func(CgCtx *c)
{
    if (!c->dib)
        return;
    LLVMSetCurrentDebugLocation2(c->B, NULL);
    c->di_scope = NULL;
}

void cg_debug_finish(CgCtx *c)
{
    if (!c->dib)
        return;
    LLVMDIBuilderFinalize(c->dib);
    LLVMDisposeDIBuilder(c->dib);
    c->dib = NULL;
}
