// hash: out[i] = MurmurHash3_x86_32 of the 4-byte key keys[i] with a seed.
#include "hip_device.h"

static __device__ inline unsigned rotl(unsigned x, int r)
{
    return (x << r) | (x >> (32 - r));
}

extern "C" __global__ __launch_bounds__(256) void hash(const unsigned *__restrict__ keys, unsigned *out, unsigned seed,
                                                       int n)
{
    int i = blockIdx_x * blockDim_x + threadIdx_x;
    if (i < n) {
        unsigned k = keys[i] * 0xcc9e2d51u;
        k = rotl(k, 15) * 0x1b873593u;
        unsigned h = rotl(seed ^ k, 13) * 5u + 0xe6546b64u;
        h ^= 4u;
        h ^= h >> 16;
        h *= 0x85ebca6bu;
        h ^= h >> 13;
        h *= 0xc2b2ae35u;
        h ^= h >> 16;
        out[i] = h;
    }
}
