/* gen.c - the operations of the differential test, one `.fx` module per
 * group.
 *
 * An operation x type (pair) is a template over its lane operands $0 $1 $2,
 * e.g. "($0) // ($1)" over Int8, Int8. In the module it becomes the statement
 *     r<slot>[i] = (a[i]) // (b[i])
 * of the kernel that holds every operation with the same input types:
 *     kernel kN(a: Ptr[A], [b: Ptr[B], [c: Ptr[C],]] r0: Ptr[R0], ..., n: Int32) {
 *         let i = block_idx.x * block_dim.x + thread_idx.x
 *         if i < n { r0[i] = ...  (one statement per line) } }
 * The expected value of a case is the same template with the operands' exact
 * spellings, folded by sema. The result type R is what the folder says the
 * template's type is, so promotion is exercised on both sides and not
 * restated here. */
#include "diff.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ScalarId INTS[] = { SC_INT4, SC_INT8, SC_INT16, SC_INT32, SC_INT64, SC_INT128,
                                 SC_UINT8, SC_UINT16, SC_UINT32, SC_UINT64, SC_UINT128, SC_INDEX };
static const ScalarId FLOATS[] = { SC_FLOAT16, SC_BFLOAT16, SC_FLOAT32, SC_FLOAT64 };
static const ScalarId NARROW[] = { SC_F8E5M2, SC_F8E4M3FN, SC_F8E4M3FNUZ, SC_F8E4M3B11FNUZ, SC_F8E4M3,
                                   SC_F6E2M3FN, SC_F6E3M2FN, SC_F8E8M0FNU, SC_F4E2M1FN, SC_F8E5M2FNUZ };
#define NELEM(a) ((int)(sizeof(a) / sizeof *(a)))

static const char *const MODES[] = { "to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away" };

static uint64_t g_rng = 0x5EED0FD1FFull;

/* ---- kernels and cases ---- */

static void group_add(Group *g, Kern *k)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 64;
        g->k = realloc(g->k, (size_t)g->cap * sizeof *g->k);
    }
    g->k[g->n++] = k;
}

void tmpl_expand(const char *tmpl, const char *const *ops, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = tmpl; *p && n + 1 < cap; p++) {
        if (p[0] == '$' && p[1] >= '0' && p[1] <= '2') {
            const char *s = ops[p[1] - '0'];
            size_t l = strlen(s);
            if (n + l >= cap)
                break;
            memcpy(out + n, s, l);
            n += l;
            p++;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = 0;
}

static u128 one_of(ScalarId s)
{
    if (s == SC_BOOLEAN || type_is_int(s))
        return 1;
    return ff_from_double(sc_fmt(s), 1.0, FF_RNE);
}

/* A new kernel over lane types in[0..nin-1]; `out` is the result lane type,
 * or SC_COUNT to take it from the folder (on operands equal to one). Returns
 * NULL when the folder rejects the template: the caller asked for something
 * the language does not have, which is a test failure. */
static Kern *kern(Group *g, Folder *f, const char *label, const char *tmpl, int nin, const ScalarId *in,
                  ScalarId out, int lanes)
{
    if (out == SC_COUNT) {
        char sp[3][128], text[1024];
        const char *ops[3] = { "", "", "" };
        for (int k = 0; k < nin; k++) {
            spell(in[k], one_of(in[k]), sp[k], sizeof sp[k]);
            ops[k] = sp[k];
        }
        tmpl_expand(tmpl, ops, text, sizeof text);
        const Type *t;
        u128 bits;
        if (!fold_text(f, text, &t, &bits)) {
            fprintf(stderr, "diff: the folder rejects the template of '%s': %s\n", label, text);
            return NULL;
        }
        out = t->scalar;
    }
    Kern *k = calloc(1, sizeof *k);
    snprintf(k->label, sizeof k->label, "%s", label);
    snprintf(k->tmpl, sizeof k->tmpl, "%s", tmpl);
    k->nin = nin;
    for (int j = 0; j < nin; j++)
        k->in[j] = in[j];
    k->out = out;
    k->lanes = k->out_lanes = lanes;
    k->exp = EXP_FOLD;
    /* a bitcast reinterprets bits and select picks an operand: no rounding,
     * so a NaN keeps its payload (decisions.md frees payloads only for
     * arithmetic and conversions) */
    k->exact_nan = strstr(tmpl, ".bitcast(") || strstr(tmpl, ".select(");
    group_add(g, k);
    return k;
}

static void add_case(Kern *k, u128 x, u128 y, u128 z)
{
    if (k->ncases == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 64;
        for (int j = 0; j < 3; j++)
            k->ops[j] = realloc(k->ops[j], (size_t)k->cap * sizeof(u128));
    }
    u128 v[3] = { x, y, z };
    for (int j = 0; j < 3; j++)
        k->ops[j][k->ncases] = j < k->nin ? v[j] & sc_mask(k->in[j]) : 0;
    k->ncases++;
}

/* Pads a vector kernel's cases to whole vectors (repeating cases). */
static void finish_cases(Kern *k)
{
    int base = k->ncases;
    for (int j = 0; base > 0 && k->ncases % k->lanes; j++)
        add_case(k, k->ops[0][(7 * j) % base], k->ops[1][(5 * j) % base], k->ops[2][(3 * j) % base]);
}

static void cases_unary(Kern *k, const Vals *a, int nrand)
{
    for (int i = 0; i < a->n; i++)
        add_case(k, a->v[i], 0, 0);
    for (int i = 0; i < nrand; i++)
        add_case(k, random_operand(k->in[0], &g_rng), 0, 0);
    finish_cases(k);
}

static void cases_pairs(Kern *k, const Vals *a, const Vals *b, int nrand)
{
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            add_case(k, a->v[i], b->v[j], 0);
    for (int i = 0; i < nrand; i++)
        add_case(k, random_operand(k->in[0], &g_rng), random_operand(k->in[1], &g_rng), 0);
    finish_cases(k);
}

static void cases_triples(Kern *k, const Vals *a, const Vals *b, const Vals *c, int nrand)
{
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++)
            for (int l = 0; l < c->n; l++)
                add_case(k, a->v[i], b->v[j], c->v[l]);
    for (int i = 0; i < nrand; i++)
        add_case(k, random_operand(k->in[0], &g_rng), random_operand(k->in[1], &g_rng),
                 random_operand(k->in[2], &g_rng));
    finish_cases(k);
}

