/* random_kernel.c - random kernels of the shapes the host's region code
 * handles (random_kernel.h), for tests/hostregion and fuzz/fuzz_regions.c.
 * Kernels made of the shapes the region code handles, nested at random:
 * barriers, block-level ifs and loops on uniform values (the kernel's n, a
 * fn's m, loop counters, the value of a fn with barriers in a loop's
 * test), break and continue, a thread-dependent continue after which
 * nothing waits in its round, a value broadcast through
 * shared memory, calls of fns with barriers that may return early, and
 * kernel returns; between them work-item arithmetic and ifs on it without
 * barriers. Every barrier is uniform unless the kernel is wild, so each
 * kernel must run as loops, and give the bits of fibers. The nesting has a
 * budget, so a kernel is small whatever the choices. */
#include "random_kernel.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Gen {
    char *buf;
    size_t len, cap;
    uint64_t rng;           /* the choices: from a seed, or */
    const uint8_t *bytes;   /* from bytes (a fuzzer's input), 0 once they run out */
    size_t nbytes, at;
    int names;              /* loop counters made so far */
    char name[256][16];     /* their names (a kernel makes far fewer) */
    const char *atoms[8];   /* uniform Int32 names in scope */
    int natoms;
    int loops;              /* loops open around the statement */
    int fns;                /* fns defined so far: h0 .. h(fns - 1) */
    bool in_fn;             /* in a fn: the accumulator is r, returns give r */
    bool wild;              /* some tests, trip counts and fn arguments depend on t */
    bool waves;             /* some barriers are wave operations instead (exchanges) */
} Gen;

static void emit(Gen *g, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(g->buf + g->len, g->cap - g->len, fmt, ap);
        va_end(ap);
        if (n >= 0 && (size_t)n < g->cap - g->len) {
            g->len += (size_t)n;
            return;
        }
        g->cap = g->cap * 2 + (size_t)(n > 0 ? n : 0) + 64;
        g->buf = realloc(g->buf, g->cap);
    }
}

/* A choice among n (at most 256). */
static int pick(Gen *g, int n)
{
    if (g->bytes)
        return g->at < g->nbytes ? g->bytes[g->at++] % n : 0;
    g->rng = g->rng * 6364136223846793005u + 1442695040888963407u;
    return (int)((g->rng >> 33) % (uint64_t)n);
}

static void indent(Gen *g, int depth)
{
    emit(g, "%*s", 4 * depth, "");
}

static const char *acc(const Gen *g);

/* A uniform test: (atom + atom * k) % m == r; when wild, one in four
 * depends on t, directly or through the accumulator (which the values of
 * fns feed): (t + atom) % m == r, acc % m == r. */
static void uniform_test(Gen *g)
{
    if (g->wild && pick(g, 4) == 0) {
        int m = 2 + pick(g, 3);
        if (pick(g, 2))
            emit(g, "(t + %s) %% %d == %d", g->atoms[pick(g, g->natoms)], m, pick(g, m));
        else
            emit(g, "%s %% %d == %d", acc(g), m, pick(g, m));
        return;
    }
    const char *a = g->atoms[pick(g, g->natoms)], *b = g->atoms[pick(g, g->natoms)];
    int m = 2 + pick(g, 3);
    emit(g, "(%s + %s * %d) %% %d == %d", a, b, 1 + pick(g, 5), m, pick(g, m));
}

static void gen_block(Gen *g, int depth, int budget);

static void gen_uniform_if(Gen *g, int depth, int budget)
{
    indent(g, depth);
    emit(g, "if ");
    uniform_test(g);
    emit(g, " {\n");
    gen_block(g, depth + 1, budget - 1);
    indent(g, depth);
    emit(g, "} else {\n");
    gen_block(g, depth + 1, budget - 1);
    indent(g, depth);
    emit(g, "}\n");
}

static const char *acc(const Gen *g)
{
    return g->in_fn ? "r" : "acc";
}

/* A loop's trip count: 1 to 3, now and then 0. */
static int trips(Gen *g)
{
    return pick(g, 6) == 0 ? 0 : 1 + pick(g, 3);
}

