/* test_program_order.c - random tensor programs against a sequential
 * reference. map-fusion folds chains and gathers sibling Maps into one
 * kernel, moving Maps past the nodes between; whatever it does, a program
 * must compute what its statements say in their order. Each program writes
 * and rereads four Int32 tensors, `let`s (transients) and a one-element
 * tensor that reductions write and Maps broadcast, so reads after writes,
 * writes after reads and writes after writes all occur. Int32 wraps, so
 * the reference's arithmetic is exact in any order. */
#include "fxtest.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prog.h"

enum { LEN = 16, NX = 4, MAX_STMTS = 10, MAX_LETS = MAX_STMTS, PROGRAMS = 250 };

/* An operand: X0..X3, a let, s (the one-element tensor), n (a scalar
 * parameter) or a literal. */
typedef enum { OP_X, OP_LET, OP_S, OP_N, OP_LIT } OperandKind;
typedef struct Operand { OperandKind kind; int index; } Operand;

/* dst = a OP b (a Map), or s = fx.reduce_sum(a, axis=0) (reduce). */
typedef struct Stmt {
    bool reduce;
    Operand dst, a, b;
    char op;
} Stmt;

typedef struct Program {
    Stmt s[MAX_STMTS];
    int n, nlets;
} Program;

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int pick(int n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int)(rng % (uint64_t)n);
}

/* A 16-element tensor: one of X0..X3 or a let defined so far. */
static Operand pick_long(const Program *p)
{
    int i = pick(NX + p->nlets);
    return i < NX ? (Operand){ OP_X, i } : (Operand){ OP_LET, i - NX };
}

static Operand pick_any(const Program *p)
{
    switch (pick(6)) {
    case 0: return (Operand){ OP_S, 0 };
    case 1: return (Operand){ OP_N, 0 };
    case 2: return (Operand){ OP_LIT, 1 + pick(7) };
    default: return pick_long(p);
    }
}

static void random_program(Program *p)
{
    p->n = 3 + pick(MAX_STMTS - 2);
    p->nlets = 0;
    for (int i = 0; i < p->n; i++) {
        Stmt *st = &p->s[i];
        memset(st, 0, sizeof *st);
        st->op = "+-*"[pick(3)];
        int kind = pick(10);
        if (kind == 0) {   /* s = fx.reduce_sum(long, axis=0) */
            st->reduce = true;
            st->dst = (Operand){ OP_S, 0 };
            st->a = pick_long(p);
        } else if (kind == 1) {   /* s = s OP (n | literal | s) */
            st->dst = (Operand){ OP_S, 0 };
            st->a = (Operand){ OP_S, 0 };
            int b = pick(3);
            st->b = b == 0 ? (Operand){ OP_N, 0 } : b == 1 ? (Operand){ OP_LIT, 1 + pick(7) } : (Operand){ OP_S, 0 };
        } else {
            st->a = pick_long(p);
            st->b = pick_any(p);
            st->dst = kind < 4 ? (Operand){ OP_LET, p->nlets++ } : (Operand){ OP_X, pick(NX) };
        }
    }
}

static void print_operand(char *out, size_t size, Operand o)
{
    switch (o.kind) {
    case OP_X: snprintf(out, size, "X%d", o.index); break;
    case OP_LET: snprintf(out, size, "L%d", o.index); break;
    case OP_S: snprintf(out, size, "s"); break;
    case OP_N: snprintf(out, size, "n"); break;
    case OP_LIT: snprintf(out, size, "%d", o.index); break;
    }
}

static void program_source(const Program *p, char *src, size_t size)
{
    int len = snprintf(src, size, "program g(X0: Tensor[Int32, %d], X1: Tensor[Int32, %d], X2: Tensor[Int32, %d],\n"
                                  "          X3: Tensor[Int32, %d], s: Tensor[Int32, 1], n: Int32) {\n",
                       LEN, LEN, LEN, LEN);
    for (int i = 0; i < p->n; i++) {
        const Stmt *st = &p->s[i];
        char d[16], a[16], b[16];
        print_operand(d, sizeof d, st->dst);
        print_operand(a, sizeof a, st->a);
        print_operand(b, sizeof b, st->b);
        const char *let = st->dst.kind == OP_LET ? "let " : "";
        if (st->reduce)
            len += snprintf(src + len, size - (size_t)len, "    s = fx.reduce_sum(%s, axis=0)\n", a);
        else
            len += snprintf(src + len, size - (size_t)len, "    %s%s = %s %c %s\n", let, d, a, st->op, b);
    }
    snprintf(src + len, size - (size_t)len, "}\n");
}