/* Every `step`-th value of a set (and its last), for the cheaper crossings. */
static Vals thin(const Vals *a, int keep)
{
    Vals r = { 0 };
    int step = a->n > keep ? (a->n + keep - 1) / keep : 1;
    for (int i = 0; i < a->n; i += step)
        vals_push(&r, a->v[i]);
    if (a->n)
        vals_push(&r, a->v[a->n - 1]);
    return r;
}

/* A thinned edge set that keeps the float specials (+-0, +-inf, quiet and
 * signalling NaN) whatever the thinning: every operation must carry them. */
static Vals thin_keep(ScalarId s, const Vals *e, int keep)
{
    Vals r = thin(e, keep);
    if (type_is_float(s)) {
        const FloatFormat *f = sc_fmt(s);
        u128 sign = (u128)1 << (f->width - 1), inf = (((u128)1 << f->exp_bits) - 1) << f->man_bits;
        vals_push(&r, sign);
        vals_push(&r, inf);
        vals_push(&r, sign | inf);
        vals_push(&r, inf | ((u128)1 << (f->man_bits - 1)));
        vals_push(&r, inf | 1);
    }
    return r;
}

/* ---- the operations ---- */

typedef struct {
    const char *tmpl, *name;
    Rule rule;
    int cls;   /* 1: integers and Boolean, 2: floats, 3: both */
} Op;

static const Op BINOPS[] = {
    { "($0) + ($1)", "+", RULE_NONE, 3 },
    { "($0) - ($1)", "-", RULE_NONE, 3 },
    { "($0) * ($1)", "*", RULE_NONE, 3 },
    { "($0) / ($1)", "/", RULE_TRUEDIV, 3 },
    { "($0) // ($1)", "//", RULE_DIV, 3 },
    { "($0) % ($1)", "%", RULE_DIV, 3 },
    { "($0) ** ($1)", "**", RULE_POW, 1 },  /* float ** is pow (libm): out of scope */
    { "($0) & ($1)", "&", RULE_NONE, 1 },
    { "($0) | ($1)", "|", RULE_NONE, 1 },
    { "($0) ^ ($1)", "^", RULE_NONE, 1 },
    { "($0) << ($1)", "<<", RULE_SHIFT, 1 },
    { "($0) >> ($1)", ">>", RULE_SHIFT, 1 },
    { "($0) < ($1)", "<", RULE_NONE, 3 },
    { "($0) <= ($1)", "<=", RULE_NONE, 3 },
    { "($0) > ($1)", ">", RULE_NONE, 3 },
    { "($0) >= ($1)", ">=", RULE_NONE, 3 },
    { "($0) == ($1)", "==", RULE_NONE, 3 },
    { "($0) != ($1)", "!=", RULE_NONE, 3 },
    { "fx.max($0, $1)", "fx.max", RULE_NONE, 3 },
    { "fx.min($0, $1)", "fx.min", RULE_NONE, 3 },
    { "fx.maxnumf($0, $1)", "fx.maxnumf", RULE_NONE, 2 },
    { "fx.minnumf($0, $1)", "fx.minnumf", RULE_NONE, 2 },
    { "fx.ceildiv($0, $1)", "fx.ceildiv", RULE_CEILDIV, 1 },
};

