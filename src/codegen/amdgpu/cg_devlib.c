/* cg_devlib.c - Float64 transcendentals on AMDGPU through AMD's device math
 * library (ocml).
 *
 * LLVM 19 cannot lower the f64 forms of llvm.exp/exp2/log/log2/sin/cos/pow
 * for AMDGPU. ROCm's device libraries implement them in bitcode: ocml.bc
 * (__ocml_exp_f64, ...) plus tiny "oclc" control files that define the
 * switches ocml reads (__oclc_finite_only_opt, __oclc_ISA_version, ...).
 * Debian packages them as rocm-device-libs (ROCm 5.2) in
 * /usr/lib/<multiarch>/amdgcn/bitcode. We link the needed functions into the
 * module (ocml's definitions are linkonce_odr, so only what is referenced
 * comes in, and the library is loaded lazily, so only that is parsed), link the control files for what they reference, and make every
 * linked definition internal so that it is inlined and never exported.
 *
 * ocml reads the processor only through __oclc_ISA_version, which ROCm
 * ships one file per processor for (oclc_isa_version_<N>.bc). Debian's 5.2
 * has none for gfx11 and gfx12, so fxcc defines that constant itself from
 * the target description (target/target.c: devlib_isa_version; the numbers
 * equal the files' where a file exists). Every use of it in ocml is a
 * threshold test (> 8999: fast fma; < 8000: no fract instruction), so gfx11
 * and gfx12 take exactly the code paths of gfx10, with intrinsics (fract,
 * frexp, rcp, rsq, trig_preop, fmed3, class) those processors all have.
 * A missing installation is a located error naming the package.
 * FXCC_DEVICE_LIBS=DIR replaces the search path. */
#include "codegen/cg_internal.h"
#include "codegen/amdgpu/cg_amdgpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>

static const char *const search_dirs[] = {
    "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
    "/usr/lib/aarch64-linux-gnu/amdgcn/bitcode",
    "/usr/lib/amdgcn/bitcode",
    "/opt/rocm/amdgcn/bitcode",
};

static bool file_exists(const char *dir, const char *name)
{
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    return access(p, R_OK) == 0;
}

/* The directory holding ocml.bc, or NULL; *searched lists where we looked. */
static const char *find_dir(CgCtx *c, const char **searched)
{
    const char *env = getenv("FXCC_DEVICE_LIBS");
    if (env && *env) {
        *searched = arena_printf(c->fm->arena, "%s (FXCC_DEVICE_LIBS)", env);
        return file_exists(env, "ocml.bc") ? env : NULL;
    }
    char *list = arena_strdup(c->fm->arena, "");
    for (size_t k = 0; k < sizeof search_dirs / sizeof search_dirs[0]; k++) {
        if (file_exists(search_dirs[k], "ocml.bc"))
            return search_dirs[k];
        list = arena_printf(c->fm->arena, "%s%s%s", list, k ? ", " : "", search_dirs[k]);
    }
    *searched = list;
    return NULL;
}

/* Looks for the installation once per compilation. */
static void devlib_find(CgCtx *c)
{
    if (c->devlib_state)
        return;
    const char *searched = "";
    c->devlib_dir = find_dir(c, &searched);
    c->devlib_searched = searched;
    c->devlib_state = 1;
}

/* Whether the library is installed; reports a located error (once per use)
 * when not. what: "Float64 fx.exp", "Float32 fx.erf". */
static bool devlib_usable(CgCtx *c, FxInst *i, const char *what)
{
    const char *arch = c->tgt->name;
    devlib_find(c);
    if (!c->devlib_dir) {
        cg_error(c, i->loc, "%s on %s needs AMD's device math library (ocml.bc), which is not "
                 "installed: install the Debian package rocm-device-libs (searched %s)",
                 what, arch, c->devlib_searched);
        return false;
    }
    c->devlib_used = true;
    return true;
}

