/* test_program_order.c - random tensor programs against a sequential
 * reference. map-fusion folds chains and gathers sibling Maps into one
 * kernel, moving Maps past the nodes between, and a product may write a
 * tensor it reads; whatever the passes and the lowering do, a program must
 * compute what its statements say in their order.
 *
 * Each program writes and rereads four 36x36 Int32 tensors (a product is
 * 2 x 2 tiles, so tiles read what others may have written), `let`s
 * (transients), r and q (36 elements: reductions write them, Maps
 * broadcast them along rows) and c (36 x 1, broadcast along columns). Its
 * statements are Maps, sums, maxima and minima over either axis (of a
 * tensor, or of an expression that map-fusion folds into the reduction
 * unless it reads the output; two reductions may share a kernel), and
 * products (either operand transposed, with or without `+ X`), so reads
 * after writes, writes after reads and writes after writes all occur.
 * Every other program has symbolic dims (a parameter D) instead of 36.
 * Int32 wraps, so the reference's arithmetic is exact in any order.
 *
 * A second series of 30 runs gfx942's kernels on its emulated waves.
 * For longer runs: FX_PROGRAMS=N runs N programs in each series instead of
 * 150 and 30, and FX_PROGRAM_SEED=S draws other ones (a failure prints its
 * source). */
#include "fxtest.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prog.h"

enum { DIM = 36, LEN = DIM * DIM, NX = 4, MAX_STMTS = 10, MAX_LETS = MAX_STMTS, PROGRAMS = 150 };

/* An operand: X0..X3, a let, r (DIM elements, broadcast along rows), c
 * (DIM x 1, broadcast along columns), n (a scalar parameter) or a literal. */
typedef enum { OP_X, OP_LET, OP_R, OP_C, OP_N, OP_LIT } OperandKind;
typedef struct Operand { OperandKind kind; int index; } Operand;

typedef enum { ST_MAP, ST_REDUCE, ST_MATMUL } StmtKind;

/* dst = a OP b (a Map); r = fx.reduce_sum(a [OP b], axis=axis); dst = a[.T] @ b[.T] [+ dst]. */
typedef struct Stmt {
    StmtKind kind;
    Operand dst, a, b;
    char op;      /* a Map's + - *; a reduction's s (sum), M (max), m (min) */
    char of;      /* a reduction of a OP b: its + - * (map-fusion folds the Map into it); 0: of a */
    int axis;
    bool ta, tb, plus_dst;
} Stmt;

typedef struct Program {
    Stmt s[MAX_STMTS];
    int n, nlets;
    const Stmt *last_reduction;   /* the latest so far, or NULL */
} Program;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int pick(int n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (uint64_t)n);
}

/* A DIM x DIM tensor: one of X0..X3 or a let defined so far. */
static Operand pick_matrix(const Program *p)
{
    int i = pick(NX + p->nlets);
    return i < NX ? (Operand){ OP_X, i } : (Operand){ OP_LET, i - NX };
}

static Operand pick_any(const Program *p)
{
    switch (pick(7)) {
    case 0: return (Operand){ OP_R, pick(2) };
    case 1: return (Operand){ OP_C, 0 };
    case 2: return (Operand){ OP_N, 0 };
    case 3: return (Operand){ OP_LIT, 1 + pick(7) };
    default: return pick_matrix(p);
    }
}

/* The result of a Map or a product: a new let (a third of the time) or an X. */
static Operand pick_dst(Program *p)
{
    return pick(3) == 0 ? (Operand){ OP_LET, p->nlets++ } : (Operand){ OP_X, pick(NX) };
}

static void random_stmt(Program *p, Stmt *st)
{
    memset(st, 0, sizeof *st);
    st->op = "+-*"[pick(3)];
    int kind = pick(11) - 1;   /* -1 and 0: a reduction */
    if (kind <= 0) {
        st->kind = ST_REDUCE;
        st->op = "sMm"[pick(3)];
        st->dst = (Operand){ OP_R, pick(2) };   /* r or q: two reductions may share a kernel */
        st->a = pick_matrix(p);
        st->axis = pick(2);
        if (pick(2)) {   /* of an expression, which may read r, the reduction's output */
            st->of = "+-*"[pick(3)];
            st->b = pick_any(p);
        }
        const Stmt *last = p->last_reduction;
        if (last && pick(2)) {   /* the other output, along the same axis of the same tensor: siblings */
            st->a = last->a;
            st->axis = last->axis;
            st->dst = (Operand){ OP_R, !last->dst.index };
        }
        p->last_reduction = st;
    } else if (kind == 1) {   /* r = r OP (n | literal | r), or the same for q or c */
        Operand v = pick(2) ? (Operand){ OP_R, pick(2) } : (Operand){ OP_C, 0 };
        st->dst = st->a = v;
        int b = pick(3);
        st->b = b == 0 ? (Operand){ OP_N, 0 } : b == 1 ? (Operand){ OP_LIT, 1 + pick(7) } : v;
    } else if (kind <= 3) {
        st->kind = ST_MATMUL;
        st->a = pick_matrix(p);
        st->b = pick_matrix(p);
        st->ta = pick(2);
        st->tb = pick(2);
        st->dst = pick_dst(p);
        st->plus_dst = st->dst.kind == OP_X && pick(2);
    } else {
        st->a = pick_matrix(p);
        st->b = pick_any(p);
        st->dst = pick_dst(p);
    }
}

