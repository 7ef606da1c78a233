/* contraction_precision.c - seed 003's ContractionPrecisionPass: every
 * eligible Float32/Float64 MatMul or GEMM of a program becomes exact Int8
 * matrix products (MatMul nodes with contraction types {Int8, Int32, Int32})
 * plus elementwise maps that split the operands and combine the products.
 *
 *   sA = reduce.maxabs(op(A) rows)      sB = reduce.maxabs(op(B) columns)
 *   A_t = split_t(A, sA) : Int8         B_u = split_u(B, sB) : Int8      (maps)
 *   P_tu = A_t @ B_u : Int32                                             (Int8 MatMuls)
 *   C = combine(P..., sA, sB[, C])                                       (map)
 *
 * Schemes (t, u and the maps' arithmetic):
 *  - QuantizeContraction(bits): q = 2^(bits-1) - 1, A_q = rint((a / s) * q),
 *    one product, C ~ P * s_A * s_B / q^2. pow2 rescaling (default) multiplies
 *    by the scales' mantissas and applies 2^(e_A + e_B) in one ldexp; direct
 *    multiplies by s/q twice. Computed in the contraction's own type.
 *  - OzakiContraction Slicing (Ozaki-I, s slices): a / 2^e = sum_t 2^-7t A_t
 *    cut by truncation; products with t + u <= s + 1: s(s+1)/2 matmuls.
 *  - OzakiContraction Modular (Ozaki-II, L moduli): A' = trunc(2^q a / 2^e),
 *    its residues modulo L pairwise coprime moduli (one matmul each), Garner
 *    reconstruction with symmetric digits, q the largest with
 *    K 2^(2q) < prod(m) / 4.
 *  - BFloat16 products (bf16x9, bf16x6; Float32 only): a / 2^e (exact) is
 *    split by rounding to nearest into three BFloat16 terms whose sum is
 *    exactly a / 2^e; the products of the terms (all 9, or the 6 with
 *    t + u <= 2) run as BFloat16 MatMuls into Float32, summed in Float32
 *    from the smallest, then scaled by 2^(e_A + e_B).
 * Ozaki splitting and reconstruction run in Float64; every result is scaled
 * by 2^(e_A + e_B - ...) in one step, so nothing overflows where the result
 * does not. A row or column holding an inf or a NaN gives NaN wherever it
 * contributes (the native product would give inf or NaN).
 *
 * Storage order is kept: an operand read transposed (.T, col_major) is
 * reduced and split along its stored rows into an Int8 buffer of the same
 * order, which the Int8 MatMul reads with the same transpose.
 *
 * The guard (--contraction-guard=fallback, Ozaki schemes): every Ozaki
 * scheme loses bits on elements much smaller than the largest of their row
 * or column. Before any Ozaki step the plan estimates D = |A| @ |B| with one
 * quantized Int8 product (no cancellation: all terms are >= 0; small
 * elements quantize to 0, which only makes the guard more cautious) and
 * counts the results whose Ozaki error bound K 2^(e_i + f_j + 1 - q) exceeds
 * the native bound K 2^-p D_ij (p: the type's significand bits; q: the bits
 * the scheme keeps). The Ozaki steps run when the count is 0; otherwise the
 * original native MatMul runs, and the plan says so. */
#include "passes/passes.h"
#include <math.h>
#include <string.h>
#include "fxir/graph.h"
#include "support/bigint.h"

/* Pairwise coprime moduli, largest first: a residue fits Int8 as a
 * symmetric digit in [-m/2, m/2). 256 = 2^8, 255 = 3 5 17, 253 = 11 23 and
 * 247 = 13 19 take those primes; the rest are the primes below 256 down to
 * 103 that none of them holds. */
static const int moduli[FXP_MAX_MODULI] = { 256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223,
                                            211, 199, 197, 193, 191, 181, 179, 173, 167, 163, 157,
                                            151, 149, 139, 137, 131, 127, 113, 109, 107, 103 };

/* --contraction-guard */
enum { GUARD_NONE, GUARD_FALLBACK, GUARD_ADAPT };

/* What the scheme needs of a GEMM, decided before rewriting. */
typedef struct Plan {
    FxPrecision pr;         /* with n resolved (bits, slices, moduli) */
    int64_t K;
    int q;                  /* Ozaki-II: bits per element; quantization: 2^(bits-1) - 1 */
    int matmuls;
} Plan;

/* ---- eligibility ---- */

/* The largest magnitude of an Int8 operand: products of two of them summed
 * K times must stay below 2^31. A residue of modulus 256 reaches -128. */
static int64_t int8_bound(const Plan *pl)
{
    if (pl->pr.kind == FXP_QUANTIZE)
        return (1 << (pl->pr.n - 1)) - 1;
    return pl->pr.kind == FXP_OZAKI2 ? 128 : 127;
}

/* The largest K whose Int32 sum of K products is exact, as specified:
 * quantization and Ozaki-I take seed 003's K <= 133143 for values up to
 * 127, which is (K + 1) b^2 <= 2^31 - 1 (one product of headroom; applied
 * to the bound of every intB too); Ozaki-II's residues reach -128, and the
 * issue that specified it takes K 128^2 <= 2^31 - 1, K <= 131071. */
static int64_t k_limit(const Plan *pl)
{
    int64_t b = int8_bound(pl);
    if (pl->pr.kind == FXP_OZAKI2)
        return INT64_C(2147483647) / (b * b);
    return INT64_C(2147483647) / (b * b) - 1;
}

/* The largest q with K * 2^(2q) * 4 < m_1 * ... * m_L; -1 when none. */
static int ozaki2_bits(int L, int64_t K)
{
    BigInt M = big_from_i64(1);
    for (int l = 0; l < L; l++)
        M = big_mul(M, big_from_i64(moduli[l]));
    int q = -1;
    while (big_cmp(big_shl(big_from_i64(K * 4), (unsigned)(2 * (q + 1))), M) < 0)
        q++;
    return q;
}

/* Defaults by precision (seed 003): s = 4 (Float32) / 8 (Float64) slices;
 * the fewest moduli whose q reaches 26 (Float32) / 55 (Float64) bits. */
static bool resolve(Plan *pl, ScalarId t)
{
    bool f64 = t == SC_FLOAT64;
    if (pl->pr.kind == FXP_OZAKI1 && !pl->pr.n)
        pl->pr.n = f64 ? 8 : 4;
    if (pl->pr.kind == FXP_OZAKI2 && !pl->pr.n)
        for (pl->pr.n = 1; pl->pr.n < FXP_MAX_MODULI && ozaki2_bits(pl->pr.n, pl->K) < (f64 ? 55 : 26);)
            pl->pr.n++;
    switch (pl->pr.kind) {
    case FXP_QUANTIZE: pl->q = (1 << (pl->pr.n - 1)) - 1; pl->matmuls = 1; break;
    case FXP_OZAKI1: pl->matmuls = pl->pr.n * (pl->pr.n + 1) / 2; break;
    case FXP_OZAKI2: pl->q = ozaki2_bits(pl->pr.n, pl->K); pl->matmuls = pl->pr.n; break;
    default: return false;
    }
    return pl->pr.kind != FXP_OZAKI2 || pl->q >= 1;
}

static const char *scalar_kind(const FxProgram *p, FxScalarArg s, const char *what, Arena *a)
{
    if (s.kind == FXS_PARAM)
        return arena_printf(a, "%s is a run-time value (parameter '%s'); only a static %s keeps BLAS semantics", what,
                            p->params[s.param_index].name, what);
    return NULL;
}

/* The BFloat16 schemes: Float32 only; their Float32 sums need no K limit. */
static const char *bf16_ineligible(FxModule *m, const FxNode *n, Plan *pl)
{
    if (n->in_type != SC_FLOAT32)
        return arena_printf(m->arena, "its type is %s; bf16x%d splits Float32 operands into BFloat16 terms",
                            type_info(n->in_type)->name, pl->pr.n);
    pl->matmuls = pl->pr.n;
    return NULL;
}

