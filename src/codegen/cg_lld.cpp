// cg_lld.cpp - the one C++ file of fxcc: lld exposes its linkers only as a
// C++ API (lld::lldMain), so this shim gives the C code one function to call.
// Only the ELF driver is linked in; lld's other flavours are not needed.
#include "codegen/cg_lld.h"
#include <cstdlib>
#include <cstring>
#include <string>
#include "lld/Common/Driver.h"
#include "llvm/Support/raw_ostream.h"

LLD_HAS_DRIVER(elf)

extern "C" int cg_lld_link(const char *in, const char *out, char **messages)
{
    // argv[0] "ld.lld" selects the GNU (ELF) flavour.
    const char *args[] = { "ld.lld", "--no-undefined", "-shared", in, "-o", out };
    std::string text;
    llvm::raw_string_ostream os(text);
    // lldMain catches lld's fatal errors (it runs the link under a crash
    // recovery context) and frees the linker's global state afterwards, so
    // one process can link many times.
    lld::Result r = lld::lldMain(args, os, os, { { lld::Gnu, &lld::elf::link } });
    os.flush();
    *messages = nullptr;
    if (!text.empty()) {
        *messages = static_cast<char *>(std::malloc(text.size() + 1));
        if (*messages)
            std::memcpy(*messages, text.c_str(), text.size() + 1);
    }
    return r.retCode;
}
