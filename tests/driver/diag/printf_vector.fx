kernel k(p: Ptr[Float32x4]) {
    fx.printf("%f\n", p[0])
}
