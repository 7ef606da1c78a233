// cg_regalias.cpp - the alias lists of a target's registers, computed from
// an index of register units instead of LLVM 19's way.
//
// LLVM asks "is this register, or any register overlapping it, used?" through
// MCRegisterInfo::getCachedAliasesOf, which builds each register's list on
// first use: every super-register of every root of every unit of the
// register, then sorts it. AMDGPU has 8,973 registers (all the tuples), so
// the list of one VGPR holds hundreds of entries, and the resource-usage
// analysis of every kernel asks for v255 down to the highest VGPR used,
// a255 down to a0 and s105 downwards: 6-12 % of a small kernel's compilation
// was spent building and sorting these lists (docs/compile-time.md, "LLVM's
// optimization and code generation"). Two registers overlap exactly when they share a register unit, so
// an index from each unit to the registers holding it, built once per target
// by walking the registers in order, gives every list in order: the union
// of the index's lists of the register's units, read off a bit set.
//
// The static fxcc is linked with --wrap of the LLVM function, so LLVM's
// calls land here (cg_regalias.h); the lists are the same, element for
// element, which tests/codegen/test_regalias.cpp checks against LLVM's own
// for every register of every target LLVM was built with.
#include "codegen/amdgpu/cg_regalias.h"
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>
#include "llvm/Support/ErrorHandling.h"

using llvm::MCPhysReg;
using llvm::MCRegisterInfo;

namespace {

// One target's registers: its unit index, and each register's list once
// asked for. A list is its length in two entries, then its registers, in
// chunks that live as long as the process (as LLVM's lists do); it is
// published with release and read with acquire, so the lists asked for
// again (nearly every call) take no lock.
struct TargetAliases {
    const llvm::MCRegisterDesc *desc;   // the target's static table: its identity
    unsigned num_regs;
    std::vector<uint32_t> unit_start;   // unit u's registers: unit_regs[unit_start[u] .. unit_start[u + 1])
    std::vector<MCPhysReg> unit_regs;
    std::vector<uint64_t> seen;         // bit per register, while a list is built
    std::vector<std::atomic<const MCPhysReg *>> lists;
    MCPhysReg *chunk = nullptr;         // where the next list goes
    size_t chunk_left = 0;

