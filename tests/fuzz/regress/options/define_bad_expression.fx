#fxcc: -D X=1 + --print-after=contraction-precision
# A -D value that does not parse: located in "<command line>".
const X = 2
kernel k(x: Ptr[Int32]) {
    x[0] = X
}
