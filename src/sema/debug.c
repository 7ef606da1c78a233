/* debug.c - fx.printf and fx.assert (docs/debugging.md).
 *
 * fx.printf(fmt, args...) takes a static String format and checks it
 * against the arguments here, at compile time. The FX_PRINT it emits has
 * the canonical format (abi/fxprintf.h): every argument widened to 64 bits
 * as its conversion asks, so that the host runtime and the HIP runtime's
 * printf (which reads 64-bit argument slots) print the same text.
 *
 * fx.assert(cond[, msg]) emits FX_ASSERT unless cond is static True.
 * --no-assert is decided in builtins.c (assert_call), which evaluates the
 * call into a scratch block that is dropped, like C's NDEBUG. */
#include "sema/sema_int.h"
#include "abi/fxprintf.h"
#include <string.h>

Val *sema_debug_void(Ctx *c, Loc loc)
{
    Val *v = arena_alloc(c->arena, sizeof *v);
    v->type = VOID_TYPE;
    v->loc = loc;
    return v;
}

static bool in_work_items(Ctx *c, Loc loc, const char *what)
{
    if (!c->fn || c->fn->is_eval) {
        diag_error(loc, "%s is only available inside a kernel or fn", what);
        return false;
    }
    if (c->fn->in_program) {
        diag_error(loc, "%s is not available in a program: its elementwise expressions have no work-items", what);
        return false;
    }
    return true;
}

/* The scalar type an argument prints as; literals take their default type. */
static bool arg_scalar(Ctx *c, Val *v, ScalarId *out)
{
    if (v->type->kind == TY_LITINT || v->type->kind == TY_LITFLOAT) {
        bool ok;
        *out = sema_literal_type(c, v, &ok);
        return ok;
    }
    if (v->type->kind == TY_VECTOR) {
        diag_error(v->loc, "fx.printf cannot print a vector (%s): print its lanes one by one",
                   type_name(c->arena, v->type));
        return false;
    }
    if (v->type->kind == TY_STRING) {
        diag_error(v->loc, "fx.printf takes no String arguments (there is no %%s): write the text into the format");
        return false;
    }
    if (v->type->kind != TY_SCALAR) {
        diag_error(v->loc, "fx.printf cannot print a value of type %s", type_name(c->arena, v->type));
        return false;
    }
    ScalarId s = v->type->scalar;
    if (s == SC_INT128 || s == SC_UINT128) {
        diag_error(v->loc, "fx.printf cannot print %s (its conversions take at most 64 bits): print the high "
                   "and low halves as Uint64", type_info(s)->name);
        return false;
    }
    if (type_is_narrow(s)) {
        diag_error(v->loc, "fx.printf cannot print the storage float %s: convert it to Float32 first",
                   type_info(s)->name);
        return false;
    }
    *out = s;
    return true;
}

/* Why a conversion of the source format is refused; NULL when it is one
 * fx.printf knows. */
static const char *refusal(const FxPfSpec *sp)
{
    if (sp->length[0])
        return "has a length modifier: fx.printf takes the width from the argument's type, write it without";
    if (sp->conv == 's')
        return "prints a string, which fx.printf does not support: write the text into the format";
    if (sp->conv == 'p' || sp->conv == 'n')
        return "is not supported by fx.printf";
    if (sp->conv == '%')
        return sp->len == 2 ? NULL : "has flags or a width: write '%%' alone";
    if (!strchr("diuxXocfFeEgGaA", sp->conv))
        return "is not a conversion (expected one of d i u x X o c f F e E g G a A, or %%)";
    if (sp->conv == 'c' && sp->has_precision)
        return "has a precision, which %c does not take";
    return NULL;
}

/* The argument converted as conversion `conv` prints it (abi/fxprintf.h),
 * and the conversion's canonical letters in *canon. */
static FxInst *widen(Ctx *c, Val *v, ScalarId s, char conv, const char **canon, Loc loc)
{
    const Type *u64 = type_scalar(SC_UINT64), *i64 = type_scalar(SC_INT64);
    bool is_signed = type_is_int(s) && type_info(s)->is_signed;
    if (fxpf_is_float_conv(conv)) {
        *canon = arena_printf(c->arena, "%c", conv);
        Val *w = sema_convert(c, v, type_scalar(SC_FLOAT64), FF_RNE, false, loc);   /* exact */
        return w ? sema_materialize(c, w) : NULL;
    }
    if (conv == 'x' || conv == 'X' || conv == 'o') {
        /* the bits of the value's own width, so Int8(-1) prints ff */
        *canon = arena_printf(c->arena, "l%c", conv);
        Val *w = sema_convert(c, v, u64, FF_RNE, false, loc);
        if (!w)
            return NULL;
        FxInst *bits = sema_materialize(c, w);
        int width = type_info(s)->width;
        if (!is_signed || width >= 64)
            return bits;
        Val *mask = fold_make_int(c->arena, SC_UINT64, big_from_u64((UINT64_C(1) << width) - 1), loc);
        return sema_emit(c, FX_BINOP, FXB_AND, u64, loc, 2, bits, sema_materialize(c, mask));
    }
    *canon = conv == 'c' ? "c" : is_signed ? "ld" : "lu";
    Val *w = sema_convert(c, v, is_signed ? i64 : u64, FF_RNE, false, loc);
    return w ? sema_materialize(c, w) : NULL;
}

