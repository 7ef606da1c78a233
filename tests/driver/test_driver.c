/* test_driver.c - end-to-end tests of the pipeline and the two programs:
 * golden diagnostics (diag/NAME.fx beside NAME.expected), fxrun golden runs
 * (run/NAME.fx, NAME.cmd, NAME.expected) and fxcc's command-line contract.
 * usage: test_driver FXCC FXRUN   (paths of the built programs) */
#include "fxtest.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "driver/pipeline.h"
#include "runtime/fxrt_program.h"
#include "abi/fxbundle.h"

#ifndef TEST_DIR
#define TEST_DIR "."
#endif

static const char *fxcc_path, *fxrun_path;
static char tmpdir[256];

/* Runs a shell command; returns its exit status and its stdout/stderr. */
static int run(const char *cmd, char **out, char **err)
{
    char full[8192], ofile[512], efile[512];
    snprintf(ofile, sizeof ofile, "%s/out.txt", tmpdir);
    snprintf(efile, sizeof efile, "%s/err.txt", tmpdir);
    snprintf(full, sizeof full, "(%s) >%s 2>%s", cmd, ofile, efile);   /* the whole chain: cd X && ... */
    int st = system(full);
    if (out)
        *out = fxt_read_file(ofile);
    if (err)
        *err = fxt_read_file(efile);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* Runs cmd and checks its exit status and, unless want is NULL, its whole
 * standard output. */
static void expect_run(const char *cmd, int rc, const char *want)
{
    char *out = NULL;
    CU_ASSERT_EQUAL(run(cmd, &out, NULL), rc);
    if (want) {
        CU_ASSERT(out && strcmp(out, want) == 0);
        if (!out || strcmp(out, want) != 0)
            fprintf(stderr, "\n  %s\n  printed: %s", cmd, out ? out : "(nothing)");
    }
    free(out);
}

/* ---- golden diagnostics, in process ---- */

static char *compile_for_diagnostics(const char *file)
{
    char *text;
    size_t len;
    FILE *m = open_memstream(&text, &len);
    FxOptions o;
    opt_defaults(&o);
    o.input = file;
    o.verify_each = true;
    opt_finish(&o);
    FxCompilation c;
    pipe_init(&c, &o);
    diag_set_stream(m);
    /* through code generation for gfx942: some limits are the target's */
    if (pipe_parse(&c) && pipe_lower(&c))
        cg_free(pipe_codegen(&c));
    diag_set_stream(NULL);
    pipe_free(&c);
    fclose(m);
    return text;
}

static void test_diagnostics(void)
{
    char cwd[1024];
    CU_ASSERT_FATAL(getcwd(cwd, sizeof cwd) != NULL);
    CU_ASSERT_FATAL(chdir(TEST_DIR "/diag") == 0);
    DIR *d = opendir(".");
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".fx") != 0)
            continue;
        char golden[512];
        snprintf(golden, sizeof golden, "%.*s.expected", (int)(len - 3), e->d_name);
        char *got = compile_for_diagnostics(e->d_name);
        CU_ASSERT(strstr(got, "error:") != NULL);
        CU_ASSERT(fxt_golden(golden, got));
        free(got);
        n++;
    }
    closedir(d);
    CU_ASSERT(chdir(cwd) == 0);
    CU_ASSERT(n >= 20);
}

/* ---- fxrun golden runs ---- */

static void test_fxrun_golden(void)
{
    DIR *d = opendir(TEST_DIR "/run");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".cmd") != 0)
            continue;
        char base[512], cmd[4096], golden[600];
        snprintf(base, sizeof base, "%s/run/%.*s", TEST_DIR, (int)(len - 4), e->d_name);
        snprintf(golden, sizeof golden, "%s.expected", base);
        char cmdfile[600];
        snprintf(cmdfile, sizeof cmdfile, "%s.cmd", base);
        char *args = fxt_read_file(cmdfile);
        CU_ASSERT_PTR_NOT_NULL_FATAL(args);
        args[strcspn(args, "\n")] = 0;
        snprintf(cmd, sizeof cmd, "cd %s/run && %s %.*s.fx --verify-each %s", TEST_DIR, fxrun_path, (int)(len - 4), e->d_name, args);
        char *out = NULL, *err = NULL;
        int rc = run(cmd, &out, &err);
        char *got = malloc(strlen(out ? out : "") + strlen(err ? err : "") + 64);
        sprintf(got, "%s%sexit %d\n", out ? out : "", err ? err : "", rc);
        CU_ASSERT(fxt_golden(golden, got));
        free(got);
        free(out);
        free(err);
        free(args);
        n++;
    }
    closedir(d);
    CU_ASSERT(n >= 1);
}

/* ---- golden warnings: warn/NAME.fx compiled with the flags of NAME.flags;
 * NAME.expected holds the diagnostics and the exit status ---- */

