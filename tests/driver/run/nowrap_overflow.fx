# @index_nowrap promises that signed add/sub/mul do not overflow: fxrun
# checks the promise and stops at the first operation that breaks it.
@index_nowrap
kernel scale(x: Ptr[Int32], k: Int32, n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        x[i] = x[i] * k + 1
    }
}
