/* fuzz_diff.c - structure-aware differential harness: the input bytes become
 * a typed expression tree over the scalar types (leaves are kernel operands),
 * with 1 to 4 cases of operand values. Each case is folded by the constant
 * folder (the operands spelled exactly, as tests/diff does) and computed by
 * a kernel JIT'd for the host, one work-item per case; the two must agree bit
 * for bit, except that two NaNs are equal (the language promises no NaN bits:
 * docs/decisions.md). --fp-contract=off, so the run-time code rounds every
 * operation as the folder does.
 *
 * Not compared: a case the folder rejects (static division by zero, a
 * negative shift count...: spec 3.4 gives those a run-time meaning of their
 * own), and expressions either side rejects. Float `**` (libm's pow) is not
 * generated; a bitcast applies only to an operand, never to a computed NaN
 * whose bits are free. */
#include "fuzz_common.h"
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "support/floatfmt.h"

/* Up to MAX_EXPRS expressions share one kernel (its compile and JIT cost
 * most of an iteration), each with its own result buffer. */
enum { MAX_CASES = 4, MAX_INPUTS = 6, MAX_EXPRS = 4, MAX_DEPTH = 5, MAX_NODES = 24, TEXT_CAP = 4096 };

/* The bytes, read front to back; zeros once they run out. */
typedef struct {
    const uint8_t *p;
    size_t n, at;
} Bytes;

static unsigned next_byte(Bytes *b)
{
    return b->at < b->n ? b->p[b->at++] : 0;
}

static unsigned pick(Bytes *b, unsigned n)
{
    return next_byte(b) % n;
}

/* The tree's type of a node: a scalar, or TY_UNKNOWN after an operation
 * whose result type the promotion rules decide (mixed operands, `/`). */
#define TY_UNKNOWN SC_COUNT

typedef struct {
    int ninputs;
    ScalarId in[MAX_INPUTS];
    int ncases;
    u128 val[MAX_CASES][MAX_INPUTS];
    int nodes;
} Tree;

static bool is_float(ScalarId s) { return s != TY_UNKNOWN && type_is_float(s); }

/* Text of an expression in two spellings at once: the kernel's (operands
 * are a[i], b[i]...) and, per case, the folder's (operands spelled as
 * static values). */
typedef struct {
    char *kern;
    char *fold[MAX_CASES];
} Text;

static void text_init(Text *t, int ncases)
{
    t->kern = calloc(1, TEXT_CAP);
    for (int c = 0; c < ncases; c++)
        t->fold[c] = calloc(1, TEXT_CAP);
}

static void text_free(Text *t, int ncases)
{
    free(t->kern);
    for (int c = 0; c < ncases; c++)
        free(t->fold[c]);
}

/* dst = fmt with $0 $1 $2 replaced by ops[0..2], cut at cap. */
static void expand(const char *fmt, const char *const *ops, char *dst, size_t cap)
{
    size_t n = 0;
    for (const char *p = fmt; *p && n + 1 < cap; p++) {
        const char *piece = p[0] == '$' && p[1] >= '0' && p[1] <= '2' ? ops[*++p - '0'] : NULL;
        if (!piece) {
            dst[n++] = *p;
            continue;
        }
        size_t len = strlen(piece);
        if (len > cap - 1 - n)
            len = cap - 1 - n;
        memcpy(dst + n, piece, len);
        n += len;
    }
    dst[n] = 0;
}

/* out = fmt with $0 $1 $2 replaced by the operands' texts, in every spelling. */
static void text_apply(Text *out, const char *fmt, Text *ops, int nops, int ncases)
{
    const char *k[3];
    for (int j = 0; j < nops; j++)
        k[j] = ops[j].kern;
    expand(fmt, k, out->kern, TEXT_CAP);
    for (int c = 0; c < ncases; c++) {
        const char *f[3];
        for (int j = 0; j < nops; j++)
            f[j] = ops[j].fold[c];
        expand(fmt, f, out->fold[c], TEXT_CAP);
    }
}

static ScalarId any_scalar(Bytes *b)
{
    return (ScalarId)pick(b, SC_COUNT);
}

/* An operand: a new kernel input (its values read from the bytes), or one
 * already made of that type. */