/* A range or while loop of 0 to 3 rounds; its counter is a uniform atom. */
static void gen_loop(Gen *g, int depth, int budget)
{
    char *name = g->name[g->names++ % 256];
    int kind = pick(g, 3);   /* range, while, while whose test calls top (it waits) */
    snprintf(name, sizeof g->name[0], "%c%d", kind ? 'w' : 'i', g->names - 1);
    indent(g, depth);
    if (kind) {
        emit(g, "var %s = 0\n", name);
        indent(g, depth);
        const char *more = g->wild && pick(g, 4) == 0 ? " + t % 2" : "";   /* a trip count by t */
        if (kind == 1)
            emit(g, "while %s < %d%s {\n", name, trips(g), more);
        else
            emit(g, "while %s < %d + top(s, %s %% 3) %% 2%s {\n", name, trips(g), acc(g), more);
        indent(g, depth + 1);
        emit(g, "%s += 1\n", name);
    } else {
        emit(g, "for %s in range(%d) {\n", name, trips(g));
    }
    bool room = g->natoms < 8;
    if (room)
        g->atoms[g->natoms++] = name;
    g->loops++;
    gen_block(g, depth + 1, budget - 1);
    g->loops--;
    if (pick(g, 3) == 0) {   /* a thread-dependent continue at the end of the round */
        int d1 = 4 * (depth + 1);
        emit(g, "%*sif %s %% 3 == %d {\n%*scontinue\n%*s}\n%*s%s += %d\n", d1, "", acc(g), pick(g, 3), d1 + 4,
             "", d1, "", d1, "", acc(g), 1 + pick(g, 9));
    }
    if (room)
        g->natoms--;
    indent(g, depth);
    emit(g, "}\n");
}

/* `if <uniform test> {` and the statement under it, then `}`. */
static void gen_uniform_guard(Gen *g, int depth, const char *then)
{
    indent(g, depth);
    emit(g, "if ");
    uniform_test(g);
    emit(g, " {\n%*s%s\n", 4 * (depth + 1), "", then);
    indent(g, depth);
    emit(g, "}\n");
}

/* Work-item 0's value, through s[0], to every work-item. */
static void gen_broadcast(Gen *g, int depth)
{
    const char *a = acc(g);
    int d = 4 * depth, d1 = 4 * (depth + 1);
    emit(g, "%*sif t == 0 {\n%*ss[0] = %s %% 97 + %s\n%*s}\n", d, "", d1, "", a,
         g->atoms[pick(g, g->natoms)], d, "");
    emit(g, "%*sfx.barrier()\n%*s%s += s[0]\n%*sfx.barrier()\n", d, "", d, "", a, d, "");
}

/* A wave operation on the accumulator (each an exchange in waves wider
 * than one lane): a reduction, shuffles, a read of one lane, a vote. */
static void gen_wave_op(Gen *g, int depth)
{
    static const char *const forms[] = {
        "%s = fx.wave_sum(%s) %% 1000 + t %% 4",
        "%s += fx.shuffle_xor(%s, 1) %% 9",
        "%s += fx.shuffle_down(%s, 3) %% 11",
        "%s += fx.readfirstlane(%s) %% 7",
        "%s += fx.wave_max(%s %% 50) - t %% 3",
        "%s = %s ^ Int32(fx.ballot(%s %% 3 == 0) %% 977)",
    };
    const char *a = acc(g);
    indent(g, depth);
    emit(g, forms[pick(g, (int)(sizeof forms / sizeof forms[0]))], a, a, a);   /* each uses the first two or three */
    emit(g, "\n");
}