/* NULL when node n can be rewritten; otherwise why not. Fills pl. */
static const char *ineligible(FxModule *m, const FxProgram *p, const FxNode *n, Plan *pl)
{
    Arena *a = m->arena;
    if (n->in_type != n->acc_type || n->acc_type != n->out_type ||
        (n->in_type != SC_FLOAT32 && n->in_type != SC_FLOAT64))
        return arena_printf(a, "its types are in=%s, acc=%s, out=%s; low-precision contractions take one Float32 "
                            "or Float64 type for inputs, accumulator and output", type_info(n->in_type)->name,
                            type_info(n->acc_type)->name, type_info(n->out_type)->name);
    const char *why = scalar_kind(p, n->alpha, "alpha", a);
    if (!why && n->beta.kind != FXS_NONE)
        why = scalar_kind(p, n->beta, "beta", a);
    if (why)
        return why;
    if (n->alpha.value == 0)
        return "alpha is 0, so A @ B is not computed (BLAS semantics)";
    if (pl->pr.kind == FXP_BF16)
        return bf16_ineligible(m, n, pl);
    const Type *A = n->ins[0]->type;
    int kd = n->trans_a ? 0 : 1;
    if (A->dim_names && A->dim_names[kd])
        return arena_printf(a, "K is the run-time dimension '%s'; the exact Int32 accumulation needs a static K",
                            A->dim_names[kd]);
    pl->K = A->dims[kd];
    if (pl->K > k_limit(pl))
        return arena_printf(a, "K = %lld exceeds %lld, beyond which the Int32 sum of products of Int8 values up to "
                            "%lld is not exact", (long long)pl->K, (long long)k_limit(pl), (long long)int8_bound(pl));
    if (!resolve(pl, n->in_type))
        return arena_printf(a, "%d moduli leave no bits for K = %lld", pl->pr.n, (long long)pl->K);
    return NULL;
}

static bool is_gemm(const FxNode *n)
{
    return n->beta.kind != FXS_NONE || n->alpha.kind != FXS_STATIC || n->alpha.value != 1;
}

/* ---- the graph ---- */

typedef struct Rw {
    FxModule *m;
    FxProgram *p;
    FxNode *n;              /* the MatMul being replaced */
    FxTensor *when;         /* the guard's count: new Ozaki steps run when it is 0 (or NULL) */
    Plan pl;
    ScalarId t;             /* the contraction's type */
    int *serial;            /* names the new tensors and bodies; one count per program, as
                               several contractions may write the same output */
    const char *M, *N;      /* symbolic names of op(A)'s rows and op(B)'s columns, or NULL */
    int64_t Mv, Nv;
} Rw;

static const char *fresh(Rw *w, const char *what)
{
    return arena_printf(w->m->arena, "%s__%s%d", w->n->out->name, what, (*w->serial)++);
}

static FxTensor *vector_of(Rw *w, const char *what, const char *dim, int64_t v)
{
    const char *names[1] = { dim };
    return fxg_transient(w->m, w->p, fresh(w, what), type_scalar(w->t), 1, &v, names, w->n->loc);
}

/* The absmax of every row of op(A) (side 0) or column of op(B) (side 1). */
static FxTensor *absmax(Rw *w, int side)
{
    FxNode *n = w->n;
    FxTensor *x = n->ins[side];
    bool trans = side == 0 ? n->trans_a : n->trans_b;
    FxTensor *s = side == 0 ? vector_of(w, "absA", w->M, w->Mv) : vector_of(w, "absB", w->N, w->Nv);
    FxNode *r = fxg_node(w->m, w->p, FXN_REDUCE, s, n->loc, n);
    fxg_set_inputs(w->m, r, 1, &x);
    r->reduce = FXR_MAXABS;
    r->axis = side == 0 ? (trans ? 0 : 1) : (trans ? 1 : 0);
    return s;
}

/* sv as a [len, 1] column (row-major view of the same buffer). */
static FxTensor *column_view(Rw *w, FxTensor *sv)
{
    int64_t dims[2] = { sv->type->dims[0], 1 };
    const char *names[2] = { sv->type->dim_names[0], NULL };
    return fxg_view(w->m, w->p, fresh(w, "col"), sv, 2, dims, names, w->n->loc);
}

/* A map node before the MatMul writing `out` from `ins`; its body is left
 * open in *b with its parameters in params. */
static FxNode *map_node(Rw *w, FxTensor *out, int nins, FxTensor **ins, const char *what, const Type *ret,
                        FxBuilder *b, FxInst **params)
{
    FxNode *mn = fxg_node(w->m, w->p, FXN_MAP, out, w->n->loc, w->n);
    mn->when = w->when;
    fxg_set_inputs(w->m, mn, nins, ins);
    fxg_map_body(b, w->m, w->p, mn, arena_printf(w->m->arena, "%s__%s", w->p->name, fresh(w, what)), ret, params);
    return mn;
}

/* ---- arithmetic in map bodies ---- */

static const Type *f64(void) { return type_scalar(SC_FLOAT64); }
static const Type *i32(void) { return type_scalar(SC_INT32); }

static FxInst *c_i32(FxBuilder *b, int64_t v) { return fxb_int(b, i32(), v); }
static FxInst *exponent(FxBuilder *b, FxInst *x) { return fxb_emit(b, FX_FREXP_EXP, 0, i32(), 1, x); }
static FxInst *scale2(FxBuilder *b, FxInst *x, FxInst *e) { return fxb_emit(b, FX_LDEXP, 0, x->type, 2, x, e); }
static FxInst *add(FxBuilder *b, FxInst *x, FxInst *y) { return fxb_binop(b, FXB_ADD, x, y); }
static FxInst *mul(FxBuilder *b, FxInst *x, FxInst *y) { return fxb_binop(b, FXB_MUL, x, y); }

/* v mod m as a symmetric digit: [-m/2, m/2) for an even m, |d| <= (m-1)/2
 * for an odd one (v integral, of any type). */
static FxInst *symmetric(FxBuilder *b, FxInst *v, int m, ScalarId s)
{
    FxInst *r = fxb_binop(b, FXB_MOD, v, fxb_number(b, s, m));   /* floored: [0, m) */
    FxInst *high = fxb_cmp(b, FXC_GE, r, fxb_number(b, s, (m + 1) / 2));
    return fxb_select(b, high, fxb_binop(b, FXB_SUB, r, fxb_number(b, s, m)), r);
}

static void split_quantize(Rw *w, FxBuilder *b, FxInst *a, FxInst *s)
{
    FxInst *x = mul(b, fxb_binop(b, FXB_DIV, a, s), fxb_number(b, w->t, w->pl.q));   /* (a / s) * q */
    fxb_return(b, fxb_cast(b, fxb_math(b, FXM_RINT, x), type_scalar(SC_INT8)));
}

/* slice t of a / 2^e: trunc(2^7t r) - 128 trunc(2^7(t-1) r), exact in Float64 */
static void split_slice(Rw *w, FxBuilder *b, FxInst *a, FxInst *s, int t)
{
    (void)w;
    FxInst *ad = fxb_cast(b, a, f64()), *e = exponent(b, fxb_cast(b, s, f64()));
    FxInst *hi = fxb_math(b, FXM_TRUNC, scale2(b, ad, fxb_binop(b, FXB_SUB, c_i32(b, 7 * t), e)));
    if (t > 1) {
        FxInst *lo = fxb_math(b, FXM_TRUNC, scale2(b, ad, fxb_binop(b, FXB_SUB, c_i32(b, 7 * (t - 1)), e)));
        hi = fxb_binop(b, FXB_SUB, hi, mul(b, lo, fxb_number(b, SC_FLOAT64, 128)));
    }
    fxb_return(b, fxb_cast(b, hi, type_scalar(SC_INT8)));
}

