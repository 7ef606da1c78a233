fn f() -> Int32 {
    shared t: Array[Int32, 4]
    return 0
}
