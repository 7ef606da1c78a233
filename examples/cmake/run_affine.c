/* run_affine.c - runs affine.fx's kernel on the host through libfxrt: loads
 * the host artifact fxcc_add_kernels built (affine-host.bc), launches
 * `affine` over N elements with bounds checks on both buffers and checks
 * every element. Exit status 0 when all are right.
 *   run_affine [ARTIFACT.bc]     (default: the one in the build tree) */
#include <fxrt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef AFFINE_BC
#define AFFINE_BC "affine-host.bc"
#endif

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : AFFINE_BC;
    /* The library must serve the headers this program was compiled with. */
    if (!rt_version_compatible(FXRT_VERSION)) {
        fprintf(stderr, "run_affine: libfxrt %s does not serve headers %s\n", rt_version_string(),
                FXRT_VERSION_STRING);
        return 1;
    }
    char *err = NULL;
    RtHostModule *m = rt_host_load_file(path, &err);
    if (!m) {
        fprintf(stderr, "run_affine: %s\n", err);
        free(err);
        return 1;
    }

    enum { N = 1000, BLOCK = 256 };   /* BLOCK: common.fx's */
    float *x = rt_buffer_alloc(N, sizeof(float));
    float *y = rt_buffer_alloc(N, sizeof(float));
    if (!x || !y) {
        fprintf(stderr, "run_affine: out of memory\n");
        return 1;
    }
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = -1.0f;
    }
    float a = 2.5f, b = 1.0f;
    int32_t n = N;
    /* One slot per parameter in source order; a Ptr's slot holds the
     * buffer's address. arg_bytes: the buffers' sizes, for the bounds
     * checks (the other entries are ignored). */
    void *args[] = { &x, &y, &a, &b, &n };
    const size_t arg_bytes[] = { N * sizeof(float), N * sizeof(float), 0, 0, 0 };
    const unsigned grid[3] = { (N + BLOCK - 1) / BLOCK, 1, 1 }, block[3] = { BLOCK, 1, 1 };
    if (rt_host_launch_checked(m, "affine", grid, block, args, arg_bytes, &err) != 0) {
        fprintf(stderr, "run_affine: launch: %s\n", err);
        free(err);
        return 1;
    }

    /* a * x + b is exact in Float32 for these values, fused or not. */
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float want = a * ((float)i * 0.5f) + b;
        if (y[i] != want && bad++ < 5)
            fprintf(stderr, "run_affine: y[%d] = %.9g, want %.9g\n", i, y[i], want);
    }
    printf("affine on the host with libfxrt %s: %d of %d elements wrong, y[%d] = %g\n", rt_version_string(),
           bad, N, N - 1, y[N - 1]);
    free(x);   /* rt_buffer_alloc's buffers are released with free() */
    free(y);
    rt_host_free(m);
    return bad != 0;
}
