/* rt_check.c - the race and initialization checker of the host backend
 * (fxrun --check=races,uninit): shadow state for every byte of a block's
 * shared memory, updated at each checked access of a kernel compiled with
 * --check (abi/fxhost.h: ctx->check), and the barrier rule.
 *
 * A block's time is cut into epochs by its barriers. Per byte the shadow
 * keeps its last writer and the epoch of that write, and its readers in the
 * current epoch (one work-item, or "several"). An access is a hazard when
 * another work-item touched the byte in the same epoch — nothing ordered
 * them on a GPU:
 *   read after another's write  (race: the reader may see either value)
 *   write after another's write (race: either value may remain)
 *   write after another's read  (race: the reader may have seen the new one)
 * A read of a byte no work-item of the block wrote is a read of
 * uninitialized shared memory (the GPU's LDS is not zeroed; the host's is).
 * Atomics are not checked accesses. Reports are deduplicated by the pair of
 * sites and capped. */
#include "runtime/rt_check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RT_CHECK_MAX_REPORTS = 10, RT_SEVERAL = UINT32_MAX };

typedef struct Shadow {
    uint32_t writer;              /* work-item + 1 of the last write; 0: never written */
    uint32_t write_epoch;
    uint32_t reader;              /* work-item + 1, RT_SEVERAL, or 0 */
    uint32_t read_epoch;
    const FxCheckSite *write_site;
    const FxCheckSite *read_site;
} Shadow;

typedef struct Report {
    const FxCheckSite *a, *b;
    int kind;
} Report;

struct RtChecker {
    unsigned flags;
    const char *kernel;
    Shadow *shadow;
    size_t bytes;
    uint32_t epoch;
    int32_t block_idx[3];
    int32_t block_dim[3];
    Report seen[RT_CHECK_MAX_REPORTS];
    int nseen;
    char *text;                   /* the reports so far, one per line */
    int dropped;
};

RtChecker *rt_check_new(unsigned flags, const char *kernel, size_t shared_bytes, const unsigned block[3])
{
    RtChecker *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->flags = flags;
    c->kernel = kernel;
    c->bytes = shared_bytes;
    c->shadow = calloc(shared_bytes ? shared_bytes : 1, sizeof *c->shadow);
    for (int d = 0; d < 3; d++)
        c->block_dim[d] = (int32_t)block[d];
    if (!c->shadow) {
        free(c);
        return NULL;
    }
    return c;
}

void rt_check_free(RtChecker *c)
{
    if (!c)
        return;
    free(c->shadow);
    free(c->text);
    free(c);
}

void rt_check_block(RtChecker *c, const int32_t block_idx[3])
{
    memset(c->shadow, 0, c->bytes * sizeof *c->shadow);
    memcpy(c->block_idx, block_idx, sizeof c->block_idx);
    c->epoch = 1;
}

void rt_check_epoch(RtChecker *c)
{
    c->epoch++;
}

/* "(3, 0, 0)" of work-item id - 1 in the block. */
static void item_text(const RtChecker *c, uint32_t id, char *buf, size_t n)
{
    uint32_t i = id - 1, x = (uint32_t)c->block_dim[0], y = (uint32_t)c->block_dim[1];
    snprintf(buf, n, "(%u, %u, %u)", i % x, i / x % y, i / x / y);
}

static void where(const FxCheckSite *s, char *buf, size_t n)
{
    if (!s) {
        snprintf(buf, n, "?");
        return;
    }
    snprintf(buf, n, "%s:%d:%d%s%s", s->file ? s->file : "?", s->line, s->col, s->func ? " in fn " : "",
             s->func ? s->func : "");
}

static bool already_reported(RtChecker *c, const FxCheckSite *a, const FxCheckSite *b, int kind)
{
    for (int i = 0; i < c->nseen; i++)
        if (c->seen[i].a == a && c->seen[i].b == b && c->seen[i].kind == kind)
            return true;
    if (c->nseen == RT_CHECK_MAX_REPORTS) {
        c->dropped++;
        return true;
    }
    c->seen[c->nseen++] = (Report){ a, b, kind };
    return false;
}

static void add_line(RtChecker *c, const char *line)
{
    size_t old = c->text ? strlen(c->text) : 0;
    char *t = realloc(c->text, old + strlen(line) + 2);
    if (!t)
        return;
    sprintf(t + old, "%s%s", old ? "\n" : "", line);
    c->text = t;
}