/* residue of A' = trunc(2^q a / 2^e) modulo moduli[l], exact in Float64 */
static void split_residue(Rw *w, FxBuilder *b, FxInst *a, FxInst *s, int l)
{
    FxInst *ad = fxb_cast(b, a, f64()), *e = exponent(b, fxb_cast(b, s, f64()));
    FxInst *x = fxb_math(b, FXM_TRUNC, scale2(b, ad, fxb_binop(b, FXB_SUB, c_i32(b, w->pl.q), e)));
    fxb_return(b, fxb_cast(b, symmetric(b, x, moduli[l], SC_FLOAT64), type_scalar(SC_INT8)));
}

/* BFloat16 term t (0: the largest) of a / 2^e, rounded to nearest: each
 * remainder is exact in Float32, and three terms hold all 24 bits. */
static void split_bf16(FxBuilder *b, FxInst *a, FxInst *s, int t)
{
    const Type *bf = type_scalar(SC_BFLOAT16);
    FxInst *r = scale2(b, a, fxb_unop(b, FXU_NEG, exponent(b, s))), *term = fxb_cast(b, r, bf);
    for (int k = 0; k < t; k++) {
        r = fxb_binop(b, FXB_SUB, r, fxb_cast(b, term, r->type));
        term = fxb_cast(b, r, bf);
    }
    fxb_return(b, term);
}

/* The type of the pieces the operands are split into. */
static ScalarId piece_type(const Rw *w)
{
    return w->pl.pr.kind == FXP_BF16 ? SC_BFLOAT16 : SC_INT8;
}

/* The tensor of one piece of operand `side` (0: A, 1: B). */
static FxTensor *split(Rw *w, int side, FxTensor *scale, int piece)
{
    FxTensor *x = w->n->ins[side];
    const Type *pt = type_scalar(piece_type(w));
    FxTensor *out = fxg_transient_like(w->m, w->p, fresh(w, side ? "B" : "A"), pt, x, w->n->loc);
    FxTensor *ins[2] = { x, scale };
    FxBuilder b;
    FxInst *params[2];
    map_node(w, out, 2, ins, side ? "splitB" : "splitA", pt, &b, params);
    switch (w->pl.pr.kind) {
    case FXP_QUANTIZE: split_quantize(w, &b, params[0], params[1]); break;
    case FXP_OZAKI1: split_slice(w, &b, params[0], params[1], piece + 1); break;
    case FXP_BF16: split_bf16(&b, params[0], params[1], piece); break;
    default: split_residue(w, &b, params[0], params[1], piece); break;
    }
    return out;
}

/* The scale of a row or column as seen by a split of `side`: along the
 * split tensor's stored rows ([len, 1]) or columns ([len]). */
static FxTensor *scale_for_split(Rw *w, int side, FxTensor *s, FxTensor *col)
{
    bool trans = side == 0 ? w->n->trans_a : w->n->trans_b;
    bool by_rows = side == 0 ? !trans : trans;
    return by_rows ? col : s;
}

/* The exact Int8 product a @ b into Int32 (BFloat16 pieces: into Float32). */
static FxTensor *piece_matmul(Rw *w, FxTensor *a, FxTensor *b)
{
    int64_t dims[2] = { w->Mv, w->Nv };
    const char *names[2] = { w->M, w->N };
    bool bf16 = a->type->elem->scalar == SC_BFLOAT16;
    ScalarId acc = bf16 ? SC_FLOAT32 : SC_INT32;
    FxTensor *out = fxg_transient(w->m, w->p, fresh(w, "P"), type_scalar(acc), 2, dims, names, w->n->loc);
    FxNode *mm = fxg_node(w->m, w->p, FXN_MATMUL, out, w->n->loc, w->n);
    mm->when = w->when;
    FxTensor *ins[2] = { a, b };
    fxg_set_inputs(w->m, mm, 2, ins);
    mm->trans_a = w->n->trans_a;
    mm->trans_b = w->n->trans_b;
    mm->alpha = (FxScalarArg){ FXS_STATIC, 1.0, -1 };
    mm->beta = (FxScalarArg){ FXS_NONE, 0, -1 };
    mm->in_type = mm->in_type_b = bf16 ? SC_BFLOAT16 : SC_INT8;
    mm->acc_type = mm->out_type = acc;
    return mm->out;
}

/* ---- combining ---- */

/* NaN where the row's or the column's scale is inf or NaN: sa*0 + sb*0 is
 * 0 for finite scales and NaN otherwise, without overflowing. */
static FxInst *poison_non_finite(FxBuilder *b, FxInst *y, FxInst *sa, FxInst *sb)
{
    FxInst *z0 = fxb_number(b, y->type->scalar, 0);
    FxInst *z = add(b, mul(b, fxb_cast(b, sa, y->type), z0), mul(b, fxb_cast(b, sb, y->type), z0));
    return fxb_select(b, fxb_cmp(b, FXC_NE, z, z), z, y);
}

/* P * s_A * s_B / q^2 in the contraction's type */
static FxInst *combine_quantize(Rw *w, FxBuilder *b, FxInst **p, FxInst *sa, FxInst *sb, bool direct)
{
    FxInst *pt = fxb_cast(b, p[0], type_scalar(w->t)), *q = fxb_number(b, w->t, w->pl.q);
    if (direct)   /* (P * (s_A / q)) * (s_B / q): overflows for scales within K q of the largest value */
        return mul(b, mul(b, pt, fxb_binop(b, FXB_DIV, sa, q)), fxb_binop(b, FXB_DIV, sb, q));
    FxInst *ea = exponent(b, sa), *eb = exponent(b, sb);
    FxInst *ma = scale2(b, sa, fxb_unop(b, FXU_NEG, ea)), *mb = scale2(b, sb, fxb_unop(b, FXU_NEG, eb));
    FxInst *f = fxb_binop(b, FXB_DIV, mul(b, ma, mb), fxb_number(b, w->t, (double)w->pl.q * w->pl.q));
    return poison_non_finite(b, scale2(b, mul(b, pt, f), add(b, ea, eb)), sa, sb);
}

/* ---- double-Float64 sums (error-free transformations) ----
 *
 * The reconstructions below sum more bits than a Float64 holds. They carry
 * the sum as hi + lo (|lo| <= half an ulp of hi) and round it once at the
 * end: to Float64 that is hi, to Float32 hi rounded to odd first, so that
 * the second rounding is the only one that shows (53 >= 24 + 2 bits). */

typedef struct Dd {
    FxInst *hi, *lo;
} Dd;

/* x + y = s + e exactly (two-sum, any magnitudes) */
static Dd two_sum(FxBuilder *b, FxInst *x, FxInst *y)
{
    FxInst *s = add(b, x, y);
    FxInst *yy = fxb_binop(b, FXB_SUB, s, x);
    FxInst *xx = fxb_binop(b, FXB_SUB, s, yy);
    FxInst *ex = fxb_binop(b, FXB_SUB, x, xx);
    FxInst *ey = fxb_binop(b, FXB_SUB, y, yy);
    return (Dd){ s, add(b, ex, ey) };
}

/* x + y = s + e exactly when |x| >= |y| or x is 0 (fast two-sum) */
static Dd fast_two_sum(FxBuilder *b, FxInst *x, FxInst *y)
{
    FxInst *s = add(b, x, y);
    FxInst *yy = fxb_binop(b, FXB_SUB, s, x);
    return (Dd){ s, fxb_binop(b, FXB_SUB, y, yy) };
}

/* d * m + v for a Float64 m and v of at most 8 bits: hi * m exactly by an
 * fma, lo * m with an error below 2^-104 of the result, v added exactly */
static Dd dd_horner_step(FxBuilder *b, Dd d, FxInst *m, FxInst *v)
{
    FxInst *p = mul(b, d.hi, m);
    FxInst *pe = fxb_fma(b, d.hi, m, fxb_unop(b, FXU_NEG, p));
    FxInst *t = fxb_fma(b, d.lo, m, pe);
    Dd s = two_sum(b, p, v);
    return fast_two_sum(b, s.hi, add(b, s.lo, t));
}

