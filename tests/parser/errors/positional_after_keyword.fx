fn f(x: Float32) -> Float32 {
    return f(x, axis=1, x)
}
