# -Wshadow (only by name: `let x` again is allowed and common).
const N = 4

kernel k(p: Ptr[Int32]) {
    let x = thread_idx.x
    if x < 4 {
        let x = 5
        p[0] = x
    }
    let N = 3
    p[1] = x + N
}
