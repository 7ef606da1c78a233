# settle.fx - smooth.fx with its rounds in a fn that returns from inside its
# barrier loop once the ring has settled: the call's later loops skip the
# work-items that returned, and the caller goes on. Each block smooths one
# 256-long ring of Float32 until no element moves by tol or more, and
# writes back the ring and, from work-item 0, the number of rounds taken.
fn settle(t: Int32, tol: Float32, shared a: Array[Float32, 256], shared delta: Array[Float32, 256]) -> Int32 {
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
            return round + 1
        }
    }
    fx.barrier()
    return 1000
}

@launch_bounds(256)
kernel settle_rings(x: Ptr[Float32], rounds: Ptr[Int32], tol: Float32) {
    shared a: Array[Float32, 256]
    shared delta: Array[Float32, 256]
    let t = thread_idx.x
    let row = block_idx.x * block_dim.x
    a[t] = x[row + t]
    let n = settle(t, tol, a, delta)
    x[row + t] = a[t]
    if t == 0 {
        rounds[block_idx.x] = n
    }
}