LLVMValueRef cg_devlib_call(CgCtx *c, FxInst *i, const char *what, const char *fname,
                            LLVMValueRef *args, int nargs)
{
    LLVMTypeRef ty = LLVMTypeOf(args[0]);
    if (!devlib_usable(c, i, what))
        return LLVMGetPoison(ty);
    LLVMTypeRef ety = cg_elem_llty(ty);
    LLVMTypeRef pt[2] = { ety, ety };
    LLVMTypeRef fty = LLVMFunctionType(ety, pt, (unsigned)nargs, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(c->M, fname);
    if (!fn)
        fn = LLVMAddFunction(c->M, fname, fty);
    return cg_call_lanewise(c, fty, fn, args, nargs, ty, i->fmf);
}

bool cg_devlib_use_ockl(CgCtx *c, FxInst *i)
{
    if (c->ockl_used)
        return true;
    devlib_find(c);
    if (!c->devlib_dir || !file_exists(c->devlib_dir, "ockl.bc")) {
        cg_error(c, i->loc, "fx.printf and fx.assert on %s need AMD's device library (ockl.bc), which is not "
                 "installed: install the Debian package rocm-device-libs (searched %s)", c->tgt->name,
                 c->devlib_dir ? c->devlib_dir : c->devlib_searched);
        return false;
    }
    /* the printf flavour the HIP runtime serves, as clang marks a HIP module */
    LLVMMetadataRef kind = LLVMMDStringInContext2(c->C, "hostcall", 8);
    LLVMAddModuleFlag(c->M, LLVMModuleFlagBehaviorError, "amdgpu_printf_kind", 18, kind);
    c->ockl_used = true;
    return true;
}

static bool link_file(CgCtx *c, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", c->devlib_dir, name);
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        diag_error((Loc){0}, "cannot read '%s': %s", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return false;
    }
    /* Lazily: only the module's table of contents is read now; the linker
     * materializes the bodies of the functions the kernels reference.
     * Parsing all of ocml.bc took most of a compilation using one fx.exp. */
    LLVMModuleRef lib;
    if (LLVMGetBitcodeModuleInContext2(c->C, buf, &lib)) {
        LLVMDisposeMemoryBuffer(buf);
        diag_error((Loc){0}, "cannot read '%s': not LLVM bitcode this LLVM understands", path);
        return false;
    }
    /* on success the lazy module owns buf */
    /* same target; the layout string only differs in address spaces ocml does not use */
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(c->M));
    LLVMSetTarget(lib, LLVMGetTarget(c->M));
    if (LLVMLinkModules2(c->M, lib)) {
        diag_error((Loc){0}, "cannot link '%s' into the module", path);
        return false;
    }
    return true;
}

/* The control variables ocml may read and the file defining each. */
static const char *control_file(CgCtx *c, const char *var)
{
    if (strcmp(var, "__oclc_finite_only_opt") == 0) return "oclc_finite_only_off.bc";
    if (strcmp(var, "__oclc_unsafe_math_opt") == 0) return "oclc_unsafe_math_off.bc";
    if (strcmp(var, "__oclc_daz_opt") == 0) return "oclc_daz_opt_off.bc";
    if (strcmp(var, "__oclc_correctly_rounded_sqrt32") == 0) return "oclc_correctly_rounded_sqrt_on.bc";
    if (strcmp(var, "__oclc_wavefrontsize64") == 0)
        return c->tgt->wave_size == 64 ? "oclc_wavefrontsize64_on.bc" : "oclc_wavefrontsize64_off.bc";
    if (strcmp(var, "__oclc_ABI_version") == 0) return "oclc_abi_version_500.bc";
    return NULL;
}

/* ocml's processor switch, defined as the ISA-version files define it. */
static void define_isa_version(CgCtx *c, LLVMValueRef g)
{
    LLVMTypeRef i32 = LLVMInt32TypeInContext(c->C);
    LLVMSetInitializer(g, LLVMConstInt(i32, (unsigned long long)c->tgt->devlib_isa_version, 0));
    LLVMSetGlobalConstant(g, 1);
}

