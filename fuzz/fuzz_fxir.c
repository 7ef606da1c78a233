/* fuzz_fxir.c - harness: source -> FXIR through every pass, the FXIR verifier
 * after each one (--verify-each), for the host, gfx942 (waves of 64) and
 * gfx1100 (waves of 32): lowering and the passes depend on the target. Input that sema accepts and that then
 * fails to verify is a finding (fz_lower aborts); errors for bad input are
 * fine. */
#include "fuzz_common.h"

static void lower_for(const char *arch, const uint8_t *data, size_t size)
{
    FzCompile z;
    fz_options(&z, arch, 0);
    if (fz_parse(&z, data, size))
        fz_lower(&z);
    fz_finish(&z);
}

int fz_one(const uint8_t *data, size_t size)
{
    fz_each_target(lower_for, data, size);
    return 0;
}
