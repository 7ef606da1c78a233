/* fxrt.h - libfxrt: load compiled kernels and launch them.
 *
 * Host backend: a module built by codegen with --target=host (see fxhost.h)
 * is compiled in-process with ORC LLJIT and run on the CPU, its blocks
 * spread over worker threads (rt_host_set_threads below). A kernel whose
 * work-items may wait for each other (fx.barrier(), or wave exchanges of a
 * GPU's emulated waves: docs/waves.md) runs the work-items of a block as
 * fibers, switching at each wait so that every work-item reaches a barrier
 * before any passes it; other kernels run a block's work-items as one loop
 * (docs/host-execution.md). Not thread-safe: one launch at a time per
 * process. */
#ifndef FX_FXRT_H
#define FX_FXRT_H
#include <stddef.h>
#include <stdint.h>
#include "fxrt_version.h"

/* This header is plain C: it needs no LLVM headers (the in-process loader
 * that takes an LLVM module is in fxrt_llvm.h). Installed, it is <fxrt.h>;
 * `pkg-config --cflags --libs fxrt` gives what a C program needs. */

/* Versions (docs/programs.md). FXRT_VERSION_MAJOR, _MINOR, _PATCH and
 * FXRT_VERSION_STRING ("MAJOR.MINOR.PATCH") are the version of these
 * headers, generated from the project's into fxrt_version.h; the
 * functions below give the version of the library a program runs with,
 * which may be another when the program loads a libfxrt.so it was not
 * built with. Before 1.0 every new minor version may change the API
 * incompatibly, from 1.0 on only a new major version; the soname changes
 * with exactly those numbers (libfxrt.so.0.MINOR, then libfxrt.so.MAJOR).
 * As one number a version compares as versions do, also in #if: */
#define FXRT_MAKE_VERSION(major, minor, patch) ((major) * 1000000 + (minor) * 1000 + (patch))
#define FXRT_VERSION FXRT_MAKE_VERSION(FXRT_VERSION_MAJOR, FXRT_VERSION_MINOR, FXRT_VERSION_PATCH)
/* The parts of such a number, e.g. of rt_version()'s: */
#define FXRT_VERSION_MAJOR_OF(v) ((v) / 1000000)
#define FXRT_VERSION_MINOR_OF(v) ((v) / 1000 % 1000)
#define FXRT_VERSION_PATCH_OF(v) ((v) % 1000)

/* The version this library was built as: as FXRT_VERSION encodes it, and
 * as FXRT_VERSION_STRING spells it. */
int rt_version(void);
const char *rt_version_string(void);
/* 1 when this library serves a program compiled against the headers of
 * version `compiled` (pass FXRT_VERSION), else 0: the same major version
 * and, before 1.0, the same minor; from 1.0 on a minor at least
 * `compiled`'s, since later minors only add. The patch does not matter. */
int rt_version_compatible(int compiled);

typedef struct RtHostModule RtHostModule;

/* Load a host artifact: the bitcode that `fxcc --target=host --emit-llvm`
 * writes (its programs' launch plans travel inside it, see fxrt_program.h). */
RtHostModule *rt_host_load_file(const char *path, char **err);

/* Runs kernel `name` over grid x block work-groups. args[i] -> parameter i's
 * value (see fxhost.h). Returns 0, or -1 with *err (malloc'd).
 * Ptr indices are not checked (no sizes are known); an out-of-range index
 * into a shared or private array still stops the launch with an error. */
int rt_host_launch(RtHostModule *m, const char *name, const unsigned grid[3],
                   const unsigned block[3], void **args, char **err);

/* The same with bounds checks on every Ptr access: arg_bytes[i] is the size
 * in bytes of the buffer that Ptr parameter i points to (from that address
 * on); entries of other parameters are ignored, and RT_UNKNOWN_SIZE leaves a
 * Ptr unchecked. A Ptr[T] of n bytes has n / stride(T) elements. The first
 * out-of-range access stops the launch (no later work-item runs, the
 * offending one ends there, the access does not happen) and returns -1 with
 * *err, e.g. "out-of-bounds store to 'y'[1000] (buffer has 1000 elements) in
 * kernel saxpy". Also when arg_bytes is NULL: then as rt_host_launch. */
#define RT_UNKNOWN_SIZE ((size_t)-1)
/* What both launches return when an fx.assert failed (the work-item stops,
 * no later one runs); *err is "file:line:col: assertion failed in kernel K,
 * block (x,y,z), thread (x,y,z): msg". fx.printf writes to stdout. */
#define RT_LAUNCH_ASSERT (-2)
int rt_host_launch_checked(RtHostModule *m, const char *name, const unsigned grid[3],
                           const unsigned block[3], void **args, const size_t *arg_bytes, char **err);

/* Every launch option: bounds (arg_bytes, as for rt_host_launch_checked;
 * NULL: unchecked), the dynamic shared memory one block gets beyond the
 * kernel's static arrays (HIP's sharedMemBytes: a kernel's Array[T, DYN]
 * has shared_bytes / stride(T) elements), and the race and initialization
 * checker for kernels compiled with --check (checks: RT_CHECK_* bits, 0:
 * off; what it reports is described in the fxrun manual, --check). Static
 * plus dynamic shared memory may be at most RT_MAX_SHARED_BYTES, as on a GPU
 * with 64 KiB of LDS. */
#define RT_MAX_SHARED_BYTES 65536
enum { RT_CHECK_RACES = 1, RT_CHECK_UNINIT = 2 };
typedef struct RtLaunchOptions {
    const size_t *arg_bytes;
    size_t shared_bytes;
    unsigned checks;
} RtLaunchOptions;
int rt_host_launch_with(RtHostModule *m, const char *name, const unsigned grid[3], const unsigned block[3],
                        void **args, const RtLaunchOptions *o, char **err);

void rt_host_free(RtHostModule *m);

/* Worker threads for the blocks of later launches: n > 0 that many (at most
 * 1024), 0 the default: the environment variable FX_THREADS if set, else the
 * number of online processors. A launch uses at most one thread a block, and
 * one when it checks shared memory (fxrt_check.h). Blocks run in any order
 * and at the same time, as on a GPU; results do not depend on the count. */
void rt_host_set_threads(unsigned n);
/* The count a launch would use now (before the one-a-block limit); -1 with
 * *err when FX_THREADS is not a number from 1 to 1024. */
int rt_host_threads(unsigned *n, char **err);

/* Alignment: a kernel loads a Ptr[T] element with T's alignment — the lane
 * type's for scalars and 3-lane vectors, the vector's size for 2, 4, 8, 16,
 * 32 and 64 lanes (a Ptr[Float32x8] wants 32 bytes). Every Ptr argument must
 * be aligned so; rt_buffer_alloc's buffers are, for any element type that
 * fits in them: zeroed, aligned to the buffer's size rounded up to a power of
 * two, at least 64 and at most 4096 bytes (2 MiB from 2 MiB on, where the
 * buffer is advised for transparent huge pages). NULL when count *
 * elem_bytes overflows or the memory is not there. Release with free(). */
void *rt_buffer_alloc(size_t count, size_t elem_bytes);

#endif
