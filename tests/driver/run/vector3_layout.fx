# 3-lane vectors are packed in memory, as HIP's float3 (12 bytes, 4-byte
# aligned): a Ptr[Float32x3] buffer is a flat Float32 buffer of 3 per vector;
# shared arrays of them are packed too.
kernel k(p: Ptr[Float32x3], h: Ptr[Int16x3], q: Ptr[Float32], r: Ptr[Int16x3]) {
    shared s: Array[Float32x3, 4]
    let i = thread_idx.x
    s[i] = p[i] * 2.0
    fx.barrier()
    let v = s[3 - i]
    q[i] = v[0] + v[1] + v[2]
    r[i] = h[i] + h[3 - i]
}
