/* rt_libcalls.c - support routines the JIT'd code may call that the process
 * does not necessarily provide: LLVM lowers BFloat16 rounding on x86 to
 * __truncsfbf2/__truncdfbf2, which libgcc 12 lacks. Both round to nearest
 * even, exactly (the double version through a float rounded to odd). */
#include "runtime/rt_internal.h"
#include <math.h>
#include <string.h>

static uint16_t f32_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    /* A NaN that is exactly a BFloat16 (low half zero) passes unchanged,
     * signalling ones too: LLVM 19's x86 backend keeps a bfloat that lives
     * across basic blocks as a float and converts it back with this
     * function, which must then be a plain move. (Arithmetic never yields a
     * signalling NaN, and conversions canonicalize NaNs in fxcc's IR.) */
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u & 0xffffu) ? ((u >> 16) | 0x40) : (u >> 16));
    u += 0x7fffu + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}

static float f64_to_f32_odd(double d)
{
    float f = (float)d;
    if (isnan(d) || (double)f == d)
        return f;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if (fabs((double)f) > fabs(d))
        u -= 1;
    u |= 1;
    memcpy(&f, &u, sizeof f);
    return f;
}

#if defined(__x86_64__) || defined(__aarch64__)
/* bf16 travels in a floating-point register like a half: return the bits
 * through a _Float16 */
static _Float16 bits_as_half(uint16_t b)
{
    _Float16 h;
    memcpy(&h, &b, sizeof h);
    return h;
}
static _Float16 rt_truncsfbf2(float f) { return bits_as_half(f32_to_bf16(f)); }
static _Float16 rt_truncdfbf2(double d) { return bits_as_half(f32_to_bf16(f64_to_f32_odd(d))); }
#define HAVE_BF16_CALLS 1
#endif

static const RtLibcall calls[] = {
#ifdef HAVE_BF16_CALLS
    { "__truncsfbf2", (void *)rt_truncsfbf2 },
    { "__truncdfbf2", (void *)rt_truncdfbf2 },
#endif
    { NULL, NULL },
};

const RtLibcall *rt_libcalls(size_t *n)
{
    *n = sizeof calls / sizeof calls[0] - 1;
    return calls;
}
