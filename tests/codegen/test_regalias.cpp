// test_regalias.cpp - the register alias lists of cg_regalias.cpp are
// LLVM's, element for element: for every register of every target LLVM was
// built with, cg_register_aliases gives what MCRegAliasIterator (LLVM's own
// lists, this test being linked with the shared libLLVM) walks, ascending,
// then the register itself. And the replacement the static fxcc links in
// returns the same list.
#include <cstdio>
#include <string>
#include <vector>
#include "codegen/amdgpu/cg_regalias.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Triple.h"
extern "C" {
#include "fxtest.h"
}

using llvm::MCPhysReg;

namespace {

// LLVM's list of reg: its aliases as the iterator walks them, then reg.
std::vector<MCPhysReg> llvm_aliases(const llvm::MCRegisterInfo &mri, MCPhysReg reg)
{
    std::vector<MCPhysReg> list;
    for (llvm::MCRegAliasIterator a(reg, &mri, false); a.isValid(); ++a)
        list.push_back(static_cast<MCPhysReg>((*a).id()));
    list.push_back(reg);
    return list;
}

// The registers of one target whose lists differ (0 when all agree), the
// first difference printed.
unsigned count_mismatches(const llvm::MCRegisterInfo &mri, const char *target)
{
    // NoRegister (0) is no register: LLVM's own function reads out of its
    // tables for it. The list here is 0 alone.
    llvm::ArrayRef<MCPhysReg> none = cg_register_aliases(mri, 0);
    unsigned bad = none.size() == 1 && none[0] == 0 ? 0 : 1;
    for (unsigned r = 1; r < mri.getNumRegs(); r++) {
        MCPhysReg reg = static_cast<MCPhysReg>(r);
        llvm::ArrayRef<MCPhysReg> ours = cg_register_aliases(mri, reg);
        std::vector<MCPhysReg> theirs = llvm_aliases(mri, reg);
        if (ours.vec() == theirs)
            continue;
        if (bad++ == 0)
            std::fprintf(stderr, "%s: register %s: %zu aliases here, %zu in LLVM\n", target,
                         mri.getName(reg), ours.size(), theirs.size());
    }
    return bad;
}

std::unique_ptr<llvm::MCRegisterInfo> register_info(const char *triple)
{
    std::string err;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, err);
    if (!target)
        return nullptr;
    return std::unique_ptr<llvm::MCRegisterInfo>(target->createMCRegInfo(triple));
}

int init_targets(void)
{
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargetMCs();
    return 0;
}

// The two targets fxcc compiles for, each asked twice (the second time from
// the lists kept), and a second register info of the same target sharing
// them.
void test_amdgpu_and_x86(void)
{
    const char *triples[] = { "amdgcn-amd-amdhsa", "x86_64-unknown-linux-gnu" };
    for (const char *triple : triples) {
        std::unique_ptr<llvm::MCRegisterInfo> mri = register_info(triple);
        CU_ASSERT_PTR_NOT_NULL_FATAL(mri.get());
        CU_ASSERT_EQUAL(count_mismatches(*mri, triple), 0u);
        CU_ASSERT_EQUAL(count_mismatches(*mri, triple), 0u);
        std::unique_ptr<llvm::MCRegisterInfo> again = register_info(triple);
        CU_ASSERT_EQUAL(count_mismatches(*again, triple), 0u);
    }
    // AMDGPU's registers are many: the lists must be more than the register.
    std::unique_ptr<llvm::MCRegisterInfo> amd = register_info("amdgcn-amd-amdhsa");
    CU_ASSERT_TRUE(amd->getNumRegs() > 8000);
}

// Every other target LLVM was built with (the static fxcc links them all,
// for lld).
void test_every_target(void)
{
    unsigned targets = 0;
    for (const llvm::Target &t : llvm::TargetRegistry::targets()) {
        llvm::Triple::ArchType arch = llvm::Triple::getArchTypeForLLVMName(t.getName());
        if (arch == llvm::Triple::UnknownArch)
            continue;   // a name that is no architecture (x86-64 is x86_64's)
        std::string triple = llvm::Triple(llvm::Triple::getArchTypeName(arch), "unknown", "unknown").str();
        std::unique_ptr<llvm::MCRegisterInfo> mri = register_info(triple.c_str());
        if (!mri)
            continue;
        CU_ASSERT_EQUAL(count_mismatches(*mri, t.getName()), 0u);
        targets++;
    }
    std::fprintf(stderr, "regalias: %u targets compared\n", targets);
    CU_ASSERT_TRUE(targets >= 10);
}

// What the linker calls in place of LLVM's function: the same list.
void test_wrapper(void)
{
    std::unique_ptr<llvm::MCRegisterInfo> mri = register_info("amdgcn-amd-amdhsa");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mri.get());
    for (unsigned r = 1; r < mri->getNumRegs(); r += 97) {
        MCPhysReg reg = static_cast<MCPhysReg>(r);
        CgRegisterList got = CG_REGALIAS_WRAP(mri.get(), reg);
        std::vector<MCPhysReg> want = llvm_aliases(*mri, reg);
        CU_ASSERT_TRUE(std::vector<MCPhysReg>(got.data, got.data + got.size) == want);
    }
}

const FxtTest tests[] = {
    { "amdgpu and x86, asked twice and from a second register info", test_amdgpu_and_x86 },
    { "every target LLVM was built with", test_every_target },
    { "the function the linker calls instead of LLVM's", test_wrapper },
    { nullptr, nullptr },
};

const FxtSuite suites[] = {
    { "regalias", tests, init_targets, nullptr },
    { nullptr, nullptr, nullptr, nullptr },
};

} // namespace

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
