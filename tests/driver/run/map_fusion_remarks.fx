# map-fusion's remarks, and the results they are about: L is not folded into
# Z's Map because X is rewritten between them (Z must use the old X), T is
# folded into W's, and the three Maps that read Y run in one kernel.
program p(X: Tensor[Int32, 8], Y: Tensor[Int32, 8], Z: Tensor[Int32, 8], W: Tensor[Int32, 8],
          V: Tensor[Int32, 8], n: Int32) {
    let L = X + n
    X = Y - 1
    Z = L + 1
    let T = Y * 2
    W = T + n
    V = Y * Y
}
