/* codegen.h - FXIR -> LLVM IR (through the LLVM C API only) and emission of
 * .ll / .bc / .s / .o / .hsaco.
 *
 * Device target: amdgcn-amd-amdhsa, code object v5, one amdgpu_kernel per
 * `kernel`, `fn`s as internal always-inline functions.
 * Host target (--target=host): the same kernels as ordinary functions plus, for
 * each kernel K, the exported entry points described in abi/fxhost.h
 * (K__fxhost, K__fxshared, K__fxsync, K__fxwave, K__fxparams). */
#ifndef FX_CODEGEN_H
#define FX_CODEGEN_H
#include <stdbool.h>
#include <llvm-c/Core.h>
#include "fxir/fxir.h"
#include "target/target.h"

typedef enum { CG_OUT_LL, CG_OUT_BC, CG_OUT_ASM, CG_OUT_OBJ, CG_OUT_HSACO } CgOutputKind;

typedef struct CgOptions {
    const TgtTarget *target;  /* an AMDGPU processor or the host (target/target.h) */
    int opt_level;            /* 0..3 */
    int wave_size;            /* host: lanes per emulated wave (the runtime groups work-items so) */
    const char *features;     /* AMDGPU: the target id's settings as LLVM features ("+xnack,-sramecc"), or NULL */
    bool check;               /* host: calls for the race and initialization checker (--check) */
    bool debug;               /* -g: DWARF line tables */
    bool host_fibers;         /* host: every kernel with barriers on fibers, none as work-item
                                 loops between its barriers (host/cg_hostregion.c) */
} CgOptions;

/* Owns its LLVMContext, module and target machine. */
typedef struct CgModule CgModule;

/* Builds the LLVM module and verifies it. Unsupported constructs are reported
 * with located diag_error()s; a verifier failure is reported as an "internal
 * compiler error". Either way NULL is returned and nothing is leaked. */
CgModule *cg_build(FxModule *m, const CgOptions *o);

/* Runs LLVM's "default<On>" pipeline (O0 included: it runs the always-inliner). */
bool cg_optimize(CgModule *cm);

/* Writes the module. The FxModule it was built from and its source files
 * must still be alive: errors LLVM reports while generating code (a stack
 * frame or LDS over the target's limit) are located in them. path "-" is
 * stdout. A file is written under a temporary name in the same directory and
 * renamed on success; on failure nothing is left behind. CG_OUT_HSACO links the object with lld, in-process (amdgpu/cg_lld.cpp; device target only). */
bool cg_write(CgModule *cm, CgOutputKind kind, const char *path);
/* The linked code object (.hsaco) in memory, malloc'd, its size in *len;
 * NULL after a located error. For offload bundles of several processors. */
char *cg_hsaco(CgModule *cm, size_t *len);
/* Writes bytes to path as cg_write writes an output (temporary file and
 * rename; a symbolic link's target; a device or FIFO in place; "-" stdout). */
bool cg_write_bytes(const char *path, const void *data, size_t len);
/* The target's assembly as text (malloc'd), as -S writes it; NULL after a
 * located or internal error. For tools and tests that read the ISA. */
char *cg_assembly(CgModule *cm);

LLVMModuleRef cg_llvm_module(CgModule *cm);

/* Hands the module and its context to the caller (for the JIT); cm is freed. */
void cg_release(CgModule *cm, LLVMModuleRef *mod, LLVMContextRef *ctx);
void cg_free(CgModule *cm);

/* An LLVM fatal error, or a crash (SIGSEGV, SIGABRT, SIGBUS, SIGFPE,
 * SIGILL) while a module is being compiled, prints "fxcc: internal compiler
 * error: ..." and the note "currently compiling: kernel 'k', line L of F
 * (phase)", and exits with status 70 (docs/codegen.md). Signal handlers that
 * are already installed (sanitizers, libFuzzer) are left in place. */
void cg_install_fatal_handler(void);

#endif