static ScalarId gen_leaf(Bytes *b, Tree *t, ScalarId want, Text *out)
{
    ScalarId s = want == TY_UNKNOWN ? any_scalar(b) : want;
    int j = -1;
    for (int i = 0; i < t->ninputs && j < 0; i++)
        if (t->in[i] == s && (next_byte(b) & 1))
            j = i;
    if (j < 0 && t->ninputs < MAX_INPUTS) {
        j = t->ninputs++;
        t->in[j] = s;
        for (int c = 0; c < t->ncases; c++) {
            u128 v = 0;
            for (int k = 0; k < lane_bytes(s); k++)
                v |= (u128)next_byte(b) << (8 * k);
            t->val[c][j] = v & sc_mask(s);
        }
    }
    if (j < 0) {
        j = 0;
        s = t->in[0];
    }
    snprintf(out->kern, TEXT_CAP, "%c[i]", 'a' + j);
    for (int c = 0; c < t->ncases; c++)
        spell(s, t->val[c][j], out->fold[c], TEXT_CAP);
    return s;
}

/* A bitcast reinterprets an operand's bits: only of an operand (a computed
 * NaN's bits are free), to a type of the same width. */
static ScalarId gen_bitcast(Bytes *b, Tree *t, Text *out)
{
    ScalarId from = any_scalar(b), to[SC_COUNT];
    int n = 0;
    for (int i = 0; i < SC_COUNT; i++) {
        ScalarId s = (ScalarId)i;
        if (s != from && sc_width(s) == sc_width(from) && s != SC_BOOLEAN && s != SC_INDEX)
            to[n++] = s;
    }
    Text leaf;
    text_init(&leaf, t->ncases);
    from = gen_leaf(b, t, from, &leaf);
    ScalarId r = n ? to[pick(b, (unsigned)n)] : from;
    char fmt[96];
    snprintf(fmt, sizeof fmt, "($0).bitcast(%s)", sc_name(r));
    text_apply(out, n ? fmt : "$0", &leaf, 1, t->ncases);   /* Boolean, Index: no partner */
    text_free(&leaf, t->ncases);
    return r;
}

typedef struct {
    const char *fmt, *name;
    int cls;   /* 1: integers and Boolean only, 2: floats only, 3: both */
} Op;

static const Op BINARY[] = {
    { "($0) + ($1)", "+", 3 },         { "($0) - ($1)", "-", 3 },
    { "($0) * ($1)", "*", 3 },         { "($0) / ($1)", "/", 3 },
    { "($0) // ($1)", "//", 3 },       { "($0) % ($1)", "%", 3 },
    { "($0) ** ($1)", "**", 1 },       { "($0) & ($1)", "&", 1 },
    { "($0) | ($1)", "|", 1 },         { "($0) ^ ($1)", "^", 1 },
    { "($0) << ($1)", "<<", 1 },       { "($0) >> ($1)", ">>", 1 },
    { "($0) < ($1)", "<", 3 },         { "($0) <= ($1)", "<=", 3 },
    { "($0) > ($1)", ">", 3 },         { "($0) >= ($1)", ">=", 3 },
    { "($0) == ($1)", "==", 3 },       { "($0) != ($1)", "!=", 3 },
    { "fx.max($0, $1)", "fx.max", 3 }, { "fx.min($0, $1)", "fx.min", 3 },
    { "fx.maxnumf($0, $1)", "fx.maxnumf", 2 }, { "fx.minnumf($0, $1)", "fx.minnumf", 2 },
    { "fx.ceildiv($0, $1)", "fx.ceildiv", 1 },
};

static const Op UNARY[] = {
    { "-($0)", "-x", 3 },           { "+($0)", "+x", 3 },
    { "~($0)", "~x", 1 },           { "abs($0)", "abs", 3 },
    { "fx.sqrt($0)", "fx.sqrt", 2 }, { "fx.floor($0)", "fx.floor", 2 },
    { "fx.ceil($0)", "fx.ceil", 2 }, { "fx.round($0)", "fx.round", 2 },
    { "fx.trunc($0)", "fx.trunc", 2 },
};

static const char *const MODES[] = { "to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away" };

static bool is_comparison(const char *name)
{
    return strchr("<>=!", name[0]) && strcmp(name, "<<") && strcmp(name, ">>");
}

