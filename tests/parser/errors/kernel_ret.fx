kernel k(n: Int32) -> Int32 {
}
