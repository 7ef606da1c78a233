/* fxbundle.h - a clang offload bundle: several AMDGPU code objects in one
 * file, one per processor, as `hipcc --genco --offload-arch=A
 * --offload-arch=B` writes it. hipModuleLoad/hipModuleLoadData pick the
 * entry of the device's processor; clang-offload-bundler lists and unbundles
 * it.
 *
 *   "__CLANG_OFFLOAD_BUNDLE__"           24 bytes
 *   uint64 number of entries              little-endian, as every field
 *   per entry: uint64 offset, uint64 size, uint64 id length, id bytes
 *   the code objects, each at its offset
 *
 * The first entry is the empty host entry clang writes
 * ("host-x86_64-unknown-linux-gnu-"); a code object's id is
 * "hipv4-amdgcn-amd-amdhsa--" followed by its target id (gfx90a,
 * gfx90a:sramecc-:xnack-). Code objects start at multiples of 4096 bytes,
 * as in the bundles clang's HIP driver makes (-bundle-align=4096). */
#ifndef FX_ABI_FXBUNDLE_H
#define FX_ABI_FXBUNDLE_H
#include <stddef.h>

#define FXBUNDLE_MAGIC "__CLANG_OFFLOAD_BUNDLE__"
#define FXBUNDLE_HOST_ID "host-x86_64-unknown-linux-gnu-"
#define FXBUNDLE_HIP_PREFIX "hipv4-amdgcn-amd-amdhsa--"
enum { FXBUNDLE_ALIGN = 4096 };

typedef struct FxBundleEntry {
    const char *id;
    const void *data;
    size_t size;
} FxBundleEntry;

/* The bundle of the host entry and the n code objects in e (their ids as
 * given), malloc'd, its size in *len; NULL when memory runs out. */
unsigned char *fxbundle_write(const FxBundleEntry *e, int n, size_t *len);
/* The code object of entry `id` in a bundle (pointing into it), its size in
 * *size; NULL when the bundle is malformed or has no such entry. */
const void *fxbundle_find(const void *bundle, size_t len, const char *id, size_t *size);

#endif
