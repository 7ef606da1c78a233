/* atomics.c - which element types each atomic operation takes.
 *
 * One rule for sema (the located error), the verifier and codegen:
 *  - integers of 16, 32 and 64 bits take every operation. 8-bit ones are
 *    refused because LLVM 19's AMDGPU backend aborts on 8-bit atomicrmw
 *    add/sub/and/or/xor/max/min ("Do not know how to promote this
 *    operator", measured with llc-19 on gfx90a/gfx942/gfx1100/gfx1201);
 *    128-bit ones because AMDGPU has no 128-bit atomics (and the host's
 *    would need libatomic);
 *  - Float16, BFloat16, Float32 and Float64 take add, sub, max, min, xchg
 *    and cas (cas compares the bits); the bitwise operations are for
 *    integers only. */
#include "fxir/fxir.h"

const char *fxir_atomic_type_error(FxAtomic op, ScalarId s)
{
    if (type_is_float(s)) {
        if (op == FXA_AND || op == FXA_OR || op == FXA_XOR)
            return "the bitwise atomics work on integers; bitcast floats to integers of their width";
        return NULL;
    }
    if (!type_is_int(s))
        return "atomics work on integers and on Float16/BFloat16/Float32/Float64";
    int w = type_info(s)->width;
    if (w < 16)
        return "atomics on 8-bit integers are not supported (LLVM 19's AMDGPU backend cannot select "
               "them); use a 16- or 32-bit element";
    if (w > 64)
        return "atomics work on integers of at most 64 bits: no target has 128-bit atomics";
    return NULL;
}
