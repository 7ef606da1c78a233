# docs/limits.md: nested static_range(60000) would make 3.6e9 copies of the body;
# the inner loop stops at the kernel size limit, at once
kernel k(p: Ptr[Float32]) {
    for i in static_range(60000) {
        for j in static_range(60000) {
            p[0] = p[0] + 1.0
        }
    }
}
