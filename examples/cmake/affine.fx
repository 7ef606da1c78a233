# affine.fx - y = a * x + b over n elements, one per work-item. Imports
# common.fx, so editing that file rebuilds this kernel's outputs (and only
# those of kernels that import it).
import "common.fx"

@launch_bounds(BLOCK)
kernel affine(x: const Ptr[Float32], y: Ptr[Float32], a: Float32, b: Float32, n: Int32) {
    let i = block_idx.x * BLOCK + thread_idx.x
    if i < n {
        y[i] = affine1(a, x[i], b)
    }
}
