/* main.c - tests/mathacc: the math builtins of issue 12 (docs/math.md).
 *   accuracy  - folded (= host) values against MPFR, within the documented ulps
 *   foldrun   - folding equals the host's run time bit for bit
 *   devices   - gfx90a/gfx942/gfx1100/gfx1201 compiles: LLVM-verified, the
 *               expected instructions, or the located error where ocml is missing
 *   verify    - the FXIR verifier on the new sub-operations */
#include "fxtest.h"

extern const FxtTest accuracy_tests[], foldrun_tests[], devices_tests[], verify_tests[];

static const FxtSuite suites[] = {
    { "accuracy", accuracy_tests, NULL, NULL },
    { "foldrun", foldrun_tests, NULL, NULL },
    { "devices", devices_tests, NULL, NULL },
    { "verify", verify_tests, NULL, NULL },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