static bool is_float_scalar(ScalarId s) { return type_is_float(s); }

/* One argument for one conversion: type-checked, widened, its canonical
 * conversion appended to *out. */
static FxInst *format_arg(Ctx *c, Val *fmtv, const char *fmt, const FxPfSpec *sp, Val *v, char **out)
{
    ScalarId s;
    if (!arg_scalar(c, v, &s))
        return NULL;
    bool want_float = fxpf_is_float_conv(sp->conv);
    if (want_float != is_float_scalar(s)) {
        diag_error(v->loc, "'%.*s' in the format prints %s, but this argument is %s: convert it, e.g. %s(x)",
                   (int)sp->len, fmt + sp->start, want_float ? "a float" : "an integer", type_info(s)->name,
                   want_float ? "Float64" : "Int64");
        diag_note(fmtv->loc, "the format is here");
        return NULL;
    }
    const char *canon;
    FxInst *w = widen(c, v, s, sp->conv, &canon, v->loc);
    if (!w)
        return NULL;
    /* flags, width and precision as written (no length modifier: refusal()) */
    *out = arena_printf(c->arena, "%s%%%.*s%s", *out, (int)(sp->len - 2), fmt + sp->start + 1, canon);
    return w;
}

/* The literal text of the format between two conversions: a '%' in it only
 * as "%%", which the canonical format keeps. */
static char *append_text(Ctx *c, char *out, const char *from, size_t n)
{
    return arena_printf(c->arena, "%s%.*s", out, (int)n, from);
}

Val *sema_debug_printf(Ctx *c, Val **args, int nargs, Loc loc)
{
    if (!in_work_items(c, loc, "fx.printf()"))
        return NULL;
    if (nargs < 1 || args[0]->type->kind != TY_STRING) {
        diag_error(nargs ? args[0]->loc : loc, "fx.printf() takes a format string first");
        return NULL;
    }
    Val *fmtv = args[0];
    const char *fmt = fmtv->str;
    char *out = arena_strdup(c->arena, "");
    FxInst **ops = arena_alloc(c->arena, sizeof(FxInst *) * (size_t)nargs);
    int nops = 0;
    size_t pos = 0, lit = 0;
    FxPfSpec sp;
    const char *why = NULL;
    int got;
    while ((got = fxpf_next(fmt, &pos, &sp, &why)) > 0) {
        out = append_text(c, out, fmt + lit, sp.start - lit);
        lit = pos;
        const char *no = refusal(&sp);
        if (no) {
            diag_error(fmtv->loc, "'%.*s' in the format %s", (int)sp.len, fmt + sp.start, no);
            return NULL;
        }
        if (sp.conv == '%') {
            out = append_text(c, out, "%%", 2);
            continue;
        }
        if (1 + nops >= nargs) {
            diag_error(fmtv->loc, "the format has more conversions than the %d argument%s after it ('%.*s' has "
                       "none)", nargs - 1, nargs == 2 ? "" : "s", (int)sp.len, fmt + sp.start);
            return NULL;
        }
        if (!(ops[nops] = format_arg(c, fmtv, fmt, &sp, args[1 + nops], &out)))
            return NULL;
        nops++;
    }
    if (got < 0) {
        diag_error(fmtv->loc, "malformed format: %s", why);
        return NULL;
    }
    if (1 + nops < nargs) {
        diag_error(args[1 + nops]->loc, "fx.printf() has %d argument%s more than its format has conversions",
                   nargs - 1 - nops, nargs - 1 - nops == 1 ? "" : "s");
        diag_note(fmtv->loc, "the format is here");
        return NULL;
    }
    out = append_text(c, out, fmt + lit, strlen(fmt + lit));
    FxInst *p = fxb_emitv(sema_builder(c, loc), FX_PRINT, 0, VOID_TYPE, nops, ops);
    p->text = out;
    return sema_debug_void(c, loc);
}

Val *sema_debug_assert(Ctx *c, Val **args, int nargs, Loc loc)
{
    if (!in_work_items(c, loc, "fx.assert()"))
        return NULL;
    if (nargs < 1 || nargs > 2) {
        diag_error(loc, "fx.assert() takes 1 or 2 arguments (a Boolean and a message), got %d", nargs);
        return NULL;
    }
    Val *cond = args[0];
    if (cond->type->kind != TY_SCALAR || cond->type->scalar != SC_BOOLEAN) {
        diag_error(cond->loc, "fx.assert() needs a Boolean condition, got %s", type_name(c->arena, cond->type));
        return NULL;
    }
    if (nargs == 2 && args[1]->type->kind != TY_STRING) {
        diag_error(args[1]->loc, "fx.assert()'s message must be a string, got %s",
                   type_name(c->arena, args[1]->type));
        return NULL;
    }
    if (cond->is_static && fold_truthy(cond))
        return sema_debug_void(c, loc);   /* holds for every work-item: nothing to check */
    FxInst *a = sema_emit(c, FX_ASSERT, 0, VOID_TYPE, loc, 1, sema_materialize(c, cond));
    a->text = nargs == 2 ? args[1]->str : "";
    return sema_debug_void(c, loc);
}