enum { HAZARD_RAW, HAZARD_WAW, HAZARD_WAR, UNINIT };

static void report(RtChecker *c, int kind, const FxCheckSite *site, const FxCheckSite *other, uint32_t me,
                   uint32_t them, int64_t index)
{
    if (already_reported(c, site, other, kind))
        return;
    char mine[48], theirs[80], at[512], at2[512], line[1600];
    item_text(c, me, mine, sizeof mine);
    where(site, at, sizeof at);
    const char *arr = site->array ? site->array : "?";
    if (kind == UNINIT) {
        snprintf(line, sizeof line, "uninitialized read: work-item %s of block (%d, %d, %d) of kernel %s reads "
                 "shared '%s'[%lld] at %s, which no work-item of the block wrote", mine, c->block_idx[0],
                 c->block_idx[1], c->block_idx[2], c->kernel, arr, (long long)index, at);
    } else {
        char who[48];
        item_text(c, them, who, sizeof who);
        snprintf(theirs, sizeof theirs, "%s%s", them == RT_SEVERAL ? "other work-items" : "work-item ",
                 them == RT_SEVERAL ? "" : who);
        where(other, at2, sizeof at2);
        static const char *const what[] = { "reads", "writes", "writes" };
        static const char *const their[] = { "written by", "also written by", "read by" };
        snprintf(line, sizeof line, "race: work-item %s of block (%d, %d, %d) of kernel %s %s shared '%s'[%lld] at "
                 "%s, %s %s at %s with no barrier between", mine, c->block_idx[0], c->block_idx[1],
                 c->block_idx[2], c->kernel, what[kind], arr, (long long)index, at, their[kind], theirs, at2);
    }
    add_line(c, line);
}

void rt_check_access(RtChecker *c, uint32_t me, const FxCheckSite *site, const char *shared, const void *base,
                     const void *addr, bool is_write)
{
    const char *a = addr, *b = base;
    if (a < shared || a >= shared + c->bytes)
        return;   /* not this block's shared memory (only shared arrays are instrumented) */
    size_t off = (size_t)(a - shared), n = site->elem_bytes > 0 ? (size_t)site->elem_bytes : 1;
    int64_t index = site->elem_bytes > 0 ? (int64_t)((a - b) / site->elem_bytes) : (int64_t)(a - b);
    me += 1;
    for (size_t k = off; k < off + n && k < c->bytes; k++) {
        Shadow *s = &c->shadow[k];
        bool same = s->write_epoch == c->epoch;
        if (!is_write) {
            if (!s->writer && (c->flags & RT_CHECK_UNINIT))
                report(c, UNINIT, site, NULL, me, 0, index);
            else if (same && s->writer != me && (c->flags & RT_CHECK_RACES))
                report(c, HAZARD_RAW, site, s->write_site, me, s->writer, index);
            if (s->read_epoch != c->epoch || !s->reader)
                s->reader = me;
            else if (s->reader != me)
                s->reader = RT_SEVERAL;
            s->read_epoch = c->epoch;
            s->read_site = site;
            continue;
        }
        if (same && s->writer && s->writer != me && (c->flags & RT_CHECK_RACES))
            report(c, HAZARD_WAW, site, s->write_site, me, s->writer, index);
        else if (s->read_epoch == c->epoch && s->reader && s->reader != me && (c->flags & RT_CHECK_RACES))
            report(c, HAZARD_WAR, site, s->read_site, me, s->reader, index);
        s->writer = me;
        s->write_epoch = c->epoch;
        s->write_site = site;
    }
}

void rt_check_divergent_barrier(RtChecker *c, const FxCheckSite *site, size_t waiting, size_t done)
{
    if (!(c->flags & RT_CHECK_RACES) || already_reported(c, site, NULL, -1))
        return;
    char at[512], line[1024];
    where(site, at, sizeof at);
    snprintf(line, sizeof line, "divergent barrier: in block (%d, %d, %d) of kernel %s, %zu work-items wait at the "
             "barrier at %s while %zu finished without reaching it", c->block_idx[0], c->block_idx[1],
             c->block_idx[2], c->kernel, waiting, at, done);
    add_line(c, line);
}

char *rt_check_take_report(RtChecker *c)
{
    if (c->dropped) {
        char more[96];
        snprintf(more, sizeof more, "(%d more reports not shown)", c->dropped);
        add_line(c, more);
    }
    char *t = c->text;
    c->text = NULL;
    return t;
}
