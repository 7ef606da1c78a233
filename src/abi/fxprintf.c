/* fxprintf.c - fx.printf's conversions (fxprintf.h). */
#include "abi/fxprintf.h"
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static size_t skip_digits(const char *s, size_t p)
{
    while (is_digit(s[p]))
        p++;
    return p;
}

int fxpf_next(const char *fmt, size_t *pos, FxPfSpec *sp, const char **why)
{
    const char *pc = strchr(fmt + *pos, '%');
    if (!pc)
        return 0;
    size_t start = (size_t)(pc - fmt), p = start + 1;
    memset(sp, 0, sizeof *sp);
    sp->start = start;
    while (fmt[p] && strchr("-+ #0", fmt[p]))
        p++;
    p = skip_digits(fmt, p);
    if (fmt[p] == '.') {
        sp->has_precision = true;
        p = skip_digits(fmt, p + 1);
    }
    if (fmt[p] == '*') {
        *why = "a '*' width or precision is not supported: write the number";
        return -1;
    }
    /* a length modifier: up to two of C's letters (hh, ll, l, h, j, z, t, L, q) */
    for (int n = 0; n < 2 && fmt[p] && strchr("hlLqjzt", fmt[p]); n++)
        sp->length[n] = fmt[p++];
    if (!fmt[p]) {
        *why = "the format ends inside a conversion";
        return -1;
    }
    sp->conv = fmt[p++];
    sp->len = p - start;
    *pos = p;
    return 1;
}

bool fxpf_is_float_conv(char c)
{
    return c && strchr("fFeEgGaA", c) != NULL;
}

FxPfArg fxpf_canonical_arg(const FxPfSpec *sp)
{
    bool l = strcmp(sp->length, "l") == 0, none = !sp->length[0];
    if (sp->conv == '%')
        return sp->len == 2 ? FXPF_PERCENT : FXPF_OTHER;
    if (l && (sp->conv == 'd' || sp->conv == 'i'))
        return FXPF_INT64;
    if (l && strchr("uxXo", sp->conv))
        return FXPF_UINT64;
    if (none && sp->conv == 'c')
        return FXPF_CHAR;
    if (none && fxpf_is_float_conv(sp->conv))
        return FXPF_FLOAT64;
    return FXPF_OTHER;
}
