/* check_version.c - a C program built against the installed <fxrt.h> and
 * libfxrt.so: the headers' version macros spell VERSION (the project's
 * version, given by the test), and the library the program runs with
 * reports the same version and serves these headers.
 *   check_version VERSION */
#include <fxrt.h>
#include <stdio.h>
#include <string.h>

/* Prints what differs; returns 1 when it does. */
static int differs(const char *what, const char *got, const char *want)
{
    if (strcmp(got, want) == 0)
        return 0;
    fprintf(stderr, "check_version: %s is %s, want %s\n", what, got, want);
    return 1;
}

static const char *spell(char buf[32], int major, int minor, int patch)
{
    snprintf(buf, 32, "%d.%d.%d", major, minor, patch);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: check_version VERSION\n");
        return 2;
    }
    const char *want = argv[1];
    char buf[32];
    int bad = 0;
    bad += differs("FXRT_VERSION_MAJOR.MINOR.PATCH",
                   spell(buf, FXRT_VERSION_MAJOR, FXRT_VERSION_MINOR, FXRT_VERSION_PATCH), want);
    bad += differs("FXRT_VERSION_STRING", FXRT_VERSION_STRING, want);
    bad += differs("FXRT_VERSION", spell(buf, FXRT_VERSION_MAJOR_OF(FXRT_VERSION),
                   FXRT_VERSION_MINOR_OF(FXRT_VERSION), FXRT_VERSION_PATCH_OF(FXRT_VERSION)), want);
    int v = rt_version();
    bad += differs("rt_version()", spell(buf, FXRT_VERSION_MAJOR_OF(v), FXRT_VERSION_MINOR_OF(v),
                   FXRT_VERSION_PATCH_OF(v)), want);
    bad += differs("rt_version_string()", rt_version_string(), want);
    if (!rt_version_compatible(FXRT_VERSION)) {
        fprintf(stderr, "check_version: the library does not serve its own headers\n");
        bad++;
    }
    printf("headers %s, library %s\n", FXRT_VERSION_STRING, rt_version_string());
    return bad != 0;
}
