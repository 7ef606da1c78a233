# A static condition picks its arm at compile time; the other arm is still
# checked.
const WIDE = True

kernel statics(out: Ptr[Float32], ints: Ptr[Int64]) {
    # a static condition picks its arm at compile time; numbers meet in
    # the common type (Int8 and a float literal: Float32)
    out[0] = Int8(3) if WIDE else 2.5
    out[1] = Int8(3) if not WIDE else 2.5
    # two untyped literals stay one: 256 adapts to Int64 here
    ints[0] = Int64(9000000000) + (256 if WIDE else 128)
}