static void test_warning_golden(void)
{
    DIR *d = opendir(TEST_DIR "/warn");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".flags") != 0)
            continue;
        char base[512], cmd[4096], golden[600], flagfile[600];
        snprintf(base, sizeof base, "%s/warn/%.*s", TEST_DIR, (int)(len - 6), e->d_name);
        snprintf(golden, sizeof golden, "%s.expected", base);
        snprintf(flagfile, sizeof flagfile, "%s.flags", base);
        char *flags = fxt_read_file(flagfile);
        CU_ASSERT_PTR_NOT_NULL_FATAL(flags);
        flags[strcspn(flags, "\n")] = 0;
        snprintf(cmd, sizeof cmd, "cd %s/warn && %s %.*s.fx --verify-each -o /dev/null %s", TEST_DIR, fxcc_path,
                 (int)(len - 6), e->d_name, flags);
        char *err = NULL;
        int rc = run(cmd, NULL, &err);
        char *got = malloc(strlen(err ? err : "") + 64);
        sprintf(got, "%sexit %d\n", err ? err : "", rc);
        CU_ASSERT(fxt_golden(golden, got));
        free(got);
        free(err);
        free(flags);
        n++;
    }
    closedir(d);
    CU_ASSERT(n >= 8);
}

/* ---- fxcc's command line ---- */

static const char *saxpy(void) { return TEST_DIR "/../../examples/saxpy.fx"; }

static bool file_contains(const char *path, const char *needle, size_t nlen)
{
    size_t n;
    char *buf = fxt_read_bytes(path, &n);
    bool ok = buf != NULL;
    bool found = false;
    for (size_t i = 0; ok && i + nlen <= n && !found; i++)
        found = memcmp(buf + i, needle, nlen) == 0;
    free(buf);
    return found;
}

static void test_hsaco_per_arch(void)
{
    static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };
    for (int i = 0; i < 4; i++) {
        char cmd[2048], out[512];
        snprintf(out, sizeof out, "%s/saxpy-%s.hsaco", tmpdir, archs[i]);
        snprintf(cmd, sizeof cmd, "%s %s --offload-arch=%s -o %s", fxcc_path, saxpy(), archs[i], out);
        CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
        CU_ASSERT(file_contains(out, "saxpy.kd", 8));
        CU_ASSERT(file_contains(out, archs[i], strlen(archs[i])));
    }
}

/* Language features whose goldens run on the host also compile, LLVM-
 * verified (codegen verifies every module), for every GPU generation. */
static void test_features_per_arch(void)
{
    static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };
    static const char *const files[] = { "run/conditional.fx", "run/conditional_static.fx",
                                         "warn/divergent_barrier.fx", "run/ptr_view.fx",
                                         "run/conditional_ptr.fx", "run/block_helpers.fx", "run/dyn_shared.fx" };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
        for (int i = 0; i < 4; i++) {
            char cmd[2048], *err = NULL;
            snprintf(cmd, sizeof cmd, "%s %s/%s --verify-each --offload-arch=%s -o %s/feature.hsaco", fxcc_path,
                     TEST_DIR, files[f], archs[i], tmpdir);
            int rc = run(cmd, NULL, &err);
            if (rc != 0)
                fprintf(stderr, "\n  %s for %s: %s", files[f], archs[i], err ? err : "");
            CU_ASSERT_EQUAL(rc, 0);
            free(err);
        }
}

/* b.cast(Ptr[Int8x16])[t] is one 128-bit load on every generation. */
static void test_ptr_view_isa(void)
{
    static const char *const archs[] = { "gfx90a", "gfx942", "gfx1100", "gfx1201" };
    static const char *const load128[] = { "global_load_dwordx4", "global_load_dwordx4", "global_load_b128",
                                           "global_load_b128" };
    for (int i = 0; i < 4; i++) {
        char cmd[2048], *out = NULL;
        snprintf(cmd, sizeof cmd, "%s %s/run/ptr_view.fx --offload-arch=%s -S -o -", fxcc_path, TEST_DIR, archs[i]);
        CU_ASSERT_EQUAL(run(cmd, &out, NULL), 0);
        CU_ASSERT(out && strstr(out, load128[i]));
        free(out);
    }
}

static void test_output_kinds(void)
{
    char cmd[2048], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s %s -S -o -", fxcc_path, saxpy());
    CU_ASSERT_EQUAL(run(cmd, &out, NULL), 0);
    CU_ASSERT(out && strstr(out, "global_load_dword") && strstr(out, ".amdhsa_kernel saxpy"));
    free(out);
    snprintf(cmd, sizeof cmd, "%s %s -S --emit-llvm -o -", fxcc_path, saxpy());
    CU_ASSERT_EQUAL(run(cmd, &out, NULL), 0);
    CU_ASSERT(out && strstr(out, "amdgpu_kernel void @saxpy") && strstr(out, "amdhsa_code_object_version"));
    free(out);
    const char *kinds[][2] = { { "-c", "saxpy.o" }, { "--emit-llvm", "saxpy.bc" }, { "-S", "saxpy.s" },
                               { "", "saxpy.hsaco" }, { "-S --emit-llvm", "saxpy.ll" } };
    char abs_saxpy[1024];
    CU_ASSERT_FATAL(realpath(saxpy(), abs_saxpy) != NULL);
    for (int i = 0; i < 5; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s %s %s", tmpdir, fxcc_path, abs_saxpy, kinds[i][0]);
        CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", tmpdir, kinds[i][1]);
        struct stat st;
        CU_ASSERT(stat(path, &st) == 0 && st.st_size > 0);
    }
}