static const Op UNOPS[] = {
    { "-($0)", "-x", RULE_NONE, 3 },
    { "+($0)", "+x", RULE_NONE, 3 },
    { "~($0)", "~x", RULE_NONE, 1 },
    { "abs($0)", "abs", RULE_NONE, 3 },
    { "fx.sqrt($0)", "fx.sqrt", RULE_NONE, 2 },
    { "fx.floor($0)", "fx.floor", RULE_NONE, 2 },
    { "fx.ceil($0)", "fx.ceil", RULE_NONE, 2 },
    { "fx.round($0)", "fx.round", RULE_NONE, 2 },
    { "fx.trunc($0)", "fx.trunc", RULE_NONE, 2 },
};

static bool is_minmax_ceildiv(const Op *op)
{
    return !strcmp(op->name, "fx.max") || !strcmp(op->name, "fx.min") || !strcmp(op->name, "fx.ceildiv");
}

static bool op_applies(const Op *op, ScalarId s)
{
    bool flt = type_is_float(s);
    if (s == SC_INDEX && is_minmax_ceildiv(op))
        return false; /* the seed rejects Index there */
    if (s == SC_BOOLEAN) {
        /* Boolean: arithmetic as Int32; no ceildiv, no abs, no unary minus */
        return !strcmp(op->name, "fx.ceildiv") ? false
             : !strcmp(op->name, "abs") || !strcmp(op->name, "-x") || !strcmp(op->name, "+x") ? false
             : (op->cls & 1);
    }
    return (op->cls & (flt ? 2 : 1)) != 0;
}

static int errors;

static Kern *kern_checked(Group *g, Folder *f, const char *label, const char *tmpl, int nin, const ScalarId *in,
                          ScalarId out, int lanes)
{
    Kern *k = kern(g, f, label, tmpl, nin, in, out, lanes);
    if (!k)
        errors++;
    return k;
}

/* ---- groups ---- */

static void gen_binary(Group *g, Folder *f, const ScalarId *types, int nt, int nrand)
{
    for (int t = 0; t < nt; t++) {
        ScalarId s = types[t];
        Vals e = { 0 };
        edges(s, false, &e);
        for (int o = 0; o < NELEM(BINOPS); o++) {
            if (!op_applies(&BINOPS[o], s))
                continue;
            char label[128];
            snprintf(label, sizeof label, "%s %s %s", sc_name(s), BINOPS[o].name, sc_name(s));
            ScalarId in[2] = { s, s };
            Kern *k = kern_checked(g, f, label, BINOPS[o].tmpl, 2, in, SC_COUNT, 1);
            if (!k)
                continue;
            k->rule = BINOPS[o].rule;
            cases_pairs(k, &e, &e, nrand);
        }
        vals_free(&e);
    }
}

static void gen_fma(Group *g, Folder *f)
{
    for (int t = 0; t < NELEM(FLOATS); t++) {
        ScalarId s = FLOATS[t];
        Vals e = { 0 }, c = { 0 };
        edges(s, false, &e);
        Vals few = thin_keep(s, &e, 6);
        vals_push(&c, 0);
        vals_push(&c, (u128)1 << (sc_width(s) - 1));      /* -0 */
        vals_push(&c, one_of(s));
        vals_push(&c, 1);                                  /* min subnormal */
        for (int i = 0; i < few.n; i++)
            vals_push(&c, few.v[i]);
        char label[64];
        snprintf(label, sizeof label, "fx.fma(%s, %s, %s)", sc_name(s), sc_name(s), sc_name(s));
        ScalarId in[3] = { s, s, s };
        Kern *k = kern_checked(g, f, label, "fx.fma($0, $1, $2)", 3, in, SC_COUNT, 1);
        if (k)
            cases_triples(k, &e, &e, &c, 400);
        vals_free(&e);
        vals_free(&c);
        vals_free(&few);
    }
}

