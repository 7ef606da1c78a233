/* cg_lld.h - lld's ELF linker inside the fxcc process (cg_lld.cpp): the
 * code object (.hsaco) is a shared object linked from the object file LLVM
 * emits. Linking in-process saves starting ld.lld and loading its copy of
 * LLVM for every compilation. */
#ifndef FX_CODEGEN_CG_LLD_H
#define FX_CODEGEN_CG_LLD_H
#ifdef __cplusplus
extern "C" {
#endif

/* Links `in` (an AMDGPU ELF object) into the shared object `out` as
 * `ld.lld --no-undefined -shared in -o out` would. Returns 0 on success;
 * *messages gets what lld printed (malloc'd, NULL when nothing), which on
 * failure says why. */
int cg_lld_link(const char *in, const char *out, char **messages);

#ifdef __cplusplus
}
#endif
#endif
