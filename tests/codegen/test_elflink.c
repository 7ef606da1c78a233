/* test_elflink.c - the code object written without lld (cg_elflink.c) is
 * lld's own output, byte for byte: every kernel file of examples/ and of
 * bench/compile/kernels/, for processors of every generation, is compiled to
 * an object and linked both ways. The one section allowed to differ is
 * .comment, which names the linker: its strings must be the same set
 * (lld orders merged strings by their hash). What the writer does not
 * handle (-g's debug sections, a module without kernels) it must leave to
 * lld, and a damaged object must be declined or linked, never crash. */
#include "fxtest.h"
#include <dirent.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver/pipeline.h"
#include "codegen/codegen.h"
#include "codegen/amdgpu/cg_elflink.h"
#include "codegen/amdgpu/cg_lld.h"

static const char *const archs[] = {
    "gfx942", "gfx90a", "gfx908", "gfx906", "gfx803", "gfx1030", "gfx1100", "gfx1201",
};
enum { NARCH = sizeof archs / sizeof archs[0] };

static char obj_path[64], out_path[64];

/* One compilation of a file through fxcc's pipeline to its LLVM module. */
typedef struct {
    FxOptions o;
    FxCompilation c;
    bool inited;
} Compiled;

/* `input` for `arch` (NULL: fxcc's default processor), with -g if debug;
 * imports resolve beside the file. NULL after errors. */
static CgModule *compile(Compiled *k, const char *input, const char *arch, bool debug)
{
    opt_defaults(&k->o);
    k->o.input = input;
    if (arch) {
        k->o.arch = arch;
        k->o.arch_given = true;
    }
    k->o.debug = debug;
    k->inited = opt_finish(&k->o);
    if (!k->inited)
        return NULL;
    pipe_init(&k->c, &k->o);
    return pipe_parse(&k->c) && pipe_lower(&k->c) ? pipe_codegen(&k->c) : NULL;
}

static void compiled_free(Compiled *k, CgModule *cg)
{
    cg_free(cg);
    if (k->inited)
        pipe_free(&k->c);
}

/* The object file fxcc -c writes for `input`. */
static unsigned char *object_of(const char *input, const char *arch, bool debug, size_t *len)
{
    Compiled k;
    CgModule *cg = compile(&k, input, arch, debug);
    bool ok = cg && cg_write(cg, CG_OUT_OBJ, obj_path);
    compiled_free(&k, cg);
    return ok ? (unsigned char *)fxt_read_bytes(obj_path, len) : NULL;
}

/* lld's link of obj_path. */
static unsigned char *lld_link(size_t *len)
{
    char *msg = NULL;
    int rc = cg_lld_link(obj_path, out_path, &msg);
    free(msg);
    return rc == 0 ? (unsigned char *)fxt_read_bytes(out_path, len) : NULL;
}

static bool section(const unsigned char *so, size_t len, const char *name, Elf64_Shdr *out)
{
    Elf64_Ehdr eh;
    memcpy(&eh, so, sizeof eh);
    Elf64_Shdr names;
    memcpy(&names, so + eh.e_shoff + (size_t)eh.e_shstrndx * sizeof names, sizeof names);
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        memcpy(out, so + eh.e_shoff + (size_t)i * sizeof *out, sizeof *out);
        if (out->sh_offset + out->sh_size <= len &&
            !strcmp((const char *)so + names.sh_offset + out->sh_name, name))
            return true;
    }
    return false;
}

/* Whether every string of section c1 of a is one of section c2 of b. */
static bool strings_within(const unsigned char *a, const Elf64_Shdr *c1, const unsigned char *b,
                           const Elf64_Shdr *c2)
{
    for (size_t p = 0; p < c1->sh_size; p += strlen((const char *)a + c1->sh_offset + p) + 1) {
        const char *s = (const char *)a + c1->sh_offset + p;
        bool found = false;
        for (size_t q = 0; q < c2->sh_size && !found; q += strlen((const char *)b + c2->sh_offset + q) + 1)
            found = !strcmp(s, (const char *)b + c2->sh_offset + q);
        if (!found)
            return false;
    }
    return true;
}

/* The first string of lld's .comment: "Linker: <lld's version>". */
static const char *linker_id(const unsigned char *so, size_t len)
{
    Elf64_Shdr c;
    if (!section(so, len, ".comment", &c))
        return "";
    for (size_t p = 0; p < c.sh_size; p += strlen((const char *)so + c.sh_offset + p) + 1)
        if (!strncmp((const char *)so + c.sh_offset + p, "Linker: ", 8))
            return (const char *)so + c.sh_offset + p;
    return "";
}