    TargetAliases(const MCRegisterInfo &mri);
    size_t mark_overlapping(const MCRegisterInfo &mri, MCPhysReg reg, unsigned &lo, unsigned &hi);
    MCPhysReg *room_for(size_t entries);
    const MCPhysReg *build(const MCRegisterInfo &mri, MCPhysReg reg);
};

// Counts the registers holding each unit, then lists them in register order,
// so every unit's list comes out ascending.
TargetAliases::TargetAliases(const MCRegisterInfo &mri)
    : desc(&mri[0]), num_regs(mri.getNumRegs()), unit_start(mri.getNumRegUnits() + 1, 0),
      seen((mri.getNumRegs() + 63) / 64, 0), lists(mri.getNumRegs())
{
    for (unsigned r = 1; r < num_regs; r++)
        for (llvm::MCRegUnit u : mri.regunits(r))
            unit_start[u + 1]++;
    for (size_t u = 1; u < unit_start.size(); u++)
        unit_start[u] += unit_start[u - 1];
    unit_regs.resize(unit_start.back());
    std::vector<uint32_t> next(unit_start.begin(), unit_start.end() - 1);
    for (unsigned r = 1; r < num_regs; r++)
        for (llvm::MCRegUnit u : mri.regunits(r))
            unit_regs[next[u]++] = static_cast<MCPhysReg>(r);
}

// Sets the bit in `seen` of every register sharing a unit with reg (reg
// included) and widens [lo, hi] to them: each unit's list is ascending, so
// its ends are its least and greatest register. Returns the lengths of the
// lists marked, added up: at least as many as there are registers marked.
size_t TargetAliases::mark_overlapping(const MCRegisterInfo &mri, MCPhysReg reg, unsigned &lo,
                                       unsigned &hi)
{
    size_t listed = 0;
    if (!reg)
        return 0;   // NoRegister has no units (LLVM's unit iterator asserts on it)
    for (llvm::MCRegUnit u : mri.regunits(reg)) {
        uint32_t first = unit_start[u], end = unit_start[u + 1];
        if (first == end)
            continue;
        listed += end - first;
        lo = std::min<unsigned>(lo, unit_regs[first]);
        hi = std::max<unsigned>(hi, unit_regs[end - 1]);
        for (uint32_t i = first; i < end; i++)
            seen[unit_regs[i] / 64] |= uint64_t(1) << (unit_regs[i] % 64);
    }
    return listed;
}

// Space for a list of at most `entries` registers and its length; what the
// list does not use is handed back by build.
MCPhysReg *TargetAliases::room_for(size_t entries)
{
    const size_t chunk_entries = 32768;
    if (chunk_left < entries + 2) {
        chunk_left = std::max(chunk_entries, entries + 2);
        chunk = new MCPhysReg[chunk_left];
    }
    return chunk;
}

// The registers sharing a unit with reg, ascending, without reg, then reg
// itself: the order LLVM's list has (its iterator drops the last entry when
// asked to leave the register out). Called with the targets' lock held.
const MCPhysReg *TargetAliases::build(const MCRegisterInfo &mri, MCPhysReg reg)
{
    unsigned lo = num_regs, hi = 0;
    size_t most = mark_overlapping(mri, reg, lo, hi);
    MCPhysReg *list = room_for(most + 1);
    size_t n = 2;
    for (unsigned w = lo / 64; lo <= hi && w <= hi / 64; w++) {
        for (uint64_t bits = seen[w]; bits; bits &= bits - 1) {
            unsigned r = w * 64 + static_cast<unsigned>(__builtin_ctzll(bits));
            if (r != reg)
                list[n++] = static_cast<MCPhysReg>(r);
        }
        seen[w] = 0;
    }
    list[n++] = reg;
    list[0] = static_cast<MCPhysReg>((n - 2) & 0xffff);
    list[1] = static_cast<MCPhysReg>((n - 2) >> 16);
    chunk += n;
    chunk_left -= n;
    return list;
}

// The targets met so far (a compilation meets one or two: AMDGPU, and x86
// for host code). Each target has one register table, and LLVM 19 has 22
// targets, so the array cannot fill. Entries live as long as the process, as
// LLVM's lists do.
std::mutex targets_lock;
std::atomic<TargetAliases *> targets[64];
std::atomic<unsigned> num_targets;

TargetAliases &aliases_of_target(const MCRegisterInfo &mri)
{
    const llvm::MCRegisterDesc *desc = &mri[0];
    unsigned n = num_targets.load(std::memory_order_acquire);
    for (unsigned i = 0; i < n; i++) {
        TargetAliases *t = targets[i].load(std::memory_order_acquire);
        if (t->desc == desc)
            return *t;
    }
    std::lock_guard<std::mutex> hold(targets_lock);
    n = num_targets.load(std::memory_order_relaxed);
    for (unsigned i = 0; i < n; i++) {
        TargetAliases *t = targets[i].load(std::memory_order_relaxed);
        if (t->desc == desc)
            return *t;
    }
    if (n == sizeof targets / sizeof targets[0])
        llvm::report_fatal_error("cg_regalias: more register tables than LLVM has targets");
    auto *t = new TargetAliases(mri);
    targets[n].store(t, std::memory_order_release);
    num_targets.store(n + 1, std::memory_order_release);
    return *t;
}

} // namespace

llvm::ArrayRef<MCPhysReg> cg_register_aliases(const MCRegisterInfo &mri, MCPhysReg reg)
{
    TargetAliases &t = aliases_of_target(mri);
    const MCPhysReg *list = t.lists[reg].load(std::memory_order_acquire);
    if (!list) {
        std::lock_guard<std::mutex> hold(targets_lock);
        list = t.lists[reg].load(std::memory_order_relaxed);
        if (!list) {
            list = t.build(mri, reg);
            t.lists[reg].store(list, std::memory_order_release);
        }
    }
    return llvm::ArrayRef<MCPhysReg>(list + 2, size_t(list[0]) | size_t(list[1]) << 16);
}

extern "C" CgRegisterList CG_REGALIAS_WRAP(const MCRegisterInfo *mri, MCPhysReg reg)
{
    llvm::ArrayRef<MCPhysReg> list = cg_register_aliases(*mri, reg);
    return CgRegisterList{ list.data(), list.size() };
}