static void gen_unary(Group *g, Folder *f, const ScalarId *types, int nt)
{
    for (int t = 0; t < nt; t++) {
        ScalarId s = types[t];
        Vals e = { 0 };
        edges(s, true, &e);
        for (int o = 0; o < NELEM(UNOPS); o++) {
            if (!op_applies(&UNOPS[o], s))
                continue;
            char label[128];
            snprintf(label, sizeof label, "%s %s", UNOPS[o].name, sc_name(s));
            Kern *k = kern_checked(g, f, label, UNOPS[o].tmpl, 1, &s, SC_COUNT, 1);
            if (k)
                cases_unary(k, &e, 300);
        }
        if (s == SC_BOOLEAN) {
            Kern *k = kern_checked(g, f, "not Boolean", "not ($0)", 1, &s, SC_COUNT, 1);
            if (k)
                cases_unary(k, &e, 0);
        }
        vals_free(&e);
    }
}

static void gen_select(Group *g, Folder *f, const ScalarId *types, int nt)
{
    for (int t = 0; t < nt; t++) {
        ScalarId s = types[t];
        Vals e = { 0 }, c = { 0 };
        edges(s, false, &e);
        edges(SC_BOOLEAN, false, &c);
        char label[128];
        snprintf(label, sizeof label, "Boolean.select(%s, %s)", sc_name(s), sc_name(s));
        ScalarId in[3] = { SC_BOOLEAN, s, s };
        Kern *k = kern_checked(g, f, label, "($0).select($1, $2)", 3, in, SC_COUNT, 1);
        if (k) {
            Vals few = thin_keep(s, &e, 8);
            cases_triples(k, &c, &e, &few, 50);
            vals_free(&few);
        }
        vals_free(&e);
        vals_free(&c);
    }
    /* a non-Boolean condition is converted by truthiness (NaN is true) */
    static const ScalarId conds[] = { SC_INT8, SC_UINT64, SC_INT128, SC_FLOAT16, SC_FLOAT32, SC_FLOAT64 };
    for (int t = 0; t < NELEM(conds); t++) {
        Vals c = { 0 };
        edges(conds[t], false, &c);
        char label[128];
        snprintf(label, sizeof label, "%s.select(Int32, Int32)", sc_name(conds[t]));
        ScalarId in[3] = { conds[t], SC_INT32, SC_INT32 };
        Kern *k = kern_checked(g, f, label, "($0).select($1, $2)", 3, in, SC_COUNT, 1);
        if (k) {
            for (int i = 0; i < c.n; i++)
                add_case(k, c.v[i], 11, 22);
            finish_cases(k);
        }
        vals_free(&c);
    }
}

static int all_scalars(ScalarId *out)
{
    int n = 0;
    out[n++] = SC_BOOLEAN;
    for (int i = 0; i < NELEM(INTS); i++)
        out[n++] = INTS[i];
    for (int i = 0; i < NELEM(FLOATS); i++)
        out[n++] = FLOATS[i];
    for (int i = 0; i < NELEM(NARROW); i++)
        out[n++] = NARROW[i];
    return n;
}

static void gen_convert(Group *g, Folder *f)
{
    ScalarId all[32];
    int n = all_scalars(all);
    for (int a = 0; a < n; a++) {
        Vals e = { 0 };
        edges(all[a], true, &e);
        for (int b = 0; b < n; b++) {
            char label[128], tmpl[64];
            snprintf(label, sizeof label, "%s(%s)", sc_name(all[b]), sc_name(all[a]));
            snprintf(tmpl, sizeof tmpl, "%s($0)", sc_name(all[b]));
            Kern *k = kern_checked(g, f, label, tmpl, 1, &all[a], all[b], 1);
            if (k)
                cases_unary(k, &e, 64);
        }
        vals_free(&e);
    }
}

