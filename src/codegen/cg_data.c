/* cg_data.c - exported constant byte strings: each FxData becomes an
 * externally visible constant global, so a launch plan can be read back from
 * the JIT'd host module by symbol or from a code object's symbol table. */
#include "codegen/cg_internal.h"

void cg_emit_data(CgCtx *c)
{
    unsigned as = c->facts->constant_as;
    for (int i = 0; i < c->fm->data.len; i++) {
        const FxData *d = c->fm->data.items[i];
        LLVMValueRef init = LLVMConstStringInContext(c->C, d->bytes, (unsigned)d->len, 0);
        LLVMValueRef g = LLVMAddGlobalInAddressSpace(c->M, LLVMTypeOf(init), d->name, as);
        LLVMSetInitializer(g, init);
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMExternalLinkage);
        LLVMSetAlignment(g, 1);
    }
}
