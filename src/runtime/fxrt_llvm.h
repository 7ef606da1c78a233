/* fxrt_llvm.h - loading a host module that is already an LLVM module in this
 * process (the compiler and its tests build one and JIT it without writing
 * bitcode). Kept out of fxrt.h so that C programs using libfxrt need no
 * LLVM headers; they load artifacts with rt_host_load_file. */
#ifndef FX_RT_LLVM_H
#define FX_RT_LLVM_H
#include <llvm-c/Core.h>
#include "fxrt.h"

/* JITs a host-target module. Takes ownership of mod and ctx (also on failure).
 * Returns NULL and sets *err (malloc'd message) on failure. */
RtHostModule *rt_host_load(LLVMModuleRef mod, LLVMContextRef ctx, char **err);

#endif
