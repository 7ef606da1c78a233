# @index_nowrap promises the kernel's own arithmetic; a range loop's last
# increment past the end wraps by design and is not part of the promise:
# fxrun must not report it. Near both ends of Int32, each loop runs once.
@index_nowrap
kernel k(p: Ptr[Int32], a: Int32, b: Int32) {
    var n = 0
    for i in range(a, b, 256) {
        n += 1
    }
    for j in range(-a, -b - 1, -100) {     # -2147483600 down to the minimum
        n += 1
    }
    p[0] = n
}
