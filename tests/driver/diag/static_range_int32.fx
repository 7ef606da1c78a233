# The loop variable of static_range is a static Int32: bounds near Int64's
# end are counted exactly (no wrap) and rejected by value.
kernel k(p: Ptr[Int64]) {
    for i in static_range(9223372036854775800, 9223372036854775807, 256) {
        p[0] = Int64(i)
    }
    for j in static_range(2147483646, 2147483649) {
        p[1] = Int64(j)
    }
    for ok in static_range(2147483600, 2147483647, 256) {
        p[2] = Int64(ok)
    }
}
