/* test_hostregion.c - kernels with barriers run as work-item loops between
 * the barriers (codegen/cg_hostregion.c, docs/host-execution.md):
 *   - which kernels do (K__fxblock and no K__fxhost, K__fxsync 0) and which
 *     stay on fibers (a divergent barrier, also one under a fn's
 *     thread-dependent value; a fn that returns before its barrier by
 *     thread or whose barrier the call's thread-dependent argument makes
 *     divergent; calls of fns with barriers over 100 deep; more to copy
 *     per work-item than ctx->state takes; --check; --host-barriers=fibers);
 *     copies too many for the stack go to ctx->state; fns with barriers
 *     are emitted in place, also one whose barrier depends on a parameter
 *     the call makes uniform; break and continue leave loops with
 *     barriers; a continue that only some work-items take runs as loops
 *     where nothing waits after it in its round (in the kernel and in a fn
 *     in place), on fibers where a region of the round follows it; a loop's
 *     condition may be a block reduction's value, but not one that depends
 *     on thread_idx when the loop's head waits;
 *   - bench/host's smooth, settle and relax (the same rounds three ways)
 *     give the same bits;
 *   - every kernel gives the bits of the same kernel on fibers, which run
 *     work-items in the same order (so even a race ends the same), on
 *     several block shapes, one thread and three, at -O3 and -O0;
 *   - work-items that return stop taking part, a block whose work-items all
 *     returned ends; a fn emitted in place may return before its last
 *     barrier (its later loops skip the work-item, the caller's do not);
 *   - work-items that disagree on a barrier's condition or on leaving a
 *     loop with a barrier (a race the divergence analysis cannot see) end
 *     the launch with a located error;
 *   - random kernels: 200 of uniform shapes run as loops with the bits of
 *     fibers; of 300 with thread-dependent parts mixed in, those the
 *     analysis passes run as loops with the bits of fibers and no error;
 *   - suite "waves": on gfx942's and gfx1100's waves (64 and 32 lanes),
 *     kernels whose wave exchanges the whole block reaches run as loops
 *     (without a barrier; a wave reduction through shared memory; exchanges
 *     in a loop run by the block with its break and continue, in a fn
 *     emitted in place, of a waiting fn's value), those with an exchange
 *     under a condition on thread_idx or a wave's vote on fibers, all with
 *     the bits of fibers on partial and whole waves; 48 exchanges as loops,
 *     49 on fibers; 60 random kernels whose barriers are in part wave sums
 *     and shuffles, as loops with the bits of fibers; of 160 such with
 *     thread-dependent parts mixed in, those the analysis passes as loops
 *     with the bits of fibers (random_kernel.c makes the random kernels;
 *     fuzz/fuzz_regions.c draws them from a fuzzer's bytes). */
