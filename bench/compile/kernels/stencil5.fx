# stencil5.fx - one Jacobi step of the 5-point Laplacian on an n x n grid.
@launch_bounds(256)
kernel stencil5(u: const Ptr[Float32], v: Ptr[Float32], n: Int32) {
    let x = block_idx.x * block_dim.x + thread_idx.x
    let y = block_idx.y * block_dim.y + thread_idx.y
    if x > 0 and y > 0 and x < n - 1 and y < n - 1 {
        let i = y * n + x
        v[i] = 0.25 * (u[i - 1] + u[i + 1] + u[i - n] + u[i + n])
    }
}