static void gen_rounding(Group *g, Folder *f)
{
    ScalarId fl[16];
    int n = 0;
    for (int i = 0; i < NELEM(FLOATS); i++)
        fl[n++] = FLOATS[i];
    for (int i = 0; i < NELEM(NARROW); i++)
        fl[n++] = NARROW[i];
    for (int a = 0; a < n; a++) {
        Vals e = { 0 };
        edges(fl[a], true, &e);
        for (int b = 0; b < n; b++)
            for (int m = 0; m < NELEM(MODES); m++) {
                char label[128], tmpl[128];
                snprintf(label, sizeof label, "%s.to(%s, %s)", sc_name(fl[a]), sc_name(fl[b]), MODES[m]);
                snprintf(tmpl, sizeof tmpl, "($0).to(%s, rounding_mode=fx.RoundingMode.%s)", sc_name(fl[b]),
                         MODES[m]);
                Kern *k = kern_checked(g, f, label, tmpl, 1, &fl[a], fl[b], 1);
                if (!k)
                    continue;
                /* The folder rejects rounding_mode= on static values by design
                 * (spec 3.2); the expected value is computed with the function
                 * the folder itself rounds with: ff_from_double(to, exact source
                 * value, mode). Every format's values are exact binary64s. */
                k->exp = EXP_ROUND;
                k->rm = m;
                cases_unary(k, &e, 32);
            }
        vals_free(&e);
    }
}

static void gen_bitcast(Group *g, Folder *f)
{
    ScalarId all[32];
    int n = all_scalars(all);
    for (int a = 0; a < n; a++) {
        if (all[a] == SC_BOOLEAN)
            continue;
        Vals e = { 0 };
        edges(all[a], true, &e);
        for (int b = 0; b < n; b++) {
            if (all[b] == SC_BOOLEAN || sc_width(all[a]) != sc_width(all[b]))
                continue;
            char label[128], tmpl[64];
            snprintf(label, sizeof label, "%s.bitcast(%s)", sc_name(all[a]), sc_name(all[b]));
            snprintf(tmpl, sizeof tmpl, "($0).bitcast(%s)", sc_name(all[b]));
            Kern *k = kern_checked(g, f, label, tmpl, 1, &all[a], all[b], 1);
            if (k)
                cases_unary(k, &e, 64);
        }
        vals_free(&e);
    }
    /* vectors: the lane count is recomputed from the total width; the bytes
     * do not change (compared byte for byte) */
    static const struct { ScalarId from; int lanes; ScalarId to; } vb[] = {
        { SC_FLOAT32, 4, SC_INT8 }, { SC_INT32, 4, SC_FLOAT16 }, { SC_FLOAT16, 8, SC_INT64 },
        { SC_UINT8, 16, SC_FLOAT64 }, { SC_INT64, 2, SC_FLOAT32 }, { SC_BFLOAT16, 8, SC_UINT64 },
        { SC_FLOAT64, 4, SC_BFLOAT16 }, { SC_INT16, 4, SC_F8E4M3FN }, { SC_UINT128, 2, SC_FLOAT32 },
        { SC_FLOAT32, 4, SC_INT32 }, { SC_FLOAT16, 8, SC_BFLOAT16 },
    };
    for (int i = 0; i < NELEM(vb); i++) {
        int wl = sc_width(vb[i].from), wt = sc_width(vb[i].to);
        int outl = vb[i].lanes * wl / wt;
        char label[128], tmpl[64];
        snprintf(label, sizeof label, "%sx%d.bitcast(%s) -> %sx%d", sc_name(vb[i].from), vb[i].lanes,
                 sc_name(vb[i].to), sc_name(vb[i].to), outl);
        snprintf(tmpl, sizeof tmpl, "($0).bitcast(%s)", sc_name(vb[i].to));
        Kern *k = kern_checked(g, f, label, tmpl, 1, &vb[i].from, vb[i].to, vb[i].lanes);
        if (!k)
            continue;
        k->out_lanes = outl;
        if (outl != vb[i].lanes)
            k->exp = EXP_BYTES;
        Vals e = { 0 };
        edges(vb[i].from, true, &e);
        cases_unary(k, &e, 64);
        vals_free(&e);
    }
}

