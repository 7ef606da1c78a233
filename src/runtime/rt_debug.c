/* rt_debug.c - fx.printf and fx.assert on the host (docs/debugging.md).
 * The generated code hands ctx->print a canonical format (abi/fxprintf.h)
 * and 64-bit argument slots; each conversion is formatted by the C library
 * with the C type it names, so the output is C's printf's. Work-items run
 * one at a time on a worker thread, so each work-item's lines come out
 * whole and in its own order; with several workers, RtPrintOrder (below)
 * keeps the blocks' text in block order. */
#include "runtime/rt_debug.h"
#include "abi/fxprintf.h"
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One conversion, its text copied out of the format. */
static void print_one(FILE *out, const char *fmt, const FxPfSpec *sp, uint64_t bits)
{
    char spec[64];
    size_t n = sp->len < sizeof spec ? sp->len : sizeof spec - 1;
    memcpy(spec, fmt + sp->start, n);
    spec[n] = 0;
    switch (fxpf_canonical_arg(sp)) {
    case FXPF_INT64:
        fprintf(out, spec, (long)(int64_t)bits);
        break;
    case FXPF_UINT64:
        fprintf(out, spec, (unsigned long)bits);
        break;
    case FXPF_CHAR:
        fprintf(out, spec, (int)(unsigned char)bits);
        break;
    case FXPF_FLOAT64: {
        double d;
        memcpy(&d, &bits, sizeof d);
        fprintf(out, spec, d);
        break;
    }
    default:   /* "%%"; the verifier admits nothing else */
        fputc('%', out);
        break;
    }
}

void rt_debug_print(FILE *out, const char *fmt, const uint64_t *args)
{
    size_t pos = 0, lit = 0;
    FxPfSpec sp;
    const char *why;
    int k = 0;
    while (fxpf_next(fmt, &pos, &sp, &why) > 0) {
        fwrite(fmt + lit, 1, sp.start - lit, out);
        print_one(out, fmt, &sp, fxpf_canonical_arg(&sp) == FXPF_PERCENT ? 0 : args[k++]);
        lit = pos;
    }
    fputs(fmt + lit, out);
}

char *rt_debug_assert_text(const char *kernel, const char *where, const char *func, const char *msg,
                           const int32_t block[3], const int32_t thread[3])
{
    char *in = func ? rt_strdupf("fn %s (kernel %s)", func, kernel) : rt_strdupf("kernel %s", kernel);
    char *t = rt_strdupf("%s: assertion failed in %s, block (%d,%d,%d), thread (%d,%d,%d)%s%s", where, in,
                         block[0], block[1], block[2], thread[0], thread[1], thread[2], msg[0] ? ": " : "", msg);
    free(in);
    return t;
}

/* ---- fx.printf's lines in block order, several threads ---- */

void rt_print_order_init(RtPrintOrder *o, FILE *out)
{
    *o = (RtPrintOrder){ .out = out, .stop = ULLONG_MAX };
    pthread_mutex_init(&o->lock, NULL);
}

FILE *rt_print_buf_file(RtPrintBuf *b)
{
    if (!b->f)
        b->f = open_memstream(&b->text, &b->len);
    return b->f;
}

/* The run's text, taken out of its buffer (NULL: nothing printed). */
static RtPrintRun take_run(RtPrintBuf *b, unsigned long long index)
{
    RtPrintRun r = { .index = index };
    if (b->f && fclose(b->f) == 0) {
        r.text = b->text;
        r.len = b->len;
    }
    *b = (RtPrintBuf){ 0 };
    return r;
}

static void write_run(RtPrintOrder *o, RtPrintRun *r)
{
    if (r->text)
        fwrite(r->text, 1, r->len, o->out);
    free(r->text);
}

/* Keeps r until the runs below it are written; false when out of memory. */
static bool keep_pending(RtPrintOrder *o, RtPrintRun r)
{
    if (o->npending == o->cap) {
        size_t cap = o->cap ? 2 * o->cap : 16;
        RtPrintRun *p = realloc(o->pending, cap * sizeof *p);
        if (!p)
            return false;
        o->pending = p;
        o->cap = cap;
    }
    size_t at = o->npending;   /* runs mostly come in order: look from the end */
    while (at > 0 && o->pending[at - 1].index > r.index)
        at--;
    memmove(&o->pending[at + 1], &o->pending[at], (o->npending - at) * sizeof r);
    o->pending[at] = r;
    o->npending++;
    return true;
}

/* Writes the pending runs that are next in order, up to the lowest run
 * that failed. */
static void write_ready(RtPrintOrder *o)
{
    size_t k = 0;
    while (k < o->npending && o->pending[k].index == o->next && o->next <= o->stop) {
        write_run(o, &o->pending[k++]);
        o->next++;
    }
    if (k == 0)
        return;   /* (pending may still be NULL) */
    memmove(o->pending, o->pending + k, (o->npending - k) * sizeof *o->pending);
    o->npending -= k;
}

void rt_print_order_hand_over(RtPrintOrder *o, RtPrintBuf *b, unsigned long long index, bool failed)
{
    RtPrintRun r = take_run(b, index);
    pthread_mutex_lock(&o->lock);
    if (failed && index < o->stop)
        o->stop = index;
    if (!keep_pending(o, r))
        free(r.text);   /* out of memory: this run's lines are lost, the order of the rest holds */
    write_ready(o);
    pthread_mutex_unlock(&o->lock);
}

void rt_print_order_finish(RtPrintOrder *o)
{
    for (size_t k = 0; k < o->npending; k++) {
        if (o->pending[k].index <= o->stop)
            write_run(o, &o->pending[k]);
        else
            free(o->pending[k].text);
    }
    free(o->pending);
    pthread_mutex_destroy(&o->lock);
    *o = (RtPrintOrder){ 0 };
}