#include "fxtest.h"
#include "fxsource.h"
#include "random_kernel.h"
#include "runtime/fxrt_check.h"
#include "runtime/rt_internal.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *k_src =
    /* several regions; a private variable, a private array and `let`s live
     * across barriers; a race on shared memory */
    "kernel stages(out: Ptr[Float32], x: const Ptr[Float32], n: Int32) {\n"
    "    shared s: Array[Float32, 512]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    let items = block_dim.x * block_dim.y * block_dim.z\n"
    "    let g = block_idx.x * items + t\n"
    "    var acc: Float32 = 0.0\n"
    "    var hist: Array[Float32, 3]\n"
    "    s[t] = x[g % n]\n"
    "    fx.barrier()\n"
    "    acc = s[(t + 1) % items] * 2.0\n"
    "    hist[t % 3] = acc\n"
    "    s[(t + 5) % items] += 1.0\n"
    "    fx.barrier()\n"
    "    s[t] = acc + s[t]\n"
    "    fx.barrier()\n"
    "    out[g] = s[items - 1 - t] + hist[0] + hist[1] + hist[2] + Float32(g)\n"
    "}\n"
    /* barriers in a range loop, an if/else and a while nested in it */
    "kernel loops(out: Ptr[Int32], rounds: Int32) {\n"
    "    shared s: Array[Int32, 512]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    let items = block_dim.x * block_dim.y * block_dim.z\n"
    "    var v = t * 7 + block_idx.x\n"
    "    for r in range(rounds) {\n"
    "        s[t] = v\n"
    "        fx.barrier()\n"
    "        let left = s[(t + items - 1) % items]\n"
    "        fx.barrier()\n"
    "        if r % 2 == 0 {\n"
    "            v = v + left\n"
    "            fx.barrier()\n"
    "        } else {\n"
    "            var k = 0\n"
    "            while k < 2 {\n"
    "                s[t] = v * (k + 3)\n"
    "                fx.barrier()\n"
    "                v = v ^ s[(t + 3) % items]\n"
    "                fx.barrier()\n"
    "                k += 1\n"
    "            }\n"
    "        }\n"
    "    }\n"
    "    out[block_idx.x * items + t] = v\n"
    "}\n"
    /* a loop of tiles with a run-time step, the tile read by everyone */
    "kernel tiles(out: Ptr[Int64], a: const Ptr[Int32], n: Int32, step: Int32) {\n"
    "    shared tile: Array[Int32, 512]\n"
    "    let t = thread_idx.x\n"
    "    var sum: Int64 = 0\n"
    "    for base in range(0, n, step) {\n"
    "        tile[t] = 0\n"
    "        if base + t < n {\n"
    "            tile[t] = a[base + t]\n"
    "        }\n"
    "        fx.barrier()\n"
    "        for k in range(block_dim.x) {\n"
    "            sum += Int64(tile[k]) * Int64(k + 1)\n"
    "        }\n"
    "        fx.barrier()\n"
    "    }\n"
    "    out[block_idx.x * block_dim.x + t] = sum + Int64(t)\n"
    "}\n"
    /* returns: the whole block (uniform), then half of it after the last barrier */
    "kernel early(out: Ptr[Int32], stop: Int32) {\n"
    "    shared s: Array[Int32, 512]\n"
    "    let t = thread_idx.x\n"
    "    s[t] = t * 3\n"
    "    fx.barrier()\n"
    "    if block_idx.x == stop {\n"
    "        return\n"
    "    }\n"
    "    let w = s[block_dim.x - 1 - t]\n"
    "    fx.barrier()\n"
    "    out[block_idx.x * block_dim.x + t] = w\n"
    "    if t % 2 == 1 {\n"
    "        return\n"
    "    }\n"
    "    out[block_idx.x * block_dim.x + t] = w + 1\n"
    "}\n"
    /* every work-item returns inside a loop with a barrier */
    "kernel all_leave(out: Ptr[Int32]) {\n"
    "    let t = thread_idx.x\n"
    "    var k = 0\n"
    "    while True {\n"
    "        fx.barrier()\n"
    "        out[block_idx.x * block_dim.x + t] += 1\n"
    "        if k == 3 {\n"
    "            return\n"
    "        }\n"
    "        k += 1\n"
    "    }\n"
    "}\n"
    /* only a race makes the work-items disagree: work-item 0 reads s[0]
     * before work-item 1 writes it */
    "kernel racy(out: Ptr[Int32]) {\n"
    "    shared s: Array[Int32, 1]\n"
    "    if thread_idx.x == 1 {\n"
    "        s[0] = 1\n"
    "    }\n"
    "    if s[0] == 1 {\n"
    "        fx.barrier()\n"
    "    }\n"
    "    out[thread_idx.x] = s[0]\n"
    "}\n"
    /* these stay on fibers */
    "kernel divergent(out: Ptr[Int32]) {\n"
    "    if thread_idx.x < 2 {\n"
    "        fx.barrier()\n"
    "    }\n"
    "    out[thread_idx.x] = 1\n"
    "}\n"
    "fn sync_then(v: Int32) -> Int32 {\n"
    "    fx.barrier()\n"
    "    return v + 1\n"
    "}\n"
    "kernel via_fn(out: Ptr[Int32]) {\n"
    "    out[thread_idx.x] = sync_then(thread_idx.x)\n"
    "}\n"
    "kernel leaves(out: Ptr[Int32]) {\n"
    "    var k = 0\n"
    "    while True {\n"
    "        fx.barrier()\n"
    "        if k > 3 {\n"
    "            break\n"
    "        }\n"
    "        k += 1\n"
    "    }\n"
    "    out[thread_idx.x] = k\n"
    "}\n"
    /* a private array across a barrier: 512 bytes per work-item, 512 KiB
     * at the default launch bound (loops, the copies in ctx->state), 128
     * KiB at 256 (loops, on the stack); the 64 KiB of private arrays a
     * work-item may have and a value more are more than ctx->state takes
     * (64 MiB at the launch bound: fibers) */
    "kernel big_private(out: Ptr[Float32]) {\n"
    "    var big: Array[Float32, 128]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    big[t % 128] = 1.0 + Float32(t)\n"
    "    big[(t + 7) % 128] = 2.0\n"
    "    fx.barrier()\n"
    "    out[block_idx.x * block_dim.x * block_dim.y * block_dim.z + t] = big[(t + 1) % 128] + big[t % 128]\n"
    "}\n"
    "kernel huge_private(out: Ptr[Float32]) {\n"
    "    var huge: Array[Float32, 16384]\n"
    "    let v = out[thread_idx.x]\n"
    "    huge[thread_idx.x % 16384] = v\n"
    "    fx.barrier()\n"
    "    out[thread_idx.x] = huge[(thread_idx.x + 1) % 16384] + v\n"
    "}\n"
    "@launch_bounds(256)\n"
    "kernel small_private(out: Ptr[Float32]) {\n"
    "    var big: Array[Float32, 128]\n"
    "    big[thread_idx.x % 128] = 1.0\n"
    "    fx.barrier()\n"
    "    out[thread_idx.x] = big[(thread_idx.x + 1) % 128]\n"
    "}\n"
    /* fns with barriers, emitted in place: called twice, a shared array by
     * reference, a Ptr whose bounds are the kernel parameter's */
    "fn block_total(v: Int32, shared red: Array[Int32, 512]) -> Int32 {\n"
    "    red[thread_idx.x] = v\n"
    "    fx.barrier()\n"
    "    var total = 0\n"
    "    for k in range(block_dim.x) {\n"
    "        total += red[k]\n"
    "    }\n"
    "    fx.barrier()\n"
    "    return total\n"
    "}\n"
    "fn scatter(p: Ptr[Int32], at: Int32, v: Int32) {\n"
    "    fx.barrier()\n"
    "    p[at] = v\n"
    "}\n"
    "kernel uses_fns(out: Ptr[Int32], extra: Ptr[Int32]) {\n"
    "    shared red: Array[Int32, 512]\n"
    "    let t = thread_idx.x\n"
    "    let g = block_idx.x * block_dim.x * block_dim.y * block_dim.z + "
    "(thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + t\n"
    "    let a = block_total(t + 1, red)\n"
    "    let b = block_total(a * 2 + t, red)\n"
    "    scatter(extra, g, a - b)\n"
    "    out[g] = a + b\n"
    "}\n"
    /* a fn that returns before its barrier (uniformly: loops, one call
     * that returns early in every work-item and one that does not; and,
     * given a thread-dependent argument, by thread: fibers), and one whose
     * barrier depends on a parameter, judged by each call's argument */
    "fn early_out(v: Int32) -> Int32 {\n"
    "    if v > 5 {\n"
    "        return 0\n"
    "    }\n"
    "    fx.barrier()\n"
    "    return v\n"
    "}\n"
    "kernel fn_early(out: Ptr[Int32]) {\n"
    "    out[thread_idx.x] = early_out(3) * 10 + early_out(7)\n"
    "}\n"
    "kernel fn_early_by_thread(out: Ptr[Int32]) {\n"
    "    out[thread_idx.x] = early_out(thread_idx.x)\n"
    "}\n"
    /* returns from fns emitted in place before their last barrier: from a
     * loop with barriers, from a run before a barrier, from a caller after
     * its first call; two calls in a row (the first's returns must not
     * keep work-items out of the second) and a kernel return */
    "fn rounds_until(limit: Int32, t: Int32, shared s: Array[Int32, 1]) -> Int32 {\n"
    "    var acc = t\n"
    "    for r in range(10) {\n"
    "        if t == 0 {\n"
    "            s[0] = r * 3 + limit % 4\n"
    "        }\n"
    "        fx.barrier()\n"
    "        let seen = s[0]\n"
    "        fx.barrier()\n"
    "        if seen > limit {\n"
    "            return acc + 1000 * r\n"
    "        }\n"
    "        acc += seen * (t + 1)\n"
    "    }\n"
    "    if limit < 0 {\n"
    "        return -acc\n"
    "    }\n"
    "    fx.barrier()\n"
    "    return acc + 7\n"
    "}\n"
    "fn twice(limit: Int32, t: Int32, shared s: Array[Int32, 1]) -> Int32 {\n"
    "    let a = rounds_until(limit, t, s)\n"
    "    if limit == 7 {\n"
    "        return a\n"
    "    }\n"
    "    let b = rounds_until(limit + 5, t, s)\n"
    "    return a * 3 + b\n"
    "}\n"
    "kernel fn_returns(out: Ptr[Int32], limit: Int32) {\n"
    "    shared s: Array[Int32, 1]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    let g = block_idx.x * block_dim.x * block_dim.y * block_dim.z + t\n"
    "    let x = twice(limit, t, s)\n"
    "    let y = rounds_until(limit * 2, t, s)\n"
    "    out[g] = x\n"
    "    if block_idx.x == 1 and limit > 20 {\n"
    "        return\n"
    "    }\n"
    "    let z = rounds_until(limit - 3, t + 1, s)\n"
    "    out[g] = x * 7 + y * 3 + z\n"
    "}\n"
    "fn gated(v: Int32) -> Int32 {\n"
    "    if v > 0 {\n"
    "        fx.barrier()\n"
    "    }\n"
    "    return v\n"
    "}\n"
    "kernel fn_gated(out: Ptr[Int32]) {\n"
    "    out[thread_idx.x] = gated(1)\n"
    "}\n"
    /* break and continue out of loops with barriers: from a run of
     * statements, from a block-level if, out of the inner of two such
     * loops, with a step that a continue still runs; and a return */
    "kernel jumps(out: Ptr[Int32], limit: Int32) {\n"
    "    shared s: Array[Int32, 1]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    let g = block_idx.x * block_dim.x * block_dim.y * block_dim.z + t\n"
    "    var k = 0\n"
    "    var trips = 0\n"
    "    for r in range(0, 100, 3) {\n"
    "        trips += 1\n"
    "        if t == 0 {\n"
    "            s[0] = k + r + block_idx.x\n"
    "        }\n"
    "        fx.barrier()\n"
    "        let seen = s[0]\n"
    "        fx.barrier()\n"
    "        if seen > limit {\n"
    "            out[g] += 1000\n"
    "            break\n"
    "        }\n"
    "        k = seen % 7\n"
    "        if k % 3 == 0 {\n"
    "            continue\n"
    "        }\n"
    "        out[g] += 10 + t\n"
    "        if k == 5 {\n"
    "            fx.barrier()\n"
    "            out[g] += 100000\n"
    "            if block_idx.x == 2 {\n"
    "                return\n"
    "            }\n"
    "            continue\n"
    "        }\n"
    "        var inner = 0\n"
    "        while True {\n"
    "            fx.barrier()\n"
    "            inner += 1\n"
    "            if inner == k {\n"
    "                break\n"
    "            }\n"
    "            out[g] += 7\n"
    "        }\n"
    "    }\n"
    "    out[g] += k * 100 + trips * 10000000\n"
    "}\n"
    /* only a race makes the work-items disagree on the break: work-item 0
     * has left the test before work-item 1 writes s[0] */
    "kernel racy_break(out: Ptr[Int32]) {\n"
    "    shared s: Array[Int32, 1]\n"
    "    while True {\n"
    "        fx.barrier()\n"
    "        if thread_idx.x == 1 {\n"
    "            s[0] = 1\n"
    "        }\n"
    "        if s[0] == 1 {\n"
    "            break\n"
    "        }\n"
    "    }\n"
    "    out[thread_idx.x] = 1\n"
    "}\n"
    /* a loop whose condition is a block reduction's value, which is the
     * same in every work-item whatever the fn is passed (loops); and a
     * barrier under a fn's value that is thread_idx (fibers: until 3
     * December its call counted as uniform for want of arguments) */
    "fn block_top(shared s: Array[Int32, 512], v: Int32) -> Int32 {\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    s[t] = v\n"
    "    fx.barrier()\n"
    "    var top = s[0]\n"
    "    for k in range(1, block_dim.x * block_dim.y * block_dim.z) {\n"
    "        top = fx.max(top, s[k])\n"
    "    }\n"
    "    fx.barrier()\n"
    "    return top\n"
    "}\n"
    "kernel converge(out: Ptr[Int32]) {\n"
    "    shared s: Array[Int32, 512]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    let g = block_idx.x * block_dim.x * block_dim.y * block_dim.z + t\n"
    "    var mine = (t * 37 + block_idx.x * 11) % 50\n"
    "    var rounds = 0\n"
    "    while block_top(s, mine) > 3 {\n"
    "        mine = mine * 2 // 3\n"
    "        rounds += 1\n"
    "    }\n"
    "    out[g] = rounds * 100 + mine\n"
    "}\n"
    /* the same with the head ending in the call (its value decides) */
    "fn block_any_over(shared s: Array[Int32, 512], v: Int32, limit: Int32) -> Boolean {\n"
    "    return block_top(s, v) > limit\n"
    "}\n"
    "kernel converge_flag(out: Ptr[Int32]) {\n"
    "    shared s: Array[Int32, 512]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    let g = block_idx.x * block_dim.x * block_dim.y * block_dim.z + t\n"
    "    var mine = (t * 37 + block_idx.x * 11) % 50\n"
    "    var rounds = 0\n"
    "    while block_any_over(s, mine, 3) {\n"
    "        mine = mine * 2 // 3\n"
    "        rounds += 1\n"
    "    }\n"
    "    out[g] = rounds * 100 + mine\n"
    "}\n"
    "fn own_id() -> Int32 {\n"
    "    return thread_idx.x\n"
    "}\n"
    "kernel by_own_id(out: Ptr[Int32]) {\n"
    "    if own_id() == 0 {\n"
    "        fx.barrier()\n"
    "    }\n"
    "    out[thread_idx.x] = 1\n"
    "}\n"
    /* gated's barrier depends on its parameter: fn_gated passes 1 (loops),
     * this kernel a thread-dependent value (fibers) */
    "kernel fn_gated_by_thread(out: Ptr[Int32]) {\n"
    "    out[thread_idx.x] = gated(thread_idx.x % 2)\n"
    "}\n"
    /* continues that only some work-items take, where nothing waits
     * between them and the end of the iteration (loops): after the last
     * barrier of a block-level if that ends the body, in its other arm,
     * in a loop whose head waits, in a fn emitted in place */
    "kernel late_continue(out: Ptr[Int32], limit: Int32) {\n"
    "    shared s: Array[Int32, 512]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    let items = block_dim.x * block_dim.y * block_dim.z\n"
    "    let g = block_idx.x * items + t\n"
    "    var acc = 0\n"
    "    var k = 0\n"
    "    for r in range(limit) {\n"
    "        fx.barrier()\n"
    "        s[t] = acc + r\n"
    "        fx.barrier()\n"
    "        acc += s[(t + 1) % items] % 1000\n"
    "        if r % 2 == 1 {\n"
    "            fx.barrier()\n"
    "            if (t + r) % 3 == 0 {\n"
    "                continue\n"
    "            }\n"
    "            acc += t\n"
    "        } else {\n"
    "            if (t ^ r) % 4 == 1 {\n"
    "                k += 1\n"
    "                continue\n"
    "            }\n"
    "            acc *= 3\n"
    "        }\n"
    "    }\n"
    "    out[g] = acc * 100 + k\n"
    "}\n"
    "kernel converge_continue(out: Ptr[Int32]) {\n"
    "    shared s: Array[Int32, 512]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    let g = block_idx.x * block_dim.x * block_dim.y * block_dim.z + t\n"
    "    var mine = (t * 37 + block_idx.x * 11) % 50\n"
    "    var odd = 0\n"
    "    while block_top(s, mine) > 3 {\n"
    "        mine = mine * 2 // 3\n"
    "        if mine % 2 == 0 {\n"
    "            continue\n"
    "        }\n"
    "        odd += 1\n"
    "    }\n"
    "    out[g] = odd * 100 + mine\n"
    "}\n"
    "fn rounds_skip(t: Int32, shared s: Array[Int32, 512], n: Int32, shift: Int32) -> Int32 {\n"
    "    var acc = 0\n"
    "    for r in range(n) {\n"
    "        s[t] = r + acc\n"
    "        fx.barrier()\n"
    "        acc += s[0] % 7\n"
    "        fx.barrier()\n"
    "        if (t + r + shift) % 2 == 0 {\n"
    "            continue\n"
    "        }\n"
    "        acc += 1\n"
    "    }\n"
    "    return acc\n"
    "}\n"
    "kernel fn_continue(out: Ptr[Int32], limit: Int32) {\n"
    "    shared s: Array[Int32, 512]\n"
    "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n"
    "    let g = block_idx.x * block_dim.x * block_dim.y * block_dim.z + t\n"
    "    out[g] = rounds_skip(t, s, limit, 0) * 10 + rounds_skip(t, s, limit + 1, 1)\n"
    "}\n"
    /* the same followed by a region of the iteration, which the work-items
     * that continued must skip (fibers), in the kernel and in a fn; and a
     * loop whose head waits and whose test depends on thread_idx: the work-
     * items that left do not wait there again (a divergent barrier, which
     * the analysis missed until 3 December) */
    "kernel early_continue(out: Ptr[Int32], limit: Int32) {\n"
    "    var acc = 0\n"
    "    for r in range(limit) {\n"
    "        if r % 2 == 0 {\n"
    "            fx.barrier()\n"
    "            if thread_idx.x == r {\n"
    "                continue\n"
    "            }\n"
    "            acc += 1\n"
    "        }\n"
    "        acc += 10\n"
    "    }\n"
    "    out[block_idx.x * block_dim.x + thread_idx.x] = acc\n"
    "}\n"
    "fn skip_then_count(t: Int32, n: Int32) -> Int32 {\n"
    "    var acc = 0\n"
    "    for r in range(n) {\n"
    "        if r < 100 {\n"
    "            fx.barrier()\n"
    "            if t == r {\n"
    "                continue\n"
    "            }\n"
    "        }\n"
    "        acc += 1\n"
    "    }\n"
    "    return acc\n"
    "}\n"
    "kernel fn_early_continue(out: Ptr[Int32], limit: Int32) {\n"
    "    out[block_idx.x * block_dim.x + thread_idx.x] = skip_then_count(thread_idx.x, limit)\n"
    "}\n"
    "kernel head_by_thread(out: Ptr[Int32]) {\n"
    "    var k = 0\n"
    "    while sync_then(k) < thread_idx.x % 4 + 1 {\n"
    "        k += 1\n"
    "    }\n"
    "    out[block_idx.x * block_dim.x + thread_idx.x] = k\n"
    "}\n";

