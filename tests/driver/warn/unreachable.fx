# -Wunreachable-code (in -Wall): statements after return, break, continue.
# After `if DEBUG { return }` with a static DEBUG nothing is warned.
const DEBUG = False

fn f(a: Int32) -> Int32 {
    return a
    let b = a + 1
}

kernel k(p: Ptr[Int32], n: Int32) {
    for i in range(n) {
        if i == 3 {
            break
            p[i] = 0
        }
        continue
        p[i] = 1
    }
    if DEBUG { return }
    p[0] = f(2)
}
