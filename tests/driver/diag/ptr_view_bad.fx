# Pointer views: a statically misaligned cast, arithmetic other than
# p + k / k + p / p - k, a non-integer offset, a store through a const view,
# a cast to a non-Ptr type.
kernel k(b: Ptr[Int8], p: Ptr[Float32], q: const Ptr[Float32]) {
    let v = (b + 3).cast(Ptr[Int32])
    let g = 2 - p
    let h = p + 1.5
    let r = q.cast(Ptr[Int32])
    r[0] = 1
    let s = p.cast(Float32)
    let d = p - p
}
