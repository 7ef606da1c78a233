# reduce.fx - total[0] += the sum of x[0 .. n) (Int32, wrapping), a
# grid-stride reduction: each work-item sums x[i], x[i + S], x[i + 2S], ...
# (S the number of work-items of the grid), the block adds its 256 sums in
# a tree in shared memory, and work-item 0 adds the block's sum to total
# with an atomic. Integers, so that every order of the additions gives the
# same bits. reduce.cl is the same.
#   fxrun reduce.fx reduce --grid G --block 256 x=@x.bin n=N total=@total.bin

const B = 256

@launch_bounds(B)
kernel reduce(x: const Ptr[Int32], n: Int32, total: Ptr[Int32]) {
    shared part: Array[Int32, B]
    let t = thread_idx.x
    let stride = grid_dim.x * block_dim.x
    var s: Int32 = 0
    for i in range(block_idx.x * block_dim.x + t, n, stride) {
        s += x[i]
    }
    part[t] = s
    fx.barrier()
    for k in static_range(8) {
        let h = B >> (k + 1)
        if t < h {
            part[t] += part[t + h]
        }
        fx.barrier()
    }
    if t == 0 {
        fx.atomic_add(total, 0, part[0])
    }
}
