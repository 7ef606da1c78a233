# leading comment

import "common.fx"; const N: Int32 = 4
static_assert(Int32.width == 32, "ints are 32-bit",)

@inline
@launch_bounds(256)   # two decorators
kernel k(x: const Ptr[Float32], y: Ptr[Float32x4], n: Int32,) {
    let i = thread_idx.x; let j: Int32 = 2
    let (q, r) = divmod(i, 3)
    var acc: Float32 = 0.0
    var b = 1
    var a: Array[Float32, 4]
    shared tile: Array[Float32, 16, 16]
    acc += 1.0; acc -= 1.0; acc *= 2.0; acc /= 2.0
    b //= 2
    b %= 3
    b &= 1
    b |= 2
    b ^= 3
    b <<= 1
    b >>= 1
    b **= 2
    a[0] = acc
    if i < n { b = 1 } else if i == n { b = 2 }
    else { b = 3 }
    if b > 0 {
        b = 0
    }
    # comment between
    else {

        b = 1
    }
    for t in range(n) { continue }
    for t in static_range(4) {
        break
    }
    while b > 0 { b -= 1 }
    with fx.fastmath("nnan,ninf") { acc = a[0] * a[1] + acc }
    with fx.fastmath({fx.FastMathFlags.nnan,
                      fx.FastMathFlags.ninf}) {
        acc = fx.sqrt(acc, fastmath=fx.FastMathFlags.afn)
    }
    static_assert(N == 4)
    fx.barrier()
    let v = fx.max(X * s + b, 0.0,
                   )
    let m = [
        1, 2,
        3,
    ]
    return
}

fn f(a: T) -> Array[Float32, 4] { return a }
program p(A: Tensor[Float32, M, K, col_major], r: Int32) {
    r = fx.reduce_max(fx.abs(A), axis=1)
    C = alpha * A.T @ B + beta * C
}