/* hi + lo rounded for a result of type t, as said above */
static FxInst *dd_round(FxBuilder *b, Dd d, ScalarId t)
{
    if (t == SC_FLOAT64)
        return d.hi;
    const Type *i64 = type_scalar(SC_INT64);
    FxInst *zero = fxb_number(b, SC_FLOAT64, 0);
    FxInst *bits = fxb_bitcast(b, d.hi, i64);
    FxInst *odd = fxb_cmp(b, FXC_NE, fxb_binop(b, FXB_AND, bits, fxb_int(b, i64, 1)), fxb_int(b, i64, 0));
    FxInst *exact = fxb_cmp(b, FXC_EQ, d.lo, zero);
    /* one step in the bits: away from 0 when lo has hi's sign */
    FxInst *hi_neg = fxb_cmp(b, FXC_LT, d.hi, zero);
    FxInst *lo_neg = fxb_cmp(b, FXC_LT, d.lo, zero);
    FxInst *lo_pos = fxb_cmp(b, FXC_GT, d.lo, zero);
    FxInst *away = fxb_select(b, hi_neg, lo_neg, lo_pos);
    FxInst *step = fxb_select(b, away, fxb_int(b, i64, 1), fxb_int(b, i64, -1));
    FxInst *nudged = fxb_bitcast(b, fxb_binop(b, FXB_ADD, bits, step), f64());
    return fxb_select(b, fxb_select(b, odd, odd, exact), d.hi, nudged);
}

/* sum over t + u = d of P_tu, Horner in 2^-7 from the smallest terms in
 * double-Float64, rounded once, then 2^(e_A + e_B - 14) in one step */
static FxInst *combine_slices(Rw *w, FxBuilder *b, FxInst **p, FxInst *sa64, FxInst *sb64)
{
    int s = w->pl.pr.n;
    Dd y = { NULL, NULL };
    for (int d = s + 1; d >= 2; d--) {
        FxInst *sum = NULL;
        for (int t = 1, k = 0; t <= s; t++)
            for (int u = 1; u <= s + 1 - t; u++, k++)
                if (t + u == d) {
                    FxInst *v = fxb_cast(b, p[k], f64());
                    sum = sum ? add(b, sum, v) : v;   /* exact: below 2^53 */
                }
        y = y.hi ? dd_horner_step(b, y, fxb_number(b, SC_FLOAT64, 0x1p-7), sum)
                 : (Dd){ sum, fxb_number(b, SC_FLOAT64, 0) };
    }
    FxInst *r = dd_round(b, y, w->t);
    FxInst *ea = exponent(b, sa64), *eb = exponent(b, sb64);
    return scale2(b, r, add(b, add(b, ea, eb), c_i32(b, -14)));
}

/* the BFloat16 products in Float32, smallest first (rewrite orders them),
 * then 2^(e_A + e_B) */
static FxInst *combine_bf16(Rw *w, FxBuilder *b, FxInst **p, FxInst *sa, FxInst *sb)
{
    FxInst *y = p[0];
    for (int k = 1; k < w->pl.matmuls; k++)
        y = add(b, y, p[k]);
    FxInst *ea = exponent(b, sa), *eb = exponent(b, sb);   /* in this order: C leaves arguments' unspecified */
    return poison_non_finite(b, scale2(b, y, add(b, ea, eb)), sa, sb);
}

/* (a * b^-1) mod m for the Garner digits */
static int64_t inverse_mod(int64_t a, int64_t m)
{
    a %= m;
    for (int64_t x = 1; x < m; x++)
        if (a * x % m == 1)
            return x;
    return 0;
}

/* Garner with symmetric digits v_k in [-m_k/2, m_k/2) (Int32 arithmetic),
 * then C' = v_1 + m_1 (v_2 + m_2 (...)) in double-Float64, rounded once,
 * and 2^(e_A + e_B - 2q). */
static FxInst *combine_residues(Rw *w, FxBuilder *b, FxInst **p, FxInst *sa64, FxInst *sb64)
{
    int L = w->pl.pr.n;
    FxInst *v[FXP_MAX_MODULI];
    for (int k = 0; k < L; k++) {
        int mk = moduli[k];
        if (k == 0) {
            v[0] = symmetric(b, p[0], mk, SC_INT32);
            continue;
        }
        FxInst *r = fxb_binop(b, FXB_MOD, p[k], c_i32(b, mk));
        /* (v_1 + v_2 m_1 + ... + v_k m_1...m_{k-1}) mod m_k, Horner from the top */
        FxInst *acc = v[k - 1];
        int64_t Mk = 1;
        for (int j = k - 2; j >= 0; j--)
            acc = fxb_binop(b, FXB_MOD, add(b, mul(b, acc, c_i32(b, moduli[j] % mk)), v[j]), c_i32(b, mk));
        for (int j = 0; j < k; j++)
            Mk = Mk * moduli[j] % mk;
        FxInst *diff = fxb_binop(b, FXB_SUB, r, acc);
        v[k] = symmetric(b, mul(b, diff, c_i32(b, inverse_mod(Mk, mk))), mk, SC_INT32);
    }
    Dd y = { fxb_cast(b, v[L - 1], f64()), fxb_number(b, SC_FLOAT64, 0) };
    for (int k = L - 2; k >= 0; k--) {
        FxInst *m = fxb_number(b, SC_FLOAT64, moduli[k]);
        y = dd_horner_step(b, y, m, fxb_cast(b, v[k], f64()));
    }
    FxInst *r = dd_round(b, y, w->t);
    FxInst *ea = exponent(b, sa64), *eb = exponent(b, sb64);
    return scale2(b, r, add(b, add(b, ea, eb), c_i32(b, -2 * w->pl.q)));
}

/* C = alpha * y (+ beta * C), as the native GEMM's epilogue computes it */
static FxInst *epilogue(Rw *w, FxBuilder *b, FxInst *y, FxInst *c)
{
    const FxNode *n = w->n;
    if (n->alpha.value != 1)
        y = mul(b, fxb_number(b, w->t, n->alpha.value), y);
    if (c)
        y = add(b, y, mul(b, fxb_number(b, w->t, n->beta.value), fxb_cast(b, c, type_scalar(w->t))));
    return fxb_cast(b, y, n->out->type->elem);
}

static FxNode *combine(Rw *w, FxTensor **prods, FxTensor *sa_col, FxTensor *sb, bool direct)
{
    int np = w->pl.matmuls;
    bool beta = w->n->beta.kind != FXS_NONE;
    FxTensor **ins = arena_alloc(w->m->arena, sizeof(FxTensor *) * (size_t)(np + 3));
    memcpy(ins, prods, sizeof(FxTensor *) * (size_t)np);
    ins[np] = sa_col;
    ins[np + 1] = sb;
    if (beta)
        ins[np + 2] = w->n->out;
    FxInst **params = arena_alloc(w->m->arena, sizeof(FxInst *) * (size_t)(np + 3));
    FxBuilder b;
    FxNode *node = map_node(w, w->n->out, np + 2 + beta, ins, "combine", w->n->out->type->elem, &b, params);
    FxInst *sa = params[np], *sbv = params[np + 1], *y;
    if (w->pl.pr.kind == FXP_QUANTIZE) {
        y = combine_quantize(w, &b, params, sa, sbv, direct);
    } else if (w->pl.pr.kind == FXP_BF16) {
        y = combine_bf16(w, &b, params, sa, sbv);
    } else {
        FxInst *sa64 = fxb_cast(&b, sa, f64()), *sb64 = fxb_cast(&b, sbv, f64());
        y = w->pl.pr.kind == FXP_OZAKI1 ? combine_slices(w, &b, params, sa64, sb64)
                                        : combine_residues(w, &b, params, sa64, sb64);
        y = fxb_cast(&b, poison_non_finite(&b, y, sa64, sb64), type_scalar(w->t));
    }
    fxb_return(&b, epilogue(w, &b, y, beta ? params[np + 2] : NULL));
    return node;
}

/* ---- the guard ---- */

