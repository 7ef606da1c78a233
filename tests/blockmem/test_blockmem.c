/* test_blockmem.c - block-level helpers (issue 12): shared arrays passed to
 * fns (`shared s: Array[...]` parameters) and declared in them (one
 * allocation per kernel, shared by every call).
 *
 * Host: results of kernels whose fns work on the caller's shared array and
 * on their own; two calls of a fn share its array. AMDGPU: the kernel's LDS
 * size counts each array once, on gfx90a/gfx942/gfx1100/gfx1201. FXIR: a module with Array parameters survives a print-and-read
 * round trip and verifies; the verifier refuses an Array kernel parameter.
 *
 * Dynamic shared memory (`shared s: Array[T, DYN]`, sized at launch): host
 * results over many block sizes, bounds checks against the launch's size,
 * the 64 KiB limit; on AMDGPU LLVM's dynamic LDS; the FXIR round trip. */
#include "fxtest.h"
#include "fxsource.h"
#include "fxir/verify.h"
#include "runtime/fxrt.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };

/* block_sum works in the caller's array; block_max in its own, which both
 * of its calls share; bump counts its calls in its own array (one counter
 * per block, whichever call site). */
static const char *const helpers_src =
    "fn block_sum(shared s: Array[Float32, 64], v: Float32) -> Float32 {\n"
    "    let t = thread_idx.x\n"
    "    s[t] = v\n"
    "    fx.barrier()\n"
    "    var stride = 32\n"
    "    while stride > 0 {\n"
    "        if t < stride {\n"
    "            s[t] += s[t + stride]\n"
    "        }\n"
    "        fx.barrier()\n"
    "        stride = stride // 2\n"
    "    }\n"
    "    let r = s[0]\n"
    "    fx.barrier()\n"
    "    return r\n"
    "}\n"
    "fn block_max(v: Float32) -> Float32 {\n"
    "    shared m: Array[Float32, 64]\n"
    "    m[thread_idx.x] = v\n"
    "    fx.barrier()\n"
    "    var r = m[0]\n"
    "    for k in range(1, 64) {\n"
    "        r = fx.max(r, m[k])\n"
    "    }\n"
    "    fx.barrier()\n"
    "    return r\n"
    "}\n"
    "fn bump(reset: Boolean) -> Int32 {\n"
    "    shared calls: Array[Int32, 1]\n"
    "    if reset {\n"
    "        return fx.atomic_xchg(calls, 0, 0)\n"
    "    }\n"
    "    return fx.atomic_add(calls, 0, 1)\n"
    "}\n"
    "kernel stats(x: const Ptr[Float32], out: Ptr[Float32], seen: Ptr[Int32]) {\n"
    "    shared buf: Array[Float32, 64]\n"
    "    let t = thread_idx.x\n"
    "    if t == 0 {\n"
    "        bump(True)\n"   /* shared memory starts undefined on a GPU */
    "    }\n"
    "    let v = x[block_idx.x * 64 + t]\n"
    "    let s = block_sum(buf, v)\n"
    "    let m = block_max(v)\n"
    "    let m2 = block_max(-v)\n"
    "    let first = bump(False)\n"
    "    fx.barrier()\n"
    "    let second = bump(False)\n"
    "    fx.barrier()\n"
    "    if t == 0 {\n"
    "        out[block_idx.x * 3] = s\n"
    "        out[block_idx.x * 3 + 1] = m\n"
    "        out[block_idx.x * 3 + 2] = m2\n"
    "    }\n"
    "    fx.atomic_max(seen, block_idx.x, fx.max(first, second))\n"
    "}\n";

static void test_host_results(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, helpers_src));
    float x[128], out[6] = { 0 };
    int32_t seen[2] = { -1, -1 };
    for (int i = 0; i < 128; i++)
        x[i] = (float)((i * 37) % 128) - 50.0f;   /* a permutation of -50..77 */
    void *px = x, *po = out, *ps = seen;
    void *args[3] = { &px, &po, &ps };
    size_t bytes[3] = { sizeof x, sizeof out, sizeof seen };
    CU_ASSERT_FATAL(fxs_launch(&m, "stats", 2, 64, args, bytes));
    for (int b = 0; b < 2; b++) {
        float sum = 0, max = -1e30f, nmax = -1e30f;
        for (int t = 0; t < 64; t++) {
            float v = x[b * 64 + t];
            sum += v;
            max = v > max ? v : max;
            nmax = -v > nmax ? -v : nmax;
        }
        CU_ASSERT_EQUAL(out[b * 3], sum);      /* exact: small integers */
        CU_ASSERT_EQUAL(out[b * 3 + 1], max);
        CU_ASSERT_EQUAL(out[b * 3 + 2], nmax);
        /* bump's counter is one per block, and both calls count in it:
         * the largest old value seen is 2 * 64 - 1 */
        CU_ASSERT_EQUAL(seen[b], 127);
    }
    fxs_close(&m);
}

