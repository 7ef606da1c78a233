/* use_fxrt.c - a C program that knows libfxrt only through its installed
 * headers and `pkg-config fxrt`: loads the host artifact of saxpy.fx
 * (fxcc --target=host --emit-llvm), launches the kernel over 1000 elements
 * in blocks of 256 and checks every element against fma(a, x, y).
 * Including every public header also checks that none of them needs LLVM's
 * headers or the source tree.
 *   use_fxrt ARTIFACT.bc */
#include <abi/fxhost.h>
#include <fxrt.h>
#include <fxrt_hip.h>
#include <fxrt_program.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: use_fxrt ARTIFACT.bc\n");
        return 2;
    }
    char *err = NULL;
    RtHostModule *m = rt_host_load_file(argv[1], &err);
    if (!m) {
        fprintf(stderr, "use_fxrt: %s\n", err);
        free(err);
        return 1;
    }
    enum { N = 1000 };
    float *x = rt_buffer_alloc(N, sizeof(float));
    float *y = rt_buffer_alloc(N, sizeof(float));
    if (!x || !y)
        return 1;
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = 1.0f - (float)i;
    }
    float a = 2.5f;
    int32_t n = N;
    /* Parameters in source order; a Ptr's slot points to the buffer address. */
    void *args[] = { &x, &y, &a, &n };
    const unsigned grid[3] = { (N + 255) / 256, 1, 1 }, block[3] = { 256, 1, 1 };
    if (rt_host_launch(m, "saxpy", grid, block, args, &err) != 0) {
        fprintf(stderr, "use_fxrt: launch: %s\n", err);
        free(err);
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float want = fmaf(a, (float)i * 0.5f, 1.0f - (float)i);
        if (y[i] != want) {
            if (bad++ < 5)
                fprintf(stderr, "use_fxrt: y[%d] = %.9g, want %.9g\n", i, y[i], want);
        }
    }
    /* A name the module does not export fails cleanly. */
    int missing = rt_host_launch(m, "no_such_kernel", grid, block, args, &err);
    if (missing == 0) {
        fprintf(stderr, "use_fxrt: launching a missing kernel succeeded\n");
        bad++;
    }
    free(err);
    printf("saxpy through the installed libfxrt: %d of %d elements wrong, y[999] = %.9g\n",
           bad, N, y[N - 1]);
    free(x);
    free(y);
    rt_host_free(m);
    return bad != 0;
}