static void random_program(Program *p)
{
    p->n = 3 + pick(MAX_STMTS - 2);
    p->nlets = 0;
    p->last_reduction = NULL;
    for (int i = 0; i < p->n; i++)
        random_stmt(p, &p->s[i]);
}

static const char *operand_text(char *out, size_t size, Operand o)
{
    switch (o.kind) {
    case OP_X: snprintf(out, size, "X%d", o.index); break;
    case OP_LET: snprintf(out, size, "L%d", o.index); break;
    case OP_R: snprintf(out, size, "%s", o.index ? "q" : "r"); break;
    case OP_C: snprintf(out, size, "c"); break;
    case OP_N: snprintf(out, size, "n"); break;
    case OP_LIT: snprintf(out, size, "%d", o.index); break;
    }
    return out;
}

static int stmt_source(const Stmt *st, char *src, size_t size)
{
    char d[16], a[16], b[16];
    operand_text(d, sizeof d, st->dst);
    operand_text(a, sizeof a, st->a);
    operand_text(b, sizeof b, st->b);
    const char *let = st->dst.kind == OP_LET ? "let " : "";
    switch (st->kind) {
    case ST_REDUCE: {
        char of[40];
        snprintf(of, sizeof of, st->of ? "%s %c %s" : "%s", a, st->of, b);
        return snprintf(src, size, "    %s = fx.reduce_%s(%s, axis=%d)\n", d,
                        st->op == 's' ? "sum" : st->op == 'M' ? "max" : "min", of, st->axis);
    }
    case ST_MATMUL:
        return snprintf(src, size, "    %s%s = %s%s @ %s%s%s%s\n", let, d, a, st->ta ? ".T" : "", b,
                        st->tb ? ".T" : "", st->plus_dst ? " + " : "", st->plus_dst ? d : "");
    default: return snprintf(src, size, "    %s%s = %s %c %s\n", let, d, a, st->op, b);
    }
}

/* The tensors' dims are the literal DIM, or (symbolic) the parameter D. */
static void program_source(const Program *p, bool symbolic, char *src, size_t size)
{
    char d[8];
    snprintf(d, sizeof d, "%d", DIM);
    const char *dim = symbolic ? "D" : d;
    int len = snprintf(src, size,
                       "program g(X0: Tensor[Int32, %s, %s], X1: Tensor[Int32, %s, %s], X2: Tensor[Int32, %s, %s],\n"
                       "          X3: Tensor[Int32, %s, %s], r: Tensor[Int32, %s], q: Tensor[Int32, %s],\n"
                       "          c: Tensor[Int32, %s, 1], n: Int32%s) {\n",
                       dim, dim, dim, dim, dim, dim, dim, dim, dim, dim, dim, symbolic ? ", D: Int32" : "");
    for (int i = 0; i < p->n; i++)
        len += stmt_source(&p->s[i], src + len, size - (size_t)len);
    snprintf(src + len, size - (size_t)len, "}\n");
}

/* ---- the reference: the statements one after the other ---- */

typedef struct State {
    uint32_t x[NX][LEN], let[MAX_LETS][LEN], r[2][DIM], c[DIM], n;   /* r[1]: q */
} State;

/* Element i (row-major) of a DIM x DIM operand; r broadcasts along rows, c
 * along columns. */
static uint32_t element(const State *st, Operand o, int i)
{
    switch (o.kind) {
    case OP_X: return st->x[o.index][i];
    case OP_LET: return st->let[o.index][i];
    case OP_R: return st->r[o.index][i % DIM];
    case OP_C: return st->c[i / DIM];
    case OP_N: return st->n;
    case OP_LIT: return (uint32_t)o.index;
    }
    return 0;
}

static uint32_t *matrix(State *st, Operand o)
{
    return o.kind == OP_X ? st->x[o.index] : st->let[o.index];
}

static uint32_t apply(char op, uint32_t a, uint32_t b)
{
    return op == '+' ? a + b : op == '-' ? a - b : a * b;
}

