# relax.fx - smooth.fx written the way examples/common.fx invites: the
# block goes on while its largest change (common.fx's block_max, a tree
# with barriers, in the loop's condition) is at least tol. The same rounds
# as smooth.fx, so the same bits. fxrun needs -I examples to find common.fx.
import "common.fx"

@launch_bounds(256)
kernel relax(x: Ptr[Float32], tol: Float32) {
    shared a: Array[Float32, 256]
    let t = thread_idx.x
    let row = block_idx.x * block_dim.x
    a[t] = x[row + t]
    var change = tol
    while block_max(change) >= tol {
        let left = a[(t + block_dim.x - 1) % block_dim.x]
        let right = a[(t + 1) % block_dim.x]
        let v = 0.5 * a[t] + 0.25 * (left + right)
        change = fx.abs(v - a[t])
        fx.barrier()
        a[t] = v
    }
    x[row + t] = a[t]
}
