# -Werror=sign-compare makes that warning an error (exit status 1) and
# leaves the others warnings; -Wno-error=NAME undoes it.
kernel k(p: Ptr[Int32], u: Uint32, i: Int32, w: Uint64, j: Int64) {
    if i < u { p[0] = 1 }
    if u > -1 { p[1] = 1 }
    if j >= w { p[2] = 1 }
    if u < 10 { p[3] = 1 }
    if Int32(-1) < Uint32(1) { p[4] = 1 }
    if i < Int32(u) { p[5] = 1 }
}

kernel k2(p: Ptr[Int32]) {
    let t = thread_idx.x
    if t < 3 { fx.barrier() }
}
