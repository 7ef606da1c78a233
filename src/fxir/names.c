/* names.c - the spelling of every FXIR opcode, sub-operation, fast-math
 * flag and rounding mode: the one table the printer, the reader and sema's
 * messages share. */
#include "fxir/fxir.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *const opcode_names[FX_OPCODE_COUNT] = {
    [FX_CONST] = "const", [FX_PARAM] = "param", [FX_BINOP] = "binop", [FX_CMP] = "cmp",
    [FX_UNOP] = "unop", [FX_CAST] = "cast", [FX_BITCAST] = "bitcast", [FX_SELECT] = "select",
    [FX_FMA] = "fma", [FX_MATH] = "math", [FX_MINMAX] = "minmax", [FX_CEILDIV] = "ceildiv",
    [FX_SPECIAL] = "special", [FX_ALLOCA] = "alloca", [FX_LOAD] = "load", [FX_STORE] = "store",
    [FX_ATOMIC] = "atomic", [FX_BARRIER] = "barrier", [FX_FENCE] = "fence", [FX_SPLAT] = "splat",
    [FX_EXTRACT] = "extract", [FX_INSERT] = "insert", [FX_IF] = "if", [FX_LOOP] = "loop",
    [FX_BREAK] = "break", [FX_CONTINUE] = "continue", [FX_RETURN] = "return", [FX_CALL] = "call",
    [FX_MFMA] = "mfma", [FX_LDEXP] = "ldexp", [FX_FREXP_EXP] = "frexp_exp", [FX_WAVE] = "wave",
    [FX_WAVE_EXCHANGE] = "wave_exchange", [FX_WAVE_ACTIVE] = "wave_active",
    [FX_PTR_OFFSET] = "ptr_offset",
    [FX_PRINT] = "print", [FX_ASSERT] = "assert",
};

static const char *const binops[FXB_COUNT] = { "add", "sub", "mul", "div", "floordiv", "mod", "pow",
                                               "and", "or", "xor", "shl", "shr" };
static const char *const cmps[] = { "lt", "le", "gt", "ge", "eq", "ne" };
static const char *const unops[] = { "neg", "invert", "abs" };
static const char *const maths[FXM_COUNT] = { "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "sin",
                                              "cos", "tanh", "floor", "ceil", "round", "trunc", "rint",
                                              "erf", "erfc", "log1p", "expm1", "cbrt", "sigmoid",
                                              "copysign", "hypot", "atan2" };
static const char *const minmax[] = { "max", "min", "maxnum", "minnum" };
static const char *const specials[] = { "thread_idx", "block_idx", "block_dim", "grid_dim", "lane_id" };
static const char *const atomics[FXA_COUNT] = { "add", "max", "min", "cas", "sub", "and", "or", "xor", "xchg" };
static const char *const scopes[FXSC_COUNT] = { "workgroup", "agent", "system" };
static const char *const waves[FXW_COUNT] = { "shuffle", "shuffle_xor", "shuffle_up", "shuffle_down",
                                              "readlane", "readfirstlane", "ballot", "any", "all",
                                              "sum", "max", "min" };
static const char *const spaces[] = { "private", "shared" };
static const char *const barriers[FXBAR_COUNT] = { [FXBAR_ALL] = NULL, [FXBAR_SHARED] = "shared" };
static const char *const ptr_offsets[FXPTR_COUNT] = { [FXPTR_ANY] = NULL, [FXPTR_UNIFORM] = "uniform" };
static const char *const reduces[] = { "sum", "max", "min", "maxabs", "minabsnz" };
static const char *const fmf[FMF_NBITS] = { "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn" };
static const char *const roundings[] = { [FF_RNE] = "to_nearest_even", [FF_DOWN] = "downward",
                                         [FF_UP] = "upward", [FF_TOWARD_ZERO] = "toward_zero",
                                         [FF_NEAREST_AWAY] = "to_nearest_away" };

#define TABLE(t) do { *n = (int)(sizeof t / sizeof t[0]); return t; } while (0)

const char *const *fxir_sub_names(FxOpcode op, int *n)
{
    switch (op) {
    case FX_BINOP: TABLE(binops);
    case FX_CMP: TABLE(cmps);
    case FX_UNOP: TABLE(unops);
    case FX_MATH: TABLE(maths);
    case FX_MINMAX: TABLE(minmax);
    case FX_SPECIAL: TABLE(specials);
    case FX_ATOMIC: TABLE(atomics);
    case FX_FENCE: TABLE(scopes);
    case FX_ALLOCA: TABLE(spaces);
    case FX_WAVE: TABLE(waves);
    case FX_BARRIER: TABLE(barriers);
    case FX_PTR_OFFSET: TABLE(ptr_offsets);
    default: *n = 0; return NULL;
    }
}