static const char *const as_regions[] = { "stages", "loops", "tiles", "early", "all_leave", "racy",
                                           "small_private", "via_fn", "uses_fns", "leaves", "jumps",
                                           "racy_break", "fn_gated", "fn_early", "fn_returns", "converge", "converge_flag",
                                           "late_continue", "converge_continue", "fn_continue", "big_private" };
static const char *const on_fibers[] = { "divergent", "huge_private", "fn_early_by_thread", "fn_gated_by_thread",
                                          "by_own_id", "early_continue", "fn_early_continue", "head_by_thread" };

enum { REGIONS, FIBERS, REGIONS_O0, CHECKED, NMODULES };
static FxsModule mods[NMODULES];

static void tune_fibers(FxOptions *o) { o->host_fibers = true; }
static void tune_quiet(FxOptions *o) { o->no_warnings = true; }
static void tune_quiet_fibers(FxOptions *o) { o->no_warnings = true; o->host_fibers = true; }
static void tune_o0(FxOptions *o) { o->opt_level = 0; }
static void tune_checked(FxOptions *o) { o->check = RT_CHECK_RACES; }

static int init(void)
{
    void (*tunes[NMODULES])(FxOptions *) = { NULL, tune_fibers, tune_o0, tune_checked };
    for (int m = 0; m < NMODULES; m++)
        if (!fxs_open_tuned(&mods[m], k_src, tunes[m]))
            return 1;
    return 0;
}

static int clean(void)
{
    for (int m = 0; m < NMODULES; m++)
        fxs_close(&mods[m]);
    rt_host_set_threads(0);
    return 0;
}

static bool runs_as_regions(FxsModule *m, const char *name)
{
    RtKernel k;
    char *err = NULL;
    if (rt_host_kernel(m->hm, name, &k, &err) != 0) {
        fprintf(stderr, "\n  %s: %s", name, err ? err : "?");
        free(err);
        return false;
    }
    return k.block != NULL && k.entry == NULL && !k.waits;
}