/* Whether op applies to operands of (known or unknown) type s; the
 * exceptions are the ones the language makes (tests/diff/gen.c). */
static bool applies(const Op *op, ScalarId s)
{
    if (s == TY_UNKNOWN)
        return op->cls == 3 && strcmp(op->name, "fx.ceildiv") && strcmp(op->name, "fx.max") &&
               strcmp(op->name, "fx.min") && strcmp(op->name, "abs") && strcmp(op->name, "-x") &&
               strcmp(op->name, "+x");
    if (s == SC_INDEX && (!strcmp(op->name, "fx.max") || !strcmp(op->name, "fx.min") || !strcmp(op->name, "fx.ceildiv")))
        return false;
    if (s == SC_BOOLEAN && (!strcmp(op->name, "fx.ceildiv") || !strcmp(op->name, "abs") ||
                            !strcmp(op->name, "-x") || !strcmp(op->name, "+x")))
        return false;
    return (op->cls & (is_float(s) ? 2 : 1)) != 0;
}

static ScalarId gen_expr(Bytes *b, Tree *t, int depth, Text *out);

static ScalarId gen_binary(Bytes *b, Tree *t, int depth, Text *out)
{
    Text ops[2];
    text_init(&ops[0], t->ncases);
    text_init(&ops[1], t->ncases);
    ScalarId l = gen_expr(b, t, depth + 1, &ops[0]);
    /* mostly operands of one type; now and then mixed (promotion) */
    bool mixed = pick(b, 4) == 0 || l == TY_UNKNOWN;
    ScalarId r;
    if (mixed) {
        r = gen_expr(b, t, depth + 1, &ops[1]);
    } else if (pick(b, 2)) {
        r = gen_leaf(b, t, l, &ops[1]);
    } else {
        /* the same type through a conversion, so both sides may be trees */
        Text inner;
        text_init(&inner, t->ncases);
        gen_expr(b, t, depth + 1, &inner);
        char fmt[64];
        snprintf(fmt, sizeof fmt, "%s($0)", sc_name(l));
        text_apply(&ops[1], fmt, &inner, 1, t->ncases);
        text_free(&inner, t->ncases);
        r = l;
    }
    ScalarId s = l == r ? l : TY_UNKNOWN;
    const Op *cand[sizeof BINARY / sizeof *BINARY];
    int n = 0;
    for (size_t i = 0; i < sizeof BINARY / sizeof *BINARY; i++)
        if (applies(&BINARY[i], s))
            cand[n++] = &BINARY[i];
    const Op *op = cand[pick(b, (unsigned)n)];
    text_apply(out, op->fmt, ops, 2, t->ncases);
    text_free(&ops[0], t->ncases);
    text_free(&ops[1], t->ncases);
    if (is_comparison(op->name))
        return SC_BOOLEAN;
    if (s == SC_BOOLEAN || s == TY_UNKNOWN || !strcmp(op->name, "/"))
        return TY_UNKNOWN;
    return s;
}

static ScalarId gen_unary(Bytes *b, Tree *t, int depth, Text *out)
{
    Text x;
    text_init(&x, t->ncases);
    ScalarId s = gen_expr(b, t, depth + 1, &x);
    const Op *cand[sizeof UNARY / sizeof *UNARY];
    int n = 0;
    for (size_t i = 0; i < sizeof UNARY / sizeof *UNARY; i++)
        if (applies(&UNARY[i], s))
            cand[n++] = &UNARY[i];
    ScalarId r = s;
    if (n == 0) {
        text_apply(out, "($0)", &x, 1, t->ncases);
    } else {
        text_apply(out, cand[pick(b, (unsigned)n)]->fmt, &x, 1, t->ncases);
    }
    text_free(&x, t->ncases);
    return r;
}

/* T(x), x.to(T), or for floats x.to(T, rounding_mode=M). */
static ScalarId gen_convert(Bytes *b, Tree *t, int depth, Text *out)
{
    Text x;
    text_init(&x, t->ncases);
    ScalarId from = gen_expr(b, t, depth + 1, &x);
    ScalarId to = any_scalar(b);
    char fmt[160];
    unsigned how = pick(b, 3);
    if (how == 2 && is_float(from) && is_float(to))
        snprintf(fmt, sizeof fmt, "($0).to(%s, rounding_mode=fx.RoundingMode.%s)", sc_name(to),
                 MODES[pick(b, sizeof MODES / sizeof *MODES)]);
    else if (how == 1)
        snprintf(fmt, sizeof fmt, "($0).to(%s)", sc_name(to));
    else
        snprintf(fmt, sizeof fmt, "%s($0)", sc_name(to));
    text_apply(out, fmt, &x, 1, t->ncases);
    text_free(&x, t->ncases);
    return to;
}

