/* cg_amdgpu.h - what AMDGPU code generation offers the shared core: AMD's
 * device library (cg_devlib.c), the matrix instructions (cg_matrix.c) and
 * the wave operations (cg_wave.c). Writing code objects is cg_elflink.h and
 * cg_lld.h; LLVM's register alias lists for the static fxcc cg_regalias.h.
 * Only the shared core and the files of src/codegen/amdgpu include it. */
#ifndef FX_CG_AMDGPU_H
#define FX_CG_AMDGPU_H
#include "codegen/cg_internal.h"

/* ---- cg_devlib.c ---- */
/* A call of ocml's `fname` (e.g. "__ocml_exp_f64"), lane by lane for vectors;
 * a located error naming `what` ("Float64 fx.exp", "Float64 '**'") when the library is
 * missing or does not cover the processor. */
LLVMValueRef cg_devlib_call(CgCtx *c, FxInst *i, const char *what, const char *fname,
                            LLVMValueRef *args, int nargs);
/* fx.printf on AMDGPU: ockl.bc is to be linked; a located error at i when
 * the library is not installed. */
bool cg_devlib_use_ockl(CgCtx *c, FxInst *i);
/* Links what cg_devlib_call() and cg_devlib_use_ockl() used (at the end of cg_build). */
bool cg_devlib_link(CgCtx *c);

/* ---- cg_matrix.c: FX_MFMA, the CDNA and RDNA matrix instructions ---- */
LLVMValueRef cg_mfma(CgCtx *c, FxInst *i);

/* ---- cg_wave.c: wave operations (docs/waves.md, "AMDGPU lowering") ---- */
LLVMValueRef cg_wave(CgCtx *c, FxInst *i);

#endif
