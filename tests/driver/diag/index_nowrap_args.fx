@index_nowrap()
kernel k(p: Ptr[Int32]) {
    p[0] = 1
}
