# The condition must be a Boolean; run-time arms must be numbers.
kernel k(p: Ptr[Int32], q: Ptr[Int32], n: Int32) {
    p[0] = 1 if n else 2
    let r = p if n > 0 else q
    p[1] = 1 if n > 0 else (2, 3)
}