/* The bits the scheme keeps of each element below its row's or column's
 * largest. BFloat16 terms: r = a / 2^e < 1 keeps its 24 bits while its last
 * bit, 2^-23 of r, is at least BFloat16's smallest subnormal 2^-133, that
 * is for r >= 2^-110, and a Float32 sum of the scaled products loses nothing
 * to underflow while it stays far above 2^-126. With 100, the guard flags
 * results whose scaled |A| @ |B| is below 2^-75: there the absolute errors
 * of both (K 2^-109 at most) could exceed the native bound K 2^-24 D. Its
 * estimate is the BFloat16 product of the largest terms of |A| and |B|
 * (within 2^-8 of D, no cancellation; a product that underflows to 0 is
 * flagged, as it should be). */
enum { BF16_KEPT_BITS = 100 };

static int kept_bits(const Plan *pl)
{
    if (pl->pr.kind == FXP_BF16)
        return BF16_KEPT_BITS;
    return pl->pr.kind == FXP_OZAKI1 ? 7 * pl->pr.n - 1 : pl->q;
}

/* A result is flagged when its D = |A| @ |B| is below 2^(e_A + e_B + this):
 * there the scheme's error bound K 2^(e_A + e_B + 1 - kept) exceeds the
 * native bound K 2^-p D (p: the type's significand bits). */
static int guard_margin(const Rw *w)
{
    return type_info(w->t)->fmt->man_bits + 2;
}

static int guard_exponent(const Rw *w)
{
    return guard_margin(w) - kept_bits(&w->pl);
}

/* |x| quantized to 127 levels of its row's or column's absmax (Int8); for
 * the BFloat16 schemes the largest BFloat16 term of |x| / 2^e */
static FxTensor *abs_split(Rw *w, int side, FxTensor *scale, ScalarId piece)
{
    FxTensor *x = w->n->ins[side];
    const Type *pt = type_scalar(piece);
    FxTensor *out = fxg_transient_like(w->m, w->p, fresh(w, side ? "absqB" : "absqA"), pt, x, w->n->loc);
    FxTensor *ins[2] = { x, scale };
    FxBuilder b;
    FxInst *params[2];
    map_node(w, out, 2, ins, "abssplit", pt, &b, params);
    FxInst *a = fxb_unop(&b, FXU_ABS, params[0]), *q;
    if (piece == SC_BFLOAT16)
        q = scale2(&b, a, fxb_unop(&b, FXU_NEG, exponent(&b, params[1])));
    else
        q = fxb_math(&b, FXM_RINT, mul(&b, fxb_binop(&b, FXB_DIV, a, params[1]), fxb_number(&b, w->t, 127)));
    fxb_return(&b, fxb_cast(&b, q, pt));
    return out;
}

/* In a guard map body reading (P, s_A, s_B), P the quantized |A| @ |B|:
 * the estimate D of |A| @ |B| in Float64, and e_A + e_B in *e. */
static FxInst *estimate_abs_product(FxBuilder *b, FxInst **in, FxInst **e)
{
    FxInst *sa = fxb_cast(b, in[1], f64()), *sb = fxb_cast(b, in[2], f64()), *c127 = fxb_number(b, SC_FLOAT64, 127);
    *e = add(b, exponent(b, sa), exponent(b, sb));
    return mul(b, mul(b, fxb_cast(b, in[0], f64()), fxb_binop(b, FXB_DIV, sa, c127)), fxb_binop(b, FXB_DIV, sb, c127));
}

/* 1 where the scheme's result may be less accurate than the native one */
static FxTensor *guard_flags(Rw *w, FxTensor *pabs, FxTensor *sa_col, FxTensor *sb)
{
    int64_t dims[2] = { w->Mv, w->Nv };
    const char *names[2] = { w->M, w->N };
    FxTensor *flags = fxg_transient(w->m, w->p, fresh(w, "flags"), i32(), 2, dims, names, w->n->loc);
    FxTensor *ins[3] = { pabs, sa_col, sb };
    FxBuilder bb, *b = &bb;
    FxInst *in[3];
    map_node(w, flags, 3, ins, "guard", i32(), b, in);
    FxInst *worse;
    if (w->pl.pr.kind == FXP_BF16) {   /* the estimate is of |A| @ |B| / 2^(e_A + e_B) already */
        FxInst *limit = fxb_number(b, SC_FLOAT32, ldexp(1.0, guard_exponent(w)));
        worse = fxb_cmp(b, FXC_LT, in[0], limit);
        fxb_return(b, fxb_select(b, worse, c_i32(b, 1), c_i32(b, 0)));
        return flags;
    }
    FxInst *ee;
    FxInst *d = estimate_abs_product(b, in, &ee);
    FxInst *e = add(b, ee, c_i32(b, guard_exponent(w)));
    worse = fxb_cmp(b, FXC_LT, d, scale2(b, fxb_number(b, SC_FLOAT64, 1), e));
    fxb_return(b, fxb_select(b, worse, c_i32(b, 1), c_i32(b, 0)));
    return flags;
}

static FxTensor *reduce_over(Rw *w, FxTensor *in, FxReduceKind kind, int axis, const char *what, int64_t len,
                            const char *dim)
{
    const char *names[1] = { dim };
    FxTensor *out = fxg_transient(w->m, w->p, fresh(w, what), i32(), 1, &len, names, w->n->loc);
    FxNode *r = fxg_node(w->m, w->p, FXN_REDUCE, out, w->n->loc, w->n);
    fxg_set_inputs(w->m, r, 1, &in);
    r->reduce = kind;
    r->axis = axis;
    return out;
}

/* The count of results the Ozaki scheme might get wrong; the original
 * MatMul stays, running only when the count is not 0. */
static FxTensor *guard_count(Rw *w, FxTensor *sa, FxTensor *sa_col, FxTensor *sb, FxTensor *sb_col)
{
    FxTensor *qa = abs_split(w, 0, scale_for_split(w, 0, sa, sa_col), piece_type(w));
    FxTensor *qb = abs_split(w, 1, scale_for_split(w, 1, sb, sb_col), piece_type(w));
    FxTensor *flags = guard_flags(w, piece_matmul(w, qa, qb), sa_col, sb);
    FxTensor *rows = reduce_over(w, flags, FXR_SUM, 1, "flagrows", w->Mv, w->M);
    FxTensor *count = reduce_over(w, rows, FXR_SUM, 0, "flagged", 1, NULL);
    FxNode *n = w->n;
    n->when = count;
    n->when_nonzero = true;
    const Loc *l = &n->loc;
    const char *scheme = w->pl.pr.kind == FXP_OZAKI1 ? "Ozaki-I" : "Ozaki-II";
    const char *what = is_gemm(n) ? "GEMM" : "MatMul", *file = l->file ? l->file->name : "?";
    if (w->pl.pr.kind == FXP_BF16)
        n->note = arena_printf(w->m->arena, "contraction guard: the %s at %s:%d:%d ran natively: {} of its results "
                               "are below 2^%d of their rows' and columns' largest products, where bf16x%d's "
                               "terms and sums underflow", what, file, l->line, l->col, guard_exponent(w),
                               w->pl.pr.n);
    else
        n->note = arena_printf(w->m->arena, "contraction guard: the %s at %s:%d:%d ran natively: {} of its results "
                               "need more than the %d bits %s keeps", what, file, l->line, l->col,
                               kept_bits(&w->pl), scheme);
    return count;
}

/* ---- driving ---- */

/* The pieces, products and combine of scheme w->pl, each under w->when;
 * returns the combine's node. */