static bool runs_on_fibers(FxsModule *m, const char *name)
{
    RtKernel k;
    char *err = NULL;
    if (rt_host_kernel(m->hm, name, &k, &err) != 0) {
        free(err);
        return false;
    }
    return k.block == NULL && k.entry != NULL && k.waits;
}

static void test_which_kernels(void)
{
    for (size_t k = 0; k < sizeof as_regions / sizeof as_regions[0]; k++) {
        CU_ASSERT(runs_as_regions(&mods[REGIONS], as_regions[k]));
        CU_ASSERT(runs_as_regions(&mods[REGIONS_O0], as_regions[k]));
        CU_ASSERT(runs_on_fibers(&mods[FIBERS], as_regions[k]));
        CU_ASSERT(runs_on_fibers(&mods[CHECKED], as_regions[k]));
    }
    for (size_t k = 0; k < sizeof on_fibers / sizeof on_fibers[0]; k++)
        CU_ASSERT(runs_on_fibers(&mods[REGIONS], on_fibers[k]));
}

/* One launch of kernel `name` on module m: args as fxs_launch takes them. */
static int launch(FxsModule *m, const char *name, const unsigned grid[3], const unsigned block[3], void **args,
                  const size_t *bytes, unsigned threads, char **err)
{
    rt_host_set_threads(threads);
    *err = NULL;
    return rt_host_launch_checked(m->hm, name, grid, block, args, bytes, err);
}

/* One launch, on one thread, of a kernel whose parameters are an Int32
 * output of n elements and, when limit is not NULL, an Int32. */
static int launch_out(FxsModule *m, const char *name, const unsigned grid[3], const unsigned block[3], int32_t *out,
                      size_t n, const int32_t *limit)
{
    void *po = out;
    int32_t v = limit ? *limit : 0;
    void *args[] = { &po, &v };
    size_t bytes[] = { n * sizeof *out, 0 };
    char *err;
    int rc = launch(m, name, grid, block, args, bytes, 1, &err);
    free(err);
    return rc;
}

typedef struct Shape {
    unsigned grid[3], block[3];
} Shape;

static const Shape shapes[] = {
    { { 1, 1, 1 }, { 1, 1, 1 } }, { { 3, 1, 1 }, { 64, 1, 1 } }, { { 2, 1, 1 }, { 8, 4, 2 } },
    { { 5, 1, 1 }, { 7, 3, 1 } }, { { 2, 1, 1 }, { 512, 1, 1 } },
};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };

static size_t items_of(const Shape *s)
{
    return (size_t)s->grid[0] * s->grid[1] * s->grid[2] * s->block[0] * s->block[1] * s->block[2];
}

/* Runs `name` with one output buffer of `elem` bytes per work-item (args[0])
 * on every module of `set` (REGIONS, FIBERS, ...) that runs it as regions
 * and on fibers, every shape and thread count: the outputs must be equal,
 * byte for byte. */
static void same_as_fibers_in(FxsModule *set, const char *name, size_t elem, void **rest, const size_t *rest_bytes,
                              int nrest)
{
    for (int k = 0; k < NSHAPES; k++) {
        const Shape *s = &shapes[k];
        size_t n = items_of(s);
        unsigned char *want = calloc(n, elem);
        for (int m = 0; m < 3; m++)   /* FIBERS first: the reference */
            for (unsigned threads = 1; threads <= 3; threads += 2) {
                int mod = m == 0 ? FIBERS : m == 1 ? REGIONS : REGIONS_O0;
                unsigned char *out = calloc(n, elem);
                void *po = out;
                void *args[8] = { &po };
                size_t bytes[8] = { n * elem };
                for (int r = 0; r < nrest; r++) {
                    args[r + 1] = rest[r];
                    bytes[r + 1] = rest_bytes[r];
                }
                char *err;
                int rc = launch(&set[mod], name, s->grid, s->block, args, bytes, threads, &err);
                if (rc)
                    fprintf(stderr, "\n  %s on shape %d: %s", name, k, err ? err : "?");
                CU_ASSERT(rc == 0);
                free(err);
                if (m == 0 && threads == 1)
                    memcpy(want, out, n * elem);
                else
                    CU_ASSERT(memcmp(want, out, n * elem) == 0);
                free(out);
            }
        free(want);
    }
}

static void same_as_fibers(const char *name, size_t elem, void **rest, const size_t *rest_bytes, int nrest)
{
    same_as_fibers_in(mods, name, elem, rest, rest_bytes, nrest);
}

static void test_stages(void)
{
    enum { N = 4096 };
    float *x = malloc(N * 4);
    for (int i = 0; i < N; i++)
        x[i] = (float)(i * 37 % 101) / 4.0f - 12.0f;
    int32_t n = N;
    void *px = x;
    void *rest[] = { &px, &n };
    size_t bytes[] = { N * 4, 0 };
    same_as_fibers("stages", 4, rest, bytes, 2);
    free(x);
}

static void test_loops(void)
{
    for (int32_t rounds = 0; rounds <= 5; rounds += 5) {
        void *rest[] = { &rounds };
        size_t bytes[] = { 0 };
        same_as_fibers("loops", 4, rest, bytes, 1);
    }
}

static void test_tiles(void)
{
    enum { N = 1500 };
    int32_t *a = malloc(N * 4);
    for (int i = 0; i < N; i++)
        a[i] = i * 13 % 97 - 40;
    static const int32_t steps[] = { 64, 48, 0, -5 };   /* 0 and negative: no iteration */
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        int32_t n = N, step = steps[k];
        void *pa = a;
        void *rest[] = { &pa, &n, &step };
        size_t bytes[] = { N * 4, 0, 0 };
        same_as_fibers("tiles", 8, rest, bytes, 3);
    }
    free(a);
}

/* early against its model: block `stop` writes nothing; elsewhere the odd
 * work-items store w and the even ones w + 1, w = 3 * (block_dim - 1 - t). */
static void test_early(void)
{
    const unsigned grid[3] = { 4, 1, 1 }, block[3] = { 10, 1, 1 };
    for (int mod = 0; mod < NMODULES; mod++)
        for (unsigned threads = 1; threads <= 3; threads += 2) {
            int32_t out[40], stop = 2;
            for (int i = 0; i < 40; i++)
                out[i] = -1;
            void *po = out;
            void *args[] = { &po, &stop };
            size_t bytes[] = { sizeof out, 0 };
            char *err;
            CU_ASSERT(launch(&mods[mod], "early", grid, block, args, bytes, threads, &err) == 0);
            free(err);
            bool ok = true;
            for (int b = 0; b < 4; b++)
                for (int t = 0; t < 10; t++) {
                    int32_t w = 3 * (10 - 1 - t);
                    ok &= out[b * 10 + t] == (b == stop ? -1 : t % 2 ? w : w + 1);
                }
            CU_ASSERT(ok);
        }
}

/* Every work-item returns in the fourth round of a `while True`: each
 * added 4, and the block ended. */
static void test_all_leave(void)
{
    const unsigned grid[3] = { 3, 1, 1 }, block[3] = { 33, 1, 1 };
    for (int mod = 0; mod < NMODULES; mod++) {
        int32_t out[99] = { 0 };
        CU_ASSERT(launch_out(&mods[mod], "all_leave", grid, block, out, 99, NULL) == 0);
        bool ok = true;
        for (int i = 0; i < 99; i++)
            ok &= out[i] == 4;
        CU_ASSERT(ok);
    }
}

/* The race: work-item 1 sees the condition true where work-item 0 saw it
 * false. As loops: a located run error; on fibers the block runs on. */
static void test_disagreement(void)
{
    const unsigned grid[3] = { 2, 1, 1 }, block[3] = { 4, 1, 1 };
    for (int mod = 0; mod < NMODULES; mod++) {
        int32_t out[8] = { 0 };
        void *po = out;
        void *args[] = { &po };
        size_t bytes[] = { sizeof out };
        char *err;
        int rc = launch(&mods[mod], "racy", grid, block, args, bytes, 1, &err);
        if (mod == FIBERS || mod == CHECKED) {
            CU_ASSERT(rc == 0);
        } else {
            CU_ASSERT(rc == -1);
            const char *e = err ? err : "";
            CU_ASSERT(strstr(e, ":94:5: work-items of kernel racy, block (0,0,0), disagree on this condition, "
                                "which decides the next fx.barrier(): thread (1,0,0) differs from the block's "
                                "first") != NULL);
            if (!strstr(e, ":94:5:"))
                fprintf(stderr, "\n  racy: %s", e);
        }
        free(err);
    }
}

