# Ptr[Float32x8] loads with 32-byte alignment: fxrun's buffers are aligned
# for it (calloc's 16 bytes crashed), and a program's transients too.
kernel k(p: Ptr[Float32x8], q: Ptr[Float64x4]) {
    let i = thread_idx.x
    p[i] = p[i] + 1.0
    q[i] = q[i] * 2.0
}
