/* test_processors.c - every processor of the target table compiles every
 * example and the wave kernels at -O0 and -O3 without an internal error:
 * fxcc either writes a code object (exit 0) or refuses with located errors
 * (exit 1, file:line:col: error:), never exit 70 or a signal.
 *
 * tests/driver/processors/waves.fx holds what every processor must compile
 * (the reductions, readlane, ballot, Float16 conversions under every
 * rounding mode, an f16 fma); shuffles.fx the shuffles, which GCN 1 and 2
 * (gfx600-gfx705) refuse with a located error naming the processor, as
 * tgt_has_lane_permute says. Arguments: the fxcc binary. */
#include "fxtest.h"
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "target/target.h"

extern char **environ;

static const char *fxcc_path;
static char out_path[64], err_path[64];

typedef struct Run {
    int status;      /* exit status; 128 + signal when killed */
    char *err;       /* what it printed on stderr */
} Run;

static Run run_fxcc(const char *src, const char *arch, int opt)
{
    char archarg[64], optarg_[8];
    snprintf(archarg, sizeof archarg, "--offload-arch=%s", arch);
    snprintf(optarg_, sizeof optarg_, "-O%d", opt);
    char *argv[] = { (char *)fxcc_path, (char *)src, archarg, optarg_, "-o", out_path, NULL };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    Run r = { 127, NULL };
    if (posix_spawn(&pid, fxcc_path, &fa, NULL, argv, environ) == 0) {
        int st;
        waitpid(pid, &st, 0);
        r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    }
    posix_spawn_file_actions_destroy(&fa);
    r.err = fxt_read_file(err_path);
    if (!r.err)
        r.err = calloc(1, 1);
    return r;
}

static bool is_gcn12(const TgtTarget *t) { return !tgt_has_lane_permute(t); }

/* The run compiled, or refused with located errors only. */
static bool compiled_or_located(const Run *r)
{
    if (r->status == 0)
        return true;
    return r->status == 1 && strstr(r->err, ": error: ") && !strstr(r->err, "internal compiler error") &&
           strncmp(r->err, "fxcc:", 5) != 0;
}

static void report(const char *src, const char *arch, int opt, const Run *r, const char *want)
{
    const char *base = strrchr(src, '/');
    fprintf(stderr, "\n  %s -O%d %s: exit %d, wanted %s: %.300s", arch, opt, base ? base + 1 : src, r->status,
            want, r->err);
}

static void check_file(const char *src, bool must_compile)
{
    for (int k = 0; k < tgt_count(); k++) {
        const TgtTarget *t = tgt_at(k);
        for (int opt = 0; opt <= 3; opt += 3) {
            Run r = run_fxcc(src, t->name, opt);
            bool ok = must_compile ? r.status == 0 : compiled_or_located(&r);
            CU_ASSERT(ok);
            if (!ok)
                report(src, t->name, opt, &r, must_compile ? "a code object" : "a code object or located errors");
            free(r.err);
        }
    }
}

static void test_examples(void)
{
    int n;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/../../examples", fxt_dir);
    char **names = fxt_list(dir, ".fx", &n);
    CU_ASSERT(n >= 8);
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i], "common.fx") == 0)
            continue;   /* only imported */
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        check_file(path, true);
    }
    fxt_free_list(names, n);
}

static void test_waves(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/processors/waves.fx", fxt_dir);
    check_file(path, true);
}

/* The shuffles compile where ds_bpermute_b32 exists, and elsewhere are a
 * located error that names the processor. */
static void test_shuffles(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/processors/shuffles.fx", fxt_dir);
    for (int k = 0; k < tgt_count(); k++) {
        const TgtTarget *t = tgt_at(k);
        for (int opt = 0; opt <= 3; opt += 3) {
            Run r = run_fxcc(path, t->name, opt);
            char named[64];
            snprintf(named, sizeof named, "which %s (", t->name);
            bool ok = is_gcn12(t) ? compiled_or_located(&r) && r.status == 1 && strstr(r.err, "shuffles.fx:6:16: error:") &&
                                        strstr(r.err, named)
                                  : r.status == 0;
            CU_ASSERT(ok);
            if (!ok)
                report(path, t->name, opt, &r, is_gcn12(t) ? "a located error naming the processor" : "a code object");
            free(r.err);
        }
    }
}

static int set_up(void)
{
    if (fxt_nargs < 1)
        return 1;
    fxcc_path = fxt_args[0];
    snprintf(out_path, sizeof out_path, "/tmp/fxcc-proc-%d.hsaco", (int)getpid());
    snprintf(err_path, sizeof err_path, "/tmp/fxcc-proc-%d.err", (int)getpid());
    return 0;
}

static int tear_down(void)
{
    remove(out_path);
    remove(err_path);
    return 0;
}

static const FxtTest processor_tests[] = {
    { "every example on every processor, -O0 and -O3", test_examples },
    { "wave operations and Float16 conversions on every processor", test_waves },
    { "shuffles: code, or a located error on GCN 1 and 2", test_shuffles },
    { NULL, NULL },
};

static const FxtSuite suites[] = {
    { "processors", processor_tests, set_up, tear_down },
    { NULL, NULL, NULL, NULL },
};

int main(int argc, char **argv)
{
    return fxt_main(argc, argv, TEST_DIR, suites);
}
