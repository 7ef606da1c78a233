kernel k(x: const Ptr[Float32]) {
    x[0] = 1.0
}
