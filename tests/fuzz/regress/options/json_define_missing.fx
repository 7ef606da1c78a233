#fxcc: --diagnostics-format=json -D N=1 -Wall -Werror=unused-variable
# JSON diagnostics: an error about the command line (no const N) has no
# file, which is its right; the source's own errors have one.
kernel k(x: Ptr[Int32]) {
    let unused = 3
    x[0] = 1
}
