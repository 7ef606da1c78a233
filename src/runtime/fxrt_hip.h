/* fxrt_hip.h - libfxrt's HIP backend: runs fxcc's code objects on an AMD GPU.
 *
 * libamdhip64 is opened at run time (dlopen), so libfxrt builds, links and
 * loads on machines without ROCm; there every entry point fails with a clear
 * "no HIP device" error instead. */
#ifndef FX_RT_HIP_H
#define FX_RT_HIP_H
#include <stddef.h>

typedef struct RtHip RtHip;              /* the HIP runtime and device 0 */
typedef struct RtHipModule RtHipModule;  /* a loaded .hsaco */

/* Opens libamdhip64 and device 0. NULL and *err (malloc'd) when the library
 * or a device is missing: "no HIP device: ...". */
RtHip *rt_hip_open(char **err);
void rt_hip_close(RtHip *h);

/* Loads a code object image (the bytes of a .hsaco). */
RtHipModule *rt_hip_load(RtHip *h, const void *image, size_t size, char **err);
void rt_hip_unload(RtHipModule *m);

/* Device buffers. */
void *rt_hip_alloc(RtHip *h, size_t bytes, char **err);
void rt_hip_free(RtHip *h, void *dev);
int rt_hip_copy_to_device(RtHip *h, void *dev, const void *host, size_t bytes, char **err);
int rt_hip_copy_to_host(RtHip *h, void *host, const void *dev, size_t bytes, char **err);

/* Launches kernel `name` (grid in blocks) and waits for it. args[i] points to
 * parameter i's value, a device pointer for Ptr/Tensor parameters. */
int rt_hip_launch(RtHipModule *m, const char *name, const unsigned grid[3], const unsigned block[3],
                  void **args, char **err);
/* The same with shared_bytes of dynamic shared memory per block (HIP's
 * sharedMemBytes; a kernel's Array[T, DYN] lives there). */
int rt_hip_launch_shared(RtHipModule *m, const char *name, const unsigned grid[3], const unsigned block[3],
                         void **args, size_t shared_bytes, char **err);

#endif