static void test_exit_statuses(void)
{
    char cmd[2048], *out = NULL, *err = NULL;
    snprintf(cmd, sizeof cmd, "%s --version", fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, &out, NULL), 0);
    CU_ASSERT(out && strncmp(out, "fxcc ", 5) == 0);
    free(out);
    snprintf(cmd, sizeof cmd, "%s --help", fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "%s --no-such-option x.fx", fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, &err), 2);
    CU_ASSERT(err && strstr(err, "unknown option"));
    free(err);
    snprintf(cmd, sizeof cmd, "%s", fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
    snprintf(cmd, sizeof cmd, "%s %s --offload-arch=gfx9999", fxcc_path, saxpy());
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
    snprintf(cmd, sizeof cmd, "%s %s/no-such-file.fx", fxcc_path, tmpdir);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 1);
    snprintf(cmd, sizeof cmd, "%s --eval 'Int32(7) // Int32(0)'", fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 1);
    snprintf(cmd, sizeof cmd, "%s %s --check", fxcc_path, saxpy());   /* AMDGPU code is not instrumented */
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
    snprintf(cmd, sizeof cmd, "%s %s --target=host --check=races,bogus -c -o /dev/null", fxcc_path, saxpy());
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
    snprintf(cmd, sizeof cmd, "%s --version", fxrun_path);
    CU_ASSERT_EQUAL(run(cmd, &out, NULL), 0);
    CU_ASSERT(out && strncmp(out, "fxrun ", 6) == 0);
    free(out);
    snprintf(cmd, sizeof cmd, "%s --help", fxrun_path);   /* on stdout, with the buffer syntax */
    CU_ASSERT_EQUAL(run(cmd, &out, NULL), 0);
    CU_ASSERT(out && strstr(out, "zeros(Float32, 1024)") && strstr(out, "--timeout"));
    free(out);
    snprintf(cmd, sizeof cmd, "%s", fxrun_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
    snprintf(cmd, sizeof cmd, "%s --eval 'Int32(3) + Int32(4)'", fxcc_path);
    expect_run(cmd, 0, "Int32(7)\n");
    /* --contraction-guard=adapt adapts the Ozaki schemes' counts; other schemes have none */
    static const char *const no_counts[] = { "native", "int8", "bf16x9" };
    for (int k = 0; k < 3; k++) {
        snprintf(cmd, sizeof cmd, "%s %s --contraction-guard=adapt --contraction-precision=%s -c -o /dev/null",
                 fxcc_path, saxpy(), no_counts[k]);
        CU_ASSERT_EQUAL(run(cmd, NULL, &err), 2);
        CU_ASSERT(err && strstr(err, "--contraction-guard=adapt chooses Ozaki-II's moduli or Ozaki-I's slices at "
                                     "run time; it needs --contraction-precision=ozaki, ozaki1[:s], ozaki2[:L] or auto"));
        free(err);
    }
    snprintf(cmd, sizeof cmd, "%s %s --contraction-guard=adapt --contraction-precision=auto -c -o /dev/null", fxcc_path,
             saxpy());
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
}

/* fxcc --version and fxrun --version print the project's version
 * (meson.build, -DFX_PROJECT_VERSION), which is libfxrt's: the header's
 * FXRT_VERSION_STRING. */
static void test_versions(void)
{
    CU_ASSERT_STRING_EQUAL(FXRT_VERSION_STRING, FX_PROJECT_VERSION);
    const char *tools[2][2] = { { "fxcc", fxcc_path }, { "fxrun", fxrun_path } };
    for (int i = 0; i < 2; i++) {
        char cmd[2048], want[64], *out = NULL;
        snprintf(cmd, sizeof cmd, "%s --version", tools[i][1]);
        snprintf(want, sizeof want, "%s %s ", tools[i][0], FX_PROJECT_VERSION);
        CU_ASSERT_EQUAL(run(cmd, &out, NULL), 0);
        CU_ASSERT(out && strncmp(out, want, strlen(want)) == 0);
        if (!out || strncmp(out, want, strlen(want)) != 0)
            fprintf(stderr, "\n  %s printed: %s (want \"%s...\")\n", cmd, out ? out : "(nothing)", want);
        free(out);
    }
}