static FxNode *build_scheme(Rw *w, FxTensor *sa, FxTensor *sa_col, FxTensor *sb, FxTensor *sb_col, bool direct)
{
    Plan pl = w->pl;
    Arena *a = w->m->arena;
    int pieces = pl.pr.kind == FXP_QUANTIZE ? 1 : pl.pr.kind == FXP_BF16 ? 3 : pl.pr.n;
    FxTensor **as = arena_alloc(a, sizeof(FxTensor *) * (size_t)pieces);
    FxTensor **bs = arena_alloc(a, sizeof(FxTensor *) * (size_t)pieces);
    for (int k = 0; k < pieces; k++) {
        as[k] = split(w, 0, scale_for_split(w, 0, sa, sa_col), k);
        bs[k] = split(w, 1, scale_for_split(w, 1, sb, sb_col), k);
    }
    FxTensor **prods = arena_alloc(a, sizeof(FxTensor *) * (size_t)pl.matmuls);
    int np = 0;
    if (pl.pr.kind == FXP_OZAKI1) {   /* t + u <= s + 1, in the order combine_slices reads them */
        for (int t = 0; t < pieces; t++)
            for (int u = 0; u < pieces - t; u++)
                prods[np++] = piece_matmul(w, as[t], bs[u]);
    } else if (pl.pr.kind == FXP_BF16) {   /* by t + u from the smallest terms: bf16x6 drops t + u > 2 */
        for (int d = pl.pr.n == 9 ? 4 : 2; d >= 0; d--)
            for (int t = 0; t < pieces; t++)
                if (d - t >= 0 && d - t < pieces)
                    prods[np++] = piece_matmul(w, as[t], bs[d - t]);
    } else {
        for (int k = 0; k < pieces; k++)
            prods[np++] = piece_matmul(w, as[k], bs[k]);
    }
    return combine(w, prods, sa_col, sb, direct);
}

/* ---- adapt: the fewest moduli or slices the results need ----
 *
 * --contraction-guard=adapt builds the scheme for a few counts (the one
 * asked for, then up to the largest in steps: adapt_plans), each under its
 * own condition. The guard's estimate of |A| @ |B| gives, per result, the
 * bits a scheme must keep for its error bound to stay within native's;
 * their maximum picks the first count that keeps that many, or the native
 * MatMul when none does. */

enum { ADAPT_MAX_PLANS = 4 };

/* The counts adapt chooses among: the plan's own, then evenly up to the
 * largest (3 steps for moduli, 2 for slices, which cost n(n+1)/2 products). */
static int adapt_plans(const Plan *pl, ScalarId t, Plan *out)
{
    bool ozaki1 = pl->pr.kind == FXP_OZAKI1;
    int max = ozaki1 ? FXP_MAX_SLICES : FXP_MAX_MODULI, steps = ozaki1 ? 2 : 3;
    int n0 = pl->pr.n, delta = (max - n0 + steps - 1) / steps, count = 0;
    for (int k = 0; k <= steps && count < ADAPT_MAX_PLANS; k++) {
        int n = n0 + k * delta < max ? n0 + k * delta : max;
        if (count && out[count - 1].pr.n == n)
            break;   /* reached the largest */
        out[count] = (Plan){ { pl->pr.kind, n }, pl->K, 0, 0 };
        count += resolve(&out[count], t);
    }
    return count;
}

/* The largest number of bits any result needs. The estimate is the
 * BFloat16 guard's, D' = (|A| / 2^e_A) @ (|B| / 2^e_B) from the largest
 * BFloat16 term of each element (within 2^-8 of it; the Int8 estimate
 * would round every element below 2^-8 of its row's largest to 0): per
 * result, margin + 2 - x with D' = f 2^x (f in [1/2, 1)), one bit more
 * than the plain guard's test for the estimate's error. A result whose
 * estimate is 0 needs more than any count keeps; one whose estimate is
 * not finite (an inf or NaN in its row or column) none, as the plain guard
 * lets it pass. */
static FxTensor *needed_bits(Rw *w, FxTensor *sa, FxTensor *sa_col, FxTensor *sb, FxTensor *sb_col)
{
    FxTensor *qa = abs_split(w, 0, scale_for_split(w, 0, sa, sa_col), SC_BFLOAT16);
    FxTensor *qb = abs_split(w, 1, scale_for_split(w, 1, sb, sb_col), SC_BFLOAT16);
    FxTensor *est = piece_matmul(w, qa, qb);
    int64_t dims[2] = { w->Mv, w->Nv };
    const char *names[2] = { w->M, w->N };
    FxTensor *need = fxg_transient(w->m, w->p, fresh(w, "need"), i32(), 2, dims, names, w->n->loc);
    FxBuilder bb, *b = &bb;
    FxInst *in;
    map_node(w, need, 1, &est, "needbits", i32(), b, &in);
    FxInst *d = fxb_cast(b, in, f64());
    FxInst *bits = fxb_binop(b, FXB_SUB, c_i32(b, guard_margin(w) + 2), exponent(b, d));
    FxInst *zero = fxb_cmp(b, FXC_EQ, d, fxb_number(b, SC_FLOAT64, 0));
    FxInst *finite = fxb_cmp(b, FXC_LT, fxb_unop(b, FXU_ABS, d), fxb_number(b, SC_FLOAT64, INFINITY));
    bits = fxb_select(b, zero, c_i32(b, INT32_MAX), fxb_select(b, finite, bits, c_i32(b, 0)));
    fxb_return(b, bits);
    FxTensor *rows = reduce_over(w, need, FXR_MAX, 1, "needrows", w->Mv, w->M);
    return reduce_over(w, rows, FXR_MAX, 0, "needed", 1, NULL);
}

/* A map over a one-element Int32 tensor, its body open in *b; it runs
 * whatever condition the nodes being built are under. */
static FxTensor *scalar_map(Rw *w, FxTensor *in, const char *what, FxBuilder *b, FxInst **param)
{
    int64_t one = 1;
    FxTensor *out = fxg_transient(w->m, w->p, fresh(w, what), i32(), 1, &one, NULL, w->n->loc);
    FxNode *mn = map_node(w, out, 1, &in, what, i32(), b, param);
    mn->when = NULL;
    return out;
}

/* The index of the first plan keeping the bits needed; nplans: none does. */
static FxTensor *choose_plan(Rw *w, FxTensor *needed, const Plan *plans, int nplans)
{
    FxBuilder b;
    FxInst *need;
    FxTensor *out = scalar_map(w, needed, "choice", &b, &need);
    FxInst *c = c_i32(&b, nplans);
    for (int k = nplans - 1; k >= 0; k--)
        c = fxb_select(&b, fxb_cmp(&b, FXC_LE, need, c_i32(&b, kept_bits(&plans[k]))), c_i32(&b, k), c);
    fxb_return(&b, c);
    return out;
}

/* 0 when the choice is k (a node's condition runs it on 0). */
static FxTensor *chosen(Rw *w, FxTensor *choice, int k)
{
    FxBuilder b;
    FxInst *c;
    FxTensor *out = scalar_map(w, choice, "chosen", &b, &c);
    fxb_return(&b, fxb_select(&b, fxb_cmp(&b, FXC_EQ, c, c_i32(&b, k)), c_i32(&b, 0), c_i32(&b, 1)));
    return out;
}

static const char *counts_text(Arena *a, const Plan *plans, int nplans)
{
    const char *t = "";
    for (int k = 0; k < nplans; k++)
        t = arena_printf(a, "%s%s%d", t, k == 0 ? "" : k == nplans - 1 ? " or " : ", ", plans[k].pr.n);
    return t;
}

