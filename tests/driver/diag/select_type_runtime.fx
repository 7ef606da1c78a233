# a type chosen by a run-time condition
@launch_bounds(64)
kernel k(d: Ptr[Float32], n: Int32) {
    let x = (n > 3).select(Float16x4, Float16x8)(1.0)
    d[0] = Float32(x[0])
}
