# -Wconstant-condition (in -Wall): a condition of literals only; naming a
# const makes it a compile-time choice, not warned about.
const FAST = True

kernel k(p: Ptr[Int32]) {
    if 1 < 2 { p[0] = 1 }
    if False { p[1] = 1 }
    if FAST { p[2] = 1 }
    if Float32.width == 32 { p[3] = 1 }
}
