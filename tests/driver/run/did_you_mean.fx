# An unknown entry name gets the nearest kernel or program.
kernel saxpy(y: Ptr[Float32]) {
    y[0] = 1.0
}