/* Vectors: elementwise on 2..16 lanes, each lane compared with the scalar fold. */
static void gen_vector(Group *g, Folder *f)
{
    static const struct { ScalarId s; int lanes; } vt[] = {
        { SC_INT32, 4 }, { SC_INT8, 16 }, { SC_UINT16, 8 }, { SC_INT64, 2 }, { SC_UINT128, 2 }, { SC_INT4, 8 },
        { SC_BOOLEAN, 8 }, { SC_FLOAT16, 8 }, { SC_BFLOAT16, 8 }, { SC_FLOAT32, 4 }, { SC_FLOAT32, 3 },
        { SC_FLOAT64, 2 }, { SC_UINT32, 3 },
    };
    for (int t = 0; t < NELEM(vt); t++) {
        ScalarId s = vt[t].s;
        int L = vt[t].lanes;
        Vals e = { 0 }, ef = { 0 };
        edges(s, false, &e);
        edges(s, true, &ef);
        Vals few = thin_keep(s, &e, 14);
        char label[160];
        for (int o = 0; o < NELEM(BINOPS); o++) {
            if (!op_applies(&BINOPS[o], s))
                continue;
            snprintf(label, sizeof label, "%sx%d %s %sx%d", sc_name(s), L, BINOPS[o].name, sc_name(s), L);
            ScalarId in[2] = { s, s };
            Kern *k = kern_checked(g, f, label, BINOPS[o].tmpl, 2, in, SC_COUNT, L);
            if (!k)
                continue;
            k->rule = BINOPS[o].rule;
            cases_pairs(k, &few, &few, 64);
        }
        for (int o = 0; o < NELEM(UNOPS); o++) {
            if (!op_applies(&UNOPS[o], s))
                continue;
            snprintf(label, sizeof label, "%s %sx%d", UNOPS[o].name, sc_name(s), L);
            Kern *k = kern_checked(g, f, label, UNOPS[o].tmpl, 1, &s, SC_COUNT, L);
            if (k)
                cases_unary(k, &ef, 64);
        }
        /* a literal broadcast to the lanes (normalized as for a scalar) */
        static const char *const vlits[][2] = { { "($0) + 1", "+ 1" }, { "($0) * 2.5", "* 2.5" },
                                                { "fx.max($0, 0)", "fx.max(x, 0)" } };
        for (int l = 0; l < NELEM(vlits); l++) {
            snprintf(label, sizeof label, "%sx%d %s", sc_name(s), L, vlits[l][1]);
            Kern *k = kern_checked(g, f, label, vlits[l][0], 1, &s, SC_COUNT, L);
            if (k) {
                k->rule = RULE_DIV;
                cases_unary(k, &ef, 64);
            }
        }
        /* select on a vector condition */
        snprintf(label, sizeof label, "Booleanx%d.select(%sx%d, %sx%d)", L, sc_name(s), L, sc_name(s), L);
        ScalarId in3[3] = { SC_BOOLEAN, s, s };
        Kern *k = kern_checked(g, f, label, "($0).select($1, $2)", 3, in3, SC_COUNT, L);
        if (k) {
            Vals c = { 0 };
            edges(SC_BOOLEAN, false, &c);
            cases_triples(k, &c, &few, &few, 32);
            vals_free(&c);
        }
        /* conversions */
        static const ScalarId to[] = { SC_INT8, SC_UINT32, SC_INT64, SC_FLOAT16, SC_BFLOAT16, SC_FLOAT32,
                                       SC_FLOAT64, SC_BOOLEAN, SC_F8E4M3FN };
        for (int u = 0; u < NELEM(to); u++) {
            char tmpl[64];
            snprintf(label, sizeof label, "%sx%d.to(%s)", sc_name(s), L, sc_name(to[u]));
            snprintf(tmpl, sizeof tmpl, "($0).to(%s)", sc_name(to[u]));
            k = kern_checked(g, f, label, tmpl, 1, &s, to[u], L);
            if (k)
                cases_unary(k, &ef, 64);
        }
        if (type_is_float(s))
            for (int u = 0; u < NELEM(FLOATS); u++)
                for (int m = 0; m < NELEM(MODES); m++) {
                    char tmpl[128];
                    snprintf(label, sizeof label, "%sx%d.to(%s, %s)", sc_name(s), L, sc_name(FLOATS[u]), MODES[m]);
                    snprintf(tmpl, sizeof tmpl, "($0).to(%s, rounding_mode=fx.RoundingMode.%s)",
                             sc_name(FLOATS[u]), MODES[m]);
                    k = kern_checked(g, f, label, tmpl, 1, &s, FLOATS[u], L);
                    if (!k)
                        continue;
                    k->exp = EXP_ROUND;
                    k->rm = m;
                    cases_unary(k, &ef, 32);
                }
        vals_free(&e);
        vals_free(&ef);
        vals_free(&few);
    }
}

