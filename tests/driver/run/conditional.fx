# `a if c else b` is lazy: only the chosen arm runs. x holds exactly n
# elements, so an eager x[i] would be an out-of-bounds read (fxrun stops).
fn bump(p: Ptr[Int32], v: Int32) -> Int32 {
    fx.atomic_add(p, 0, 1)
    return v
}

kernel guarded(x: const Ptr[Float32], n: Int32, out: Ptr[Float32], calls: Ptr[Int32], odd: Ptr[Int32]) {
    let i = thread_idx.x
    out[i] = x[i] * 2.0 if i < n else -1.0
    # side effects: one call per work-item, in the chosen arm only
    let v = bump(calls, 1) if i % 2 == 0 else bump(odd, 2)
    out[i] += Float32(v) * 0.0
    # grouping to the right: a if c else (b if d else e)
    let band = 0 if i < 2 else 1 if i < 5 else 2
    calls[2 + i] = band
}
