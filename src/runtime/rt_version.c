/* rt_version.c - the version libfxrt was built as. The values are the
 * macros of fxrt_version.h when this file was compiled, so that a program
 * can compare them with the macros it was compiled with: a libfxrt.so found
 * at run time may be another than the one the program was built against. */
#include "runtime/fxrt.h"

int rt_version(void)
{
    return FXRT_VERSION;
}

const char *rt_version_string(void)
{
    return FXRT_VERSION_STRING;
}

int rt_version_compatible(int compiled)
{
    if (compiled < 0 || FXRT_VERSION_MAJOR_OF(compiled) != FXRT_VERSION_MAJOR)
        return 0;
    int minor = FXRT_VERSION_MINOR_OF(compiled);
    /* Before 1.0 every minor version may break the API (semantic versioning's
     * rule for 0.x), so only the same minor serves; from 1.0 on minors only
     * add, so a newer one serves too. */
    if (FXRT_VERSION_MAJOR == 0)
        return minor == FXRT_VERSION_MINOR;
    return minor <= FXRT_VERSION_MINOR;
}