/* Mixed operand types: promotion on both sides. */
static void gen_mixed(Group *g, Folder *f)
{
    ScalarId ty[20];
    int n = 0;
    ty[n++] = SC_BOOLEAN;
    for (int i = 0; i < NELEM(INTS); i++)
        ty[n++] = INTS[i];
    for (int i = 0; i < NELEM(FLOATS); i++)
        ty[n++] = FLOATS[i];
    /* one operation per kind of promotion use: arithmetic (+), signed vs
     * unsigned division (//), comparison (<), fx.max, a shift count; the
     * other operations run on the same converted operands in the same-type
     * groups */
    static const Op mixops[] = {
        { "($0) + ($1)", "+", RULE_NONE, 3 },
        { "($0) // ($1)", "//", RULE_DIV, 3 },
        { "($0) < ($1)", "<", RULE_NONE, 3 },
        { "fx.max($0, $1)", "fx.max", RULE_NONE, 3 },
        { "($0) << ($1)", "<<", RULE_SHIFT, 1 },
    };
    for (int a = 0; a < n; a++) {
        Vals ea = { 0 };
        edges(ty[a], false, &ea);
        Vals fa = thin_keep(ty[a], &ea, 9);
        for (int b = 0; b < n; b++) {
            if (a == b)
                continue;
            Vals eb = { 0 };
            edges(ty[b], false, &eb);
            Vals fb = thin_keep(ty[b], &eb, 9);
            for (int o = 0; o < NELEM(mixops); o++) {
                const Op *op = &mixops[o];
                bool intish = !type_is_float(ty[a]) && !type_is_float(ty[b]);
                if (op->cls == 1 && !intish)
                    continue;
                if ((ty[a] == SC_INDEX || ty[b] == SC_INDEX) && is_minmax_ceildiv(op))
                    continue;
                char label[128];
                snprintf(label, sizeof label, "%s %s %s", sc_name(ty[a]), op->name, sc_name(ty[b]));
                ScalarId in[2] = { ty[a], ty[b] };
                Kern *k = kern_checked(g, f, label, op->tmpl, 2, in, SC_COUNT, 1);
                if (!k)
                    continue;
                k->rule = op->rule;
                cases_pairs(k, &fa, &fb, 16);
            }
            vals_free(&eb);
            vals_free(&fb);
        }
        vals_free(&ea);
        vals_free(&fa);
    }
    /* untyped literals meeting typed operands (normalization, spec 3.3) */
    static const char *const lits[][2] = {
        { "($0) + 1", "+ 1" }, { "($0) * 2.5", "* 2.5" }, { "($0) - 0.1", "- 0.1" },
        { "($0) + 3000000000", "+ 3000000000" }, { "($0) // 3", "// 3" }, { "($0) < 0.5", "< 0.5" },
        { "fx.max($0, 0)", "fx.max(x, 0)" }, { "2 * ($0)", "2 * x" },
    };
    for (int a = 0; a < n; a++) {
        Vals ea = { 0 };
        edges(ty[a], true, &ea);
        for (int l = 0; l < NELEM(lits); l++) {
            if (ty[a] == SC_INDEX && strstr(lits[l][0], "fx.max"))
                continue;
            char label[128];
            snprintf(label, sizeof label, "%s %s", sc_name(ty[a]), lits[l][1]);
            Kern *k = kern_checked(g, f, label, lits[l][0], 1, &ty[a], SC_COUNT, 1);
            if (k) {
                k->rule = RULE_DIV;
                cases_unary(k, &ea, 32);
            }
        }
        vals_free(&ea);
    }
}

static void share_cases(Group *g);

int gen_groups(Folder *f, Group **out)
{
    static const char *const names[] = { "int-binary", "float-binary", "unary", "convert", "rounding",
                                         "bitcast", "vector", "mixed" };
    int ng = NELEM(names);
    Group *g = calloc((size_t)ng, sizeof *g);
    for (int i = 0; i < ng; i++)
        g[i].name = names[i];
    ScalarId ib[16];
    int nib = 0;
    ib[nib++] = SC_BOOLEAN;
    for (int i = 0; i < NELEM(INTS); i++)
        ib[nib++] = INTS[i];
    gen_binary(&g[0], f, ib, nib, 64);
    gen_binary(&g[1], f, FLOATS, NELEM(FLOATS), 256);
    gen_fma(&g[1], f);
    gen_unary(&g[2], f, ib, nib);
    gen_unary(&g[2], f, FLOATS, NELEM(FLOATS));
    gen_select(&g[2], f, ib, nib);
    gen_select(&g[2], f, FLOATS, NELEM(FLOATS));
    gen_convert(&g[3], f);
    gen_rounding(&g[4], f);
    gen_bitcast(&g[5], f);
    gen_vector(&g[6], f);
    gen_mixed(&g[7], f);
    for (int i = 0; i < ng; i++)
        share_cases(&g[i]);
    *out = g;
    return errors ? -ng : ng;
}

