// cg_lld.cpp - lld in-process: lld exposes its linkers only as a
// C++ API (lld::lldMain), so this shim gives the C code one function to call.
// Only the ELF driver is linked in; lld's other flavours are not needed.
#include "codegen/amdgpu/cg_lld.h"
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include "lld/Common/Driver.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

LLD_HAS_DRIVER(elf)

namespace {

// lld writes its output through LLVM, which installs LLVM's handlers for
// every fatal and interrupting signal (to delete a half-written output) and
// leaves them installed. They would take fxcc's crash reports (cg_crash.c)
// and, on a raised signal, return instead of ending the process, so the
// process's handlers are put back as they were once lld is done.
struct SavedHandlers {
    struct sigaction old[NSIG];
    bool known[NSIG];   // false for the signals the C library keeps for itself
    SavedHandlers()
    {
        for (int s = 1; s < NSIG; s++)
            known[s] = sigaction(s, nullptr, &old[s]) == 0;
    }
    ~SavedHandlers()
    {
        for (int s = 1; s < NSIG; s++)
            if (known[s] && s != SIGKILL && s != SIGSTOP)
                sigaction(s, &old[s], nullptr);
    }
};

char *copy_of(const std::string &text)
{
    if (text.empty())
        return nullptr;
    char *c = static_cast<char *>(std::malloc(text.size() + 1));
    if (c)
        std::memcpy(c, text.c_str(), text.size() + 1);
    return c;
}

// After a crash inside lld its state is not trustworthy: no further link.
bool lld_unusable;

} // namespace

extern "C" int cg_lld_link(const char *in, const char *out, char **messages)
{
    if (lld_unusable) {
        *messages = copy_of("lld crashed earlier in this process and cannot link again");
        return 1;
    }
    // argv[0] "ld.lld" selects the GNU (ELF) flavour.
    const char *args[] = { "ld.lld", "--no-undefined", "-shared", "--threads=1", in, "-o", out };
    std::string text;
    llvm::raw_string_ostream os(text);
    SavedHandlers handlers;
    // lldMain runs the link under a crash recovery context, which returns
    // from lld's fatal errors (they would otherwise end the process without
    // a word) only when crash recovery is enabled. It frees the linker's
    // global state afterwards, so one process can link many times.
    llvm::CrashRecoveryContext::Enable();
    lld::Result r = lld::lldMain(args, os, os, { { lld::Gnu, &lld::elf::link } });
    os.flush();
    lld_unusable = !r.canRunAgain;
    *messages = copy_of(text);
    return r.retCode;
}