/* ---- the reference: the statements one after the other ---- */

typedef struct State {
    uint32_t x[NX][LEN], let[MAX_LETS][LEN], s, n;
} State;

static uint32_t element(const State *st, Operand o, int i)
{
    switch (o.kind) {
    case OP_X: return st->x[o.index][i];
    case OP_LET: return st->let[o.index][i];
    case OP_S: return st->s;
    case OP_N: return st->n;
    case OP_LIT: return (uint32_t)o.index;
    }
    return 0;
}

static uint32_t apply(char op, uint32_t a, uint32_t b)
{
    return op == '+' ? a + b : op == '-' ? a - b : a * b;
}

static void run_reference(const Program *p, State *st)
{
    for (int k = 0; k < p->n; k++) {
        const Stmt *s = &p->s[k];
        if (s->reduce) {
            uint32_t sum = 0;
            for (int i = 0; i < LEN; i++)
                sum += element(st, s->a, i);
            st->s = sum;
            continue;
        }
        if (s->dst.kind == OP_S) {
            st->s = apply(s->op, st->s, element(st, s->b, 0));
            continue;
        }
        uint32_t r[LEN];
        for (int i = 0; i < LEN; i++)
            r[i] = apply(s->op, element(st, s->a, i), element(st, s->b, i));
        memcpy(s->dst.kind == OP_X ? st->x[s->dst.index] : st->let[s->dst.index], r, sizeof r);
    }
}

static void initial_state(State *st)
{
    memset(st, 0, sizeof *st);
    for (int t = 0; t < NX; t++)
        for (int i = 0; i < LEN; i++)
            st->x[t][i] = (uint32_t)(pick(2001) - 1000);
    st->s = (uint32_t)(pick(201) - 100);
    st->n = (uint32_t)(pick(21) - 10);
}

/* Every random program gives the reference's tensors; map-fusion gathered
 * siblings in many of them (a program's steps are fewer than its nodes). */
static void test_random_programs(void)
{
    int failures = 0, gathered = 0;
    for (int k = 0; k < PROGRAMS && failures < 3; k++) {
        Program prog;
        random_program(&prog);
        char src[4096];
        program_source(&prog, src, sizeof src);
        State want, got;
        initial_state(&want);
        got = want;
        run_reference(&prog, &want);
        Prog p;
        if (!prog_open(&p, src, "g", NULL)) {
            fprintf(stderr, "\n  does not compile:\n%s", src);
            CU_FAIL("a random program does not compile");
            failures++;
            prog_close(&p);
            continue;
        }
        const FxProgram *graph = p.c.module->programs.items[0];
        for (int i = 0; i < graph->nodes.len; i++)
            gathered += ((const FxNode *)graph->nodes.items[i])->with_previous;
        int32_t x[NX][LEN], s = (int32_t)got.s, n = (int32_t)got.n;
        memcpy(x, got.x, sizeof x);
        void *px[NX] = { x[0], x[1], x[2], x[3] }, *ps = &s;
        void *args[] = { &px[0], &px[1], &px[2], &px[3], &ps, &n };
        CU_ASSERT_FATAL(prog_run(&p, args));
        bool same = memcmp(x, want.x, sizeof x) == 0 && (uint32_t)s == want.s;
        if (!same) {
            fprintf(stderr, "\n  program %d differs from its statements in order:\n%s", k, src);
            failures++;
        }
        CU_ASSERT(same);
        prog_close(&p);
    }
    CU_ASSERT(gathered >= PROGRAMS / 4);
}

static const FxtTest tests[] = {
    { "random programs compute their statements in order", test_random_programs },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = {
        { "program order", tests, NULL, NULL },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
