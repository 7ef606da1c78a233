# -Wdivergent-barrier (on by default): a barrier that only some work-items
# of the block may reach, because of an if, a loop, or an earlier return,
# break or continue (in the same round) that depends on thread_idx, also
# through a fn and a var; a loop's head when its test depends on thread_idx;
# and a fn whose barrier depends on a parameter, by the arguments of each
# call.
fn sync() {
    fx.barrier()
}

@launch_bounds(64)
kernel k(p: Ptr[Float32], n: Int32) {
    shared s: Array[Float32, 64]
    let t = thread_idx.x
    s[t] = 1.0
    fx.barrier()                      # fine
    if s[0] > 0.0 {
        fx.barrier()                  # fine: shared memory read at one address after a barrier
    }
    if n > 3 {
        fx.barrier()                  # fine: n is uniform
    }
    if t < 32 {
        fx.barrier()                  # 1: warned
    }
    var m = 0
    if t == 0 { m = 1 }
    if m > 0 {
        sync()                        # 2: warned, through m and a fn
    }
    var step = 32
    while step > 0 {
        if t < step { s[t] += s[t + step] }
        fx.barrier()                  # fine: step is uniform
        step //= 2
    }
    for i in range(t, 64) {
        fx.barrier()                  # 3: warned, the trip count depends on t
    }
    for i in range(0, 4) {
        if t == 5 { break }
        fx.barrier()                  # 4: warned, after a divergent break
    }
    fx.barrier()                      # fine: the loop's work-items meet again
    if t == 7 { return }
    fx.barrier()                      # 5: warned, after a divergent return
    p[t] = s[t]
}

fn gated(v: Int32) -> Int32 {
    if v > 0 {
        fx.barrier()                  # fine by itself: v counts as uniform here
    }
    return v
}

fn doubled(w: Int32) -> Int32 {
    return gated(w * 2)
}

kernel by_argument(p: Ptr[Int32], n: Int32) {
    let t = thread_idx.x
    p[t] = gated(n)                   # fine: n is uniform
    p[t] += gated(t)                  # 6: warned, the argument depends on t
    p[t] += doubled(t + 1)            # 7: warned, through a second fn
    p[t] += doubled(block_idx.x)      # fine
}

fn my_id() -> Int32 {
    return thread_idx.x
}

fn block_top(shared s: Array[Int32, 64], v: Int32) -> Int32 {
    s[thread_idx.x] = v
    fx.barrier()
    var top = s[0]
    for k in range(1, block_dim.x) {
        top = fx.max(top, s[k])
    }
    fx.barrier()
    return top                        # the same in every work-item
}

fn by_thread_or(v: Int32) -> Int32 {
    if thread_idx.x == 0 {
        return v                      # a uniform value, returned by one work-item only
    }
    return 0
}

@launch_bounds(64)
kernel by_value(p: Ptr[Int32]) {
    shared s: Array[Int32, 64]
    let t = thread_idx.x
    if my_id() == 0 {
        fx.barrier()                  # 8: warned, the fn's value depends on thread_idx
    }
    var left = block_top(s, t)
    while left > 0 {
        fx.barrier()                  # fine: block_top's value is uniform, whatever its argument
        left = block_top(s, left - 1 - t % 2)
    }
    if by_thread_or(3) > 0 {
        fx.barrier()                  # 9: warned, the fn returns under a thread-dependent condition
    }
    p[t] = left
}

fn synced(v: Int32) -> Int32 {
    fx.barrier()
    return v
}

@launch_bounds(64)
kernel by_loop(p: Ptr[Int32], n: Int32) {
    shared s: Array[Int32, 64]
    let t = thread_idx.x
    var k = 0
    while synced(k) < t {             # 10: warned, who goes round again depends on t
        k += 1
    }
    for i in range(n) {
        fx.barrier()                  # fine: work-items that continued meet the rest here
        s[t] = i
        if (t + i) % 3 == 0 {
            continue
        }
        k += s[(t + 1) % 64]
    }
    for i in range(n) {
        fx.barrier()                  # fine
        if t == i {
            continue
        }
        fx.barrier()                  # 11: warned, after a divergent continue in the same round
    }
    p[t] = k
}

kernel inner_jumps(p: Ptr[Int32], n: Int32) {
    for i in range(n) {
        if thread_idx.x < 3 {
            break                     # the note of 12 names this break
        } else {
            for j in range(4) {
                if j == 2 { break }   # not this one: it leaves the inner loop only
            }
        }
        fx.barrier()                  # 12: warned, after a divergent break
    }
}
