/* cg_regalias.h - the alias lists of a target's registers from an index of
 * register units (cg_regalias.cpp), for the static fxcc, whose link routes
 * LLVM's MCRegisterInfo::getCachedAliasesOf here (regalias_link_args in
 * src/codegen/meson.build). */
#ifndef FX_CODEGEN_CG_REGALIAS_H
#define FX_CODEGEN_CG_REGALIAS_H
#include <cstddef>
#include "llvm/ADT/ArrayRef.h"
#include "llvm/MC/MCRegisterInfo.h"

/* The link option --wrap=NAME sends every call of NAME from LLVM's archives
 * to __wrap_NAME; NAME is LLVM 19's getCachedAliasesOf(MCPhysReg) const as
 * the linker spells it. */
#define CG_REGALIAS_WRAP __wrap__ZNK4llvm14MCRegisterInfo18getCachedAliasesOfEt

/* What the member function returns (llvm::ArrayRef<MCPhysReg>), as a plain
 * struct of the same layout: both come back in two registers. */
struct CgRegisterList {
    const llvm::MCPhysReg *data;
    size_t size;
};

/* The registers overlapping reg, ascending, then reg itself: LLVM's list,
 * element for element. Safe to call from several threads. */
llvm::ArrayRef<llvm::MCPhysReg> cg_register_aliases(const llvm::MCRegisterInfo &mri,
                                                    llvm::MCPhysReg reg);

/* The replacement the linker calls: `this` comes first, as in a member. */
extern "C" CgRegisterList CG_REGALIAS_WRAP(const llvm::MCRegisterInfo *mri, llvm::MCPhysReg reg);

#endif
