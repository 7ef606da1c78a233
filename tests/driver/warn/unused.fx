# -Wunused-variable (in -Wall) and -Wunused-parameter (in -Wextra); a name
# starting with '_' is unused on purpose; an assignment is not a read.
fn f(a: Int32, _b: Int32, c: Int32) -> Int32 {
    let unused = a + 1
    var only_set = 0
    only_set = 3
    let (q, r) = divmod(a, 3)
    let _ignored = q * 2
    return q
}

kernel k(p: Ptr[Int32], n: Int32) {
    p[0] = f(1, 2, 3)
}
