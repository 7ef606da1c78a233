# A static if drops the untaken branch from the output, but both branches are
# type-checked; an error inside an unrolled loop is reported once.
const FAST = True

kernel k(p: Ptr[Float32]) {
    for i in static_range(4) {
        if FAST {
            p[i] = 1.0
        } else {
            p[i] = undefined_in_dead_branch
        }
    }
}
