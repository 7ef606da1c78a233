import "common.fx"                 # textual module import, searched in -I dirs

const BLOCK = 256                  # compile-time constant, overridable: -D BLOCK=128
const T = Float32                  # a type is a compile-time value too

fn axpy1(a: T, x: T, y: T) -> T {  # device function
    return a * x + y
}

@launch_bounds(BLOCK)
kernel saxpy(x: Ptr[T], y: Ptr[T], a: T, n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        y[i] = axpy1(a, x[i], y[i])
    }
}

program dgemm(A: Tensor[Float64, 512, 256], B: Tensor[Float64, 256, 384],
              C: Tensor[Float64, 512, 384]) {
    C = A @ B
}