const char *fxir_opcode_name(FxOpcode op)
{
    if ((int)op < 0 || op >= FX_OPCODE_COUNT || !opcode_names[op])
        return "?";
    return opcode_names[op];
}

FxOpcode fxir_opcode_by_name(const char *name, size_t len)
{
    for (int k = 0; k < FX_OPCODE_COUNT; k++)
        if (opcode_names[k] && strlen(opcode_names[k]) == len && strncmp(opcode_names[k], name, len) == 0)
            return (FxOpcode)k;
    return FX_OPCODE_COUNT;
}

const char *fxir_sub_name(FxOpcode op, int sub)
{
    if (op == FX_MFMA) {
        const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)sub);
        return mi ? mi->name : "?";
    }
    int n;
    const char *const *t = fxir_sub_names(op, &n);
    if (!t)
        return NULL;
    return sub >= 0 && sub < n ? t[sub] : "?";
}

int fxir_sub_by_name(FxOpcode op, const char *name, size_t len)
{
    if (op == FX_MFMA) {
        char buf[64];
        snprintf(buf, sizeof buf, "%.*s", (int)len, name);
        TgtMatrixId id = tgt_matrix_by_name(buf);
        return id == TGT_MI_COUNT ? -1 : (int)id;
    }
    int n;
    const char *const *t = fxir_sub_names(op, &n);
    for (int k = 0; t && k < n; k++)
        if (t[k] && strlen(t[k]) == len && strncmp(t[k], name, len) == 0)
            return k;
    return -1;
}

const char *fxir_fmf_name(int bit) { return bit >= 0 && bit < FMF_NBITS ? fmf[bit] : "?"; }

const char *fxir_rounding_name(FfRound r)
{
    return (int)r >= 0 && (size_t)r < sizeof roundings / sizeof roundings[0] && roundings[r] ? roundings[r] : "?";
}

int fxir_rounding_by_name(const char *name, size_t len)
{
    for (size_t k = 0; k < sizeof roundings / sizeof roundings[0]; k++)
        if (roundings[k] && strlen(roundings[k]) == len && strncmp(roundings[k], name, len) == 0)
            return (int)k;
    return -1;
}

const char *fxir_reduce_name(FxReduceKind r) { return (int)r >= 0 && r <= FXR_MINABS_NZ ? reduces[r] : "?"; }

int fxir_reduce_by_name(const char *name)
{
    for (int k = 0; k <= FXR_MINABS_NZ; k++)
        if (strcmp(reduces[k], name) == 0)
            return k;
    return -1;
}

/* native | int2..int8 | ozaki | ozaki1[:s] | ozaki2[:L] | bf16x9 | bf16x6 | xf32 | auto */
bool fxir_parse_precision(const char *spec, FxPrecision *out)
{
    *out = (FxPrecision){ FXP_NATIVE, 0 };
    if (!strcmp(spec, "native"))
        return true;
    if (!strcmp(spec, "auto")) {
        out->kind = FXP_AUTO;
        return true;
    }
    if (!strcmp(spec, "xf32")) {
        out->kind = FXP_XF32;
        return true;
    }
    if (!strcmp(spec, "bf16x9") || !strcmp(spec, "bf16x6")) {
        *out = (FxPrecision){ FXP_BF16, spec[5] - '0' };
        return true;
    }
    if (!strcmp(spec, "ozaki")) {
        out->kind = FXP_OZAKI2;
        return true;
    }
    if (!strncmp(spec, "int", 3) && spec[3] >= '2' && spec[3] <= '8' && !spec[4]) {
        *out = (FxPrecision){ FXP_QUANTIZE, spec[3] - '0' };
        return true;
    }
    if (strncmp(spec, "ozaki1", 6) && strncmp(spec, "ozaki2", 6))
        return false;
    out->kind = spec[5] == '1' ? FXP_OZAKI1 : FXP_OZAKI2;
    if (!spec[6])
        return true;
    if (spec[6] != ':' || spec[7] < '1' || spec[7] > '9')
        return false;
    char *end;
    long n = strtol(spec + 7, &end, 10);
    int max = out->kind == FXP_OZAKI1 ? FXP_MAX_SLICES : FXP_MAX_MODULI;
    if (*end || n < 1 || n > max)
        return false;
    out->n = (int)n;
    return true;
}

const char *fxir_precision_choices(void)
{
    static char text[160];
    if (!text[0])
        snprintf(text, sizeof text, "native, int2 .. int8, ozaki, ozaki1[:s] (s 1..%d), ozaki2[:L] (L 1..%d), "
                 "bf16x9, bf16x6, xf32 or auto", FXP_MAX_SLICES, FXP_MAX_MODULI);
    return text;
}