/* A failed compile leaves no output file behind (and does not clobber an old one). */
static void test_no_partial_output(void)
{
    char bad[512], out[512], cmd[2048];
    snprintf(bad, sizeof bad, "%s/bad.fx", tmpdir);
    snprintf(out, sizeof out, "%s/bad.hsaco", tmpdir);
    fxt_write_file(bad, "kernel k(p: Ptr[Float32]) {\n    p[0] = undefined\n}\n");
    remove(out);
    snprintf(cmd, sizeof cmd, "%s %s -o %s", fxcc_path, bad, out);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 1);
    struct stat st;
    CU_ASSERT(stat(out, &st) != 0);
    DIR *d = opendir(tmpdir);
    for (struct dirent *e; d && (e = readdir(d));)
        CU_ASSERT(strstr(e->d_name, ".tmp") == NULL);
    if (d)
        closedir(d);
}

/* -o onto the input is refused; a symbolic link keeps pointing at the file
 * it names, which gets the output; a FIFO is written in place; a depfile in
 * a missing folder leaves neither file; a full standard output fails. */
static void test_output_safety(void)
{
    char src[512], cmd[4096], path[512], *err = NULL;
    snprintf(src, sizeof src, "%s/safe.fx", tmpdir);
    fxt_write_file(src, "kernel k(p: Ptr[Float32]) {\n    p[0] = 1.0\n}\n");
    snprintf(cmd, sizeof cmd, "%s %s -o %s", fxcc_path, src, src);
    CU_ASSERT_EQUAL(run(cmd, NULL, &err), 2);
    CU_ASSERT(err && strstr(err, "is the input file"));
    free(err);
    char *text = fxt_read_file(src);
    CU_ASSERT(text && strncmp(text, "kernel k", 8) == 0);
    free(text);

    snprintf(cmd, sizeof cmd, "cd %s && rm -f real.o link.o && touch real.o && ln -s real.o link.o && "
                              "%s safe.fx -o link.o && test -L link.o && test -s real.o", tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "cd %s && rm -f fifo && mkfifo fifo && (cat fifo > fifo.out &) && "
                              "%s safe.fx -S -o fifo && sleep 0.3 && test -p fifo && grep -q amdhsa fifo.out",
             tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);

    snprintf(cmd, sizeof cmd, "cd %s && rm -f nodep.o && %s safe.fx -c -o nodep.o -MD -MF missing/x.d",
             tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 1);
    snprintf(path, sizeof path, "%s/nodep.o", tmpdir);
    struct stat st;
    CU_ASSERT(stat(path, &st) != 0);
    if (access("/dev/full", W_OK) == 0) {
        snprintf(cmd, sizeof cmd, "(%s --eval 1+1 > /dev/full)", fxcc_path);
        CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 1);
        snprintf(cmd, sizeof cmd, "(%s %s -S -o - > /dev/full)", fxcc_path, src);
        CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 1);
        snprintf(cmd, sizeof cmd, "(%s %s k --grid 1 --block 1 'p=zeros(Float32, 1)' --print p > /dev/full)", fxrun_path, src);
        CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 1);
    }
}

/* A buffer larger than memory is a located error, not a null pointer. */
static void test_fxrun_allocation(void)
{
    char src[512], cmd[4096], *err = NULL;
    snprintf(src, sizeof src, "%s/alloc.fx", tmpdir);
    fxt_write_file(src, "kernel k(p: Ptr[Float32]) {\n    p[0] = 1.0\n}\n");
    const char *sizes[] = { "2**39, 2**39", "2**38" };   /* the count overflows; calloc fails */
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=0 %s %s k --grid 1 --block 1 'p=zeros(Float32, %s)'",
                 fxrun_path, src, sizes[i]);
        CU_ASSERT_EQUAL(run(cmd, NULL, &err), 1);
        CU_ASSERT(err && strstr(err, "error:") && strstr(err, "cannot allocate"));
        free(err);
    }
}

static void test_defines_and_depfile(void)
{
    char src[512], inc[512], cmd[2048];
    snprintf(inc, sizeof inc, "%s/common.fx", tmpdir);
    snprintf(src, sizeof src, "%s/main.fx", tmpdir);
    fxt_write_file(inc, "const SCALE = 2\n");
    fxt_write_file(src, "import \"common.fx\"\nconst N = 10\nconst T = Float32\n"
                    "kernel k(p: Ptr[T]) {\n    p[0] = T(N * SCALE)\n}\n");
    snprintf(cmd, sizeof cmd, "%s %s -D N=21 -D T=Float64 --eval 'T(N * SCALE)'", fxcc_path, src);
    expect_run(cmd, 0, "Float64(42.0)\n");
    snprintf(cmd, sizeof cmd, "%s %s -D NOPE=1 --eval 'N'", fxcc_path, src);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 1);
    snprintf(cmd, sizeof cmd, "cd %s && %s main.fx -c -o main.o -MD", tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
    char dep[512];
    snprintf(dep, sizeof dep, "%s/main.d", tmpdir);
    char *d = fxt_read_file(dep);
    CU_ASSERT(d && strncmp(d, "main.o: main.fx", 15) == 0 && strstr(d, "common.fx"));
    free(d);
}