/* Ours equals lld's but for the order of .comment's strings. */
static bool same_as_lld(const unsigned char *mine, size_t n, const unsigned char *ref, size_t m)
{
    Elf64_Shdr c1, c2;
    if (n != m || !section(mine, n, ".comment", &c1) || !section(ref, m, ".comment", &c2) ||
        c1.sh_offset != c2.sh_offset || c1.sh_size != c2.sh_size)
        return false;
    if (memcmp(mine, ref, c1.sh_offset) != 0)
        return false;
    size_t tail = c1.sh_offset + c1.sh_size;
    return memcmp(mine + tail, ref + tail, n - tail) == 0 && strings_within(mine, &c1, ref, &c2) &&
           strings_within(ref, &c2, mine, &c1);
}

/* One file for every processor: how many links were compared. */
static int compare_file(const char *path)
{
    int compared = 0;
    for (int a = 0; a < NARCH; a++) {
        size_t olen, rlen, mlen = 0;
        unsigned char *obj = object_of(path, archs[a], false, &olen);
        unsigned char *ref = obj ? lld_link(&rlen) : NULL;
        unsigned char *mine = ref ? cg_elf_link(obj, olen, linker_id(ref, rlen), &mlen) : NULL;
        CU_ASSERT_PTR_NOT_NULL(ref);
        if (mine) {
            compared++;
            if (!same_as_lld(mine, mlen, ref, rlen)) {
                fprintf(stderr, "\n  %s for %s: differs from lld's link", path, archs[a]);
                CU_FAIL("code object differs from lld's");
            }
        }
        free(obj);
        free(ref);
        free(mine);
    }
    return compared;
}

/* The kernel files of a directory (a file defining no kernel, such as
 * examples/common.fx, is declined, which compare_file allows). */
static int compare_directory(const char *dir)
{
    char path[512];
    DIR *d = opendir(dir);
    int compared = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 3 && !strcmp(e->d_name + n - 3, ".fx")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            compared += compare_file(path);
        }
    }
    closedir(d);
    return compared;
}

static void test_examples_as_lld(void)
{
    /* 9 kernel files of examples/ on 8 processors */
    CU_ASSERT_EQUAL(compare_directory(SOURCE_ROOT "/examples"), 9 * NARCH);
}

static void test_bench_kernels_as_lld(void)
{
    /* those of the compile bench that are not examples: 7 files */
    CU_ASSERT_EQUAL(compare_directory(SOURCE_ROOT "/bench/compile/kernels"), 7 * NARCH);
}

