# A one-lane vector does not become a scalar: the advice is a lane, x[0]
# (Int32(x) would be rejected too).
kernel k(p: Ptr[Int32], q: Ptr[Int32x1], f: Ptr[Float32]) {
    let v = q[0]
    p[0] = v
    p[1] = Int32(v)
    f[0] = v
    p[2] = v[0]
}