static char *read_bytes(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    fclose(f);
    return b;
}

/* --offload-arch=gfx90a --offload-arch=gfx942,gfx1100 writes one clang
 * offload bundle holding exactly the code objects a single-processor compile
 * writes (and clang-offload-bundler reads it, when installed); a program's
 * plan is found in the entry of a processor. */
static void test_offload_bundle(void)
{
    char src[512], cmd[4096], path[512];
    snprintf(src, sizeof src, "%s/fat.fx", tmpdir);
    fxt_write_file(src, "kernel k(p: Ptr[Float32]) {\n    p[thread_idx.x] = 1.0\n}\n"
                        "program twice(X: Tensor[Float32, 64], Y: Tensor[Float32, 64]) {\n    Y = X * 2.0\n}\n");
    snprintf(cmd, sizeof cmd, "cd %s && %s fat.fx --offload-arch=gfx90a --offload-arch=gfx942,gfx1100 -o fat.co -MD",
             tmpdir, fxcc_path);
    CU_ASSERT_EQUAL_FATAL(run(cmd, NULL, NULL), 0);
    size_t blen, olen, elen;
    snprintf(path, sizeof path, "%s/fat.co", tmpdir);
    char *bundle = read_bytes(path, &blen);
    CU_ASSERT_PTR_NOT_NULL_FATAL(bundle);
    const char *archs[] = { "gfx90a", "gfx942", "gfx1100" };
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s fat.fx --offload-arch=%s -o one.hsaco", tmpdir, fxcc_path, archs[i]);
        CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
        snprintf(path, sizeof path, "%s/one.hsaco", tmpdir);
        char *one = read_bytes(path, &olen), *err = NULL;
        const void *entry = rt_code_object(bundle, blen, archs[i], &elen, &err);
        CU_ASSERT(one && entry && elen == olen && memcmp(entry, one, olen) == 0);
        CU_ASSERT((uintptr_t)((const char *)entry - bundle) % 4096 == 0);
        char *plan = entry ? rt_artifact_plan(entry, elen, "twice", &err) : NULL;
        CU_ASSERT(plan && strstr(plan, "plan twice"));
        free(plan);
        free(err);
        free(one);
    }
    char *err = NULL;
    CU_ASSERT_PTR_NULL(rt_code_object(bundle, blen, "gfx1201", &elen, &err));
    CU_ASSERT(err && strstr(err, "no code object for gfx1201"));
    free(err);
    free(bundle);
    snprintf(path, sizeof path, "%s/fat.d", tmpdir);
    char *dep = fxt_read_file(path);
    CU_ASSERT(dep && strncmp(dep, "fat.co: fat.fx", 14) == 0);
    free(dep);
    if (system("command -v clang-offload-bundler-19 > /dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "clang-offload-bundler-19 --list --type=o --input=%s/fat.co | sort", tmpdir);
        expect_run(cmd, 0, "hipv4-amdgcn-amd-amdhsa--gfx1100\nhipv4-amdgcn-amd-amdhsa--gfx90a\n"
                                     "hipv4-amdgcn-amd-amdhsa--gfx942\nhost-x86_64-unknown-linux-gnu-\n");
    }
    snprintf(cmd, sizeof cmd, "cd %s && %s fat.fx --offload-arch=gfx90a,gfx90a", tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
    snprintf(cmd, sizeof cmd, "cd %s && %s fat.fx --offload-arch=gfx90a,gfx942 -S", tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
}

/* Target ids as clang spells them: the settings reach the code object's
 * flags (xnack 0x300: any 0x100, off 0x200, on 0x300; sramecc 0xc00: any
 * 0x400, off 0x800, on 0xc00) and name the bundle's entries canonically. */
static void test_target_ids(void)
{
    static const struct { const char *id; unsigned flags; } cases[] = {
        { "gfx942", 0x500 }, { "gfx942:xnack+", 0x700 }, { "gfx942:xnack-", 0x600 },
        { "gfx90a:xnack-:sramecc+", 0xe00 }, { "gfx90a:sramecc-", 0x900 }, { "gfx1100", 0x000 },
    };
    char cmd[4096], path[512];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s fat.fx --offload-arch=%s -o tid.hsaco", tmpdir, fxcc_path, cases[k].id);
        CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
        snprintf(path, sizeof path, "%s/tid.hsaco", tmpdir);
        size_t len;
        unsigned char *b = (unsigned char *)read_bytes(path, &len);
        unsigned flags = b && len > 52 ? (unsigned)b[48] | (unsigned)b[49] << 8 : ~0u;
        if ((flags & 0xf00) != cases[k].flags)
            fprintf(stderr, "\n  %s: e_flags 0x%x", cases[k].id, flags);
        CU_ASSERT_EQUAL(flags & 0xf00, cases[k].flags);
        free(b);
    }
    snprintf(cmd, sizeof cmd, "cd %s && %s fat.fx --offload-arch=gfx90a:xnack+:sramecc-,gfx90a:xnack-:sramecc- -o tid.co",
             tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
    snprintf(path, sizeof path, "%s/tid.co", tmpdir);
    size_t blen, elen;
    char *bundle = read_bytes(path, &blen), *err = NULL;
    /* each entry's flags name its processor (EF_AMDGPU_MACH 0x3f: gfx90a) and its target id */
    static const struct { const char *id; unsigned flags; } entries[] = {
        { FXBUNDLE_HIP_PREFIX "gfx90a:sramecc-:xnack+", 0xb3f }, { FXBUNDLE_HIP_PREFIX "gfx90a:sramecc-:xnack-", 0xa3f },
    };
    for (int k = 0; k < 2; k++) {
        const unsigned char *e = bundle ? fxbundle_find(bundle, blen, entries[k].id, &elen) : NULL;
        CU_ASSERT(e && elen > 52 && ((unsigned)e[48] | (unsigned)e[49] << 8) == entries[k].flags);
    }
    free(bundle);
    free(err);
    static const char *const bad[] = { "gfx1100:xnack+", "gfx942:xnack", "gfx90a,gfx90a:xnack+", "gfx942:xnack+,gfx942:xnack+" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        snprintf(cmd, sizeof cmd, "cd %s && %s fat.fx --offload-arch=%s", tmpdir, fxcc_path, bad[k]);
        CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
    }
}

/* -g: DWARF line tables in AMDGPU code objects and host objects (.loc
 * directives with .fx lines in the assembly), verifying at -O0 and -O3, and
 * a host run with them. */
static void test_debug_info(void)
{
    char cmd[4096], *out = NULL;
    snprintf(cmd, sizeof cmd, "%s -g %s -S -o - --verify-each", fxcc_path, saxpy());
    CU_ASSERT_EQUAL(run(cmd, &out, NULL), 0);
    CU_ASSERT(out && strstr(out, ".file\t0 \"") && strstr(out, "\"saxpy.fx\"") && strstr(out, ".loc\t0 11 "));
    free(out);
    if (system("command -v llvm-readelf-19 > /dev/null 2>&1") == 0) {
        snprintf(cmd, sizeof cmd, "cd %s && %s -g -O0 %s -o g.hsaco && llvm-readelf-19 -S g.hsaco | grep -c ' [.]debug_line '"
                 " && %s -g %s --target=host -c -o g.o && llvm-readelf-19 -S g.o | grep -c ' [.]debug_line '",
                 tmpdir, fxcc_path, saxpy(), fxcc_path, saxpy());
        expect_run(cmd, 0, "1\n1\n");
    }
    snprintf(cmd, sizeof cmd, "%s -g %s saxpy --grid 1 --block 4 'x=iota(Float32, 4)' 'y=zeros(Float32, 4)' a=2 n=4 "
             "--print y", fxrun_path, saxpy());
    expect_run(cmd, 0, "y = [0.0, 2.0, 4.0, 6.0]\n");
}

/* --diagnostics-format=json: one object per line per error, its notes
 * nested in it; a driver error has no file, line or column. */
/* --print-interface: the user's kernels and programs (not the kernels a
 * program was lowered to) with each parameter's type and storage, and the
 * type tower; it takes one processor, like --print-plan. */
static void test_print_interface(void)
{
    char cmd[4096], *out = NULL, path[512];
    snprintf(path, sizeof path, "%s/iface.fx", tmpdir);
    fxt_write_file(path, "kernel k(x: const Ptr[Int4], v: Float32x4, b: Boolean) {\n"
                         "    shared s: Array[BFloat16, DYN]\n    s[0] = BFloat16(1.0)\n}\n"
                         "program p(A: Tensor[Float64, M, 8, col_major], C: Tensor[Float64, M, 8], M: Int32) {\n"
                         "    C = A * 2.0\n}\n");
    snprintf(cmd, sizeof cmd, "cd %s && %s iface.fx --print-interface", tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, &out, NULL), 0);
    const char *want[] = {
        "{\"fxcc\": \"" FX_PROJECT_VERSION "\",\n \"scalars\": [\n   {\"scalar\": \"Boolean\", \"class\": \"bool\", "
        "\"width\": 1, \"signed\": true, \"lanes\": 1, \"bytes\": 1},\n",
        "   {\"scalar\": \"Uint128\", \"class\": \"int\", \"width\": 128, \"signed\": false, \"lanes\": 1, \"bytes\": 16},\n",
        "   {\"scalar\": \"Float8E4M3FN\", \"class\": \"narrow\", \"width\": 8,",
        " \"kernels\": [\n   {\"name\": \"k\", \"launch_bounds\": 1024, \"dynamic_shared\": {\"name\": \"s\", "
        "\"scalar\": \"BFloat16\", \"class\": \"float\", \"width\": 16, \"signed\": true, \"lanes\": 1, \"bytes\": 2},\n",
        "      {\"name\": \"x\", \"type\": \"const Ptr[Int4]\", \"kind\": \"ptr\", \"scalar\": \"Int4\", \"class\": \"int\", "
        "\"width\": 4, \"signed\": true, \"lanes\": 1, \"bytes\": 1, \"const\": true},\n",
        "      {\"name\": \"v\", \"type\": \"Float32x4\", \"kind\": \"vector\", \"scalar\": \"Float32\", \"class\": \"float\", "
        "\"width\": 32, \"signed\": true, \"lanes\": 4, \"bytes\": 16},\n",
        "\n ],\n \"programs\": [\n   {\"name\": \"p\",\n",
        "      {\"name\": \"A\", \"type\": \"Tensor[Float64, M, 8, col_major]\", \"kind\": \"tensor\", \"scalar\": \"Float64\", "
        "\"class\": \"float\", \"width\": 64, \"signed\": true, \"lanes\": 1, \"bytes\": 8, \"dims\": [\"M\", 8], "
        "\"col_major\": true},\n",
        "\n    ]}\n ]}\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        CU_ASSERT(out && strstr(out, want[i]));
        if (!out || !strstr(out, want[i]))
            fprintf(stderr, "\n  --print-interface lacks: %s\n  printed: %s", want[i], out ? out : "(nothing)");
    }
    CU_ASSERT(out && !strstr(out, "p__k"));   /* the program's own kernels are the plan's */
    int scalars = 0;
    for (const char *q = out; q && (q = strstr(q, "\n   {\"scalar\": ")); q++)
        scalars++;
    CU_ASSERT_EQUAL(scalars, SC_COUNT);
    free(out);
    snprintf(cmd, sizeof cmd, "cd %s && %s iface.fx --print-interface --offload-arch=gfx942,gfx1100", tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
}

static void test_json_diagnostics(void)
{
    char cmd[4096], *err = NULL, path[512];
    snprintf(path, sizeof path, "%s/js.fx", tmpdir);
    fxt_write_file(path, "kernel k(p: Ptr[Float32]) {\n    var a: Array[Float32, 20000]\n    p[0] = a[1]\n}\n"
                         "kernel j(p: Ptr[Float32]) {\n    p[0] = nope\n}\n");
    snprintf(cmd, sizeof cmd, "cd %s && %s js.fx --diagnostics-format=json -o /dev/null", tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, &err), 1);
    CU_ASSERT(err && strcmp(err, "{\"severity\":\"error\",\"file\":\"js.fx\",\"line\":6,\"column\":12,"
                                 "\"end_line\":6,\"end_column\":15,\"message\":\"undefined name 'nope'\"}\n") == 0);
    free(err);
    fxt_write_file(path, "kernel k(p: Ptr[Float32]) {\n    var a: Array[Float32, 20000]\n    p[0] = a[1]\n}\n");
    CU_ASSERT_EQUAL(run(cmd, NULL, &err), 1);
    CU_ASSERT(err && strstr(err, "\"message\":\"kernel 'k' needs 80000 bytes of private arrays") &&
              strstr(err, ",\"notes\":[{\"severity\":\"note\",\"file\":\"js.fx\",\"line\":2,") &&
              strstr(err, "\"message\":\"'a' takes 80000 bytes\"}]}\n") && !strchr(err, '\n')[1]);
    free(err);
    snprintf(cmd, sizeof cmd, "%s %s/none.fx --diagnostics-format=json", fxcc_path, tmpdir);
    CU_ASSERT_EQUAL(run(cmd, NULL, &err), 1);
    CU_ASSERT(err && strncmp(err, "{\"severity\":\"error\",\"message\":\"cannot read", 42) == 0);
    free(err);
}

/* -M/-MM print the rule instead of compiling, -MMD is -MD, -MP adds a phony
 * rule per import; imports are named as the input is (relative here); -x fx
 * and '-' (standard input, written as stdin.o) as gcc spells them. */
static void test_dependency_options(void)
{
    char cmd[4096], *err = NULL, path[512];
    snprintf(path, sizeof path, "%s/dep", tmpdir);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/dep/lib.fx", tmpdir);
    fxt_write_file(path, "const SCALE = 3\n");
    snprintf(path, sizeof path, "%s/dep/top.fx", tmpdir);
    fxt_write_file(path, "import \"lib.fx\"\nkernel k(p: Ptr[Float32]) {\n    p[0] = Float32(SCALE)\n}\n");
    snprintf(cmd, sizeof cmd, "cd %s && %s dep/top.fx -M -c", tmpdir, fxcc_path);
    expect_run(cmd, 0, "top.o: dep/top.fx \\\n  dep/lib.fx\n");
    snprintf(cmd, sizeof cmd, "cd %s/dep && %s top.fx -MM -MP -MT obj", tmpdir, fxcc_path);
    expect_run(cmd, 0, "obj: top.fx \\\n  lib.fx\n\nlib.fx:\n");
    snprintf(cmd, sizeof cmd, "cd %s/dep && %s top.fx -MMD -c -o t.o && cat t.d && test -s t.o", tmpdir, fxcc_path);
    expect_run(cmd, 0, "t.o: top.fx \\\n  lib.fx\n");
    snprintf(cmd, sizeof cmd, "cd %s/dep && %s -x fx - -c < top.fx && test -s stdin.o", tmpdir, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
    snprintf(cmd, sizeof cmd, "printf 'kernel k(p: Ptr[Int32]) {\\n    p[0] = nope\\n}\\n' | %s - -c -o /dev/null", fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, &err), 1);
    CU_ASSERT(err && strstr(err, "<stdin>:2:12: error: undefined name 'nope'"));
    free(err);
    snprintf(cmd, sizeof cmd, "%s -x c %s/dep/top.fx", fxcc_path, tmpdir);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 2);
    /* File names are quoted as make reads them: a space with a backslash
     * before it, '#' too, '$' written twice. */
    snprintf(path, sizeof path, "%s/dep/a b", tmpdir);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/dep/a b/l#$.fx", tmpdir);
    fxt_write_file(path, "const SCALE = 3\n");
    snprintf(path, sizeof path, "%s/dep/a b/t.fx", tmpdir);
    fxt_write_file(path, "import \"l#$.fx\"\nkernel k(p: Ptr[Float32]) {\n    p[0] = Float32(SCALE)\n}\n");
    snprintf(cmd, sizeof cmd, "cd '%s/dep' && %s 'a b/t.fx' -M -MP -c -o 'o b.o'", tmpdir, fxcc_path);
    expect_run(cmd, 0, "o\\ b.o: a\\ b/t.fx \\\n  a\\ b/l\\#$$.fx\n\na\\ b/l\\#$$.fx:\n");
}

