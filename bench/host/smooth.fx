# smooth.fx - a loop with barriers that the block leaves by a break: each
# block smooths one 256-long ring of Float32 (a Jacobi step per round)
# until no element moves by tol or more. The test of the largest change
# reads one shared element, so every work-item takes the break together.
@launch_bounds(256)
kernel smooth(x: Ptr[Float32], tol: Float32) {
    shared a: Array[Float32, 256]
    shared delta: Array[Float32, 256]
    let t = thread_idx.x
    let row = block_idx.x * block_dim.x
    a[t] = x[row + t]
    for round in range(1000) {
        fx.barrier()
        let left = a[(t + block_dim.x - 1) % block_dim.x]
        let right = a[(t + 1) % block_dim.x]
        let v = 0.5 * a[t] + 0.25 * (left + right)
        delta[t] = fx.abs(v - a[t])
        fx.barrier()
        a[t] = v
        if t == 0 {
            var m: Float32 = 0.0
            for k in range(block_dim.x) {
                m = fx.max(m, delta[k])
            }
            delta[0] = m
        }
        fx.barrier()
        if delta[0] < tol {
            break
        }
    }
    x[row + t] = a[t]
}