/* same_as_fibers for a kernel (out, limit) at each of n limits. */
static void same_at_limits_in(FxsModule *set, const char *name, const int32_t *limits, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        int32_t limit = limits[k];
        void *rest[] = { &limit };
        size_t bytes[] = { 0 };
        same_as_fibers_in(set, name, 4, rest, bytes, 1);
    }
}

static void same_at_limits(const char *name, const int32_t *limits, size_t n)
{
    same_at_limits_in(mods, name, limits, n);
}

/* same_as_fibers for a kernel whose only parameter is its output. */
static void same_without_arguments(const char *name)
{
    void *none[] = { NULL };
    size_t no_bytes[] = { 0 };
    same_as_fibers(name, 4, none, no_bytes, 0);
}

/* Break and continue out of loops with barriers, at limits that leave the
 * outer loop early, late and not at all (its range ends). */
/* Copies too many for the stack, in ctx->state (K__fxstate). */
static void test_copies_in_state(void)
{
    RtKernel k;
    char *err = NULL;
    CU_ASSERT(rt_host_kernel(mods[REGIONS].hm, "big_private", &k, &err) == 0 && k.state_bytes > 0);
    CU_ASSERT(rt_host_kernel(mods[REGIONS].hm, "small_private", &k, &err) == 0 && k.state_bytes == 0);
    free(err);
    same_without_arguments("big_private");
}

static void test_jumps(void)
{
    static const int32_t limits[] = { -1, 20, 60, 1000 };
    same_at_limits("jumps", limits, sizeof limits / sizeof limits[0]);
    same_without_arguments("leaves");
    same_without_arguments("fn_gated");
}

/* Limits at which the fns of fn_returns return from their loops at once,
 * later, at the fn's end and not before its last barrier; 7 makes `twice`
 * return after its first call, and over 20 block 1 returns too. */
static const int32_t fn_limits[] = { -1, 2, 7, 12, 40 };

/* Returns from fns emitted in place before their last barrier: the bits
 * of fibers. */
static void test_fn_returns(void)
{
    same_at_limits("fn_returns", fn_limits, sizeof fn_limits / sizeof fn_limits[0]);
    same_without_arguments("fn_early");
}

/* A loop decided by a block reduction's value, and a barrier under a fn's
 * thread-dependent value: the bits of fibers (by_own_id runs on fibers
 * in every module, so that is fibers against fibers: it must run). */
static void test_fn_values(void)
{
    same_without_arguments("converge");
    same_without_arguments("converge_flag");
    same_without_arguments("by_own_id");
}

/* Continues that only some work-items take, at the ends of iterations
 * (loops) and before a region of the iteration (fibers, so fibers against
 * fibers: they must run), and a waiting head whose test depends on
 * thread_idx (fibers): the bits of fibers. */
static void test_divergent_continues(void)
{
    static const int32_t limits[] = { 0, 1, 6, 13 };
    size_t n = sizeof limits / sizeof limits[0];
    same_at_limits("late_continue", limits, n);
    same_at_limits("fn_continue", limits, n);
    same_at_limits("early_continue", limits, n);
    same_at_limits("fn_early_continue", limits, n);
    same_without_arguments("converge_continue");
    same_without_arguments("head_by_thread");
}

/* rounds_until of fn_returns for work-item t (t_is_zero: a work-item
 * passes 0 and writes *s each round). */
static int32_t model_rounds_until(int32_t limit, int32_t t, bool writer, int32_t *s)
{
    int32_t acc = t, mod4 = ((limit % 4) + 4) % 4;   /* .fx's % is floored */
    for (int32_t r = 0; r < 10; r++) {
        if (writer)
            *s = r * 3 + mod4;
        if (*s > limit)
            return acc + 1000 * r;
        acc += *s * (t + 1);
    }
    return limit < 0 ? -acc : acc + 7;
}

/* fn_returns and fn_early against their model: 3 blocks of 6 work-items. */
static void test_fn_returns_model(void)
{
    const unsigned grid[3] = { 3, 1, 1 }, block[3] = { 6, 1, 1 };
    for (size_t k = 0; k < sizeof fn_limits / sizeof fn_limits[0]; k++) {
        int32_t limit = fn_limits[k];
        int32_t out[18] = { 0 };
        CU_ASSERT(launch_out(&mods[REGIONS], "fn_returns", grid, block, out, 18, &limit) == 0);
        for (int32_t b = 0; b < 3; b++)
            for (int32_t t = 0; t < 6; t++) {
                int32_t s = 0;   /* each call leaves the same s in every work-item */
                int32_t a = model_rounds_until(limit, t, true, &s), x = a;
                if (limit != 7)
                    x = a * 3 + model_rounds_until(limit + 5, t, true, &s);
                int32_t y = model_rounds_until(limit * 2, t, true, &s);
                int32_t want = x;
                if (!(b == 1 && limit > 20))
                    want = x * 7 + y * 3 + model_rounds_until(limit - 3, t + 1, false, &s);
                CU_ASSERT_EQUAL(out[b * 6 + t], want);
            }
    }
    int32_t out[4] = { 0 };
    const unsigned grid1[3] = { 1, 1, 1 }, block4[3] = { 4, 1, 1 };
    CU_ASSERT(launch_out(&mods[REGIONS], "fn_early", grid1, block4, out, 4, NULL) == 0);
    for (int t = 0; t < 4; t++)
        CU_ASSERT_EQUAL(out[t], 30);
}

/* A chain of `depth` fns, the last with a barrier and a return before it
 * (its byte in done[] is depth + 1), called from a kernel: as loops up to
 * 100 deep, on fibers beyond. (Each call's value is copied per work-item:
 * the launch bound keeps the copies under CG_REGION_STATE_BYTES.) */
static void test_call_depth(void)
{
    for (int depth = 100; depth <= 101; depth++) {
        size_t cap = 64 * (size_t)depth + 512, n = 0;
        char *src = malloc(cap);
        n += (size_t)snprintf(src + n, cap - n,
                              "fn f0(v: Int32) -> Int32 {\n    if v > 5 {\n        return 1\n    }\n"
                              "    fx.barrier()\n    return v\n}\n");
        for (int k = 1; k < depth; k++)
            n += (size_t)snprintf(src + n, cap - n, "fn f%d(v: Int32) -> Int32 {\n    return f%d(v) + 1\n}\n", k,
                                  k - 1);
        snprintf(src + n, cap - n,
                 "@launch_bounds(64)\nkernel deep(out: Ptr[Int32], v: Int32) {\n    out[thread_idx.x] = f%d(v)\n}\n",
                 depth - 1);
        FxsModule m;
        CU_ASSERT_FATAL(fxs_open(&m, src));
        CU_ASSERT(depth <= 100 ? runs_as_regions(&m, "deep") : runs_on_fibers(&m, "deep"));
        for (int32_t v = 3; v <= 9; v += 6) {
            int32_t out[4] = { 0 };
            void *po = out;
            void *args[] = { &po, &v };
            size_t bytes[] = { sizeof out, 0 };
            const unsigned grid[3] = { 1, 1, 1 }, block[3] = { 4, 1, 1 };
            char *err;
            CU_ASSERT(launch(&m, "deep", grid, block, args, bytes, 1, &err) == 0);
            free(err);
            for (int t = 0; t < 4; t++)
                CU_ASSERT_EQUAL(out[t], (v > 5 ? 1 : v) + depth - 1);
        }
        fxs_close(&m);
        free(src);
    }
}

/* The source of bench/host/NAME.fx, with its import of examples/common.fx
 * replaced by that file's text (an import is textual). */
static char *bench_host_source(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/../../bench/host/%s.fx", TEST_DIR, name);
    char *src = fxt_read_file(path);
    const char *import = "import \"common.fx\"\n";
    char *at = src ? strstr(src, import) : NULL;
    if (!at)
        return src;
    snprintf(path, sizeof path, "%s/../../examples/common.fx", TEST_DIR);
    char *common = fxt_read_file(path);
    if (!common) {
        free(src);
        return NULL;
    }
    size_t head = (size_t)(at - src), n = strlen(src) + strlen(common) + 1;
    char *whole = malloc(n);
    snprintf(whole, n, "%.*s%s%s", (int)head, src, common, at + strlen(import));
    free(src);
    free(common);
    return whole;
}

/* bench/host/smooth.fx (a barrier loop left by a break), settle.fx (the
 * same loop in a fn left by a return) and relax.fx (the same rounds in a
 * loop whose condition is common.fx's block_max) run as loops, as fibers
 * do, and smooth the same rings to the same bits. */