static ScalarId gen_expr(Bytes *b, Tree *t, int depth, Text *out)
{
    unsigned kind = depth >= MAX_DEPTH || ++t->nodes > MAX_NODES ? 0 : pick(b, 8);
    switch (kind) {
    case 0:
    case 1:
        return gen_leaf(b, t, TY_UNKNOWN, out);
    case 2:
        return gen_bitcast(b, t, out);
    case 3:
        return gen_unary(b, t, depth, out);
    case 4:
        return gen_convert(b, t, depth, out);
    default:
        return gen_binary(b, t, depth, out);
    }
}

/* ---- folding and running ---- */

static Folder *folder;

/* FUZZ_DIFF_STATS=1: how far the inputs get, printed at exit (a harness
 * whose inputs never reach the comparison would pass without testing);
 * FUZZ_DIFF_STATS=2 also prints each kernel. */
static struct {
    long inputs, folded, compiled, cases;   /* folded: expressions */
} stats;

static void print_stats(void)
{
    fprintf(stderr, "fuzz_diff: %ld inputs, %ld expressions folded, %ld kernels compiled and run, %ld cases compared\n", stats.inputs,
            stats.folded, stats.compiled, stats.cases);
}

typedef struct {
    bool folded[MAX_CASES];
    u128 bits[MAX_CASES];
    ScalarId type;      /* the folded result's type (every folded case agrees) */
} Expected;

static bool fold_cases(const Tree *t, const Text *e, Expected *x)
{
    bool any = false;
    for (int c = 0; c < t->ncases; c++) {
        const Type *ty;
        x->folded[c] = fold_text(folder, e->fold[c], &ty, &x->bits[c]);
        if (!x->folded[c])
            continue;
        if (any && ty->scalar != x->type) {
            fprintf(stderr, "fuzz: folded types differ between cases: %s and %s\n  %s\n", sc_name(x->type),
                    sc_name(ty->scalar), e->fold[c]);
            abort();
        }
        x->type = ty->scalar;
        any = true;
    }
    return any;
}

/* The expressions the folder answers for at least one case. */
typedef struct {
    int n;
    Text *e[MAX_EXPRS];
    Expected *x[MAX_EXPRS];
} Kept;

static char *kernel_source(const Tree *t, const Kept *k)
{
    char *src = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&src, &len);
    fprintf(m, "kernel k(");
    for (int j = 0; j < t->ninputs; j++)
        fprintf(m, "%c: Ptr[%s], ", 'a' + j, sc_name(t->in[j]));
    for (int r = 0; r < k->n; r++)
        fprintf(m, "r%d: Ptr[%s], ", r, sc_name(k->x[r]->type));
    fprintf(m, "n: Int32) {\n    let i = block_idx.x * block_dim.x + thread_idx.x\n    if i < n {\n");
    for (int r = 0; r < k->n; r++)
        fprintf(m, "        r%d[i] = %s\n", r, k->e[r]->kern);
    fprintf(m, "    }\n}\n");
    fclose(m);
    return src;
}

static bool same(ScalarId s, u128 exp, u128 got)
{
    if (storage_of(s, exp) == got)
        return true;
    const FloatFormat *f = sc_fmt(s);
    return f && ff_is_nan(f, (uint64_t)(exp & sc_mask(s))) && ff_is_nan(f, (uint64_t)(got & sc_mask(s)));
}

static void compare(const Tree *t, const Text *e, const Expected *x, const unsigned char *out, const char *src)
{
    for (int c = 0; c < t->ncases; c++) {
        if (!x->folded[c])
            continue;
        u128 got = get_lane(out + (size_t)c * lane_bytes(x->type), x->type);
        stats.cases++;
        if (same(x->type, x->bits[c], got))
            continue;
        char eh[64], gh[64];
        hexbits(x->type, x->bits[c], eh, sizeof eh);
        hexbits(x->type, got, gh, sizeof gh);
        fprintf(stderr, "fuzz: MISMATCH in case %d: folded %s, run time %s (%s)\n  folded: %s\n  kernel:\n%s",
                c, eh, gh, sc_name(x->type), e->fold[c], src);
        abort();
    }
}