static void test_declines_debug_info(void)
{
    size_t len, out = 0;
    unsigned char *obj = object_of(SOURCE_ROOT "/examples/saxpy.fx", "gfx942", true, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(obj);
    CU_ASSERT_PTR_NULL(cg_elf_link(obj, len, "Linker: test", &out));   /* .debug_*: lld's */
    free(obj);
}

static void test_declines_module_without_kernels(void)
{
    size_t len, out = 0;
    unsigned char *obj = object_of(SOURCE_ROOT "/examples/common.fx", "gfx942", false, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(obj);
    CU_ASSERT_PTR_NULL(cg_elf_link(obj, len, "Linker: test", &out));
    free(obj);
}

/* Every truncation, and every single byte of the headers and tables set
 * to 0xff and to 0: declined or linked, read within the object's bounds
 * (the sanitizer build checks that). */
static void test_damaged_objects(void)
{
    size_t len, out;
    unsigned char *obj = object_of(SOURCE_ROOT "/examples/saxpy.fx", "gfx942", false, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(obj);
    for (size_t cut = 0; cut < len; cut++) {
        unsigned char *part = malloc(cut ? cut : 1);
        memcpy(part, obj, cut);
        free(cg_elf_link(part, cut, "Linker: test", &out));
        free(part);
    }
    Elf64_Ehdr eh;
    memcpy(&eh, obj, sizeof eh);
    unsigned char *bad = malloc(len);
    for (size_t i = 0; i < len; i++) {
        bool table = i < sizeof eh || i >= eh.e_shoff;
        Elf64_Shdr s;
        if (!table && section(obj, len, ".symtab", &s))
            table = i >= s.sh_offset && i < s.sh_offset + s.sh_size;
        if (!table && section(obj, len, ".rela.rodata", &s))
            table = i >= s.sh_offset && i < s.sh_offset + s.sh_size;
        for (int v = 0; table && v < 2; v++) {
            memcpy(bad, obj, len);
            bad[i] = v ? 0xff : 0;
            free(cg_elf_link(bad, len, "Linker: test", &out));
        }
    }
    free(bad);
    free(obj);
    CU_PASS("no crash");
}

/* obj with its .text `more` bytes longer (s_nop, 4 bytes each), the
 * sections after it moved by a multiple of 256, the largest alignment an
 * object of fxcc's has; NULL if obj has no .text. */
static unsigned char *grow_text(const unsigned char *obj, size_t len, size_t more, size_t *out_len)
{
    Elf64_Ehdr eh;
    Elf64_Shdr text;
    if (!section(obj, len, ".text", &text))
        return NULL;
    size_t end = text.sh_offset + text.sh_size, shift = (more + 255) & ~(size_t)255;
    unsigned char *g = calloc(len + shift, 1);
    memcpy(g, obj, end);
    for (size_t k = 0; k + 4 <= more; k += 4)
        memcpy(g + end + k, "\x00\x00\x80\xbf", 4);   /* s_nop 0 */
    memcpy(g + end + shift, obj + end, len - end);
    memcpy(&eh, g, sizeof eh);
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        unsigned char *at = g + eh.e_shoff + shift + (size_t)i * sizeof sh;
        memcpy(&sh, at, sizeof sh);
        if (sh.sh_offset == text.sh_offset && sh.sh_size == text.sh_size && sh.sh_type == text.sh_type)
            sh.sh_size += more;
        else if (sh.sh_offset >= end)
            sh.sh_offset += shift;
        memcpy(at, &sh, sizeof sh);
    }
    eh.e_shoff += shift;
    memcpy(g, &eh, sizeof eh);
    *out_len = len + shift;
    return g;
}

/* Code of every length modulo a page (4-byte steps) puts .dynamic at every
 * place within its page, including where it ends the page and lld's
 * .relro_padding is empty: linked as lld links it each time. */
static void test_every_end_of_dynamic(void)
{
    size_t len, glen, rlen, mlen;
    unsigned char *obj = object_of(SOURCE_ROOT "/examples/saxpy.fx", "gfx942", false, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(obj);
    int differ = 0, compared = 0, empty_padding = 0;
    for (size_t more = 0; more < 4096; more += 4) {
        unsigned char *g = grow_text(obj, len, more, &glen);
        FILE *f = g ? fopen(obj_path, "wb") : NULL;
        bool written = f && fwrite(g, 1, glen, f) == glen;
        if (f)
            fclose(f);
        unsigned char *ref = written ? lld_link(&rlen) : NULL;
        unsigned char *mine = ref ? cg_elf_link(g, glen, linker_id(ref, rlen), &mlen) : NULL;
        Elf64_Shdr pad;
        if (ref && section(ref, rlen, ".relro_padding", &pad) && pad.sh_size == 0)
            empty_padding++;
        compared += mine != NULL;
        differ += mine && !same_as_lld(mine, mlen, ref, rlen);
        free(g);
        free(ref);
        free(mine);
    }
    CU_ASSERT_EQUAL(compared, 1024);
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT_EQUAL(empty_padding, 2);   /* .dynamic is 8-aligned: two lengths of 4-byte steps end it there */
    free(obj);
}

/* fxcc's .hsaco comes from this writer: its .comment says so. */
static void test_fxcc_uses_it(void)
{
    Compiled k;
    CgModule *cg = compile(&k, SOURCE_ROOT "/examples/saxpy.fx", NULL, false);
    CU_ASSERT_FATAL(k.inited);   /* the options were accepted */
    size_t len = 0;
    char *so = cg ? cg_hsaco(cg, &len) : NULL;
    Elf64_Shdr s;
    CU_ASSERT_FATAL(so && section((unsigned char *)so, len, ".comment", &s));
    CU_ASSERT(strncmp(so + s.sh_offset, "Linker: fxcc ", 13) == 0);
    free(so);
    compiled_free(&k, cg);
}

static int set_up(void)
{
    snprintf(obj_path, sizeof obj_path, "/tmp/fxcc-elflink-%d.o", (int)getpid());
    snprintf(out_path, sizeof out_path, "/tmp/fxcc-elflink-%d.hsaco", (int)getpid());
    return 0;
}

static int tear_down(void)
{
    unlink(obj_path);
    unlink(out_path);
    return 0;
}

static const FxtTest tests[] = {
    { "examples linked as lld links them", test_examples_as_lld },
    { "bench kernels linked as lld links them", test_bench_kernels_as_lld },
    { "debug info left to lld", test_declines_debug_info },
    { "a module without kernels left to lld", test_declines_module_without_kernels },
    { "damaged objects", test_damaged_objects },
    { ".dynamic ending anywhere in its page", test_every_end_of_dynamic },
    { "fxcc's code objects come from it", test_fxcc_uses_it },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "elflink", tests, set_up, tear_down }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
