kernel k(p: Ptr[Int32]) {
    let x = 1
    x = 2
    p[0] = x
}