/* ---- source ---- */

static void type_text(ScalarId s, int lanes, char *buf, size_t cap)
{
    if (lanes > 1)
        snprintf(buf, cap, "%sx%d", sc_name(s), lanes);
    else
        snprintf(buf, cap, "%s", sc_name(s));
}

/* Same signature (inputs and lane count): may share a kernel. */
static bool same_inputs(const Kern *a, const Kern *b)
{
    if (a->nin != b->nin || a->lanes != b->lanes)
        return false;
    for (int j = 0; j < a->nin; j++)
        if (a->in[j] != b->in[j])
            return false;
    return true;
}

/* Kernels with the same inputs share one case list (the longest of them):
 * they become one kernel with one result buffer per operation. */
static void share_cases(Group *g)
{
    for (int i = 0; i < g->n; i++) {
        Kern *k = g->k[i];
        if (k->leader)
            continue;
        Kern *lead = k;
        for (int j = i; j < g->n; j++)
            if (!g->k[j]->leader && same_inputs(k, g->k[j]) && g->k[j]->ncases > lead->ncases)
                lead = g->k[j];
        for (int j = i; j < g->n; j++) {
            Kern *o = g->k[j];
            if (o->leader || !same_inputs(k, o))
                continue;
            o->leader = lead;
            if (o == lead)
                continue;
            for (int l = 0; l < 3; l++) {
                free(o->ops[l]);
                o->ops[l] = lead->ops[l];
            }
            o->ncases = lead->ncases;
            o->cap = lead->cap;
        }
    }
}

char *group_source(Group *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    int line = 1, nk = 0;
    bool *done = calloc((size_t)g->n + 1, 1);
    for (int i = 0; i < g->n; i++) {
        Kern *k = g->k[i];
        k->line = 0;
        if (k->skipped || done[i])
            continue;
        static const char *const pn[3] = { "a", "b", "c" };
        static const char *const acc[3] = { "a[i]", "b[i]", "c[i]" };
        char t[64], expr[512], kname[16];
        snprintf(kname, sizeof kname, "k%d", nk++);
        fprintf(m, "kernel %s(", kname);
        for (int j = 0; j < k->nin; j++) {
            type_text(k->in[j], k->lanes, t, sizeof t);
            fprintf(m, "%s: Ptr[%s], ", pn[j], t);
        }
        int nout = 0;
        for (int i2 = i; i2 < g->n; i2++) {
            Kern *k2 = g->k[i2];
            if (k2->skipped || done[i2] || k2->leader != k->leader)
                continue;
            type_text(k2->out, k2->out_lanes, t, sizeof t);
            fprintf(m, "r%d: Ptr[%s], ", nout++, t);
        }
        fprintf(m, "n: Int32) {\n    let i = block_idx.x * block_dim.x + thread_idx.x\n    if i < n {\n");
        line += 3;
        nout = 0;
        for (int i2 = i; i2 < g->n; i2++) {
            Kern *k2 = g->k[i2];
            if (k2->skipped || done[i2] || k2->leader != k->leader)
                continue;
            done[i2] = true;
            tmpl_expand(k2->tmpl, acc, expr, sizeof expr);
            fprintf(m, "        r%d[i] = %s\n", nout, expr);
            snprintf(k2->kname, sizeof k2->kname, "%s", kname);
            k2->slot = nout++;
            k2->line = line++;
        }
        for (int i2 = i; i2 < g->n; i2++)
            if (!g->k[i2]->skipped && g->k[i2]->leader == k->leader)
                g->k[i2]->nslots = nout;
        fprintf(m, "    }\n}\n");
        line += 2;
    }
    free(done);
    fclose(m);
    return text;
}

void groups_free(Group *g, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < g[i].n; j++) {
            Kern *k = g[i].k[j];
            if (k->leader == k || !k->leader)
                for (int l = 0; l < 3; l++)
                    free(k->ops[l]);
            free(k->skip_msg);
            free(k->expect);
            free(k->expect_st);
            free(k);
        }
        free(g[i].k);
    }
    free(g);
}