/* The kernel's LDS: buf, m and calls, once each: 256 + 256 + 4 bytes,
 * each array at a 16-byte boundary. */
static void check_lds(const char *arch)
{
    FxsModule m;
    char *s = fxs_assembly(&m, helpers_src, arch);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    const char *g = strstr(s, ".amdhsa_group_segment_fixed_size ");
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    long lds = strtol(g + strlen(".amdhsa_group_segment_fixed_size "), NULL, 10);
    if (lds != 516 && lds != 528)
        fprintf(stderr, "\n  %s: LDS %ld bytes", arch, lds);
    CU_ASSERT(lds >= 516 && lds <= 528);
    CU_ASSERT(strstr(s, "ds_") != NULL);
    free(s);
    fxs_close(&m);
}

static void test_lds_per_target(void)
{
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++)
        check_lds(archs[a]);
}

/* The FXIR of `src` (for the host) holds each of `want`, and survives a
 * print-and-read round trip verified and printed the same. */
static void check_round_trip(const char *src, const char *const *want, int nwant)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_lower(&m, src, NULL, true));
    char *text = fxs_fxir_text(m.c.module);
    for (int k = 0; k < nwant; k++)
        CU_ASSERT(strstr(text, want[k]) != NULL);
    CU_ASSERT(fxs_fxir_round_trips(text));
    free(text);
    fxs_close(&m);
}

/* The FXIR text `bad` reads, and the verifier refuses it saying `why`. */
static void check_refused(const char *bad, const char *why)
{
    Arena *a = arena_new();
    SrcFile bf = { .name = "bad.fxir", .text = bad, .len = (long)strlen(bad) };
    FxModule *bm = fxir_read(a, &bf);
    CU_ASSERT_FATAL(bm != NULL);
    fxt_capture_begin();
    bool ok = fxir_verify(bm);
    char *diag = fxt_capture_end();
    CU_ASSERT(!ok);
    CU_ASSERT(strstr(diag, why) != NULL);
    free(diag);
    arena_free(a);
}

static void test_fxir_round_trip(void)
{
    static const char *const want[] = { "fn block_sum(%s: Array[Float32, 64], %v: Float32)",
                                        "alloca.shared : Array[Float32, 64]  # m" };
    check_round_trip(helpers_src, want, 2);
    /* an Array parameter belongs to a fn: on a kernel the verifier objects */
    check_refused("kernel k(%s: Array[Float32, 4]) {\n}\n", "is an Array; only a fn takes one");
}

/* ---- dynamic shared memory: Array[T, DYN] ---- */

/* A block-wide reversal whose length is the launch's: 16 static bytes
 * first, then the dynamic array, handed to a fn that takes it. */
static const char *const dyn_src =
    "fn mirror(shared s: Array[Float32, DYN], t: Int32, n: Int32) -> Float32 {\n"
    "    return s[n - 1 - t]\n"
    "}\n"
    "kernel rev(p: Ptr[Float32], bad: Int32) {\n"
    "    shared fixed: Array[Int32, 3]\n"
    "    shared s: Array[Float32, DYN]\n"
    "    let t = thread_idx.x\n"
    "    let n = block_dim.x\n"
    "    if t < 3 {\n"
    "        fixed[t] = t\n"
    "    }\n"
    "    s[t + bad] = p[block_idx.x * n + t]\n"
    "    fx.barrier()\n"
    "    p[block_idx.x * n + t] = mirror(s, t, n) + Float32(fixed[t % 3])\n"
    "}\n";

