# -Wsign-compare (on by default): the operands meet in an unsigned type, so
# a negative signed value compares as a large one. Exact cases are quiet:
# a non-negative static operand, or two static operands.
kernel k(p: Ptr[Int32], u: Uint32, i: Int32, w: Uint64, j: Int64) {
    if i < u { p[0] = 1 }
    if u > -1 { p[1] = 1 }
    if j >= w { p[2] = 1 }
    if u < 10 { p[3] = 1 }
    if Int32(-1) < Uint32(1) { p[4] = 1 }
    if i < Int32(u) { p[5] = 1 }
}
