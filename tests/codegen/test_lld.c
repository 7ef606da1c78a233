/* test_lld.c - the in-process linker (cg_lld.cpp): a code object linked from
 * an AMDGPU object is a shared object for AMDGPU keeping the kernel's
 * symbols; a bad input is an error that says why, and the process can link
 * again afterwards (lld's state is reset between links). */
#include "fxtest.h"
#include <elf.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fxsource.h"
#include "codegen/codegen.h"
#include "codegen/amdgpu/cg_lld.h"

static const char *const saxpy_src =
    "kernel saxpy(x: const Ptr[Float32], y: Ptr[Float32], a: Float32, n: Int32) {\n"
    "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
    "    if i < n {\n"
    "        y[i] = a * x[i] + y[i]\n"
    "    }\n"
    "}\n";

static char obj_path[64], out_path[64], bad_path[64];

/* An object file of saxpy for gfx942, as fxcc -c writes it. */
static bool write_object(const char *path)
{
    FxsModule m = { 0 };
    bool ok = fxs_lower(&m, saxpy_src, "gfx942", false);
    CgModule *cg = ok ? pipe_codegen(&m.c) : NULL;
    ok = cg && cg_write(cg, CG_OUT_OBJ, path);
    cg_free(cg);
    fxs_close(&m);
    return ok;
}

static bool is_amdgpu_shared_object(const char *path)
{
    size_t len;
    char *b = fxt_read_bytes(path, &len);
    Elf64_Ehdr h;
    bool ok = b && len >= sizeof h;
    if (ok) {
        memcpy(&h, b, sizeof h);
        ok = memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 && h.e_type == ET_DYN && h.e_machine == EM_AMDGPU;
    }
    free(b);
    return ok;
}

static bool file_mentions(const char *path, const char *text)
{
    size_t len, n = strlen(text);
    char *b = fxt_read_bytes(path, &len);
    bool found = false;
    for (size_t i = 0; b && !found && i + n <= len; i++)
        found = memcmp(b + i, text, n) == 0;
    free(b);
    return found;
}

static int set_up(void)
{
    snprintf(obj_path, sizeof obj_path, "/tmp/fxcc-lld-%d.o", (int)getpid());
    snprintf(out_path, sizeof out_path, "/tmp/fxcc-lld-%d.hsaco", (int)getpid());
    snprintf(bad_path, sizeof bad_path, "/tmp/fxcc-lld-%d-bad.o", (int)getpid());
    return write_object(obj_path) && fxt_write_file(bad_path, "not an object\n") ? 0 : 1;
}

static int tear_down(void)
{
    unlink(obj_path);
    unlink(out_path);
    unlink(bad_path);
    return 0;
}

static void test_links_a_code_object(void)
{
    char *msg = NULL;
    CU_ASSERT_EQUAL(cg_lld_link(obj_path, out_path, &msg), 0);
    CU_ASSERT_PTR_NULL(msg);   /* a clean link says nothing */
    free(msg);
    CU_ASSERT(is_amdgpu_shared_object(out_path));
    CU_ASSERT(file_mentions(out_path, "saxpy.kd"));   /* the kernel descriptor symbol */
}

static void test_bad_input_then_again(void)
{
    char *msg = NULL;
    unlink(out_path);
    CU_ASSERT_NOT_EQUAL(cg_lld_link(bad_path, out_path, &msg), 0);
    CU_ASSERT(msg && strstr(msg, "error") && strstr(msg, bad_path));
    free(msg);
    CU_ASSERT(access(out_path, F_OK) != 0);   /* no output from a failed link */
    msg = NULL;
    CU_ASSERT_EQUAL(cg_lld_link(obj_path, out_path, &msg), 0);
    free(msg);
    CU_ASSERT(is_amdgpu_shared_object(out_path));
}

/* LLVM installs its own signal handlers while lld writes the output; the
 * process's own (fxcc's crash reports) must be in place again afterwards. */
static void test_signal_handlers_kept(void)
{
    static const int sigs[] = { SIGSEGV, SIGABRT, SIGILL, SIGINT, SIGTERM };
    struct sigaction before[5], after;
    for (int k = 0; k < 5; k++)
        sigaction(sigs[k], NULL, &before[k]);
    char *msg = NULL;
    CU_ASSERT_EQUAL(cg_lld_link(obj_path, out_path, &msg), 0);
    free(msg);
    for (int k = 0; k < 5; k++) {
        sigaction(sigs[k], NULL, &after);
        CU_ASSERT(after.sa_handler == before[k].sa_handler);
    }
}

static const FxtTest tests[] = {
    { "links a code object", test_links_a_code_object },
    { "bad input, then links again", test_bad_input_then_again },
    { "signal handlers kept", test_signal_handlers_kept },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "lld", tests, set_up, tear_down }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