/* One statement at block level: the first five kinds hold no block. */
static void gen_statement(Gen *g, int depth, int budget)
{
    const char *a = acc(g);
    int d = 4 * depth;
    char line[96];
    switch (pick(g, budget > 0 ? 10 : 5)) {
    case 0: case 1:
        emit(g, "%*s%s = %s * 3 + t %% 5 + %d\n", d, "", a, a, pick(g, 9));
        break;
    case 2:
        if (g->waves && pick(g, 2))   /* where every work-item of the block is, as a barrier */
            gen_wave_op(g, depth);
        else
            emit(g, "%*sfx.barrier()\n", d, "");
        break;
    case 3:   /* a thread-dependent if without a barrier */
        emit(g, "%*sif %s %% 3 == %d {\n%*s%s += %d\n%*s}\n", d, "", a, pick(g, 3), d + 4, "", a,
             1 + pick(g, 7), d, "");
        break;
    case 4:
        gen_broadcast(g, depth);
        break;
    case 5:
        gen_uniform_if(g, depth, budget);
        break;
    case 6:
        gen_loop(g, depth, budget);
        break;
    case 7:
        if (g->loops > 0)
            gen_uniform_guard(g, depth, pick(g, 2) ? "break" : "continue");
        else
            emit(g, "%*s%s += 1\n", d, "", a);
        break;
    case 8:   /* a call of an earlier fn */
        if (g->fns > 0 && g->wild && pick(g, 4) == 0) {
            if (pick(g, 2)) {   /* a fn's value, from uniform arguments, decides */
                const char *u = g->atoms[pick(g, g->natoms)];
                emit(g, "%*sif h%d(%s, %s, s) %% 2 == 0 {\n", d, "", pick(g, g->fns), u, u);
                gen_block(g, depth + 1, budget - 1);
                emit(g, "%*s}\n", d, "");
            } else {
                emit(g, "%*s%s += h%d(%s, t %% 3, s)\n", d, "", a, pick(g, g->fns), a);
            }
        } else if (g->fns > 0)
            emit(g, "%*s%s += h%d(%s, %s + %d, s)\n", d, "", a, pick(g, g->fns), a,
                 g->atoms[pick(g, g->natoms)], pick(g, 5));
        else
            emit(g, "%*s%s -= 2\n", d, "", a);
        break;
    default:  /* a uniform return */
        if (g->in_fn)
            snprintf(line, sizeof line, "return r + %d", pick(g, 9));
        else
            snprintf(line, sizeof line, "out[g] = acc\n%*sreturn", d + 4, "");
        gen_uniform_guard(g, depth, line);
        break;
    }
}

static void gen_block(Gen *g, int depth, int budget)
{
    int n = depth == 1 ? 3 + pick(g, 4) : 1 + pick(g, 3);
    for (int k = 0; k < n; k++)
        gen_statement(g, depth, budget);
}

#define LINEAR_T "(thread_idx.z * block_dim.y + thread_idx.y) * block_dim.x + thread_idx.x"

/* Kernel `rnd` after up to two fns, its choices from g. malloc'd. */
static char *generate(Gen g)
{
    g.cap = 4096;
    g.buf = malloc(g.cap);
    g.buf[0] = 0;
    /* work-item 0's v, to every work-item: a value the same in all */
    emit(&g, "fn top(shared s: Array[Int32, 1], v: Int32) -> Int32 {\n    if " LINEAR_T " == 0 {\n"
             "        s[0] = v\n    }\n    fx.barrier()\n    let x = s[0]\n    fx.barrier()\n    return x\n}\n");
    int nfns = pick(&g, 3);
    for (int f = 0; f < nfns; f++) {
        emit(&g, "fn h%d(v: Int32, m: Int32, shared s: Array[Int32, 1]) -> Int32 {\n", f);
        emit(&g, "    let t = " LINEAR_T "\n    var r = v\n");
        g.in_fn = true;
        g.atoms[0] = "m";
        g.natoms = 1;
        gen_block(&g, 1, 2);
        emit(&g, "    return r\n}\n");
        g.fns++;
    }
    g.in_fn = false;
    g.atoms[0] = "n";
    g.natoms = 1;
    emit(&g, "@launch_bounds(64)\nkernel rnd(out: Ptr[Int32], n: Int32) {\n    shared s: Array[Int32, 1]\n");
    emit(&g, "    let t = " LINEAR_T "\n");
    emit(&g, "    let g = block_idx.x * block_dim.x * block_dim.y * block_dim.z + t\n    var acc = t\n");
    gen_block(&g, 1, 3);
    emit(&g, "    out[g] = acc\n}\n");
    return g.buf;
}

bool hr_has_wave_op(const char *src)
{
    static const char *const ops[] = { "fx.wave_", "fx.shuffle", "fx.readfirstlane", "fx.ballot" };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (strstr(src, ops[k]))
            return true;
    return false;
}

char *hr_random_kernel(uint64_t seed, bool wild, bool waves)
{
    return generate((Gen){ .rng = seed * 2654435761u + 1, .wild = wild, .waves = waves });
}

char *hr_kernel_from_bytes(const uint8_t *data, size_t size, bool wild, bool waves)
{
    return generate((Gen){ .bytes = data ? data : (const uint8_t *)"", .nbytes = size, .wild = wild, .waves = waves });
}
