// hip_saxpy.cpp - loads the code object fxcc made from saxpy.fx and runs the
// kernel with HIP's module API. Build: make -C examples out/hip_saxpy
// Run:   examples/out/hip_saxpy examples/out/gfx942/saxpy.hsaco
#include <hip/hip_runtime.h>
#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(call)                                                                  \
    do {                                                                             \
        hipError_t e_ = (call);                                                      \
        if (e_ != hipSuccess) {                                                      \
            std::fprintf(stderr, "%s: %s\n", #call, hipGetErrorString(e_));          \
            return 1;                                                                \
        }                                                                            \
    } while (0)

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : "out/gfx942/saxpy.hsaco";
    const int n = 1000;
    const float a = 2.5f;
    std::vector<float> x(n), y(n, 1.0f);
    for (int i = 0; i < n; i++)
        x[i] = float(i);
    hipModule_t module;
    hipFunction_t kernel;
    CHECK(hipModuleLoad(&module, path));
    CHECK(hipModuleGetFunction(&kernel, module, "saxpy"));   // kernels keep their source names
    float *dx, *dy;
    CHECK(hipMalloc(&dx, n * sizeof(float)));
    CHECK(hipMalloc(&dy, n * sizeof(float)));
    CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
    // Parameters in source order: x: const Ptr[Float32], y: Ptr[Float32], a: Float32, n: Int32.
    void *args[] = { &dx, &dy, (void *)&a, (void *)&n };
    CHECK(hipModuleLaunchKernel(kernel, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));
    CHECK(hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += y[i] != std::fma(a, x[i], 1.0f);
    std::printf("saxpy on the GPU: %d of %d elements differ from fma(a, x, y)\n", bad, n);
    CHECK(hipFree(dx));
    CHECK(hipFree(dy));
    CHECK(hipModuleUnload(module));
    return bad != 0;
}