static void test_bench_rings(void)
{
    enum { RINGS = 3, N = RINGS * 256, NFILES = 3 };
    static const char *const files[NFILES] = { "smooth", "settle", "relax" };
    static const char *const names[NFILES] = { "smooth", "settle_rings", "relax" };
    float *x[NFILES][2];   /* [file][loops, fibers] */
    for (int f = 0; f < NFILES; f++) {
        char *src = bench_host_source(files[f]);
        CU_ASSERT_FATAL(src != NULL);
        bool counts = f == 1;   /* settle also writes each ring's number of rounds */
        for (int how = 0; how < 2; how++) {
            FxsModule m;
            CU_ASSERT_FATAL(fxs_open_tuned(&m, src, how ? tune_fibers : NULL));
            CU_ASSERT(how ? runs_on_fibers(&m, names[f]) : runs_as_regions(&m, names[f]));
            x[f][how] = malloc(N * sizeof(float));
            for (int i = 0; i < N; i++)
                x[f][how][i] = (float)((i * 7919) % 1000) / 1000.0f;
            int32_t rounds[RINGS] = { 0 };
            float tol = 1e-3f;
            void *px = x[f][how], *pr = rounds;
            void *args[3] = { &px, counts ? (void *)&pr : (void *)&tol, &tol };
            size_t bytes[3] = { N * sizeof(float), counts ? sizeof rounds : 0, 0 };
            const unsigned grid[3] = { RINGS, 1, 1 }, block[3] = { 256, 1, 1 };
            char *err;
            CU_ASSERT(launch(&m, names[f], grid, block, args, bytes, 1, &err) == 0);
            free(err);
            for (int r = 0; counts && r < RINGS; r++)
                CU_ASSERT(rounds[r] > 1 && rounds[r] < 1000);
            fxs_close(&m);
        }
        free(src);
    }
    for (int f = 0; f < NFILES; f++) {
        CU_ASSERT(memcmp(x[f][0], x[f][1], N * sizeof(float)) == 0);
        CU_ASSERT(memcmp(x[0][0], x[f][0], N * sizeof(float)) == 0);
    }
    for (int f = 0; f < NFILES; f++)
        for (int how = 0; how < 2; how++)
            free(x[f][how]);
}

/* jumps against its model, so that the comparison with fibers is not all
 * that holds it: one block of 3 work-items, limit 20. */
static void test_jumps_model(void)
{
    const unsigned grid[3] = { 1, 1, 1 }, block[3] = { 3, 1, 1 };
    int32_t want[3];
    for (int t = 0; t < 3; t++) {
        int32_t out = 0, k = 0, trips = 0;
        for (int r = 0; r < 100; r += 3) {
            trips++;
            int32_t seen = k + r;
            if (seen > 20) {
                out += 1000;
                break;
            }
            k = seen % 7;
            if (k % 3 == 0)
                continue;
            out += 10 + t;
            if (k == 5) {
                out += 100000;
                continue;
            }
            out += 7 * (k - 1);
        }
        want[t] = out + k * 100 + trips * 10000000;
    }
    for (int m = 0; m < 2; m++) {
        int mod = m ? REGIONS_O0 : REGIONS;
        int32_t out[3] = { 0 }, limit = 20;
        CU_ASSERT(launch_out(&mods[mod], "jumps", grid, block, out, 3, &limit) == 0);
        CU_ASSERT(memcmp(out, want, sizeof out) == 0);
    }
}

/* The race on the break: as loops, a located run error at the `if` that
 * holds it. */
static void test_jump_disagreement(void)
{
    const unsigned grid[3] = { 1, 1, 1 }, block[3] = { 2, 1, 1 };
    for (int m = 0; m < 2; m++) {
        int mod = m ? REGIONS_O0 : REGIONS;
        int32_t out[2] = { 0 };
        void *po = out;
        void *args[] = { &po };
        size_t bytes[] = { sizeof out };
        char *err;
        CU_ASSERT(launch(&mods[mod], "racy_break", grid, block, args, bytes, 1, &err) == -1);
        const char *e = err ? err : "";
        CU_ASSERT(strstr(e, ":281:9: work-items of kernel racy_break, block (0,0,0), disagree on this "
                            "condition, which decides the next fx.barrier(): thread (1,0,0) differs from the "
                            "block's first") != NULL);
        if (!strstr(e, ":272:9:"))
            fprintf(stderr, "\n  racy_break: %s", e);
        free(err);
    }
}

/* Fns with barriers in place: the same bits as fibers; and the same
 * out-of-bounds error, naming the fn, when `extra` is one element short. */
static void test_fns_in_place(void)
{
    for (int short_by = 0; short_by <= 1; short_by++)
        for (int k = 0; k < NSHAPES; k++) {
            const Shape *s = &shapes[k];
            size_t n = items_of(s);
            int32_t *want = NULL;
            char *want_err = NULL;
            for (int m = 0; m < 3; m++) {
                int mod = m == 0 ? FIBERS : m == 1 ? REGIONS : REGIONS_O0;
                int32_t *out = calloc(n, 4), *extra = calloc(n, 4);
                void *po = out, *pe = extra;
                void *args[] = { &po, &pe };
                size_t bytes[] = { n * 4, (n - (size_t)short_by) * 4 };
                char *err;
                int rc = launch(&mods[mod], "uses_fns", s->grid, s->block, args, bytes, 1, &err);
                CU_ASSERT(rc == (short_by ? -1 : 0));
                if (m == 0) {
                    want = out;
                    want_err = err;
                    CU_ASSERT(!short_by || (err && strstr(err, "in fn scatter (kernel uses_fns)")));
                    free(extra);
                    continue;
                }
                if (!short_by)
                    CU_ASSERT(memcmp(want, out, n * 4) == 0);
                CU_ASSERT_STRING_EQUAL(err ? err : "", want_err ? want_err : "");
                free(err);
                free(out);
                free(extra);
            }
            free(want);
            free(want_err);
        }
}

/* ---- random kernels (random_kernel.c): loops against fibers ---- */

/* Kernel `rnd` of m[0] (loops) and m[1] (fibers) on two block shapes and
 * three n: every launch must succeed and the two give the same bits; each
 * launch that does not counts in *failed, and the first prints the kernel. */
static void same_on_random_shapes(FxsModule m[2], const char *src, uint64_t seed, int *failed)
{
    static const Shape rshapes[] = { { { 2, 1, 1 }, { 5, 1, 1 } }, { { 1, 1, 1 }, { 4, 3, 2 } },
                                     { { 1, 1, 1 }, { 8, 8, 1 } } };
    for (size_t k = 0; k < sizeof rshapes / sizeof rshapes[0]; k++)
        for (int32_t n = 0; n < 3; n++) {
            size_t items = items_of(&rshapes[k]);
            int32_t *out[2];
            int rc[2];
            for (int how = 0; how < 2; how++) {
                out[how] = calloc(items, 4);
                rc[how] = launch_out(&m[how], "rnd", rshapes[k].grid, rshapes[k].block, out[how], items, &n);
            }
            if ((rc[0] || rc[1] || memcmp(out[0], out[1], items * 4) != 0) && (*failed)++ == 0)
                fprintf(stderr, "\n  seed %llu, shape %zu, n %d: rc %d/%d or differs:\n%s",
                        (unsigned long long)seed, k, n, rc[0], rc[1], src);
            free(out[0]);
            free(out[1]);
        }
}

/* Compiles random kernel `seed` as loops (m[0]) and on fibers (m[1]). */
static bool open_random(FxsModule m[2], const char *src, uint64_t seed, void (*tune)(FxOptions *),
                        void (*tune_fibers_too)(FxOptions *))
{
    bool ok = fxs_open_tuned(&m[0], src, tune) && fxs_open_tuned(&m[1], src, tune_fibers_too);
    CU_ASSERT(ok);
    if (!ok)
        fprintf(stderr, "\n  seed %llu:\n%s", (unsigned long long)seed, src);
    return ok;
}

/* Random kernels with thread-dependent tests, trip counts and fn
 * arguments mixed in: those the analysis finds no divergent barrier in run
 * as loops and must give the bits of fibers without a run error (a
 * divergent barrier it missed makes the work-items disagree: the two holes
 * found on 3 December would have shown here); the others run on fibers.
 * Both kinds must be common, or the test proves little. */
