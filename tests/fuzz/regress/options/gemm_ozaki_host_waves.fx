#fxcc: --target=host --offload-arch=gfx90a:xnack+ --host-barriers=fibers --contraction-precision=ozaki2:3 --contraction-guard=fallback -O0 -Rpass=contraction-precision -Rpass-missed
# Ozaki-II with the fallback guard, for the host with gfx90a's waves
# emulated (each work-item on a fiber), at -O0, with the pass's remarks.
program gemm(A: Tensor[Float64, M, 8], B: Tensor[Float64, 8, N], C: Tensor[Float64, M, N],
             M: Int32, N: Int32) {
    C = A @ B
}
