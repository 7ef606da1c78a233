@index_nowrap
fn f(a: Int32) -> Int32 {
    return a + 1
}
kernel k(p: Ptr[Int32]) {
    p[0] = f(1)
}
