kernel k(x: Ptr[Float32], n: Int32) {
    x[0] = x[1] if n > 0 else 0.0
    x[2] = 1.0 if n < 0 else 2.0 if n == 0 else 3.0
    x[3] = (4.0 if n > 1 else 5.0) if n > 0 else 6.0
    let y = x[4] if n > 4 and n < 9 else -x[5]
}
