fn scaled(x: Float32) -> Float32 {
    shared scratch: Array[Float32, 4]
    scratch[0] = x
    return scratch[0] * 2.0
}

program p(x: Tensor[Float32, 4], y: Tensor[Float32, 4]) {
    y = scaled(x)
}
