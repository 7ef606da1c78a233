fn f(a: Int32) -> Int32 {
    return a
}

kernel k() {
    let x = f(
        1,
        2
    ]
}
