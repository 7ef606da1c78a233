# Scalar arguments follow the constructor rules: an integer parameter takes
# an integral value in its range (u=300 for a Uint8 wrapped to 44 before).
kernel k(p: Ptr[Float32], n: Int32, u: Uint8) {
    p[0] = Float32(n) + Float32(u)
}
