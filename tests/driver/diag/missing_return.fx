fn f(n: Int32) -> Int32 {
    if n > 0 {
        return 1
    }
}