/* --save-temps keeps .fxir, .ll, .s and .o beside the output (per processor
 * in a bundle), and the output is the same as without it. */
static void test_save_temps(void)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd %s/dep && mkdir -p st && %s top.fx --save-temps -o st/k.hsaco && "
             "%s top.fx -o plain.hsaco && cmp plain.hsaco st/k.hsaco && "
             "grep -q '^kernel k' st/k.fxir && grep -q 'define amdgpu_kernel' st/k.ll && "
             "grep -q 'amdhsa' st/k.s && test -s st/k.o && "
             "%s top.fx --save-temps --offload-arch=gfx90a,gfx1100 -o st/fat.co && "
             "test -s st/fat-gfx90a.s && test -s st/fat-gfx1100.o && test -s st/fat-gfx1100.fxir",
             tmpdir, fxcc_path, fxcc_path, fxcc_path);
    CU_ASSERT_EQUAL(run(cmd, NULL, NULL), 0);
}

/* The suite drives the two programs given on its command line. */
static int set_up(void)
{
    if (fxt_nargs < 2) {
        fprintf(stderr, "usage: test_driver FXCC FXRUN\n");
        return 1;
    }
    static char fxcc_abs[1024], fxrun_abs[1024];
    fxcc_path = realpath(fxt_args[0], fxcc_abs) ? fxcc_abs : fxt_args[0];
    fxrun_path = realpath(fxt_args[1], fxrun_abs) ? fxrun_abs : fxt_args[1];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/fxcc-test-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : 1;
}

