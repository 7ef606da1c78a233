# vec4_add: c = a + b over n four-lane vectors, one vector per work-item
# (16-byte loads and stores).
@launch_bounds(256)
kernel vec4_add(a: const Ptr[Float32x4], b: const Ptr[Float32x4], c: Ptr[Float32x4], n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        c[i] = a[i] + b[i]
    }
}
