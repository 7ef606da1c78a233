/* test_version.c - libfxrt's version as the shared library reports it at
 * run time against the macros of the headers this test was compiled with,
 * and the project's version (-DFX_PROJECT_VERSION, from meson.build). It is
 * linked with libfxrt.so, not the static library the other suites use, so
 * it checks the library programs outside the project load: also that it was
 * loaded by its soname. */
#include "fxtest.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "runtime/fxrt.h"

static void test_macros_match_project(void)
{
    char parts[32];
    snprintf(parts, sizeof parts, "%d.%d.%d", FXRT_VERSION_MAJOR, FXRT_VERSION_MINOR, FXRT_VERSION_PATCH);
    CU_ASSERT_STRING_EQUAL(parts, FX_PROJECT_VERSION);
    CU_ASSERT_STRING_EQUAL(FXRT_VERSION_STRING, FX_PROJECT_VERSION);
    CU_ASSERT_EQUAL(FXRT_VERSION_MAJOR_OF(FXRT_VERSION), FXRT_VERSION_MAJOR);
    CU_ASSERT_EQUAL(FXRT_VERSION_MINOR_OF(FXRT_VERSION), FXRT_VERSION_MINOR);
    CU_ASSERT_EQUAL(FXRT_VERSION_PATCH_OF(FXRT_VERSION), FXRT_VERSION_PATCH);
    /* The packed number orders versions as their parts do, also in #if. */
#if FXRT_VERSION < FXRT_MAKE_VERSION(0, 2, 0)
    CU_FAIL("FXRT_VERSION is older than the first version that has it");
#endif
    CU_ASSERT(FXRT_MAKE_VERSION(0, 9, 999) < FXRT_MAKE_VERSION(0, 10, 0));
    CU_ASSERT(FXRT_MAKE_VERSION(0, 999, 999) < FXRT_MAKE_VERSION(1, 0, 0));
}

static void test_library_matches_header(void)
{
    CU_ASSERT_EQUAL(rt_version(), FXRT_VERSION);
    CU_ASSERT_STRING_EQUAL(rt_version_string(), FXRT_VERSION_STRING);
    int v = rt_version();
    char parts[32];
    snprintf(parts, sizeof parts, "%d.%d.%d", FXRT_VERSION_MAJOR_OF(v), FXRT_VERSION_MINOR_OF(v),
             FXRT_VERSION_PATCH_OF(v));
    CU_ASSERT_STRING_EQUAL(parts, rt_version_string());
}

/* Which headers the library serves: semantic versioning's rule, with 0.x
 * minors breaking. */
static void test_compatible(void)
{
    const int major = FXRT_VERSION_MAJOR, minor = FXRT_VERSION_MINOR, patch = FXRT_VERSION_PATCH;
    CU_ASSERT_TRUE(rt_version_compatible(FXRT_VERSION));
    CU_ASSERT_TRUE(rt_version_compatible(FXRT_MAKE_VERSION(major, minor, patch + 1)));
    CU_ASSERT_TRUE(rt_version_compatible(FXRT_MAKE_VERSION(major, minor, 0)));
    CU_ASSERT_FALSE(rt_version_compatible(FXRT_MAKE_VERSION(major, minor + 1, 0)));
    CU_ASSERT_FALSE(rt_version_compatible(FXRT_MAKE_VERSION(major + 1, minor, patch)));
    CU_ASSERT_FALSE(rt_version_compatible(-1));
    if (minor > 0)   /* an older minor: breaking before 1.0, a subset after */
        CU_ASSERT_EQUAL(rt_version_compatible(FXRT_MAKE_VERSION(major, minor - 1, 0)), major != 0);
    if (major > 0)
        CU_ASSERT_FALSE(rt_version_compatible(FXRT_MAKE_VERSION(major - 1, minor, patch)));
}

/* The file rt_version was found in is the soname the linker recorded:
 * libfxrt.so.MAJOR.MINOR before 1.0, libfxrt.so.MAJOR after. */
static void test_loaded_by_soname(void)
{
    char want[64];
    if (FXRT_VERSION_MAJOR == 0)
        snprintf(want, sizeof want, "libfxrt.so.%d.%d", FXRT_VERSION_MAJOR, FXRT_VERSION_MINOR);
    else
        snprintf(want, sizeof want, "libfxrt.so.%d", FXRT_VERSION_MAJOR);
    Dl_info info;
    CU_ASSERT_FATAL(dladdr((void *)rt_version, &info) != 0 && info.dli_fname != NULL);
    const char *slash = strrchr(info.dli_fname, '/');
    const char *file = slash ? slash + 1 : info.dli_fname;
    CU_ASSERT_STRING_EQUAL(file, want);
}

static const FxtTest tests[] = {
    { "the header's macros are the project's version", test_macros_match_project },
    { "rt_version() is the header's version", test_library_matches_header },
    { "rt_version_compatible: same minor before 1.0", test_compatible },
    { "libfxrt.so is loaded by its soname", test_loaded_by_soname },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "version", tests, NULL, NULL }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
