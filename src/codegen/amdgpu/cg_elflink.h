/* cg_elflink.h - the code object (.hsaco) written directly from the object
 * file LLVM emits, for the objects fxcc's modules make: one .text of
 * kernels, one .rodata of kernel descriptors and launch plans whose only
 * relocations are the descriptors' entry offsets, the metadata note. The
 * result is what `ld.lld -shared` writes for the same object, byte for
 * byte (tests/codegen/elflink.c compares), except that .comment names this
 * linker; anything else in the object is left to lld (cg_lld.h).
 * docs/compile-time.md says why ("Linking without lld"). */
#ifndef FX_CODEGEN_CG_ELFLINK_H
#define FX_CODEGEN_CG_ELFLINK_H
#include <stddef.h>

/* Links the AMDGPU relocatable object obj[0..len) into a shared object.
 * linker_id is the string .comment gets ahead of the object's own. Returns
 * the shared object (malloc'd, *out_len bytes), or NULL when the object has
 * anything this linker does not handle (or is malformed): lld links it. */
unsigned char *cg_elf_link(const unsigned char *obj, size_t len, const char *linker_id,
                           size_t *out_len);

#endif
