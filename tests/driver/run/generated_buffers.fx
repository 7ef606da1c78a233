# iota/rand values per element type: Float32, Float64 and 8..64-bit integers
# are generated with the host's arithmetic, the others through the folder;
# this golden was made by the folder for all of them.
kernel g(a: Ptr[Int8], b: Ptr[Uint16], c: Ptr[Float32], d: Ptr[Float64], e: Ptr[Float16], f: Ptr[Int64]) {
    a[0] = a[0]
}
