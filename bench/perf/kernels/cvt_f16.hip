// cvt_f16: Float32 to Float16 under four rounding modes. Round-to-nearest-
// even is the hardware conversion; the directed modes are written out in
// integer arithmetic (the HIP headers' __float2half_rz and friends call the
// ROCm device library, which -nogpulib leaves out). A NaN becomes Float16's
// canonical quiet NaN 0x7e00 in every mode, as fx's conversions define.
#include "hip_device.h"

typedef unsigned short half_bits;

// |x| truncated to Float16 plus one unit in the last place when inexact and
// `away` (rounding away from zero): the carry runs into the exponent, so
// 65504 + ulp becomes infinity.
static __device__ inline half_bits f32_to_f16_directed(float x, bool toward_zero, bool down)
{
    unsigned u = __builtin_bit_cast(unsigned, x);
    unsigned sign = (u >> 16) & 0x8000u;
    unsigned a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return 0x7e00u;
    if (a == 0x7f800000u)
        return (half_bits)(sign | 0x7c00u);
    bool away = !toward_zero && (down ? sign != 0 : sign == 0);
    unsigned h;
    bool inexact;
    int e = (int)(a >> 23);
    if (a >= 0x47800000u) {                  // 2^16 and above: past every finite half
        h = 0x7bffu;
        inexact = true;
    } else if (e >= 113) {                   // a normal half
        h = ((unsigned)(e - 112) << 10) | ((a >> 13) & 0x3ffu);
        inexact = (a & 0x1fffu) != 0;
    } else {                                 // a subnormal half or zero
        unsigned m = (a & 0x7fffffu) | (e ? 0x800000u : 0u);
        int shift = 126 - e;
        h = shift < 32 ? m >> shift : 0u;
        inexact = shift < 32 ? (m & ((1u << shift) - 1u)) != 0 : m != 0;
    }
    return (half_bits)(sign | (h + (inexact && away ? 1u : 0u)));
}

static __device__ inline half_bits f32_to_f16_nearest(float x)
{
    return x != x ? (half_bits)0x7e00u : __builtin_bit_cast(half_bits, (_Float16)x);
}

extern "C" __global__ __launch_bounds__(256) void cvt_f16(const float *__restrict__ x, half_bits *nearest,
                                                          half_bits *zero, half_bits *down, half_bits *up, int n)
{
    int i = blockIdx_x * blockDim_x + threadIdx_x;
    if (i < n) {
        float v = x[i];
        nearest[i] = f32_to_f16_nearest(v);
        zero[i] = f32_to_f16_directed(v, true, false);
        down[i] = f32_to_f16_directed(v, false, true);
        up[i] = f32_to_f16_directed(v, false, false);
    }
}
