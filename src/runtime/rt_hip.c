/* rt_hip.c - the HIP backend of libfxrt over a run-time-loaded libamdhip64.
 * Only the handful of HIP entry points fxcc needs are resolved; their C
 * signatures are declared here (hipError_t is an int, 0 on success). */
#include "runtime/fxrt_hip.h"
#include "runtime/rt_internal.h"
#include <dlfcn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int hipError_t;
typedef void *hipModule_t;
typedef void *hipFunction_t;
enum { HIP_MEMCPY_H2D = 1, HIP_MEMCPY_D2H = 2 };

typedef struct HipApi {
    hipError_t (*init)(unsigned);
    hipError_t (*get_device_count)(int *);
    hipError_t (*set_device)(int);
    const char *(*error_string)(hipError_t);
    hipError_t (*module_load_data)(hipModule_t *, const void *);
    hipError_t (*module_unload)(hipModule_t);
    hipError_t (*module_get_function)(hipFunction_t *, hipModule_t, const char *);
    hipError_t (*module_launch_kernel)(hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                       unsigned, void *, void **, void **);
    hipError_t (*malloc)(void **, size_t);
    hipError_t (*free)(void *);
    hipError_t (*memcpy)(void *, const void *, size_t, int);
    hipError_t (*device_synchronize)(void);
} HipApi;

struct RtHip {
    void *lib;
    HipApi api;
};

struct RtHipModule {
    RtHip *hip;
    hipModule_t module;
};

static const char *hip_error(RtHip *h, hipError_t e)
{
    return h->api.error_string ? h->api.error_string(e) : "HIP error";
}

static void *open_library(void)
{
    static const char *const names[] = { "libamdhip64.so", "libamdhip64.so.6", "libamdhip64.so.5" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (lib)
            return lib;
    }
    return NULL;
}

/* Resolve one symbol into a function-pointer field (POSIX allows the cast). */
#define RESOLVE(field, symbol)                                                   \
    do {                                                                         \
        void *sym_ = dlsym(h->lib, symbol);                                      \
        if (!sym_) {                                                             \
            *err = rt_strdupf("no HIP device: libamdhip64 lacks %s", symbol);       \
            return false;                                                        \
        }                                                                        \
        memcpy(&h->api.field, &sym_, sizeof sym_);                               \
    } while (0)

static bool resolve_api(RtHip *h, char **err)
{
    RESOLVE(init, "hipInit");
    RESOLVE(get_device_count, "hipGetDeviceCount");
    RESOLVE(set_device, "hipSetDevice");
    RESOLVE(error_string, "hipGetErrorString");
    RESOLVE(module_load_data, "hipModuleLoadData");
    RESOLVE(module_unload, "hipModuleUnload");
    RESOLVE(module_get_function, "hipModuleGetFunction");
    RESOLVE(module_launch_kernel, "hipModuleLaunchKernel");
    RESOLVE(malloc, "hipMalloc");
    RESOLVE(free, "hipFree");
    RESOLVE(memcpy, "hipMemcpy");
    RESOLVE(device_synchronize, "hipDeviceSynchronize");
    return true;
}

RtHip *rt_hip_open(char **err)
{
    RtHip *h = calloc(1, sizeof *h);
    h->lib = open_library();
    if (!h->lib) {
        *err = rt_strdupf("no HIP device: the HIP runtime (libamdhip64.so) is not installed");
        free(h);
        return NULL;
    }
    int count = 0;
    hipError_t e;
    if (!resolve_api(h, err))
        goto fail;
    if ((e = h->api.init(0)) != 0 || (e = h->api.get_device_count(&count)) != 0) {
        *err = rt_strdupf("no HIP device: %s", hip_error(h, e));
        goto fail;
    }
    if (count == 0) {
        *err = rt_strdupf("no HIP device: the HIP runtime found no AMD GPU");
        goto fail;
    }
    if ((e = h->api.set_device(0)) != 0) {
        *err = rt_strdupf("no HIP device: %s", hip_error(h, e));
        goto fail;
    }
    return h;
fail:
    dlclose(h->lib);
    free(h);
    return NULL;
}

void rt_hip_close(RtHip *h)
{
    if (!h)
        return;
    dlclose(h->lib);
    free(h);
}

RtHipModule *rt_hip_load(RtHip *h, const void *image, size_t size, char **err)
{
    (void)size;
    RtHipModule *m = calloc(1, sizeof *m);
    m->hip = h;
    hipError_t e = h->api.module_load_data(&m->module, image);
    if (e != 0) {
        *err = rt_strdupf("cannot load the code object: %s", hip_error(h, e));
        free(m);
        return NULL;
    }
    return m;
}

void rt_hip_unload(RtHipModule *m)
{
    if (!m)
        return;
    m->hip->api.module_unload(m->module);
    free(m);
}

void *rt_hip_alloc(RtHip *h, size_t bytes, char **err)
{
    void *p = NULL;
    hipError_t e = h->api.malloc(&p, bytes ? bytes : 1);
    if (e != 0) {
        *err = rt_strdupf("hipMalloc(%zu): %s", bytes, hip_error(h, e));
        return NULL;
    }
    return p;
}

void rt_hip_free(RtHip *h, void *dev)
{
    if (dev)
        h->api.free(dev);
}

static int copy(RtHip *h, void *dst, const void *src, size_t bytes, int kind, char **err)
{
    hipError_t e = h->api.memcpy(dst, src, bytes, kind);
    if (e != 0) {
        *err = rt_strdupf("hipMemcpy: %s", hip_error(h, e));
        return -1;
    }
    return 0;
}

int rt_hip_copy_to_device(RtHip *h, void *dev, const void *host, size_t bytes, char **err)
{
    return copy(h, dev, host, bytes, HIP_MEMCPY_H2D, err);
}

int rt_hip_copy_to_host(RtHip *h, void *host, const void *dev, size_t bytes, char **err)
{
    return copy(h, host, dev, bytes, HIP_MEMCPY_D2H, err);
}

int rt_hip_launch(RtHipModule *m, const char *name, const unsigned grid[3], const unsigned block[3],
                  void **args, char **err)
{
    return rt_hip_launch_shared(m, name, grid, block, args, 0, err);
}

int rt_hip_launch_shared(RtHipModule *m, const char *name, const unsigned grid[3], const unsigned block[3],
                         void **args, size_t shared_bytes, char **err)
{
    RtHip *h = m->hip;
    if (shared_bytes > UINT32_MAX) {
        *err = rt_strdupf("launching '%s': %zu bytes of dynamic shared memory", name, shared_bytes);
        return -1;
    }
    /* block_idx and grid_dim are Int32 in the language, and the compiler's
     * range proofs (passes/int_ranges.c) rely on it, as the host launch does */
    if (grid[0] > INT32_MAX || grid[1] > INT32_MAX || grid[2] > INT32_MAX) {
        *err = rt_strdupf("grid dimension too large");
        return -1;
    }
    hipFunction_t f;
    hipError_t e = h->api.module_get_function(&f, m->module, name);
    if (e != 0) {
        *err = rt_strdupf("the code object has no kernel '%s': %s", name, hip_error(h, e));
        return -1;
    }
    e = h->api.module_launch_kernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                    (unsigned)shared_bytes, NULL, args, NULL);
    if (e == 0)
        e = h->api.device_synchronize();
    if (e != 0) {
        *err = rt_strdupf("launching '%s': %s", name, hip_error(h, e));
        return -1;
    }
    return 0;
}