static void rewrite_adaptive(Rw *w, FxTensor *sa, FxTensor *sa_col, FxTensor *sb, FxTensor *sb_col)
{
    Plan plans[ADAPT_MAX_PLANS];
    int nplans = adapt_plans(&w->pl, w->t, plans);
    FxTensor *choice = choose_plan(w, needed_bits(w, sa, sa_col, sb, sb_col), plans, nplans);
    FxNode *n = w->n;
    const Loc *l = &n->loc;
    const char *what = is_gemm(n) ? "GEMM" : "MatMul", *file = l->file ? l->file->name : "?";
    bool ozaki1 = w->pl.pr.kind == FXP_OZAKI1;
    const char *scheme = ozaki1 ? "Ozaki-I" : "Ozaki-II", *unit = ozaki1 ? "slices" : "moduli";
    const char *among = counts_text(w->m->arena, plans, nplans);
    for (int k = 0; k < nplans; k++) {
        w->pl = plans[k];
        w->when = chosen(w, choice, k);
        FxNode *c = build_scheme(w, sa, sa_col, sb, sb_col, false);
        c->note = arena_printf(w->m->arena, "contraction guard: the %s at %s:%d:%d ran %s with %d %s (%d bits kept, "
                               "%d Int8 matmuls), the fewest of %s %s that keep the bits its results need", what, file,
                               l->line, l->col, scheme, plans[k].pr.n, unit, kept_bits(&plans[k]), plans[k].matmuls,
                               among, unit);
    }
    n->when = chosen(w, choice, nplans);
    n->when_nonzero = false;
    n->note = arena_printf(w->m->arena, "contraction guard: the %s at %s:%d:%d ran natively: its results need more "
                           "than the %d bits %s keeps with %d %s", what, file, l->line, l->col,
                           kept_bits(&plans[nplans - 1]), scheme, plans[nplans - 1].pr.n, unit);
}

static void rewrite(FxModule *m, FxProgram *p, FxNode *n, Plan pl, bool direct, int guard, int *serial)
{
    Rw w = { m, p, n, NULL, pl, n->in_type, serial, NULL, NULL, 0, 0 };
    const Type *o = n->out->type;
    w.M = o->dim_names ? o->dim_names[0] : NULL;
    w.N = o->dim_names ? o->dim_names[1] : NULL;
    w.Mv = o->dims[0];
    w.Nv = o->dims[1];
    FxTensor *sa = absmax(&w, 0), *sb = absmax(&w, 1);
    FxTensor *sa_col = column_view(&w, sa), *sb_col = n->trans_b ? column_view(&w, sb) : NULL;
    if (guard == GUARD_ADAPT && (pl.pr.kind == FXP_OZAKI1 || pl.pr.kind == FXP_OZAKI2)) {
        rewrite_adaptive(&w, sa, sa_col, sb, sb_col);
        return;
    }
    if (guard != GUARD_NONE && pl.pr.kind != FXP_QUANTIZE)
        w.when = guard_count(&w, sa, sa_col, sb, sb_col);
    build_scheme(&w, sa, sa_col, sb, sb_col, direct);
    if (!w.when)
        fxg_remove_node(p, n);   /* guarded, it stays as the fallback */
}

/* ---- auto: the faster of native and guarded Ozaki-II ----
 *
 * Only Ozaki-II at its default moduli is a candidate: with the guard it
 * measured at or below native's error on every data set of
 * bench/contraction_accuracy, in Float32 and Float64; Ozaki-I at its
 * default slices did not (Float64 on |normal|), nor do the BFloat16 schemes
 * promise it. Each way is estimated in CU-cycles (the cycles one compute
 * unit would take for the whole work) at the target's peak rates: matrix
 * products at the rate of its matrix instruction for the type (or its
 * vector FMA rate when it has none); the maps' Float64 operations at the
 * Float64 vector rate and their other operations at the Float32 one (an
 * operation counts as one FMA: half the flops rate); and every tensor the
 * way reads or writes once at the DRAM rate. The parts are added: the
 * split, product and combine steps run one after the other. */

typedef struct Shape {
    double M, N, K, esize;   /* esize: bytes of the contraction's type */
} Shape;

/* Non-constant operations of the map bodies rewrite() builds for Ozaki-II
 * with L moduli and the guard, per element of A or B (its L splits and the
 * guard's) and per result (the guard's flags, the Garner digits and the
 * double-Float64 sum), by kind. Counted in the FXIR the rewrite prints
 * (--print-after=contraction-precision); test_passes recounts them. */
PassMapOps pass_ozaki2_map_ops(int L)
{
    return (PassMapOps){ 5.0 * L + 4, 4.0 * L + 1, 15.0 * L - 3, (3.0 * L * L + 5 * L + 22) / 2 };
}

static double native_cost(const TgtTarget *t, const TgtThroughput *f, ScalarId ty, Shape s)
{
    TgtElem e = ty == SC_FLOAT64 ? TGT_E_F64 : TGT_E_F32;
    double rate = tgt_matrix_rate(t, e, e);
    if (rate == 0)
        rate = ty == SC_FLOAT64 ? f->vec_f64 : f->vec_f32;
    double bytes = s.esize * (s.M * s.K + s.K * s.N + s.M * s.N);
    return 2 * s.M * s.N * s.K / rate + bytes / f->mem_bytes;
}

static double ops_cost(const TgtThroughput *f, double f64, double other, double elements)
{
    return elements * (f64 / (f->vec_f64 / 2) + other / (f->vec_f32 / 2));
}

/* Guarded Ozaki-II: the absmax reductions, the splits and the guard's,
 * L + 1 Int8 products, the flags and the combine. */
static double ozaki_cost(const TgtTarget *t, const TgtThroughput *f, const Plan *pl, Shape s)
{
    double ab = s.M * s.K + s.K * s.N, mn = s.M * s.N;
    int L = pl->pr.n;
    double matrix = (L + 1) * 2 * s.M * s.N * s.K / tgt_matrix_rate(t, TGT_E_I8, TGT_E_I32);
    double bytes = ab * s.esize * 2                       /* absmax; the guard's split reads */
                   + ab * (s.esize + 1) * L + ab          /* each split reads the operand, writes Int8 */
                   + mn * 8 * (L + 1)                     /* Int32 products written, then read */
                   + mn * (s.esize + 4);                  /* the result; the flags */
    PassMapOps ops = pass_ozaki2_map_ops(L);
    return matrix + ops_cost(f, ops.split_f64, ops.split_other, ab) +
           ops_cost(f, ops.combine_f64, ops.combine_other, mn) + bytes / f->mem_bytes;
}

static double dim_or(const Type *t, int i, double unknown)
{
    return t->dim_names && t->dim_names[i] ? unknown : (double)t->dims[i];
}

/* A run-time M, N or K counts as this many: a contraction worth a matrix
 * unit is rarely smaller. (Ozaki-II needs a static K anyway.) */
enum { AUTO_RUNTIME_DIM = 1024 };

typedef struct AutoChoice {
    Plan pl;                 /* FXP_NATIVE: keep the MatMul */
    const char *figures;     /* what -Rpass says was compared */
} AutoChoice;

static const char *scheme_text(Arena *a, const Plan *pl, bool direct)
{
    switch (pl->pr.kind) {
    case FXP_QUANTIZE:
        return arena_printf(a, "QuantizeContraction, %d bits (q = %d), %s rescaling, 1 Int8 matmul", pl->pr.n, pl->q,
                            direct ? "direct" : "power-of-two");
    case FXP_OZAKI1:
        return arena_printf(a, "Ozaki-I, %d slices, %d Int8 matmuls", pl->pr.n, pl->matmuls);
    case FXP_BF16:
        return arena_printf(a, "bf16x%d, %d BFloat16 matmuls into Float32", pl->pr.n, pl->matmuls);
    default:
        return arena_printf(a, "Ozaki-II, %d Int8 matmuls, q = %d bits for K = %lld", pl->matmuls, pl->q,
                            (long long)pl->K);
    }
}

/* The plan auto takes for n on t (FXP_NATIVE: keep it) and the figures it
 * compared; *why says why nothing was compared when no scheme applies. */