static void test_random_wild_kernels(void)
{
    int as_loops = 0, on_fibers = 0, failed = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        char *src = hr_random_kernel(seed, true, false);
        FxsModule m[2];   /* quiet: many have divergent barriers */
        if (open_random(m, src, seed, tune_quiet, tune_quiet_fibers)) {
            bool loops = runs_as_regions(&m[0], "rnd");
            as_loops += loops;
            on_fibers += runs_on_fibers(&m[0], "rnd");
            if (loops)
                same_on_random_shapes(m, src, seed, &failed);
            fxs_close(&m[0]);
            fxs_close(&m[1]);
        }
        free(src);
    }
    CU_ASSERT_EQUAL(failed, 0);
    CU_ASSERT(as_loops >= 60);
    CU_ASSERT(on_fibers >= 60);
    printf("\n  wild kernels: %d as loops, %d on fibers ", as_loops, on_fibers);
}

/* Each random kernel runs as loops (regions, or plain block loops when it
 * has no barrier) and gives the bits of fibers, on two block shapes and
 * three n. */
static void test_random_kernels(void)
{
    int not_loops = 0, failed = 0, with_barriers = 0;
    for (uint64_t seed = 1; seed <= 200; seed++) {
        char *src = hr_random_kernel(seed, false, false);
        FxsModule m[2];
        if (open_random(m, src, seed, NULL, tune_fibers)) {
            if (runs_on_fibers(&m[0], "rnd") && not_loops++ == 0)
                fprintf(stderr, "\n  seed %llu runs on fibers:\n%s", (unsigned long long)seed, src);
            with_barriers += runs_as_regions(&m[0], "rnd");
            same_on_random_shapes(m, src, seed, &failed);
            fxs_close(&m[0]);
            fxs_close(&m[1]);
        }
        free(src);
    }
    CU_ASSERT_EQUAL(not_loops, 0);
    CU_ASSERT_EQUAL(failed, 0);
    CU_ASSERT(with_barriers >= 150);   /* the others have no barrier: plain block loops */
}

/* ---- wave exchanges (the host's wave model of a GPU, docs/waves.md) ----
 * In waves wider than one lane an exchange waits for the wave's lanes: the
 * regions cut there when the whole block reaches it, as at a barrier. */

#define WAVE_ITEMS "    let t = (thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x\n" \
                   "    let items = block_dim.x * block_dim.y * block_dim.z\n" \
                   "    let g = block_idx.x * items + t\n"

static const char *w_src =
    /* exchanges and no barrier */
    "kernel wave_only(out: Ptr[Int32], limit: Int32) {\n"
    WAVE_ITEMS
    "    let v = g * 3 + limit\n"
    "    out[g] = fx.wave_sum(v) + fx.shuffle(v, fx.lane_id() + limit) * 7 + fx.readlane(v, limit) * 11\n"
    "}\n"
    /* a wave reduction, then the block's through shared memory */
    "kernel wave_block_sum(out: Ptr[Int32], limit: Int32) {\n"
    "    shared part: Array[Int32, 64]\n"
    WAVE_ITEMS
    "    let v = (g * 37 + limit) % 101\n"
    "    let s = fx.wave_sum(v)\n"
    "    if fx.lane_id() == 0 {\n"
    "        part[t // fx.wave_size()] = s\n"
    "    }\n"
    "    fx.barrier()\n"
    "    var total = 0\n"
    "    for w in range((items + fx.wave_size() - 1) // fx.wave_size()) {\n"
    "        total += part[w]\n"
    "    }\n"
    "    out[g] = total * 7 + fx.shuffle_down(v, 1) + fx.readfirstlane(v) * 3 + Int32(fx.ballot(v > 50) % 9973)\n"
    "}\n"
    /* exchanges in a loop run by the block (its step and its end are where
     * the lanes meet again), a uniform break and continue, a fn that
     * exchanges emitted in place, an exchange of a waiting fn's value,
     * returns after the last exchange (uniform, then by thread) */
    "fn wave_max_of(v: Int32) -> Int32 {\n"
    "    return fx.wave_max(v)\n"
    "}\n"
    "fn through_shared(v: Int32) -> Int32 {\n"
    "    shared s: Array[Int32, 512]\n"
    WAVE_ITEMS
    "    s[t] = v\n"
    "    fx.barrier()\n"
    "    let w = s[(t + 1) % items]\n"
    "    fx.barrier()\n"
    "    return w\n"
    "}\n"
    "kernel wave_rounds(out: Ptr[Int32], limit: Int32) {\n"
    WAVE_ITEMS
    "    var v = g % 13 + limit\n"
    "    for r in range(4) {\n"
    "        if r == limit {\n"
    "            break\n"
    "        }\n"
    "        v = v + fx.shuffle_xor(v, 1 + r) * (r + 1)\n"
    "        if r % 2 == 0 {\n"
    "            continue\n"
    "        }\n"
    "        v = v ^ wave_max_of(v)\n"
    "    }\n"
    "    let m = fx.wave_min(through_shared(v))\n"
    "    if limit > 50 {\n"
    "        return\n"
    "    }\n"
    "    out[g] = v * 1000 + m\n"
    "    if t % 3 == 0 {\n"
    "        return\n"
    "    }\n"
    "    out[g] += fx.lane_id()\n"
    "}\n"
    /* on fibers: an exchange only some of the block's work-items reach; a
     * loop whose test is a wave's vote (the waves leave it at different
     * rounds) */
    "kernel wave_divergent(out: Ptr[Int32], limit: Int32) {\n"
    "    shared s: Array[Int32, 512]\n"
    WAVE_ITEMS
    "    var v = g + limit\n"
    "    if t % 2 == 0 {\n"
    "        v = fx.wave_sum(v)\n"
    "    }\n"
    "    s[t] = v\n"
    "    fx.barrier()\n"
    "    out[g] = s[(t + 1) % items]\n"
    "}\n"
    "kernel wave_until(out: Ptr[Int32], limit: Int32) {\n"
    WAVE_ITEMS
    "    var k = 0\n"
    "    while fx.any(t % 7 + k < limit % 9) {\n"
    "        k += 1\n"
    "    }\n"
    "    out[g] = k\n"
    "}\n";

static const char *const wave_archs[] = { "gfx942", "gfx1100" };   /* 64 and 32 lanes */
enum { NWAVE_ARCHS = sizeof wave_archs / sizeof wave_archs[0] };
static FxsModule wmods[NWAVE_ARCHS][NMODULES];

/* gfx1100's modules of two kernels of n wave sums in a row, one exchange
 * each: n CG_REGION_MAX_EXCHANGES (48: loops) and one more (fibers). */
static FxsModule cap_mods[NMODULES];

static char *wave_sums_source(void)
{
    char *s = NULL;
    size_t len;
    FILE *f = open_memstream(&s, &len);
    for (int n = 48; n <= 49; n++) {
        fprintf(f, "kernel wave_sums_%d(out: Ptr[Int32], limit: Int32) {\n" WAVE_ITEMS "    var v = g + limit\n", n);
        for (int k = 0; k < n; k++)
            fprintf(f, "    v = fx.wave_sum(v) %% 1000 + %d\n", k);
        fputs("    out[g] = v\n}\n", f);
    }
    fclose(f);
    return s;
}

static int init_waves(void)
{
    void (*tunes[NMODULES])(FxOptions *) = { NULL, tune_fibers, tune_o0, tune_checked };
    for (int a = 0; a < NWAVE_ARCHS; a++)
        for (int m = 0; m < NMODULES; m++)
            if (!fxs_open_as(&wmods[a][m], w_src, wave_archs[a], tunes[m]))
                return 1;
    char *src = wave_sums_source();
    bool ok = fxs_open_as(&cap_mods[REGIONS], src, "gfx1100", NULL) &&
              fxs_open_as(&cap_mods[FIBERS], src, "gfx1100", tune_fibers);
    free(src);
    return !ok;
}

static int clean_waves(void)
{
    for (int a = 0; a < NWAVE_ARCHS; a++)
        for (int m = 0; m < NMODULES; m++)
            fxs_close(&wmods[a][m]);
    fxs_close(&cap_mods[REGIONS]);
    fxs_close(&cap_mods[FIBERS]);
    rt_host_set_threads(0);
    return 0;
}

