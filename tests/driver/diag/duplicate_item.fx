fn f() -> Int32 {
    return 1
}

fn f() -> Int32 {
    return 2
}
