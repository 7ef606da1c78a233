#fxcc: --target host --check=races,uninit --host-barriers=fibers -c -O3 -Rpass=fp-contraction --fp-contract on
# Host code with the checker's calls, every barrier on fibers, written as
# an object file.
kernel reverse(x: Ptr[Float32], y: Ptr[Float32], a: Float32) {
    shared t: Array[Float32, 64]
    let i = thread_idx.x
    t[i] = x[i] * a + y[i]
    fx.barrier()
    y[i] = t[63 - i]
}