/* Runs the kernel over the cases, one work-item each, with every buffer's
 * size known to the launch (an out-of-range access would be a finding). */
static void run(RtHostModule *hm, const Tree *t, const Kept *k, const char *src)
{
    enum { NBUF = MAX_INPUTS + MAX_EXPRS };
    unsigned char *buf[NBUF];
    void *ptrs[NBUF], *args[NBUF + 1];
    size_t bytes[NBUF + 1];
    int nbuf = t->ninputs + k->n;
    for (int j = 0; j < nbuf; j++) {
        ScalarId s = j < t->ninputs ? t->in[j] : k->x[j - t->ninputs]->type;
        buf[j] = calloc(MAX_CASES, 16);
        for (int c = 0; j < t->ninputs && c < t->ncases; c++)
            put_lane(buf[j] + (size_t)c * lane_bytes(s), s, t->val[c][j]);
        bytes[j] = (size_t)t->ncases * lane_bytes(s);
        ptrs[j] = buf[j];
        args[j] = &ptrs[j];
    }
    int32_t n = t->ncases;
    args[nbuf] = &n;
    bytes[nbuf] = RT_UNKNOWN_SIZE;
    unsigned grid[3] = { 1, 1, 1 }, block[3] = { MAX_CASES, 1, 1 };
    char *err = NULL;
    if (rt_host_launch_checked(hm, "k", grid, block, args, bytes, &err) != 0) {
        fprintf(stderr, "fuzz: the launch failed: %s\n%s", err ? err : "?", src);
        abort();
    }
    for (int r = 0; r < k->n; r++)
        compare(t, k->e[r], k->x[r], buf[t->ninputs + r], src);
    for (int j = 0; j < nbuf; j++)
        free(buf[j]);
}

static void compile_and_run(const Tree *t, const Kept *k)
{
    char *src = kernel_source(t, k);
    const char *show = getenv("FUZZ_DIFF_STATS");
    if (show && atoi(show) >= 2)
        fprintf(stderr, "%s", src);
    FzCompile z;
    fz_options(&z, NULL, 2);
    if (fz_parse(&z, (const uint8_t *)src, strlen(src)) && fz_lower(&z)) {
        char *err = NULL;
        RtHostModule *hm = pipe_jit(&z.c, &err);
        fz_check_diag(&z);
        if (hm) {
            stats.compiled++;
            run(hm, t, k, src);
            rt_host_free(hm);
        } else if (err) {
            fprintf(stderr, "fuzz: the JIT failed: %s\n%s", err, src);
            abort();
        }
    }
    fz_finish(&z);
    free(src);
}

int fz_one(const uint8_t *data, size_t size)
{
    if (!folder) {
        folder = folder_new();
        if (getenv("FUZZ_DIFF_STATS"))
            atexit(print_stats);
    }
    stats.inputs++;
    Bytes b = { data, size, 0 };
    Tree t = { 0 };
    t.ncases = 1 + (int)pick(&b, MAX_CASES);
    int nexpr = 1 + (int)pick(&b, MAX_EXPRS);
    Text e[MAX_EXPRS];
    Expected x[MAX_EXPRS];
    Kept k = { 0 };
    for (int i = 0; i < nexpr; i++) {
        if (i > 0 && b.at >= b.n) {   /* the bytes ran out: only copies of operands would follow */
            nexpr = i;
            break;
        }
        text_init(&e[i], t.ncases);
        t.nodes = 0;
        gen_expr(&b, &t, 0, &e[i]);
        memset(&x[i], 0, sizeof x[i]);
        if (fold_cases(&t, &e[i], &x[i])) {
            k.e[k.n] = &e[i];
            k.x[k.n++] = &x[i];
        }
    }
    stats.folded += k.n;
    if (k.n > 0)
        compile_and_run(&t, &k);
    for (int i = 0; i < nexpr; i++)
        text_free(&e[i], t.ncases);
    return 0;
}