static int tear_down(void)
{
    char rm[512];
    snprintf(rm, sizeof rm, "rm -rf %s", tmpdir);
    return system(rm) != 0;
}

static const FxtTest tests[] = {
    { "golden diagnostics", test_diagnostics },
    { "fxrun golden runs", test_fxrun_golden },
    { "golden warnings", test_warning_golden },
    { ".hsaco for gfx90a, gfx942, gfx1100, gfx1201", test_hsaco_per_arch },
    { "language features for gfx90a, gfx942, gfx1100, gfx1201", test_features_per_arch },
    { "pointer views: one 128-bit load per Int8x16", test_ptr_view_isa },
    { "output kinds", test_output_kinds },
    { "exit statuses", test_exit_statuses },
    { "--version: the project's version", test_versions },
    { "no partial output", test_no_partial_output },
    { "-D, import and -MD", test_defines_and_depfile },
    { "output safety: input, links, FIFOs, depfiles, full stdout", test_output_safety },
    { "fxrun: buffers larger than memory", test_fxrun_allocation },
    { "several --offload-arch: one offload bundle", test_offload_bundle },
    { "target ids: xnack/sramecc in the code object's flags and the bundle", test_target_ids },
    { "-M, -MM, -MMD, -MP, -x fx, - for standard input", test_dependency_options },
    { "JSON diagnostics: notes nested, driver errors without a place", test_json_diagnostics },
    { "-g: DWARF line tables", test_debug_info },
    { "--save-temps", test_save_temps },
    { "--print-interface: kernels, programs, parameters, the type tower", test_print_interface },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "driver", tests, set_up, tear_down }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
