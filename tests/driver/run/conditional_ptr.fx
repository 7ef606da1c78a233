# ping-pong: step k reads one buffer and writes the other
kernel step(a: Ptr[Float32], b: Ptr[Float32], k: Int32, n: Int32) {
    let i = thread_idx.x
    let src = a if k % 2 == 0 else b
    let dst = b if k % 2 == 0 else a
    dst[i] = src[i] * 2.0 + (src + 1 if i + 1 < n else src)[i]
}