static void test_which_wave_kernels(void)
{
    static const char *const loops[] = { "wave_only", "wave_block_sum", "wave_rounds" };
    static const char *const fibers[] = { "wave_divergent", "wave_until" };
    for (int a = 0; a < NWAVE_ARCHS; a++) {
        for (size_t k = 0; k < sizeof loops / sizeof loops[0]; k++) {
            CU_ASSERT(runs_as_regions(&wmods[a][REGIONS], loops[k]));
            CU_ASSERT(runs_as_regions(&wmods[a][REGIONS_O0], loops[k]));
            CU_ASSERT(runs_on_fibers(&wmods[a][FIBERS], loops[k]));
            CU_ASSERT(runs_on_fibers(&wmods[a][CHECKED], loops[k]));
        }
        for (size_t k = 0; k < sizeof fibers / sizeof fibers[0]; k++)
            CU_ASSERT(runs_on_fibers(&wmods[a][REGIONS], fibers[k]));
    }
}

/* bench/host/wave_rows.fx runs as loops on both wave sizes, with a partial
 * last wave, and sums the rows exactly (small integers), as fibers do. */
static void test_bench_wave_rows(void)
{
    enum { ROWS = 5, COLS = 300 };
    char *src = bench_host_source("wave_rows");
    CU_ASSERT_FATAL(src != NULL);
    float x[ROWS * COLS], want[ROWS] = { 0 };
    for (int i = 0; i < ROWS * COLS; i++) {
        x[i] = (float)((i * 7919) % 13) - 6.0f;
        want[i / COLS] += x[i];
    }
    for (int a = 0; a < NWAVE_ARCHS; a++)
        for (int how = 0; how < 2; how++) {
            FxsModule m;
            CU_ASSERT_FATAL(fxs_open_as(&m, src, wave_archs[a], how ? tune_fibers : NULL));
            CU_ASSERT(how ? runs_on_fibers(&m, "wave_rows") : runs_as_regions(&m, "wave_rows"));
            float y[ROWS] = { 0 };
            void *px = x, *py = y;
            int32_t cols = COLS;
            void *args[] = { &px, &py, &cols };
            size_t bytes[] = { sizeof x, sizeof y, 0 };
            unsigned grid[3] = { ROWS, 1, 1 }, block[3] = { 100, 1, 1 };
            char *err;
            CU_ASSERT(launch(&m, "wave_rows", grid, block, args, bytes, 1, &err) == 0);
            free(err);
            CU_ASSERT(memcmp(y, want, sizeof y) == 0);
            fxs_close(&m);
        }
    free(src);
}

/* What random wave kernels did (random_wave_kernel). */
typedef struct WaveCounts {
    int as_loops, on_fibers, failed, with_exchanges, loops_with_exchanges;
} WaveCounts;

/* Random kernel `seed` with wave operations in part of the places of
 * barriers, on gfx942's or gfx1100's waves by the seed's parity, as the
 * planner decides and on fibers; when it runs as loops, against fibers on
 * the random shapes (the shapes' 5 and 24 work-items make partial waves,
 * 64 one or two whole ones). Wild kernels compile quietly: many have
 * divergent barriers. */
static void random_wave_kernel(uint64_t seed, bool wild, WaveCounts *n)
{
    char *src = hr_random_kernel(seed, wild, true);
    bool exchanges = hr_has_wave_op(src);
    FxsModule m[2];
    const char *arch = wave_archs[seed % NWAVE_ARCHS];
    bool ok = fxs_open_as(&m[0], src, arch, wild ? tune_quiet : NULL) &&
              fxs_open_as(&m[1], src, arch, wild ? tune_quiet_fibers : tune_fibers);
    CU_ASSERT(ok);
    if (ok) {
        bool loops = !runs_on_fibers(&m[0], "rnd");
        if (!loops && !wild && n->on_fibers == 0)
            fprintf(stderr, "\n  seed %llu runs on fibers:\n%s", (unsigned long long)seed, src);
        n->as_loops += loops;
        n->on_fibers += !loops;
        n->with_exchanges += exchanges;
        n->loops_with_exchanges += loops && exchanges;
        if (loops)
            same_on_random_shapes(m, src, seed, &n->failed);
    } else {
        fprintf(stderr, "\n  seed %llu:\n%s", (unsigned long long)seed, src);
    }
    fxs_close(&m[0]);
    fxs_close(&m[1]);
    free(src);
}

/* 60 random kernels of uniform shapes: all as loops, with the bits of
 * fibers. */
static void test_random_wave_kernels(void)
{
    WaveCounts n = { 0 };
    for (uint64_t seed = 1; seed <= 60; seed++)
        random_wave_kernel(seed, false, &n);
    CU_ASSERT_EQUAL(n.on_fibers, 0);
    CU_ASSERT_EQUAL(n.failed, 0);
    CU_ASSERT(n.with_exchanges >= 30);
}

/* 160 random kernels with thread-dependent tests, trip counts and fn
 * arguments: the analysis must judge exchanges as it judges barriers.
 * Those it finds no divergent exchange or barrier in run as loops with the
 * bits of fibers; an exchange under a thread's test keeps the kernel on
 * fibers. Both kinds must be common. */
static void test_random_wild_wave_kernels(void)
{
    WaveCounts n = { 0 };
    for (uint64_t seed = 1; seed <= 160; seed++)
        random_wave_kernel(seed, true, &n);
    CU_ASSERT_EQUAL(n.failed, 0);
    CU_ASSERT(n.as_loops >= 30);
    CU_ASSERT(n.loops_with_exchanges >= 15);
    CU_ASSERT(n.on_fibers >= 30);
    printf("\n  wild wave kernels: %d as loops (%d with exchanges), %d on fibers ", n.as_loops,
           n.loops_with_exchanges, n.on_fibers);
}

static void test_exchange_cap(void)
{
    CU_ASSERT(runs_as_regions(&cap_mods[REGIONS], "wave_sums_48"));
    CU_ASSERT(runs_on_fibers(&cap_mods[REGIONS], "wave_sums_49"));
    unsigned grid[3] = { 2, 1, 1 }, block[3] = { 100, 1, 1 };
    int32_t want[200], got[200], limit = 3;
    CU_ASSERT(launch_out(&cap_mods[FIBERS], "wave_sums_48", grid, block, want, 200, &limit) == 0);
    CU_ASSERT(launch_out(&cap_mods[REGIONS], "wave_sums_48", grid, block, got, 200, &limit) == 0);
    CU_ASSERT(memcmp(want, got, sizeof got) == 0);
}

/* Every wave kernel against fibers, at limits that pick lanes, leave the
 * loop at each round or not at all, and return before the output. */
static void test_wave_kernels(void)
{
    static const char *const names[] = { "wave_only", "wave_block_sum", "wave_rounds", "wave_divergent",
                                         "wave_until" };
    static const int32_t limits[] = { -1, 0, 1, 2, 3, 5, 60 };
    for (int a = 0; a < NWAVE_ARCHS; a++)
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            same_at_limits_in(wmods[a], names[k], limits, sizeof limits / sizeof limits[0]);
}

static const FxtTest tests[] = {
    { "which kernels run as loops", test_which_kernels },
    { "stages: same bits as fibers", test_stages },
    { "loops: same bits as fibers", test_loops },
    { "tiles: same bits as fibers", test_tiles },
    { "early returns", test_early },
    { "copies too many for the stack", test_copies_in_state },
    { "all work-items return", test_all_leave },
    { "work-items that disagree", test_disagreement },
    { "fns with barriers in place", test_fns_in_place },
    { "break, continue and a barrier gated by a parameter: same bits as fibers", test_jumps },
    { "break and continue: the model", test_jumps_model },
    { "work-items that disagree on a break", test_jump_disagreement },
    { "returns from fns before their last barrier: same bits as fibers", test_fn_returns },
    { "returns from fns before their last barrier: the model", test_fn_returns_model },
    { "fns with barriers called 100 deep, and 101", test_call_depth },
    { "fn values that decide barriers", test_fn_values },
    { "continues that only some work-items take: same bits as fibers", test_divergent_continues },
    { "bench/host's smooth, settle and relax", test_bench_rings },
    { "random kernels: loops against fibers", test_random_kernels },
    { "random kernels with thread-dependent tests: loops against fibers", test_random_wild_kernels },
    { NULL, NULL },
};

static const FxtTest wave_tests[] = {
    { "which wave kernels run as loops", test_which_wave_kernels },
    { "48 exchanges as loops, 49 on fibers", test_exchange_cap },
    { "bench/host's wave_rows", test_bench_wave_rows },
    { "random kernels with wave operations: loops against fibers", test_random_wave_kernels },
    { "random kernels with wave operations and thread-dependent tests: loops against fibers",
      test_random_wild_wave_kernels },
    { "wave kernels: same bits as fibers", test_wave_kernels },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    const FxtSuite suites[] = { { "hostregion", tests, init, clean }, { "waves", wave_tests, init_waves, clean_waves },
                                { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
