# hash: out[i] = MurmurHash3_x86_32 of the 4-byte key keys[i] with a seed
# (one block of the body, the tail-free case, then the finalizer).
fn rotl(x: Uint32, r: Int32) -> Uint32 {
    return (x << r) | (x >> (32 - r))
}

@launch_bounds(256)
kernel hash(keys: const Ptr[Uint32], out: Ptr[Uint32], seed: Uint32, n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        var k = keys[i] * Uint32(0xcc9e2d51)
        k = rotl(k, 15) * Uint32(0x1b873593)
        var h = rotl(seed ^ k, 13) * Uint32(5) + Uint32(0xe6546b64)
        h ^= Uint32(4)                       # the key's length in bytes
        h ^= h >> 16
        h *= Uint32(0x85ebca6b)
        h ^= h >> 13
        h *= Uint32(0xc2b2ae35)
        h ^= h >> 16
        out[i] = h
    }
}
