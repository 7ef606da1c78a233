/* rt_debug.c - fx.printf and fx.assert on the host (docs/debugging.md).
 * The generated code hands ctx->print a canonical format (abi/fxprintf.h)
 * and 64-bit argument slots; each conversion is formatted by the C library
 * with the C type it names, so the output is C's printf's. Work-items run
 * one at a time on the host, so each work-item's lines come out whole and
 * in its own order. */
#include "runtime/rt_debug.h"
#include "abi/fxprintf.h"
#include <inttypes.h>
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
