/* test_diff.c - differential test of the run-time code against the constant
 * folder (issue 4).
 *
 * For every operation x type (pair) of the tower (gen.c), a kernel is compiled
 * for the host at -O2 and again at -O0 through the real pipeline (parse, sema, FXIR passes, codegen,
 * ORC JIT), run on edge and random operands (values.c), and every lane is
 * compared with the folder's answer for the same operands (fold.c). NaN
 * results compare as "both NaN" (payloads are not preserved: decisions.md).
 * Transcendentals (fx.exp..., float **) fold with the host libm by design and
 * are not generated.
 *
 * Kernels that codegen reports as "not supported yet" are dropped from their
 * module, counted and listed (skipped pairs). Every module is also compiled
 * for gfx90a, gfx942, gfx1100 and gfx1201 at -O0 and for gfx942 and gfx1201
 * at -O3 (LLVM verifier on, object emitted) in forked processes that run
 * alongside the host sweep, so a backend abort is a test failure and not a
 * crash of the suite.
 *
 * usage: test_diff [-v] [-k] [-a] [GROUP...]   (no group: all of them; -v lists skips
 * and device timings, -k keeps the generated sources, -a prints every mismatch,
 * not only the first 50) */
#include "fxtest.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "diff.h"
#include "driver/pipeline.h"
#include "runtime/fxrt.h"

/* Each module is compiled for every arch at -O0 (the IR exactly as codegen
 * emits it goes through the backend: issue 15 found IR that only -O0 could
 * not select), and for one CDNA and one RDNA arch at -O3 (after LLVM's
 * optimizations). -O3 on all four would double the suite's device time for
 * little: the optimized IR differs between the families, hardly within one. */
static const struct {
    const char *arch;
    int opt;
} DEVICES[] = { { "gfx90a", 0 }, { "gfx942", 0 }, { "gfx1100", 0 }, { "gfx1201", 0 },
                { "gfx942", 3 }, { "gfx1201", 3 } };
#define NDEV 6

/* Mismatches that are understood and reported, so that the suite stays
 * green while they are open. An entry names the operation x types exactly as
 * the report prints it and a pattern per operand: "*" (any value), "sNaN"
 * (any signalling NaN of that operand's type), "bf16-sNaN" (some 16-bit
 * piece of the operand is a BFloat16 signalling NaN) or the exact hex
 * encoding. */
typedef struct {
    const char *label;
    const char *ops[3];
    const char *why;
} KnownFailure;

/* Empty: nothing open. (While this test was written, fx.max(itofp(x), sNaN)
 * and BFloat16 sNaN bitcasts/selects mismatched on the host through two
 * LLVM 19 x86 backend bugs; codegen now works around both. An entry looks
 * like { "Int8 fx.max Float16", { "*", "sNaN" }, "why" }.) */
static const KnownFailure KNOWN_FAILURES[] = {
    { NULL, { NULL }, NULL },
};

static Group *groups;
static int ngroups;
static char tmpdir[256];
static const char *only[32];
static int nonly;
static bool verbose, keep;
static int max_print = 50;   /* -a: all of them */

/* Device compile jobs (group x arch), taken in order by two workers: one
 * from the start (beside the host sweep), one once the sweep is over. */
