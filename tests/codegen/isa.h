/* isa.h - reading AMDGPU assembly in tests: a kernel's instructions, counts
 * of mnemonics, and assembly for hand-written LLVM IR (the baselines of the
 * instruction-cost table in docs/codegen.md). */
#ifndef FX_TEST_ISA_H
#define FX_TEST_ISA_H
#include <stddef.h>
#include "codegen/codegen.h"

/* Assembly of an FXIR module for an AMDGPU processor (NULL: failed; the
 * diagnostics went to the diag stream). malloc'd. */
char *isa_module_asm(FxModule *m, const char *arch, int opt);
/* Assembly of an LLVM IR text module (amdgcn-amd-amdhsa) at -O<opt>. */
char *isa_ir_asm(const char *ir, const char *arch, int opt);
/* The instructions of kernel `name` (its label to .Lfunc_end: every block,
 * the slow paths placed after s_endpgm included), one per line,
 * without comments, directives or labels; *n gets their number. malloc'd,
 * NULL when the kernel is not there. */
char *isa_kernel(const char *asm_text, const char *name, int *n);
/* Instructions whose mnemonic starts with `prefix` ("v_add_f32", "ds_"). */
int isa_count(const char *body, const char *prefix);

#endif