static AutoChoice choose_auto(FxModule *m, const FxProgram *p, const FxNode *n, const TgtTarget *t,
                              const char **why)
{
    Arena *a = m->arena;
    const TgtThroughput *f = tgt_throughput(t);
    AutoChoice c = { { { FXP_NATIVE, 0 }, 0, 0, 0 }, NULL };
    *why = NULL;
    if (!f || tgt_matrix_rate(t, TGT_E_I8, TGT_E_I32) == 0) {
        *why = t->kind == TGT_HOST ? "auto keeps native on the host, which has no matrix unit"
                                   : arena_printf(a, "auto keeps native on %s: %s", t->name,
                                                  f ? "it has no Int8 matrix instruction"
                                                    : "fxcc has no throughput figures for it");
        return c;
    }
    Plan pl = { { FXP_OZAKI2, 0 }, 0, 0, 0 };
    const char *no = ineligible(m, p, n, &pl);
    if (no) {
        *why = arena_printf(a, "auto on %s: Ozaki-II is not possible: %s", t->name, no);
        return c;
    }
    const Type *o = n->out->type, *A = n->ins[0]->type;
    Shape s = { dim_or(o, 0, AUTO_RUNTIME_DIM), dim_or(o, 1, AUTO_RUNTIME_DIM),
                dim_or(A, n->trans_a ? 0 : 1, AUTO_RUNTIME_DIM), (double)type_info(n->in_type)->width / 8 };
    double native = native_cost(t, f, n->in_type, s), ozaki = ozaki_cost(t, f, &pl, s);
    if (ozaki < native)
        c.pl = pl;
    const char *dims = o->dim_names && (o->dim_names[0] || o->dim_names[1])
                           ? arena_printf(a, " (a run-time M or N counted as %d)", AUTO_RUNTIME_DIM) : "";
    c.figures = arena_printf(a, "auto on %s, estimated CU-cycles%s: native %.3g, Ozaki-II with %d moduli and the "
                             "guard %.3g", t->name, dims, native, pl.pr.n, ozaki);
    return c;
}

/* adapt applies to the Ozaki schemes; the BFloat16 ones fall back, and
 * quantization has no guard. */
static int guard_mode(const PassOptions *o, const Plan *pl)
{
    if (o->guard_adapt && (pl->pr.kind == FXP_OZAKI1 || pl->pr.kind == FXP_OZAKI2))
        return GUARD_ADAPT;
    return o->guard_fallback ? GUARD_FALLBACK : GUARD_NONE;
}

static const char *adapt_text(Arena *a, const Plan *pl, ScalarId t, int guard)
{
    if (guard != GUARD_ADAPT)
        return "";
    Plan plans[ADAPT_MAX_PLANS];
    int nplans = adapt_plans(pl, t, plans);
    return arena_printf(a, "; at run time the fewest of %s %s its results need (--contraction-guard=adapt)",
                        counts_text(a, plans, nplans), pl->pr.kind == FXP_OZAKI1 ? "slices" : "moduli");
}

/* auto: the way choose_auto estimates fastest, always guarded (an Ozaki
 * result must be as accurate as the native one it replaces). */
static int rewrite_auto(FxModule *m, FxProgram *p, FxNode *n, const PassOptions *o, int *serial)
{
    const char *what = is_gemm(n) ? "GEMM" : "MatMul", *why;
    AutoChoice c = choose_auto(m, p, n, o->target, &why);
    if (why) {
        if (pass_remark_on(o, "contraction-precision", true))
            diag_remark(n->loc, "contraction-precision: %s stays native: %s", what, why);
        return 0;
    }
    bool native = c.pl.pr.kind == FXP_NATIVE;
    int guard = o->guard_adapt ? GUARD_ADAPT : GUARD_FALLBACK;
    if (pass_remark_on(o, "contraction-precision", false))
        diag_remark(n->loc, "contraction-precision: %s: %s; %s", what, c.figures,
                    native ? "keeps native" : arena_printf(m->arena, "takes %s, guarded%s",
                                                           scheme_text(m->arena, &c.pl, false),
                                                           adapt_text(m->arena, &c.pl, n->in_type, guard)));
    if (native)
        return 0;
    rewrite(m, p, n, c.pl, false, guard, serial);
    return 1;
}

/* xf32: a Float32 contraction runs on gfx94x's xf32 instruction, whose
 * inputs lose 13 significand bits (so only when asked). A target without it
 * is an error at the contraction; so is a Float64 contraction under the
 * program's decorator, while under the command line's it stays native, as
 * for bf16x9 and bf16x6. */
static int mark_xf32(FxProgram *p, FxNode *n, const PassOptions *o)
{
    const char *what = is_gemm(n) ? "GEMM" : "MatMul";
    const TgtMatrixInst *mi = tgt_matrix_inst(TGT_MI_CDNA3_XF32_16X16X8);
    if (n->in_type != SC_FLOAT32 || n->acc_type != SC_FLOAT32) {
        if (p->precision)
            diag_error(n->loc, "@contraction_precision(\"xf32\") reads Float32 operands as xf32, but this %s is %s%s",
                       what, type_info(n->in_type)->name,
                       n->in_type == SC_FLOAT64 ? "; Float64 has ozaki, ozaki1[:s] and ozaki2[:L]" : "");
        else if (pass_remark_on(o, "contraction-precision", true))
            diag_remark(n->loc, "contraction-precision: %s stays native: xf32 is for Float32 contractions", what);
        return 0;
    }
    const TgtTarget *t = o->target;
    if (!t || !tgt_has_matrix(t, mi->id)) {
        diag_error(n->loc, "xf32 needs %s (%s), which %s does not have; native Float32, or bf16x6 and bf16x9 "
                   "(Float32 products from BFloat16 terms), run everywhere", mi->mnemonic, tgt_matrix_targets(mi->id),
                   !t || t->kind == TGT_HOST ? "the host (fxrun --arch=gfx942 runs gfx942's code there)" : t->name);
        return 0;
    }
    n->xf32 = true;
    if (pass_remark_on(o, "contraction-precision", false))
        diag_remark(n->loc, "contraction-precision: %s: xf32 products (%s)", what, mi->mnemonic);
    return 1;
}

int pass_contraction_precision(FxModule *m, const PassOptions *o)
{
    int rewritten = 0;
    for (int pi = 0; pi < m->programs.len; pi++) {
        FxProgram *p = m->programs.items[pi];
        FxPrecision pr = o->precision;
        if (p->precision && !fxir_parse_precision(p->precision, &pr))
            continue;   /* sema rejected it already */
        if (pr.kind == FXP_NATIVE)
            continue;
        /* the candidates: the program's float contractions as written (the
         * Int8 MatMuls a rewrite adds are not) */
        int ncand = p->nodes.len, serial = 0;
        if (ncand == 0)
            continue;   /* an empty program (and memcpy takes no NULL source) */
        FxNode **cand = arena_alloc(m->arena, sizeof(FxNode *) * (size_t)(ncand + 1));
        memcpy(cand, p->nodes.items, sizeof(FxNode *) * (size_t)ncand);
        for (int i = 0; i < ncand; i++) {
            FxNode *n = cand[i];
            if (n->kind != FXN_MATMUL || !type_is_float(n->in_type))
                continue;
            if (pr.kind == FXP_AUTO) {
                rewritten += rewrite_auto(m, p, n, o, &serial);
                continue;
            }
            if (pr.kind == FXP_XF32) {
                rewritten += mark_xf32(p, n, o);
                continue;
            }
            Plan pl = { pr, 0, 0, 0 };
            const char *what = is_gemm(n) ? "GEMM" : "MatMul";
            const char *why = ineligible(m, p, n, &pl);
            if (why && pr.kind == FXP_BF16 && p->precision && n->in_type == SC_FLOAT64) {
                diag_error(n->loc, "@contraction_precision(\"%s\") splits Float32 operands into BFloat16 terms, but "
                           "this %s is Float64; Float64 has ozaki, ozaki1[:s] and ozaki2[:L]", p->precision, what);
                continue;
            }
            if (why) {
                if (pass_remark_on(o, "contraction-precision", true))
                    diag_remark(n->loc, "contraction-precision: %s stays native: %s", what, why);
                continue;
            }
            int guard = guard_mode(o, &pl);
            if (pass_remark_on(o, "contraction-precision", false))
                diag_remark(n->loc, "contraction-precision: %s: %s%s", what,
                            scheme_text(m->arena, &pl, o->direct_rescaling), adapt_text(m->arena, &pl, n->in_type, guard));
            rewrite(m, p, n, pl, o->direct_rescaling, guard, &serial);
            rewritten++;
        }
    }
    return rewritten;
}