/* The names of the global variables the module declares before the device
 * library joins it: symbols the loader defines, such as the LDS of a
 * dynamic shared array (docs/language.md), not something ocml must provide.
 * Names, not values: linking may replace values. */
static int our_external_globals(CgCtx *c, char ***names)
{
    int n = 0;
    *names = NULL;
    for (LLVMValueRef g = LLVMGetFirstGlobal(c->M); g; g = LLVMGetNextGlobal(g)) {
        if (!LLVMIsDeclaration(g))
            continue;
        size_t len;
        const char *name = LLVMGetValueName2(g, &len);
        char **grown = realloc(*names, (size_t)(n + 1) * sizeof **names);
        if (!grown)
            break;
        *names = grown;
        (*names)[n++] = strdup(name);
    }
    return n;
}

static bool is_listed(const char *name, char **names, int n)
{
    for (int k = 0; k < n; k++)
        if (strcmp(names[k], name) == 0)
            return true;
    return false;
}

bool cg_devlib_link(CgCtx *c)
{
    if (!c->devlib_used && !c->ockl_used)
        return true;
    /* our own definitions (declarations are replaced by the linker) */
    CgMap ours = { 0 };
    for (LLVMValueRef f = LLVMGetFirstFunction(c->M); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            cg_map_put(&ours, f, f);
    for (LLVMValueRef g = LLVMGetFirstGlobal(c->M); g; g = LLVMGetNextGlobal(g))
        if (!LLVMIsDeclaration(g))
            cg_map_put(&ours, g, g);
    char **extern_names = NULL;
    int n_extern = our_external_globals(c, &extern_names);
    bool ok = (!c->devlib_used || link_file(c, "ocml.bc")) && (!c->ockl_used || link_file(c, "ockl.bc"));
    /* the control variables it references, until none is left undefined */
    for (bool again = ok; again && ok;) {
        again = false;
        for (LLVMValueRef g = LLVMGetFirstGlobal(c->M); g && ok; g = LLVMGetNextGlobal(g)) {
            if (!LLVMIsDeclaration(g))
                continue;
            size_t n;
            const char *name = LLVMGetValueName2(g, &n);
            if (is_listed(name, extern_names, n_extern))
                continue;   /* the kernel's own, defined at load time (a dynamic shared array) */
            if (strcmp(name, "__oclc_ISA_version") == 0) {
                define_isa_version(c, g);
                continue;
            }
            const char *file = control_file(c, name);
            if (!file) {
                diag_error((Loc){0}, "AMD's device math library needs '%s', which fxcc does not provide", name);
                ok = false;
                break;
            }
            ok = link_file(c, file);
            again = true;
            break; /* the global list changed */
        }
    }
    for (LLVMValueRef f = LLVMGetFirstFunction(c->M); f && ok; f = LLVMGetNextFunction(f)) {
        size_t n;
        const char *name = LLVMGetValueName2(f, &n);
        if (LLVMIsDeclaration(f) && strncmp(name, "llvm.", 5) != 0) {
            diag_error((Loc){0}, "AMD's device math library needs the function '%s', which fxcc does not provide",
                       name);
            ok = false;
        }
    }
    if (ok) {
        for (LLVMValueRef f = LLVMGetFirstFunction(c->M); f; f = LLVMGetNextFunction(f))
            if (!LLVMIsDeclaration(f) && !cg_map_get(&ours, f)) {
                LLVMSetLinkage(f, LLVMInternalLinkage);
                LLVMSetVisibility(f, LLVMDefaultVisibility);
            }
        for (LLVMValueRef g = LLVMGetFirstGlobal(c->M); g; g = LLVMGetNextGlobal(g))
            if (!LLVMIsDeclaration(g) && !cg_map_get(&ours, g)) {
                LLVMSetLinkage(g, LLVMInternalLinkage);
                LLVMSetVisibility(g, LLVMDefaultVisibility);
            }
    }
    cg_map_free(&ours);
    for (int k = 0; k < n_extern; k++)
        free(extern_names[k]);
    free(extern_names);
    return ok;
}
