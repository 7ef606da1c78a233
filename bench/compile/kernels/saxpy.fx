# saxpy: y = a * x + y, one element per thread.
const BLOCK = 256
const T = Float32

fn axpy1(a: T, x: T, y: T) -> T {
    return a * x + y
}

@launch_bounds(BLOCK)
kernel saxpy(x: const Ptr[T], y: Ptr[T], a: T, n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        y[i] = axpy1(a, x[i], y[i])
    }
}
