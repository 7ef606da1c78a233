/* fuzz_llvm.c - harness: source -> LLVM IR for the host, gfx942 and gfx1100,
 * built (cg_build runs the LLVM verifier), optimized, and verified again.
 * Diagnostics for bad input are fine; a verifier failure, an internal error,
 * an LLVM fatal error (exit status 70, "fuzz target exited") or a crash is a
 * finding. -O1: the optimizer runs, at a fraction of -O3's time per input.
 * FUZZ_LLVM_ISA=1 also runs the backend (instruction selection, register
 * allocation: the assembly as text), several times slower per input. */
#include "fuzz_common.h"
#include <stdlib.h>

static void codegen_for(const char *arch, const uint8_t *data, size_t size)
{
    FzCompile z;
    fz_options(&z, arch, 1);
    if (fz_parse(&z, data, size) && fz_lower(&z)) {
        CgModule *m = pipe_codegen(&z.c);
        fz_check_diag(&z);
        if (m)
            fz_check_llvm(&z, m, arch ? arch : "host");
        if (m && getenv("FUZZ_LLVM_ISA")) {
            free(cg_assembly(m));   /* NULL after located errors: fine */
            fz_check_diag(&z);
        }
        if (m)
            cg_free(m);
    }
    fz_finish(&z);
}

int fz_one(const uint8_t *data, size_t size)
{
    fz_each_target(codegen_for, data, size);
    return 0;
}
