kernel k(p: Ptr[Int32]) {
    break
}
