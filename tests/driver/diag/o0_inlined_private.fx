# docs/limits.md: every inlined call of a fn brings its own copy of the fn's
# private arrays. Counted once, this kernel passed the 64 KiB check and LLVM
# failed at -O0 with "stack frame size (160024) exceeds limit" (issue 15).
fn work(p: Ptr[Float32], i: Int32) -> Float32 {
    var t: Array[Float32, 10000]
    t[i] = p[i]
    return t[i + 1]
}

kernel k(p: Ptr[Float32], i: Int32) {
    p[0] = work(p, i) + work(p, i + 1) + work(p, i + 2) + work(p, i + 3)
}
