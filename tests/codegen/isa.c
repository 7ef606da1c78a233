/* isa.c - see isa.h. */
#include "isa.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

char *isa_module_asm(FxModule *m, const char *arch, int opt)
{
    CgOptions o = { .target = tgt_lookup(arch), .opt_level = opt };
    CgModule *cm = cg_build(m, &o);
    if (!cm)
        return NULL;
    char path[] = "/tmp/fxcc-isa-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        cg_free(cm);
        return NULL;
    }
    close(fd);
    bool ok = cg_optimize(cm) && cg_write(cm, CG_OUT_ASM, path);
    cg_free(cm);
    char *text = NULL;
    FILE *f = ok ? fopen(path, "rb") : NULL;
    if (f) {
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fseek(f, 0, SEEK_SET);
        text = malloc((size_t)n + 1);
        size_t r = fread(text, 1, (size_t)n, f);
        text[r] = 0;
        fclose(f);
    }
    remove(path);
    return text;
}

char *isa_ir_asm(const char *ir, const char *arch, int opt)
{
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "baseline");
    LLVMModuleRef mod;
    char *msg = NULL, *text = NULL;
    if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
        fprintf(stderr, "baseline IR: %s\n", msg);
        LLVMDisposeMessage(msg);
        LLVMContextDispose(ctx);
        return NULL;
    }
    LLVMTargetRef t;
    if (LLVMGetTargetFromTriple("amdgcn-amd-amdhsa", &t, &msg) == 0) {
        LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, "amdgcn-amd-amdhsa", arch, "",
            opt >= 3 ? LLVMCodeGenLevelAggressive : opt == 0 ? LLVMCodeGenLevelNone : LLVMCodeGenLevelDefault,
            LLVMRelocPIC, LLVMCodeModelDefault);
        LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
        char *dl = LLVMCopyStringRepOfTargetData(td);
        LLVMSetDataLayout(mod, dl);
        LLVMDisposeMessage(dl);
        LLVMDisposeTargetData(td);
        char passes[32];
        snprintf(passes, sizeof passes, "default<O%d>", opt);
        LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
        LLVMErrorRef e = LLVMRunPasses(mod, passes, tm, po);
        LLVMDisposePassBuilderOptions(po);
        LLVMMemoryBufferRef out;
        if (!e && !LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &msg, &out)) {
            size_t n = LLVMGetBufferSize(out);
            text = malloc(n + 1);
            memcpy(text, LLVMGetBufferStart(out), n);
            text[n] = 0;
            LLVMDisposeMemoryBuffer(out);
        } else if (e) {
            LLVMConsumeError(e);
        }
        LLVMDisposeMessage(msg);
        LLVMDisposeTargetMachine(tm);
    }
    LLVMDisposeModule(mod);
    LLVMContextDispose(ctx);
    return text;
}

char *isa_kernel(const char *asm_text, const char *name, int *n)
{
    char label[256];
    snprintf(label, sizeof label, "\n%s:", name);
    const char *p = strstr(asm_text, label);
    *n = 0;
    if (!p)
        return NULL;
    p = strchr(p + 1, '\n');
    size_t cap = 4096, len = 0;
    char *out = malloc(cap);
    out[0] = 0;
    while (p && *p) {
        p++;
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        const char *s = p;
        while (s < p + l && isspace((unsigned char)*s))
            s++;
        size_t sl = (size_t)(p + l - s);
        const char *semi = memchr(s, ';', sl);
        if (semi)
            sl = (size_t)(semi - s);
        while (sl && isspace((unsigned char)s[sl - 1]))
            sl--;
        if (sl >= 10 && strncmp(s, ".Lfunc_end", 10) == 0)
            break;
        bool instr = sl && islower((unsigned char)s[0]) && s[sl - 1] != ':';
        if (instr) {
            if (len + sl + 2 > cap)
                out = realloc(out, cap = (cap + sl) * 2);
            memcpy(out + len, s, sl);
            len += sl;
            out[len++] = '\n';
            out[len] = 0;
            (*n)++;
        }
        p = e;
    }
    return out;
}

int isa_count(const char *body, const char *prefix)
{
    int n = 0;
    size_t pl = strlen(prefix);
    for (const char *p = body; p && *p;) {
        if (strncmp(p, prefix, pl) == 0)
            n++;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return n;
}
