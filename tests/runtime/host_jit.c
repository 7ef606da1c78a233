/* host_jit.c - see host_jit.h. */
#include "host_jit.h"
#include <stdio.h>
#include <stdlib.h>
#include "codegen/codegen.h"
#include "passes/passes.h"

RtHostModule *host_jit(FxModule *m, int opt_level)
{
    /* host code: the wave model's stage first (lane ids and wave operations) */
    PassOptions po = { .target = tgt_host(), .host_codegen = true };
    pass_run_one(m, "wave-emulation", &po);
    CgOptions o = { .target = tgt_host(), .opt_level = opt_level };
    CgModule *cm = cg_build(m, &o);
    if (!cm || !cg_optimize(cm)) {
        fprintf(stderr, "host_jit: the module does not build\n");
        cg_free(cm);
        return NULL;
    }
    LLVMModuleRef mod;
    LLVMContextRef ctx;
    cg_release(cm, &mod, &ctx);
    char *err = NULL;
    RtHostModule *rt = rt_host_load(mod, ctx, &err);
    if (!rt) {
        fprintf(stderr, "rt_host_load: %s\n", err);
        free(err);
    }
    return rt;
}