typedef struct {
    int group, dev;
} Job;
static Job jobs[64 * NDEV];
static int njobs;
static int *next_job;          /* shared between the workers */
static pid_t workers[2] = { -1, -1 };
static int go_pipe[2] = { -1, -1 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static bool selected(const Group *g)
{
    if (!nonly)
        return true;
    for (int i = 0; i < nonly; i++)
        if (!strcmp(only[i], g->name))
            return true;
    return false;
}

/* ---- compiling a group's module, dropping unsupported kernels ---- */

static Kern *kern_at_line(Group *g, int line)
{
    for (int i = 0; i < g->n; i++)
        if (!g->k[i]->skipped && g->k[i]->line == line)
            return g->k[i];
    return NULL;
}

typedef struct {
    int skipped;     /* "not supported yet" */
    int failed;      /* other errors (sema rejected a kernel, codegen errors) */
    char *failures;  /* their messages */
    size_t flen;
} CompileLog;

/* Marks the kernels named by the errors in `diag` as skipped. Returns how many
 * kernels were dropped (0: the errors could not be attributed). */
static int drop_erroneous(Group *g, const char *path, const char *diag, CompileLog *log, FILE *flog)
{
    int dropped = 0;
    size_t plen = strlen(path);
    for (const char *p = diag; p && *p;) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        int line, col;
        char msg[512];
        if (len > plen && !strncmp(p, path, plen) && p[plen] == ':' &&
            sscanf(p + plen, ":%d:%d: error: %511[^\n]", &line, &col, msg) == 3) {
            Kern *k = kern_at_line(g, line);
            if (k) {
                k->skipped = true;
                k->skip_msg = strdup(msg);
                dropped++;
                if (strstr(msg, "not supported")) {
                    log->skipped++;
                } else {
                    log->failed++;
                    fprintf(flog, "  %s: %s\n", k->label, msg);
                }
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    return dropped;
}

/* Compiles the group for the host (arch NULL) or an AMDGPU processor at
 * -O`opt`, dropping kernels until the module builds. The compilation is left
 * in *c (pipe_free it); returns the module or NULL. */
static CgModule *compile_group(Group *g, const char *arch, int opt, FxCompilation *c, FxOptions *o,
                               CompileLog *log)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s-%s-O%d.fx", tmpdir, g->name, arch ? arch : "host", opt);
    FILE *flog = open_memstream(&log->failures, &log->flen);
    CgModule *m = NULL;
    for (int round = 0; round < 64; round++) {
        char *src = group_source(g);
        FILE *sf = fopen(path, "w");
        if (!sf) {
            fprintf(flog, "  cannot write %s: %s\n", path, strerror(errno));
            free(src);
            break;
        }
        fputs(src, sf);
        fclose(sf);
        free(src);
        opt_defaults(o);
        o->input = path;
        o->verify_each = true;
        o->host = arch == NULL;
        if (arch)
            o->arch = arch;
        o->opt_level = opt;
        opt_finish(o);
        char *diag = NULL;
        size_t dlen = 0;
        FILE *d = open_memstream(&diag, &dlen);
        pipe_init(c, o);
        diag_set_stream(d);
        bool ok = pipe_parse(c) && pipe_lower(c);
        if (ok)
            m = pipe_codegen(c);
        diag_set_stream(NULL);
        fclose(d);
        if (m) {
            free(diag);
            break;
        }
        int dropped = drop_erroneous(g, path, diag, log, flog);
        if (!dropped)
            fprintf(flog, "  the module does not compile:\n%s", diag);
        free(diag);
        pipe_free(c);
        memset(c, 0, sizeof *c);
        if (!dropped)
            break;
    }
    fclose(flog);
    if (!m)
        log->failed++;
    return m;
}

/* ---- device compiles (forked) ---- */

/* In a grandchild: compile group g for gfx at -Oopt, emit an object. Writes
 * its findings to `report` (naming the job "gfxN-On") and exits 0
 * (compiled), 1 (errors). */
static void device_compile(Group *g, const char *gfx, int opt, FILE *report)
{
    cg_install_fatal_handler(); /* an LLVM fatal error: exit status 70 */
    FxCompilation c;
    FxOptions o;
    CompileLog log = { 0 };
    char arch[48];
    snprintf(arch, sizeof arch, "%s-O%d", gfx, opt);
    CgModule *m = compile_group(g, gfx, opt, &c, &o, &log);
    int rc = 0;
    if (m) {
        char obj[512];
        snprintf(obj, sizeof obj, "%s/%s-%s.o", tmpdir, g->name, arch);
        char *diag = NULL;
        size_t dlen = 0;
        FILE *d = open_memstream(&diag, &dlen);
        diag_set_stream(d);
        bool ok = cg_write(m, CG_OUT_OBJ, obj);
        diag_set_stream(NULL);
        fclose(d);
        if (!ok) {
            fprintf(report, "FAIL %s %s: emitting the object failed:\n%s", g->name, arch, diag);
            rc = 1;
        }
        free(diag);
        remove(obj);
        cg_free(m);
        pipe_free(&c);
    }
    int n = 0;
    for (int i = 0; i < g->n; i++)
        if (g->k[i]->skipped) {
            fprintf(report, "SKIP %s %s %s: %s\n", g->name, arch, g->k[i]->label, g->k[i]->skip_msg);
        } else {
            n++;
        }
    if (log.failed) {
        fprintf(report, "FAIL %s %s: %d errors\n%s", g->name, arch, log.failed, log.failures ? log.failures : "");
        rc = 1;
    }
    fprintf(report, "DONE %s %s %d pairs\n", g->name, arch, n);
    free(log.failures);
    fclose(report);
    _exit(rc);
}

static void job_path(int j, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/device-%03d.txt", tmpdir, j);
}

/* A forked worker or compile ends with its parent (a killed test leaves
 * nothing behind). */
static void die_with_parent(pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(3);
}

/* A worker: takes jobs until none is left, one grandchild per job (so that a
 * backend abort is a reported failure). `wait_fd` >= 0: first wait until the
 * parent closes the other end of that pipe. */
static void device_worker(int wait_fd)
{
    char c;
    if (wait_fd >= 0)
        while (read(wait_fd, &c, 1) > 0)
            ;
    for (;;) {
        int j = __atomic_fetch_add(next_job, 1, __ATOMIC_SEQ_CST);
        if (j >= njobs)
            break;
        Group *g = &groups[jobs[j].group];
        const char *gfx = DEVICES[jobs[j].dev].arch;
        int opt = DEVICES[jobs[j].dev].opt;
        char arch[48];
        snprintf(arch, sizeof arch, "%s-O%d", gfx, opt);
        char path[512];
        job_path(j, path, sizeof path);
        double t0 = now();
        fflush(NULL);
        pid_t me = getpid();
        pid_t p = fork();
        if (p == 0) {
            die_with_parent(me);
            FILE *report = fopen(path, "w");
            if (!report)
                _exit(2);
            device_compile(g, gfx, opt, report);
        }
        int st = 0;
        bool waited = p > 0 && waitpid(p, &st, 0) == p;
        FILE *report = fopen(path, "a");
        if (!report)
            continue;
        if (!waited)
            fprintf(report, "FAIL %s %s: cannot fork\n", g->name, arch);
        else if (WIFSIGNALED(st))
            fprintf(report, "FAIL %s %s: the compiler died with signal %d\n", g->name, arch, WTERMSIG(st));
        else if (WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 1)
            fprintf(report, "FAIL %s %s: the compiler exited with status %d\n", g->name, arch, WEXITSTATUS(st));
        fprintf(report, "TIME %s %s %.1f\n", g->name, arch, now() - t0);
        fclose(report);
    }
    _exit(0);
}

static void start_device_workers(void)
{
    next_job = mmap(NULL, sizeof *next_job, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (next_job == MAP_FAILED || pipe(go_pipe) != 0)
        return;
    *next_job = 0;
    /* the biggest groups first, so that the two workers finish together */
    for (int gi = 0; gi < ngroups; gi++)
        if (selected(&groups[gi]))
            for (int a = 0; a < NDEV; a++)
                jobs[njobs++] = (Job){ gi, a };
    for (int i = 1; i < njobs; i++)
        for (int j = i; j > 0 && groups[jobs[j].group].n > groups[jobs[j - 1].group].n; j--) {
            Job t = jobs[j];
            jobs[j] = jobs[j - 1];
            jobs[j - 1] = t;
        }
    fflush(NULL);
    pid_t me = getpid();
    for (int w = 0; w < 2; w++) {
        workers[w] = fork();
        if (workers[w] == 0) {
            die_with_parent(me);
            close(go_pipe[1]);
            device_worker(w == 0 ? -1 : go_pipe[0]);
        }
    }
    close(go_pipe[0]);
}

/* ---- expected values ---- */

typedef enum { EXPECT_OK, EXPECT_NONE, EXPECT_ERROR } ExpectStatus;

static void spell_ops(const Kern *k, int ci, char sp[3][160], const char *ops[3])
{
    for (int j = 0; j < 3; j++) {
        sp[j][0] = 0;
        if (j < k->nin)
            spell(k->in[j], k->ops[j][ci], sp[j], sizeof sp[j]);
        ops[j] = sp[j];
    }
}

static bool fold_is_true(Folder *f, const char *tmpl, const char *const *ops)
{
    char text[1024];
    const Type *t;
    u128 b;
    tmpl_expand(tmpl, ops, text, sizeof text);
    return fold_text(f, text, &t, &b) && t->scalar == SC_BOOLEAN && b == 1;
}

static bool fold_value(Folder *f, const char *tmpl, const char *const *ops, u128 *out)
{
    char text[1024];
    const Type *t;
    tmpl_expand(tmpl, ops, text, sizeof text);
    return fold_text(f, text, &t, out);
}

/* Cases the folder rejects as a negative count/exponent although the
 * operand is not negative in the common type the operation works in. */
static long promoted_rejects;

/* The expected result of case ci (lane types in k->in), in *exp; `text`
 * receives the folded expression for reports. */
static ExpectStatus expected(Folder *f, const Kern *k, int ci, u128 *exp, char *text, size_t cap)
{
    char sp[3][160];
    const char *ops[3];
    spell_ops(k, ci, sp, ops);
    if (k->exp == EXP_ROUND) {
        /* the folder's own rounding function; see gen_rounding() */
        snprintf(text, cap, "ff_from_double(%s, ff_to_double(%s), %d) for %s", sc_name(k->out), ops[0], k->rm,
                 k->label);
        double d = ff_to_double(sc_fmt(k->in[0]), (uint64_t)k->ops[0][ci]);
        *exp = ff_from_double(sc_fmt(k->out), d, (FfRound)k->rm);
        return EXPECT_OK;
    }
    tmpl_expand(k->tmpl, ops, text, cap);
    const Type *t;
    if (fold_text(f, text, &t, exp)) {
        if (t->scalar != k->out) {
            snprintf(text + strlen(text), cap - strlen(text), "  [folded type %s, kernel stores %s]",
                     sc_name(t->scalar), sc_name(k->out));
            return EXPECT_ERROR;
        }
        return EXPECT_OK;
    }
    /* The folder rejects it: what spec 3.4 defines for run time instead. */
    char rt[96];
    const char *name = sc_name(k->out);
    switch (k->rule) {
    case RULE_DIV:
        if (k->nin > 1 && fold_is_true(f, "($1) == 0", ops)) {
            *exp = 0; /* x // 0 == x % 0 == 0 at run time */
            return EXPECT_OK;
        }
        break;
    case RULE_TRUEDIV:
        if (fold_is_true(f, "($1) == 0", ops))
            return EXPECT_NONE; /* integer / by zero: no folded answer, the spec names none */
        break;
    case RULE_SHIFT:
    case RULE_POW: {
        /* The count/exponent is converted to the common type (the result
         * type) first: only a negative value THERE is "negative". */
        const char *sym = k->rule == RULE_POW ? "**" : strstr(k->tmpl, "<<") ? "<<" : ">>";
        snprintf(rt, sizeof rt, "%s($1) < %s(0)", name, name);
        if (!fold_is_true(f, rt, ops)) {
            /* nonnegative after promotion: the folder rejected the operand as
             * written (see the report); fold it with the converted operand */
            snprintf(rt, sizeof rt, "%s($0) %s %s($1)", name, sym, name);
            if (fold_value(f, rt, ops, exp)) {
                promoted_rejects++;
                return EXPECT_OK;
            }
            break;
        }
        if (k->rule == RULE_SHIFT) {
            /* a negative count behaves as a count >= width */
            snprintf(rt, sizeof rt, "%s($0) %s %s(%d)", name, sym, name, sc_width(k->out));
            if (fold_value(f, rt, ops, exp))
                return EXPECT_OK;
            break;
        }
        /* a negative exponent: 0 unless the base is 1 or -1 */
        snprintf(rt, sizeof rt, "%s($0) == %s(1)", name, name);
        if (fold_is_true(f, rt, ops)) {
            *exp = 1;
            return EXPECT_OK;
        }
        snprintf(rt, sizeof rt, "%s($0) == %s(-1)", name, name);
        if (sc_signed(k->out) && fold_is_true(f, rt, ops)) {
            snprintf(rt, sizeof rt, "%s($0) ** (%s($1) & %s(1))", name, name, name);
            if (fold_value(f, rt, ops, exp))
                return EXPECT_OK;
            break;
        }
        *exp = 0;
        return EXPECT_OK;
    }
    case RULE_CEILDIV:
        if (fold_is_true(f, "($1) == 0", ops)) {
            *exp = 0;
            return EXPECT_OK;
        }
        if (fold_value(f, "($0) // ($1)", ops, exp)) /* (MIN, -1): MIN */
            return EXPECT_OK;
        break;
    default:
        break;
    }
    return EXPECT_ERROR;
}

/* expected(), computed once per case: the host sweep runs every kernel at
 * two -O levels, and folding is most of a run's time. `text` is filled
 * only the first time (reports recompute it). */
static ExpectStatus expected_cached(Folder *f, Kern *k, int ci, u128 *exp, char *text, size_t cap)
{
    if (!k->expect_st) {
        k->expect = calloc((size_t)k->ncases, sizeof *k->expect);
        k->expect_st = calloc((size_t)k->ncases, 1);
    }
    if (!k->expect || !k->expect_st)
        return expected(f, k, ci, exp, text, cap);
    if (!k->expect_st[ci]) {
        k->expect_st[ci] = (unsigned char)(expected(f, k, ci, &k->expect[ci], text, cap) + 1);
    } else {
        text[0] = 0;
    }
    *exp = k->expect[ci];
    return (ExpectStatus)(k->expect_st[ci] - 1);
}

/* ---- running and comparing ---- */

typedef struct {
    long compared, mismatches, known, uncompared, fold_errors;
} Tally;

static int printed;

static bool is_snan(ScalarId s, u128 x)
{
    const FloatFormat *f = sc_fmt(s);
    if (!f || f->nan != FF_NAN_IEEE || !ff_is_nan(f, (uint64_t)x))
        return false;
    return !((x >> (f->man_bits - 1)) & 1);
}

static long known_hits[sizeof KNOWN_FAILURES / sizeof *KNOWN_FAILURES];

static bool bf16_snan_inside(ScalarId s, u128 x)
{
    for (int sh = 0; sh + 16 <= lane_bytes(s) * 8; sh += 16)
        if (is_snan(SC_BFLOAT16, (x >> sh) & 0xFFFF))
            return true;
    return false;
}

static bool operand_matches(const char *p, ScalarId s, u128 x)
{
    char h[64];
    hexbits(s, x, h, sizeof h);
    return !p || !strcmp(p, "*") || (!strcmp(p, "sNaN") && is_snan(s, x)) ||
           (!strcmp(p, "bf16-sNaN") && bf16_snan_inside(s, x)) || !strcmp(p, h);
}

/* Whether case ci (with its nlanes - 1 following lanes, for byte-compared
 * vectors) is a known failure. */
static bool is_known(const Kern *k, int ci, int nlanes)
{
    for (int i = 0; KNOWN_FAILURES[i].label; i++) {
        const KnownFailure *kf = &KNOWN_FAILURES[i];
        if (strcmp(kf->label, k->label) != 0)
            continue;
        bool match = true;
        for (int j = 0; j < k->nin && match; j++) {
            bool any = false;
            for (int l = 0; l < nlanes && !any; l++)
                any = operand_matches(kf->ops[j], k->in[j], k->ops[j][ci + l]);
            match = any;
        }
        if (match) {
            known_hits[i]++;
            return true;
        }
    }
    return false;
}

static void report_mismatch(const Group *g, const Kern *k, int ci, const char *text, const char *what,
                            u128 exp, u128 got, bool have_got)
{
    if (printed++ >= max_print)
        return;
    char h[3][64] = { "", "", "" }, e[64], r[160];
    for (int j = 0; j < k->nin; j++)
        hexbits(k->in[j], k->ops[j][ci], h[j], sizeof h[j]);
    hexbits(k->out, exp, e, sizeof e);
    if (have_got) {
        /* the value bits; the raw storage too when it is not their storage form */
        char raw[64];
        hexbits(k->out, got, r, sizeof r);
        if (storage_of(k->out, got) != got) {
            hex128(got, raw, sizeof raw);
            snprintf(r + strlen(r), sizeof r - strlen(r), " (stored as %s)", raw);
        }
    }
    fprintf(stderr, "MISMATCH [%s] %s (%s): operands %s%s%s%s%s\n    %s\n    folded %s, run time %s\n", g->name,
            k->label, what, h[0], k->nin > 1 ? ", " : "", h[1], k->nin > 2 ? ", " : "", h[2], text, e,
            have_got ? r : "-");
}

static bool same(ScalarId s, u128 exp, u128 got, bool exact_nan)
{
    if (storage_of(s, exp) == got)
        return true;
    if (exact_nan)
        return false;
    const FloatFormat *fmt = sc_fmt(s);
    return fmt && (got & ~sc_mask(s)) == 0 && ff_is_nan(fmt, (uint64_t)got) && ff_is_nan(fmt, (uint64_t)exp);
}

static void *zalloc(size_t n)
{
    size_t sz = (n + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, sz ? sz : 64);
    memset(p, 0xA5, sz ? sz : 64); /* not 0: an unwritten result shows */
    return p;
}

static void compare(Folder *f, const Group *g, Kern *k, const unsigned char *in0, const unsigned char *out,
                    Tally *t)
{
    int L = k->lanes, nelem = k->ncases / L;
    const Type *ot = k->out_lanes > 1 ? type_vector(k->out, k->out_lanes) : type_scalar(k->out);
    int oeb = elem_bytes(ot), olb = lane_bytes(k->out);
    char text[1024];
    if (k->exp == EXP_BYTES) {
        const Type *it = type_vector(k->in[0], L);
        int ieb = elem_bytes(it), bytes = L * lane_bytes(k->in[0]);
        for (int e = 0; e < nelem; e++) {
            t->compared += L;
            if (ieb != oeb || memcmp(in0 + (size_t)e * ieb, out + (size_t)e * oeb, (size_t)bytes) != 0) {
                if (is_known(k, e * L, L)) {
                    t->known += L;
                    continue;
                }
                t->mismatches++;
                int n = snprintf(text, sizeof text, "element %d: bytes in", e);
                for (int b = bytes - 1; b >= 0 && n < 900; b--)
                    n += snprintf(text + n, sizeof text - (size_t)n, "%s%02x", b % 8 == 7 ? " " : "",
                                  in0[(size_t)e * ieb + b]);
                n += snprintf(text + n, sizeof text - (size_t)n, "\n    bytes out");
                for (int b = bytes - 1; b >= 0 && n < 1000; b--)
                    n += snprintf(text + n, sizeof text - (size_t)n, "%s%02x", b % 8 == 7 ? " " : "",
                                  out[(size_t)e * oeb + b]);
                report_mismatch(g, k, e * L, text, "bitcast bytes", 0, 0, false);
            }
        }
        return;
    }
    for (int e = 0; e < nelem; e++)
        for (int l = 0; l < L; l++) {
            int ci = e * L + l;
            u128 exp = 0;
            ExpectStatus st = expected_cached(f, k, ci, &exp, text, sizeof text);
            if (st == EXPECT_NONE) {
                t->uncompared++;
                continue;
            }
            if (st == EXPECT_ERROR) {
                t->fold_errors++;
                expected(f, k, ci, &exp, text, sizeof text);
                report_mismatch(g, k, ci, text, "the folder rejects it", 0, 0, false);
                continue;
            }
            u128 got = get_lane(out + (size_t)e * oeb + (size_t)l * olb, k->out);
            t->compared++;
            if (same(k->out, exp, got, k->exact_nan))
                continue;
            if (is_known(k, ci, 1)) {
                t->known++;
                continue;
            }
            t->mismatches++;
            expected(f, k, ci, &exp, text, sizeof text); /* for the folded expression's text */
            report_mismatch(g, k, ci, text, "value", exp, got, true);
        }
}

/* Runs the `.fx` kernel holding operation g->k[first] and all its siblings
 * (same inputs, same cases), then compares each one's results. */
static void run_kernel(RtHostModule *hm, Folder *f, const Group *g, int first, Tally *t)
{
    const Kern *k = g->k[first];
    int L = k->lanes, nelem = k->ncases / L, nin = k->nin;
    Kern **outs = calloc((size_t)k->nslots, sizeof *outs);
    for (int i = first; i < g->n; i++)
        if (!g->k[i]->skipped && !strcmp(g->k[i]->kname, k->kname))
            outs[g->k[i]->slot] = g->k[i];
    unsigned char **buf = calloc((size_t)(nin + k->nslots), sizeof *buf);
    void **ptrs = calloc((size_t)(nin + k->nslots), sizeof *ptrs);
    void **args = calloc((size_t)(nin + k->nslots + 1), sizeof *args);
    for (int j = 0; j < nin; j++) {
        const Type *it = L > 1 ? type_vector(k->in[j], L) : type_scalar(k->in[j]);
        int eb = elem_bytes(it), lb = lane_bytes(k->in[j]);
        buf[j] = zalloc((size_t)nelem * eb);
        for (int e = 0; e < nelem; e++)
            for (int l = 0; l < L; l++)
                put_lane(buf[j] + (size_t)e * eb + (size_t)l * lb, k->in[j], k->ops[j][e * L + l]);
    }
    for (int s = 0; s < k->nslots; s++) {
        const Kern *o = outs[s];
        const Type *ot = o->out_lanes > 1 ? type_vector(o->out, o->out_lanes) : type_scalar(o->out);
        buf[nin + s] = zalloc((size_t)nelem * elem_bytes(ot));
    }
    for (int j = 0; j < nin + k->nslots; j++) {
        ptrs[j] = buf[j];
        args[j] = &ptrs[j];
    }
    int32_t n = nelem;
    args[nin + k->nslots] = &n;
    unsigned grid[3] = { (unsigned)(nelem + 63) / 64, 1, 1 }, block[3] = { 64, 1, 1 };
    char *err = NULL;
    if (nelem > 0 && rt_host_launch(hm, k->kname, grid, block, args, &err) != 0) {
        fprintf(stderr, "diff: launching %s (%s...) failed: %s\n", k->kname, k->label, err ? err : "?");
        free(err);
        t->fold_errors++;
    } else {
        for (int s = 0; s < k->nslots; s++)
            compare(f, g, outs[s], buf[0], buf[nin + s], t);
    }
    for (int j = 0; j < nin + k->nslots; j++)
        free(buf[j]);
    free(buf);
    free(ptrs);
    free(args);
    free(outs);
}

/* ---- the tests ---- */

static Folder *folder;
static Tally total;
static int total_skipped, total_kernels;

/* The host runs every kernel optimized (-O2) and as codegen emits it (-O0);
 * the expected values are folded once for both. */
static const int HOST_OPT[] = { 2, 0 };

static void test_host_sweep(void)
{
    for (int gl = 0; gl < 2 * ngroups; gl++) {
        Group *g = &groups[gl / 2];
        int opt = HOST_OPT[gl % 2];
        if (!selected(g))
            continue;
        double t0 = now();
        long rejects0 = promoted_rejects;
        FxCompilation c;
        FxOptions o;
        CompileLog log = { 0 };
        CgModule *m = compile_group(g, NULL, opt, &c, &o, &log);
        if (log.failed) {
            fprintf(stderr, "diff: group %s: %d kernels do not compile for the host:\n%s", g->name, log.failed,
                    log.failures ? log.failures : "");
            CU_FAIL("kernels that do not compile for the host");
        }
        free(log.failures);
        if (!m)
            continue;
        double t1 = now();
        LLVMModuleRef mod;
        LLVMContextRef ctx;
        cg_release(m, &mod, &ctx);
        char *err = NULL;
        RtHostModule *hm = rt_host_load(mod, ctx, &err);
        pipe_free(&c);
        if (!hm) {
            fprintf(stderr, "diff: group %s: JIT failed: %s\n", g->name, err ? err : "?");
            free(err);
            CU_FAIL("JIT");
            continue;
        }
        Tally t = { 0 };
        int nk = 0, nfx = 0;
        for (int i = 0; i < g->n; i++) {
            if (g->k[i]->skipped)
                continue;
            nk++;
            if (g->k[i]->slot == 0) {
                nfx++;
                run_kernel(hm, folder, g, i, &t);
            }
        }
        rt_host_free(hm);
        int sk = 0;
        for (int i = 0; i < g->n; i++)
            sk += g->k[i]->skipped && strstr(g->k[i]->skip_msg, "not supported") != NULL;
        printf("diff: %-12s -O%d %4d pairs in %3d kernels (%d skipped), %7ld cases compared, %ld mismatches, %ld "
               "known, %ld not compared, %ld folder errors  [compile %.1fs, run+fold %.1fs]\n",
               g->name, opt, nk, nfx, sk, t.compared, t.mismatches, t.known, t.uncompared, t.fold_errors, t1 - t0,
               now() - t1);
        if (promoted_rejects > rejects0)
            printf("diff:   %ld cases: the folder rejects a count/exponent that is negative as written but not "
                   "in the common type (compared with the fold of the promoted operands)\n",
                   promoted_rejects - rejects0);
        if (verbose || sk)
            for (int i = 0; i < g->n; i++)
                if (g->k[i]->skipped)
                    printf("diff:   skipped %s: %s\n", g->k[i]->label, g->k[i]->skip_msg);
        fflush(stdout);
        total.compared += t.compared;
        total.mismatches += t.mismatches;
        total.known += t.known;
        total.uncompared += t.uncompared;
        total.fold_errors += t.fold_errors;
        if (gl % 2 == 0) { /* pairs count once, cases at both levels */
            total_skipped += sk;
            total_kernels += nk;
        }
    }
    printf("diff: %ld cases compared, %ld mismatches, %d skipped pairs (%ld known failures, %ld not compared, "
           "%d operation x type pairs run, each at -O2 and -O0)\n", total.compared, total.mismatches, total_skipped, total.known, total.uncompared,
           total_kernels);
    for (int i = 0; KNOWN_FAILURES[i].label && !nonly; i++)
        if (!known_hits[i])
            printf("diff: note: known failure '%s' (%s) did not occur: remove it from KNOWN_FAILURES if it is "
                   "fixed\n", KNOWN_FAILURES[i].label, KNOWN_FAILURES[i].why);
    CU_ASSERT_EQUAL(total.mismatches, 0);
    CU_ASSERT_EQUAL(total.fold_errors, 0);
    if (!nonly)
        CU_ASSERT(total.compared >= 100000);
}

static void test_device_compiles(void)
{
    close(go_pipe[1]); /* the host sweep is over: the second worker starts */
    go_pipe[1] = -1;
    double t0 = now();
    CU_ASSERT_FATAL(workers[0] > 0 && workers[1] > 0);
    for (int w = 0; w < 2; w++) {
        int st = 0;
        CU_ASSERT(waitpid(workers[w], &st, 0) == workers[w] && WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    int done = 0, fails = 0, skips = 0;
    double secs = 0;
    for (int j = 0; j < njobs; j++) {
        char path[512], line[4096];
        job_path(j, path, sizeof path);
        FILE *r = fopen(path, "r");
        if (!r) {
            fprintf(stderr, "diff: device job %s %s -O%d left no report\n", groups[jobs[j].group].name,
                    DEVICES[jobs[j].dev].arch, DEVICES[jobs[j].dev].opt);
            fails++;
            continue;
        }
        while (fgets(line, sizeof line, r)) {
            if (!strncmp(line, "DONE ", 5)) {
                done++;
                if (verbose)
                    fputs(line, stdout);
            } else if (!strncmp(line, "TIME ", 5)) {
                char gname[64], arch[32];
                double sec;
                if (sscanf(line, "TIME %63s %31s %lf", gname, arch, &sec) == 3)
                    secs += sec;
                if (verbose)
                    fputs(line, stdout);
            } else if (!strncmp(line, "SKIP ", 5)) {
                skips++;
                if (verbose)
                    fputs(line, stdout);
            } else {
                if (!strncmp(line, "FAIL ", 5))
                    fails++;
                fputs(line, stderr);
            }
        }
        fclose(r);
    }
    printf("diff: device: %d of %d modules compiled for gfx90a, gfx942, gfx1100, gfx1201 at -O0 and gfx942, "
           "gfx1201 at -O3 (%d pairs skipped, %d failures; %.1fs of compiling, %.1fs waited for after the host "
           "sweep)\n", done, njobs, skips, fails, secs, now() - t0);
    CU_ASSERT_EQUAL(done, njobs);
    CU_ASSERT_EQUAL(fails, 0);
}

static double t_start;

/* Generates the cases and starts the device-compile workers. */
static int set_up(void)
{
    for (int i = 0; i < fxt_nargs; i++) {
        if (!strcmp(fxt_args[i], "-v"))
            verbose = true;
        else if (!strcmp(fxt_args[i], "-k"))
            keep = true;
        else if (!strcmp(fxt_args[i], "-a"))
            max_print = 1 << 30;
        else if (nonly < 32)
            only[nonly++] = fxt_args[i];
    }
    snprintf(tmpdir, sizeof tmpdir, "/tmp/fxcc-diff-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    t_start = now();
    folder = folder_new();
    ngroups = gen_groups(folder, &groups);
    bool gen_ok = ngroups > 0;
    if (ngroups < 0)
        ngroups = -ngroups;
    long ncases = 0, nkern = 0;
    for (int i = 0; i < ngroups; i++)
        for (int j = 0; j < groups[i].n; j++) {
            ncases += groups[i].k[j]->ncases;
            nkern++;
        }
    printf("diff: generated %ld kernels, %ld cases in %d groups (%.1fs)\n", nkern, ncases, ngroups, now() - t_start);
    fflush(stdout);
    fflush(stderr);
    start_device_workers();
    return gen_ok ? 0 : 1;
}

static int tear_down(void)
{
    groups_free(groups, ngroups);
    folder_free(folder);
    char rm[512];
    snprintf(rm, sizeof rm, "rm -rf %s", tmpdir);
    int rc = 0;
    if (keep)
        printf("diff: sources kept in %s\n", tmpdir);
    else if (system(rm) != 0)
        rc = 1;
    struct rusage self, kids;
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &kids);
    printf("diff: total %.1fs wall; cpu %.1fs host sweep, %.1fs device compiles\n", now() - t_start,
           self.ru_utime.tv_sec + self.ru_utime.tv_usec * 1e-6 + self.ru_stime.tv_sec + self.ru_stime.tv_usec * 1e-6,
           kids.ru_utime.tv_sec + kids.ru_utime.tv_usec * 1e-6 + kids.ru_stime.tv_sec + kids.ru_stime.tv_usec * 1e-6);
    return rc;
}

static const FxtTest tests[] = {
    { "run time == folder on every operation x type", test_host_sweep },
    { "the same modules for gfx90a, gfx942, gfx1100, gfx1201 at -O0, two of them at -O3", test_device_compiles },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = { { "diff", tests, set_up, tear_down }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