static void run_stmt(const Stmt *s, State *st)
{
    uint32_t res[LEN];
    switch (s->kind) {
    case ST_REDUCE:
        for (int i = 0; i < LEN; i++)   /* what is reduced, all of it before r changes */
            res[i] = s->of ? apply(s->of, element(st, s->a, i), element(st, s->b, i)) : element(st, s->a, i);
        for (int i = 0; i < DIM; i++) {
            uint32_t acc = res[s->axis == 0 ? i : i * DIM];
            for (int j = 1; j < DIM; j++) {
                uint32_t e = res[s->axis == 0 ? j * DIM + i : i * DIM + j];
                acc = s->op == 's' ? acc + e : (s->op == 'M') == ((int32_t)e > (int32_t)acc) ? e : acc;
            }
            st->r[s->dst.index][i] = acc;
        }
        return;
    case ST_MATMUL:
        for (int i = 0; i < DIM; i++)
            for (int j = 0; j < DIM; j++) {
                uint32_t sum = s->plus_dst ? element(st, s->dst, i * DIM + j) : 0;
                for (int k = 0; k < DIM; k++)
                    sum += element(st, s->a, s->ta ? k * DIM + i : i * DIM + k) *
                           element(st, s->b, s->tb ? j * DIM + k : k * DIM + j);
                res[i * DIM + j] = sum;
            }
        break;
    case ST_MAP:
        if (s->dst.kind == OP_R || s->dst.kind == OP_C) {   /* v = v OP (n | literal | v) */
            uint32_t *v = s->dst.kind == OP_R ? st->r[s->dst.index] : st->c;
            bool self = s->b.kind == s->dst.kind && s->b.index == s->dst.index;
            for (int i = 0; i < DIM; i++)
                v[i] = apply(s->op, v[i], self ? v[i] : element(st, s->b, 0));
            return;
        }
        for (int i = 0; i < LEN; i++)
            res[i] = apply(s->op, element(st, s->a, i), element(st, s->b, i));
        break;
    }
    memcpy(matrix(st, s->dst), res, sizeof res);
}

static void initial_state(State *st)
{
    memset(st, 0, sizeof *st);
    for (int t = 0; t < NX; t++)
        for (int i = 0; i < LEN; i++)
            st->x[t][i] = (uint32_t)(pick(2001) - 1000);
    for (int i = 0; i < DIM; i++) {
        st->r[0][i] = (uint32_t)(pick(201) - 100);
        st->r[1][i] = (uint32_t)(pick(201) - 100);
        st->c[i] = (uint32_t)(pick(201) - 100);
    }
    st->n = (uint32_t)(pick(21) - 10);
}

/* Every random program gives the reference's tensors; map-fusion gathered
 * siblings in many of them (a program's steps are fewer than its nodes). */
static void test_random_programs(void)
{
    int failures = 0, gathered = 0, reductions_gathered = 0, programs = prog_wave_arch ? PROGRAMS / 5 : PROGRAMS;
    const char *count = getenv("FX_PROGRAMS"), *seed = getenv("FX_PROGRAM_SEED");
    if (count && atoi(count) > 0)
        programs = atoi(count);
    if (seed && strtoull(seed, NULL, 0) != 0)
        rng = strtoull(seed, NULL, 0);
    for (int k = 0; k < programs && failures < 3; k++) {
        Program prog;
        random_program(&prog);
        char src[4096];
        bool symbolic = k % 2;
        program_source(&prog, symbolic, src, sizeof src);
        State want, got;
        initial_state(&want);
        got = want;
        for (int i = 0; i < prog.n; i++)
            run_stmt(&prog.s[i], &want);
        Prog p;
        if (!prog_open(&p, src, "g", NULL)) {
            fprintf(stderr, "\n  does not compile:\n%s", src);
            CU_FAIL("a random program does not compile");
            failures++;
            prog_close(&p);
            continue;
        }
        const FxProgram *graph = p.c.module->programs.items[0];
        for (int i = 0; i < graph->nodes.len; i++) {
            const FxNode *node = graph->nodes.items[i];
            gathered += node->with_previous;
            reductions_gathered += node->with_previous && node->kind == FXN_REDUCE;
        }
        int32_t x[NX][LEN], r[2][DIM], c[DIM], n = (int32_t)got.n, d = DIM;
        memcpy(x, got.x, sizeof x);
        memcpy(r, got.r, sizeof r);
        memcpy(c, got.c, sizeof c);
        void *px[NX] = { x[0], x[1], x[2], x[3] }, *pr = r[0], *pq = r[1], *pc = c;
        void *args[] = { &px[0], &px[1], &px[2], &px[3], &pr, &pq, &pc, &n, &d };   /* d: symbolic programs' D */
        CU_ASSERT_FATAL(prog_run(&p, args));
        bool same = memcmp(x, want.x, sizeof x) == 0 && memcmp(r, want.r, sizeof r) == 0 &&
                    memcmp(c, want.c, sizeof c) == 0;
        if (!same) {
            fprintf(stderr, "\n  program %d differs from its statements in order:\n%s", k, src);
            failures++;
        }
        CU_ASSERT(same);
        prog_close(&p);
    }
    CU_ASSERT(gathered >= programs / 4);
    CU_ASSERT(reductions_gathered >= programs / 50);
}

/* The second series runs gfx942's kernels with its waves emulated (fxrun
 * --arch gfx942): reductions there are trees in LDS across waves of 64. */
static int init_gfx942(void)
{
    prog_wave_arch = "gfx942";
    rng ^= 0x5bd1e995u;   /* other programs than the first series' */
    return 0;
}

static int clean_gfx942(void)
{
    prog_wave_arch = NULL;
    return 0;
}

static const FxtTest tests[] = {
    { "random programs compute their statements in order", test_random_programs },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = {
        { "program order", tests, NULL, NULL },
        { "program order on gfx942's waves", tests, init_gfx942, clean_gfx942 },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