static int launch_rev(FxsModule *m, float *p, int n, unsigned block, int32_t bad, size_t shared, char **err)
{
    void *pp = p;
    void *args[2] = { &pp, &bad };
    size_t bytes[2] = { (size_t)n * sizeof(float), 0 };
    const unsigned g[3] = { (unsigned)n / block, 1, 1 }, b[3] = { block, 1, 1 };
    RtLaunchOptions o = { .arg_bytes = bytes, .shared_bytes = shared };
    return rt_host_launch_with(m->hm, "rev", g, b, args, &o, err);
}

static void test_dyn_host(void)
{
    FxsModule m;
    CU_ASSERT_FATAL(fxs_open(&m, dyn_src));
    /* block sizes 1, 3, 7, ..., 255, each with exactly its bytes */
    for (unsigned block = 1; block <= 256; block = block * 2 + (block & 1)) {
        float p[512];
        for (int i = 0; i < 512; i++)
            p[i] = (float)i;
        char *err = NULL;
        int rc = launch_rev(&m, p, 512 - 512 % (int)block, block, 0, block * sizeof(float), &err);
        CU_ASSERT_EQUAL(rc, 0);
        if (rc)
            fprintf(stderr, "\n  block %u: %s", block, err);
        free(err);
        int ok = 1;
        for (int i = 0; i < 512 - 512 % (int)block; i++) {
            int b0 = i / (int)block * (int)block, t = i - b0;
            ok &= p[i] == (float)(b0 + (int)block - 1 - t + t % 3);
        }
        CU_ASSERT(ok);
    }
    /* one element short: the last work-item's store is out of bounds */
    float p[64] = { 0 };
    char *err = NULL;
    CU_ASSERT_EQUAL(launch_rev(&m, p, 64, 64, 0, 63 * sizeof(float), &err), -1);
    CU_ASSERT(err && strstr(err, "out-of-bounds store to dynamic shared array 's'[63] (the launch gave it 63 "
                                 "elements) in kernel rev"));
    free(err);
    /* a negative index, and the memory before the array is not the array's */
    CU_ASSERT_EQUAL(launch_rev(&m, p, 64, 64, -1, 64 * sizeof(float), &err), -1);
    CU_ASSERT(err && strstr(err, "'s'[-1]"));
    free(err);
    /* static + dynamic over 64 KiB: refused as a GPU would */
    CU_ASSERT_EQUAL(launch_rev(&m, p, 64, 64, 0, 65536, &err), -1);
    CU_ASSERT(err && strstr(err, "16 bytes of static and 65536 of dynamic shared memory"));
    free(err);
    fxs_close(&m);
}

/* AMDGPU: an external zero-length LDS array (LLVM's dynamic LDS, as clang
 * makes HIP's extern __shared__), the static LDS alone in the descriptor,
 * and the code object's hidden dynamic-LDS-size argument. */
static void test_dyn_isa(void)
{
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; a++) {
        FxsModule m;
        char *s = fxs_assembly(&m, dyn_src, archs[a]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT(strstr(s, ".amdhsa_group_segment_fixed_size 16\n") != NULL);
        CU_ASSERT(strstr(s, "hidden_dynamic_lds_size") != NULL);
        CU_ASSERT(strstr(s, "ds_") != NULL);
        free(s);
        fxs_close(&m);
    }
}

static void test_dyn_fxir(void)
{
    static const char *const want[] = { "fn mirror(%s: Array[Float32, DYN], ",
                                        "alloca.shared : Array[Float32, DYN]  # s" };
    check_round_trip(dyn_src, want, 2);
    /* a dynamic array is shared and belongs to a kernel */
    check_refused("kernel k() {\n  %0 = alloca.private : Array[Float32, DYN]\n}\n",
                  "a dynamic array (Array[Float32, DYN]) is shared and declared in a kernel");
}

int main(int argc, char **argv)
{
    static const FxtTest helpers[] = {
        { "host: caller's and fn's own shared arrays", test_host_results },
        { "AMDGPU: one LDS allocation per array", test_lds_per_target },
        { "FXIR: Array parameters round trip", test_fxir_round_trip },
        { NULL, NULL },
    };
    static const FxtTest dyn[] = {
        { "host: sized by the launch, bounds-checked", test_dyn_host },
        { "AMDGPU: dynamic LDS", test_dyn_isa },
        { "FXIR: Array[T, DYN] round trip", test_dyn_fxir },
        { NULL, NULL },
    };
    static const FxtSuite suites[] = {
        { "block-level helpers", helpers, NULL, NULL },
        { "dynamic shared memory", dyn, NULL, NULL },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
