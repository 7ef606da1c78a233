/* verify.c - the FXIR verifier (verify.h).
 *
 * A function is verified in two walks over its blocks:
 *  1. collect: every instruction of the function goes into a set, so that an
 *     operand can later be told apart as "defined further down", "defined in
 *     a block that has ended" or "not in this function at all"; an
 *     instruction met twice means a cycle in the links, and both walks stop
 *     there instead of looping;
 *  2. check: in program order, each instruction's structure, operands, types
 *     and placement are checked, then it becomes visible; when a block ends,
 *     its instructions stop being visible (structured control flow: a value
 *     is visible after its definition in its own block and in the blocks
 *     nested below it, fxir.h).
 *
 * Rules that deliberately follow codegen rather than a literal reading of
 * fxir.h, because real producers rely on them:
 *  - a loop's condition must be visible at the end of the loop's condition
 *    block: defined there, or in an enclosing block, or a parameter. Sema
 *    lowers `while c { }` for a parameter or `let` c to a loop whose ops[0]
 *    is that existing value, and codegen evaluates ops[0] right after
 *    blocks[0], so that is well-formed;
 *  - break/continue must have a loop body (blocks[1]) as their innermost
 *    loop block: codegen makes the loop current only while it emits the
 *    body, so a break in a step or condition block would leave the
 *    enclosing loop instead.
 *
 * Not checked, because codegen reports them itself with a user-facing
 * message (they are not malformed IR): the element types atomics, min/max,
 * fma and compares accept, and whether the target has a matrix instruction. */
#include "fxir/verify.h"
#include "fxir/graph.h"
#include "abi/fxprintf.h"
#include "fxir/fxmath.h"
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- the instructions of one function, with their scope state ---- */

typedef enum {
    ST_ABSENT,      /* not an instruction of the function being verified */
    ST_PENDING,     /* in the function; the check walk has not reached it */
    ST_VISIBLE,     /* defined, and its block is still open */
    ST_ENDED,       /* defined in a block that has ended */
} InstState;

typedef struct InstSlot {
    const FxInst *inst;
    InstState state;
} InstSlot;

typedef struct InstSet {
    InstSlot *slots;
    size_t cap, len;    /* cap is a power of two; at most half full */
} InstSet;

static size_t slot_index(const InstSet *s, const FxInst *i)
{
    uint64_t h = (uint64_t)(uintptr_t)i;
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    size_t k = (size_t)h & (s->cap - 1);
    while (s->slots[k].inst && s->slots[k].inst != i)
        k = (k + 1) & (s->cap - 1);
    return k;
}

static InstState set_get(const InstSet *s, const FxInst *i)
{
    if (!s->cap || !i)
        return ST_ABSENT;
    return s->slots[slot_index(s, i)].state;
}

static void set_grow(InstSet *s)
{
    InstSet bigger = { calloc(s->cap ? s->cap * 2 : 64, sizeof(InstSlot)), s->cap ? s->cap * 2 : 64, 0 };
    if (!bigger.slots)
        abort();
    for (size_t k = 0; k < s->cap; k++)
        if (s->slots[k].inst) {
            bigger.slots[slot_index(&bigger, s->slots[k].inst)] = s->slots[k];
            bigger.len++;
        }
    free(s->slots);
    *s = bigger;
}

static void set_put(InstSet *s, const FxInst *i, InstState st)
{
    if ((s->len + 1) * 2 > s->cap)
        set_grow(s);
    InstSlot *slot = &s->slots[slot_index(s, i)];
    if (!slot->inst) {
        slot->inst = i;
        s->len++;
    }
    slot->state = st;
}

/* ---- the verifier's state and its messages ---- */

typedef struct Verifier {
    const FxModule *m;
    const FxFunc *f;        /* the function being verified, or NULL */
    const char *where;      /* "kernel 'k'", "program 'p'": ends instruction messages */
    Arena *tmp;             /* message pieces */
    int errors;
    bool lists_broken;      /* a cycle or a shared instruction: skip whole-body rules */
    InstSet set;
} Verifier;

static void __attribute__((format(printf, 4, 0))) verr(Verifier *v, Loc loc, bool with_where, const char *fmt,
                                                        va_list ap)
{
    char msg[1536];
    vsnprintf(msg, sizeof msg, fmt, ap);
    v->errors++;
    if (with_where && v->where)
        diag_error(loc, "FXIR verifier: %s (in %s)", msg, v->where);
    else
        diag_error(loc, "FXIR verifier: %s", msg);
}

/* A problem of one instruction (or node, tensor): the message names where it is. */
static void __attribute__((format(printf, 3, 4))) fail(Verifier *v, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr(v, loc, true, fmt, ap);
    va_end(ap);
}

/* A problem of a whole function: the message names the function itself. */
static void __attribute__((format(printf, 3, 4))) fail_plain(Verifier *v, Loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    verr(v, loc, false, fmt, ap);
    va_end(ap);
}

static const char *tname(Verifier *v, const Type *t)
{
    return t ? type_name(v->tmp, t) : "<no type>";
}

/* "binop.add", "alloca.shared", "mfma.cdna3.f64.16x16x4", "load". */
static const char *iname(Verifier *v, const FxInst *i)
{
    const char *op = fxir_opcode_name(i->op);
    const char *sub = i->op == FX_ALLOCA ? fxir_sub_name(FX_ALLOCA, i->space) : fxir_sub_name(i->op, i->sub);
    return sub ? arena_printf(v->tmp, "%s.%s", op, sub) : op;
}

/* "a load", "an extract". */
static const char *a_name(Verifier *v, const FxInst *i)
{
    const char *n = iname(v, i);
    return arena_printf(v->tmp, "%s %s", strchr("aeiou", n[0]) ? "an" : "a", n);
}

/* "operand 1 of store (a load)". */
static const char *operand_desc(Verifier *v, const FxInst *i, int k)
{
    return arena_printf(v->tmp, "operand %d of %s (%s)", k, iname(v, i), a_name(v, i->ops[k]));
}

static const char *func_desc(Arena *a, const FxFunc *f)
{
    return arena_printf(a, "%s '%s'", f->kind == FXF_KERNEL ? "kernel" : "fn", f->name ? f->name : "?");
}

/* ---- small type questions ---- */

static const Type *ty(const FxInst *op) { return op ? op->type : NULL; }

static bool is_number(const Type *t) { return t && (t->kind == TY_SCALAR || t->kind == TY_VECTOR); }
static bool is_void(const Type *t) { return t && t->kind == TY_VOID; }
static bool is_int_scalar(const Type *t) { return t && t->kind == TY_SCALAR && type_is_int(t->scalar); }
static bool is_bool_scalar(const Type *t) { return t && t->kind == TY_SCALAR && t->scalar == SC_BOOLEAN; }
static int lanes_of(const Type *t) { return t->kind == TY_VECTOR ? t->lanes : 1; }

/* Boolean of t's shape: what a compare of two t values gives. */
static const Type *bool_shape(const Type *t)
{
    return t->kind == TY_VECTOR ? type_vector(SC_BOOLEAN, t->lanes) : type_scalar(SC_BOOLEAN);
}

/* Bits of a number's value. Not type_storage_bits: Int4 and Boolean values
 * are 4 and 1 bits wide in registers, which is what a bitcast reinterprets. */
static int value_bits(const Type *t)
{
    return type_info(t->scalar)->width * lanes_of(t);
}

/* ---- structure: counts, sub-operations, links ---- */

typedef struct Arity {
    int min_ops, max_ops, nblocks;
} Arity;

static bool wave_has_lane(int op) { return op <= FXW_READLANE; }

static Arity arity_of(const FxInst *i)
{
    switch (i->op) {
    case FX_CONST: case FX_PARAM: case FX_SPECIAL: case FX_ALLOCA: case FX_BARRIER: case FX_FENCE:
    case FX_BREAK: case FX_CONTINUE: case FX_WAVE_ACTIVE:
        return (Arity){ 0, 0, 0 };
    case FX_WAVE_EXCHANGE:
        return (Arity){ 1, 1, 0 };
    case FX_WAVE:   /* the second operand only where the operation has one */
        return wave_has_lane(i->sub) ? (Arity){ 2, 2, 0 } : (Arity){ 1, 1, 0 };
    case FX_MATH:
        return fxm_is_binary(i->sub) ? (Arity){ 2, 2, 0 } : (Arity){ 1, 1, 0 };
    case FX_UNOP: case FX_CAST: case FX_BITCAST: case FX_SPLAT: case FX_FREXP_EXP:
        return (Arity){ 1, 1, 0 };
    case FX_BINOP: case FX_CMP: case FX_MINMAX: case FX_CEILDIV: case FX_EXTRACT: case FX_LDEXP:
    case FX_PTR_OFFSET:
        return (Arity){ 2, 2, 0 };
    case FX_SELECT: case FX_FMA: case FX_INSERT: case FX_MFMA:
        return (Arity){ 3, 3, 0 };
    case FX_ATOMIC:
        return i->sub == FXA_CAS ? (Arity){ 4, 4, 0 } : (Arity){ 3, 3, 0 };
    case FX_LOAD:   /* base, then as many indices as the base takes (checked with the types) */
        return (Arity){ 1, INT_MAX, 0 };
    case FX_STORE:
        return (Arity){ 2, INT_MAX, 0 };
    case FX_IF:
        return (Arity){ 1, 1, 2 };
    case FX_LOOP:   /* ops[0]: the condition, NULL for `while True` */
        return (Arity){ 1, 1, 3 };
    case FX_RETURN:
        return (Arity){ 0, 1, 0 };
    case FX_PRINT:  /* as many as the format has conversions (checked with it) */
        return (Arity){ 0, INT_MAX, 0 };
    case FX_ASSERT:
        return (Arity){ 1, 1, 0 };
    case FX_CALL:   /* as many as the callee has parameters (checked with the types) */
        return (Arity){ 0, INT_MAX, 0 };
    default:
        return (Arity){ -1, -1, -1 };
    }
}

static const char *count_text(Verifier *v, int min, int max, const char *what)
{
    if (min == max)
        return arena_printf(v->tmp, "%d %s%s", min, what, min == 1 ? "" : "s");
    if (max == INT_MAX)
        return arena_printf(v->tmp, "at least %d %ss", min, what);
    return arena_printf(v->tmp, "%d or %d %ss", min, max, what);
}

/* Operand and block counts; false when the rest of the instruction cannot be
 * looked at safely. */
static bool check_counts(Verifier *v, const FxInst *i)
{
    if ((int)i->op < 0 || i->op >= FX_OPCODE_COUNT) {
        fail(v, i->loc, "unknown opcode %d", (int)i->op);
        return false;
    }
    Arity a = arity_of(i);
    bool ops_ok = i->nops >= a.min_ops && i->nops <= a.max_ops && (i->nops == 0 || i->ops);
    bool blocks_ok = i->nblocks == a.nblocks && (i->nblocks == 0 || i->blocks);
    if (!ops_ok || !blocks_ok) {
        fail(v, i->loc, "%s needs %s and %s, has %d operand%s and %d block%s", iname(v, i),
             count_text(v, a.min_ops, a.max_ops, "operand"), count_text(v, a.nblocks, a.nblocks, "block"),
             i->nops, i->nops == 1 ? "" : "s", i->nblocks, i->nblocks == 1 ? "" : "s");
        return false;
    }
    return true;
}

/* How many values `sub` may take for i's opcode; 0 when it has no sub. */
static int sub_count(const FxInst *i)
{
    if (i->op == FX_MFMA)
        return TGT_MI_COUNT;
    if (i->op == FX_ALLOCA)   /* its sub-name is the space, kept in `space` */
        return 0;
    int n = 0;
    return fxir_sub_names(i->op, &n) ? n : 0;
}

/* False when the type rules, which look at `sub`, cannot be applied. */
static bool check_sub(Verifier *v, const FxInst *i)
{
    int n = sub_count(i);
    if (n > 0 && (i->sub < 0 || i->sub >= n)) {
        fail(v, i->loc, "%s has sub-operation %d, expected 0..%d", fxir_opcode_name(i->op), i->sub, n - 1);
        return false;
    }
    if (i->op == FX_ALLOCA && i->space != FXSPACE_PRIVATE && i->space != FXSPACE_SHARED) {
        fail(v, i->loc, "alloca has space %d, expected private or shared", (int)i->space);
        return false;
    }
    return true;
}

static void check_links(Verifier *v, const FxBlock *b, const FxInst *i, const FxInst *prev)
{
    if (i->parent != b)
        fail(v, i->loc, "%s has a parent field that does not name the block it is in", iname(v, i));
    if (i->prev != prev)
        fail(v, i->loc, "%s has a prev link that is not the instruction before it", iname(v, i));
}

/* ---- scope: where an operand may come from ---- */

/* Whether operand k of i is visible at i; reports why not. */
static void check_visible(Verifier *v, const FxInst *i, int k)
{
    const FxInst *op = i->ops[k];
    InstState st = set_get(&v->set, op);
    if (st != ST_ABSENT && op->op == FX_PARAM)
        return;   /* parameters are visible everywhere in their function */
    switch (st) {
    case ST_VISIBLE:
        return;
    case ST_PENDING:
        fail(v, i->loc, "%s is used before it is defined", operand_desc(v, i, k));
        return;
    case ST_ENDED:
        fail(v, i->loc, "%s is defined in a block that has ended (a sibling or nested if/loop block) and is "
             "not visible here", operand_desc(v, i, k));
        return;
    case ST_ABSENT:
        fail(v, i->loc, "%s is not an instruction of this function (another function's value, or one "
             "removed from its block)", operand_desc(v, i, k));
        return;
    }
}

static void check_operands(Verifier *v, const FxInst *i)
{
    for (int k = 0; k < i->nops; k++) {
        if (!i->ops[k]) {
            if (!(i->op == FX_LOOP && k == 0))   /* a loop's NULL condition is `while True` */
                fail(v, i->loc, "operand %d of %s is missing (NULL)", k, iname(v, i));
            continue;
        }
        if (i->op != FX_LOOP)   /* the condition is checked once the condition block has been walked */
            check_visible(v, i, k);
    }
}

/* ---- types, one function per opcode family ---- */

/* ops[first .. first+n) all of i's own type (binop, minmax, fma, ...). */
static bool same_type_operands(Verifier *v, const FxInst *i, int first, int n)
{
    for (int k = first + 1; k < first + n; k++)
        if (!type_equal(ty(i->ops[first]), ty(i->ops[k]))) {
            fail(v, i->loc, "%s operands must have one type, got %s and %s", iname(v, i),
                 tname(v, ty(i->ops[first])), tname(v, ty(i->ops[k])));
            return false;
        }
    if (!type_equal(ty(i->ops[first]), i->type)) {
        fail(v, i->loc, "%s must have its operands' type %s, got %s", iname(v, i), tname(v, ty(i->ops[first])),
             tname(v, i->type));
        return false;
    }
    return true;
}

static bool number_result(Verifier *v, const FxInst *i)
{
    if (is_number(i->type))
        return true;
    fail(v, i->loc, "%s works on numbers (a scalar or vector type), got %s", iname(v, i), tname(v, i->type));
    return false;
}

/* The binops codegen implements per element class (fxir.h: DIV is float
 * division; and/or/xor/shl/shr are for integers and Boolean). */
static const char *binop_class_error(FxBinop op, ScalarId s)
{
    if (type_is_float(s))
        return op <= FXB_POW ? NULL : "applies to integers and Boolean only";
    if (type_is_int(s))
        return op == FXB_DIV ? "is float division; integer division is binop.floordiv" : NULL;
    if (s == SC_BOOLEAN)
        return op >= FXB_AND ? NULL : "does not apply to Boolean (only and/or/xor/shl/shr do)";
    return "does not apply to narrow floats, which are storage formats (convert to Float32 first)";
}

static void check_binop(Verifier *v, const FxInst *i)
{
    if (!same_type_operands(v, i, 0, 2) || !number_result(v, i))
        return;
    const char *why = binop_class_error((FxBinop)i->sub, i->type->scalar);
    if (why)
        fail(v, i->loc, "%s %s, got %s", iname(v, i), why, tname(v, i->type));
}

static void check_unop(Verifier *v, const FxInst *i)
{
    if (!same_type_operands(v, i, 0, 1) || !number_result(v, i))
        return;
    ScalarId s = i->type->scalar;
    if (type_is_narrow(s))
        fail(v, i->loc, "%s does not apply to narrow floats, which are storage formats, got %s", iname(v, i),
             tname(v, i->type));
    else if (type_is_float(s) && i->sub == FXU_INVERT)
        fail(v, i->loc, "unop.invert applies to integers and Boolean only, got %s", tname(v, i->type));
}

static void check_cmp(Verifier *v, const FxInst *i)
{
    const Type *a = ty(i->ops[0]), *b = ty(i->ops[1]);
    if (!type_equal(a, b)) {
        fail(v, i->loc, "%s operands must have one type, got %s and %s", iname(v, i), tname(v, a), tname(v, b));
        return;
    }
    if (!is_number(a)) {
        fail(v, i->loc, "%s compares numbers (a scalar or vector type), got %s", iname(v, i), tname(v, a));
        return;
    }
    if (!type_equal(i->type, bool_shape(a)))
        fail(v, i->loc, "%s of %s operands gives %s, but its type is %s", iname(v, i), tname(v, a),
             tname(v, bool_shape(a)), tname(v, i->type));
}

static bool number_operand(Verifier *v, const FxInst *i, int k)
{
    if (is_number(ty(i->ops[k])))
        return true;
    fail(v, i->loc, "%s must be a number (a scalar or vector type), got %s", operand_desc(v, i, k),
         tname(v, ty(i->ops[k])));
    return false;
}

static void check_cast(Verifier *v, const FxInst *i)
{
    if (!number_operand(v, i, 0) || !number_result(v, i))
        return;
    const Type *from = i->ops[0]->type;
    if (lanes_of(from) != lanes_of(i->type) || from->kind != i->type->kind) {
        fail(v, i->loc, "cast keeps the shape: %s cannot become %s", tname(v, from), tname(v, i->type));
        return;
    }
    if ((int)i->rounding < FF_RNE || i->rounding > FF_NEAREST_AWAY)
        fail(v, i->loc, "cast has rounding mode %d, expected one of FfRound", (int)i->rounding);
    else if (i->rounding != FF_RNE && !(type_info(from->scalar)->fmt && type_info(i->type->scalar)->fmt))
        fail(v, i->loc, "a rounding mode (%s) applies only to float-to-float casts, got %s to %s",
             fxir_rounding_name(i->rounding), tname(v, from), tname(v, i->type));
}

static void check_bitcast(Verifier *v, const FxInst *i)
{
    if (!number_operand(v, i, 0) || !number_result(v, i))
        return;
    const Type *from = i->ops[0]->type;
    if (value_bits(from) != value_bits(i->type))
        fail(v, i->loc, "bitcast keeps the total width: %s is %d bits, %s is %d bits", tname(v, from),
             value_bits(from), tname(v, i->type), value_bits(i->type));
}

static void check_ptr_offset(Verifier *v, const FxInst *i)
{
    const Type *p = ty(i->ops[0]), *k = ty(i->ops[1]);
    if (p->kind != TY_PTR || i->type->kind != TY_PTR) {
        fail(v, i->loc, "ptr_offset takes and gives a Ptr, got %s to %s", tname(v, p), tname(v, i->type));
        return;
    }
    if (k->kind != TY_SCALAR || !type_is_int(k->scalar))
        fail(v, i->loc, "ptr_offset's offset must be an integer, got %s", tname(v, k));
    if (p->is_const && !i->type->is_const)
        fail(v, i->loc, "ptr_offset cannot drop const: %s to %s", tname(v, p), tname(v, i->type));
}

static void check_select(Verifier *v, const FxInst *i)
{
    if (!same_type_operands(v, i, 1, 2))
        return;
    if (!is_number(i->type) && i->type->kind != TY_PTR) {
        fail(v, i->loc, "select chooses between numbers or Ptr values, got %s", tname(v, i->type));
        return;
    }
    const Type *c = ty(i->ops[0]);
    bool lanes_match = i->type->kind == TY_VECTOR && c->kind == TY_VECTOR && c->lanes == i->type->lanes;
    if (!is_bool_scalar(c) && !(lanes_match && c->scalar == SC_BOOLEAN))
        fail(v, i->loc, "select condition must be Boolean%s, got %s",
             i->type->kind == TY_VECTOR ? arena_printf(v->tmp, " or Booleanx%d", i->type->lanes) : "",
             tname(v, c));
}

static void check_fma(Verifier *v, const FxInst *i)
{
    if (same_type_operands(v, i, 0, 3))
        number_result(v, i);
}

static void check_minmax(Verifier *v, const FxInst *i)
{
    if (same_type_operands(v, i, 0, 2))
        number_result(v, i);
}

static void check_math(Verifier *v, const FxInst *i)
{
    if (!same_type_operands(v, i, 0, i->nops) || !number_result(v, i))
        return;
    if (!type_is_float(i->type->scalar))
        fail(v, i->loc, "%s takes a float scalar or vector, got %s", iname(v, i), tname(v, i->type));
}

/* Int32 of t's shape: the exponent operand of ldexp, the result of frexp_exp. */
static const Type *int32_shape(const Type *t)
{
    return t->kind == TY_VECTOR ? type_vector(SC_INT32, t->lanes) : type_scalar(SC_INT32);
}

static bool float_number(const Type *t) { return is_number(t) && type_is_float(t->scalar); }

static void check_ldexp(Verifier *v, const FxInst *i)
{
    const Type *x = ty(i->ops[0]), *n = ty(i->ops[1]);
    if (!float_number(x) || !type_equal(i->type, x))
        fail(v, i->loc, "ldexp scales a float and keeps its type: %s gives %s", tname(v, x), tname(v, i->type));
    else if (!type_equal(n, int32_shape(x)))
        fail(v, i->loc, "the exponent of ldexp on %s is %s, got %s", tname(v, x), tname(v, int32_shape(x)),
             tname(v, n));
}

static void check_frexp_exp(Verifier *v, const FxInst *i)
{
    const Type *x = ty(i->ops[0]);
    if (!float_number(x))
        fail(v, i->loc, "frexp_exp takes a float scalar or vector, got %s", tname(v, x));
    else if (!type_equal(i->type, int32_shape(x)))
        fail(v, i->loc, "frexp_exp of %s gives %s, got %s", tname(v, x), tname(v, int32_shape(x)),
             tname(v, i->type));
}

static void check_ceildiv(Verifier *v, const FxInst *i)
{
    if (!same_type_operands(v, i, 0, 2) || !number_result(v, i))
        return;
    if (!type_is_int(i->type->scalar))
        fail(v, i->loc, "ceildiv divides integers, got %s", tname(v, i->type));
}

static void check_special(Verifier *v, const FxInst *i)
{
    if (!type_equal(i->type, type_scalar(SC_INT32)))
        fail(v, i->loc, "%s has type Int32, got %s", iname(v, i), tname(v, i->type));
    if (i->sub != FXS_LANE_ID && (i->dim < 0 || i->dim > 2))
        fail(v, i->loc, "%s has dimension %d, expected 0, 1 or 2 (x, y, z)", iname(v, i), i->dim);
}

static void check_const(Verifier *v, const FxInst *i)
{
    if (!is_number(i->type))
        fail(v, i->loc, "a const is a scalar or vector number, got %s", tname(v, i->type));
}

static void check_param(Verifier *v, const FxInst *i)
{
    const FxFunc *f = v->f;
    if (i->param_index < 0 || i->param_index >= f->nparams) {
        fail(v, i->loc, "param has index %d, but %s has %d parameter%s", i->param_index, v->where, f->nparams,
             f->nparams == 1 ? "" : "s");
        return;
    }
    const FxParam *p = &f->params[i->param_index];
    if (!type_equal(i->type, p->type))
        fail(v, i->loc, "param %d ('%s') has type %s, but the parameter is declared %s", i->param_index,
             p->name ? p->name : "?", tname(v, i->type), tname(v, p->type));
}

static void check_alloca(Verifier *v, const FxInst *i)
{
    const Type *t = i->type;
    if (is_number(t))
        return;
    if (t->kind != TY_ARRAY) {
        fail(v, i->loc, "an alloca holds a scalar, a vector or an Array, got %s", tname(v, t));
        return;
    }
    bool dims_ok = t->ndims >= 1 && t->dims;
    for (int d = 0; dims_ok && d < t->ndims; d++)
        dims_ok = t->dims[d] > 0 || type_is_dyn_array(t);
    if (!is_number(t->elem) || !dims_ok)
        fail(v, i->loc, "an alloca'd Array has number elements and positive dimensions, got %s", tname(v, t));
    else if (type_is_dyn_array(t) && (i->space != FXSPACE_SHARED || v->f->kind != FXF_KERNEL))
        fail(v, i->loc, "a dynamic array (%s) is shared and declared in a kernel", tname(v, t));
}

/* ---- memory accesses ---- */

static bool check_indices(Verifier *v, const FxInst *i, int first, int n)
{
    bool ok = true;
    for (int k = first; k < first + n; k++)
        if (!is_int_scalar(ty(i->ops[k]))) {
            fail(v, i->loc, "%s is an index and must be an integer scalar, got %s", operand_desc(v, i, k),
                 tname(v, ty(i->ops[k])));
            ok = false;
        }
    return ok;
}

/* The element type that base[nidx indices at ops[first..]] names, or NULL
 * after reporting. The bases codegen addresses: a Ptr value (one index), an
 * alloca'd Array or a fn's Array parameter (one index per dimension, or one
 * linear index) and an alloca'd scalar or vector (no index). */
static const Type *accessed_element(Verifier *v, const FxInst *i, int first, int nidx)
{
    const FxInst *base = i->ops[0];
    const Type *bt = base->type;
    const Type *elem = NULL;
    if (bt->kind == TY_PTR) {
        if (nidx != 1)
            fail(v, i->loc, "%s through a Ptr takes exactly 1 index, got %d", iname(v, i), nidx);
        else
            elem = bt->elem;
    } else if ((base->op == FX_ALLOCA || fxir_is_shared_array(base)) && bt->kind == TY_ARRAY) {
        if (nidx != bt->ndims && nidx != 1)
            fail(v, i->loc, "%s of %s takes %d indices (or 1 linear index), got %d", iname(v, i), tname(v, bt),
                 bt->ndims, nidx);
        else
            elem = bt->elem;
    } else if (base->op == FX_ALLOCA && is_number(bt)) {
        if (nidx != 0)
            fail(v, i->loc, "%s of a %s variable takes no index, got %d", iname(v, i), tname(v, bt), nidx);
        else
            elem = bt;
    } else {
        fail(v, i->loc, "the base of %s must be a Ptr value or an alloca, got %s of type %s", iname(v, i),
             a_name(v, base), tname(v, bt));
        return NULL;
    }
    if (!check_indices(v, i, first, nidx) || !elem)
        return NULL;
    if (!is_number(elem)) {
        fail(v, i->loc, "%s reaches elements of type %s; memory holds numbers", iname(v, i), tname(v, elem));
        return NULL;
    }
    return elem;
}

static void check_load(Verifier *v, const FxInst *i)
{
    const Type *elem = accessed_element(v, i, 1, i->nops - 1);
    if (elem && !type_equal(i->type, elem))
        fail(v, i->loc, "load from %s elements must have type %s, got %s", tname(v, elem), tname(v, elem),
             tname(v, i->type));
}

static void check_store(Verifier *v, const FxInst *i)
{
    const Type *elem = accessed_element(v, i, 2, i->nops - 2);
    if (elem && !type_equal(ty(i->ops[1]), elem))
        fail(v, i->loc, "store of a %s value into %s elements: %s must have the element type",
             tname(v, ty(i->ops[1])), tname(v, elem), operand_desc(v, i, 1));
}

/* Atomics: a Ptr, or a shared Array (codegen has no atomics on private memory). */
static void check_atomic(Verifier *v, const FxInst *i)
{
    const FxInst *base = i->ops[0];
    if (base->type->kind != TY_PTR && !fxir_is_shared_array(base)) {
        fail(v, i->loc, "the base of %s must be a Ptr or a shared Array, got %s of type %s", iname(v, i),
             a_name(v, base), tname(v, base->type));
        return;
    }
    const Type *elem = accessed_element(v, i, 1, 1);
    if (!elem)
        return;
    for (int k = 2; k < i->nops; k++)
        if (!type_equal(ty(i->ops[k]), elem))
            fail(v, i->loc, "%s must have the element type %s, got %s", operand_desc(v, i, k), tname(v, elem),
                 tname(v, ty(i->ops[k])));
    if (!type_equal(i->type, elem))
        fail(v, i->loc, "%s gives the old %s element, but its type is %s", iname(v, i), tname(v, elem),
             tname(v, i->type));
}

/* ---- vectors ---- */

static void check_splat(Verifier *v, const FxInst *i)
{
    if (!i->type || i->type->kind != TY_VECTOR) {
        fail(v, i->loc, "splat makes a vector, got type %s", tname(v, i->type));
        return;
    }
    const Type *want = type_scalar(i->type->scalar);
    if (!type_equal(ty(i->ops[0]), want))
        fail(v, i->loc, "splat to %s takes a %s scalar, got %s", tname(v, i->type), tname(v, want),
             tname(v, ty(i->ops[0])));
}

static bool vector_operand(Verifier *v, const FxInst *i, int k)
{
    const Type *t = ty(i->ops[k]);
    if (t && t->kind == TY_VECTOR)
        return true;
    fail(v, i->loc, "%s must be a vector, got %s", operand_desc(v, i, k), tname(v, t));
    return false;
}

static void check_extract(Verifier *v, const FxInst *i)
{
    check_indices(v, i, 1, 1);
    if (!vector_operand(v, i, 0))
        return;
    const Type *want = type_scalar(i->ops[0]->type->scalar);
    if (!type_equal(i->type, want))
        fail(v, i->loc, "extract from %s gives a %s, but its type is %s", tname(v, i->ops[0]->type), tname(v, want),
             tname(v, i->type));
}

static void check_insert(Verifier *v, const FxInst *i)
{
    check_indices(v, i, 2, 1);
    if (!vector_operand(v, i, 0))
        return;
    const Type *vt = i->ops[0]->type, *want = type_scalar(vt->scalar);
    if (!type_equal(i->type, vt))
        fail(v, i->loc, "insert into %s gives a %s, but its type is %s", tname(v, vt), tname(v, vt),
             tname(v, i->type));
    if (!type_equal(ty(i->ops[1]), want))
        fail(v, i->loc, "insert into %s takes a %s lane value, got %s", tname(v, vt), tname(v, want),
             tname(v, ty(i->ops[1])));
}

/* ---- control flow, calls, matrix instructions ---- */

static void check_condition(Verifier *v, const FxInst *i)
{
    if (i->ops[0] && !is_bool_scalar(i->ops[0]->type))
        fail(v, i->loc, "%s condition must be a Boolean scalar, got %s", iname(v, i), tname(v, i->ops[0]->type));
}

static void check_return(Verifier *v, const FxInst *i)
{
    const FxFunc *f = v->f;
    const Type *got = i->nops ? ty(i->ops[0]) : NULL;
    if (f->kind == FXF_KERNEL) {
        if (got)
            fail(v, i->loc, "a kernel's return has no value, got one of type %s", tname(v, got));
    } else if (is_void(f->ret)) {
        if (got)
            fail(v, i->loc, "fn '%s' returns nothing, but this return has a %s value", f->name, tname(v, got));
    } else if (!got) {
        fail(v, i->loc, "fn '%s' returns %s, but this return has no value", f->name, tname(v, f->ret));
    } else if (!type_equal(got, f->ret)) {
        fail(v, i->loc, "fn '%s' returns %s, but this return has a %s value", f->name, tname(v, f->ret),
             tname(v, got));
    }
}

static bool in_module(const FxModule *m, const FxFunc *f)
{
    for (int k = 0; k < m->funcs.len; k++)
        if (m->funcs.items[k] == f)
            return true;
    return false;
}

static void check_call(Verifier *v, const FxInst *i)
{
    const FxFunc *g = i->callee;
    if (!g) {
        fail(v, i->loc, "call has no callee");
        return;
    }
    const char *gn = g->name ? g->name : "?";
    if (!in_module(v->m, g))
        fail(v, i->loc, "call target '%s' is not a function of the module", gn);
    if (g->kind != FXF_FN) {
        fail(v, i->loc, "call target '%s' is a kernel; only fns can be called", gn);
        return;
    }
    if (g->nparams > 0 && !g->params)
        return;   /* reported when the callee itself is verified */
    if (i->nops != g->nparams) {
        fail(v, i->loc, "call to '%s' passes %d argument%s, it takes %d", gn, i->nops, i->nops == 1 ? "" : "s",
             g->nparams);
        return;
    }
    for (int k = 0; k < i->nops; k++)
        if (!type_equal(ty(i->ops[k]), g->params[k].type))
            fail(v, i->loc, "argument %d of the call to '%s' has type %s, but parameter '%s' is %s", k, gn,
                 tname(v, ty(i->ops[k])), g->params[k].name ? g->params[k].name : "?",
                 tname(v, g->params[k].type));
    if (!type_equal(i->type, g->ret))
        fail(v, i->loc, "call to '%s' gives its return type %s, but its type is %s", gn, tname(v, g->ret),
             tname(v, i->type));
}


/* The accumulator goes in and comes out in one vector type of the
 * instruction's accumulator element; float inputs are one scalar per lane.
 * (Int8 inputs are packed registers whose type belongs to the instruction.) */
static void check_mfma(Verifier *v, const FxInst *i)
{
    const TgtMatrixInst *mi = tgt_matrix_inst((TgtMatrixId)i->sub);
    if (!mi)
        return;
    if (!i->type || i->type->kind != TY_VECTOR || i->type->scalar != fxir_matrix_elem(mi->acc)) {
        fail(v, i->loc, "%s accumulates in a vector of %s, got %s", iname(v, i),
             type_info(fxir_matrix_elem(mi->acc))->name, tname(v, i->type));
        return;
    }
    if (!type_equal(ty(i->ops[2]), i->type))
        fail(v, i->loc, "%s must have the result type %s, got %s", operand_desc(v, i, 2), tname(v, i->type),
             tname(v, ty(i->ops[2])));
    const TgtMatrixLayout *l = tgt_matrix_layout(mi->id);
    if (i->type->lanes != l->d->per_lane)
        fail(v, i->loc, "%s accumulates %d elements per lane, got %s", iname(v, i), l->d->per_lane,
             tname(v, i->type));
    for (int k = 0; k < 2; k++) {
        ScalarId es = fxir_matrix_elem(k ? mi->in_b : mi->in);
        const Type *in = l->a->per_lane == 1 ? type_scalar(es) : type_vector(es, l->a->per_lane);
        if (!type_equal(ty(i->ops[k]), in))
            fail(v, i->loc, "%s must be a %s, got %s", operand_desc(v, i, k), tname(v, in), tname(v, ty(i->ops[k])));
    }
}

/* Wave operations (docs/waves.md): shuffles and readlane move any number
 * or Boolean and take an Int32 lane; ballot/any/all take a Boolean; the
 * reductions take numbers. */
static void check_wave(Verifier *v, const FxInst *i)
{
    const Type *t = ty(i->ops[0]);
    if (wave_has_lane(i->sub) && !type_equal(ty(i->ops[1]), type_scalar(SC_INT32)))
        fail(v, i->loc, "%s must be an Int32, got %s", operand_desc(v, i, 1), tname(v, ty(i->ops[1])));
    switch ((FxWaveOp)i->sub) {
    case FXW_BALLOT: case FXW_ANY: case FXW_ALL: {
        if (!is_bool_scalar(t))
            fail(v, i->loc, "%s must be a Boolean, got %s", operand_desc(v, i, 0), tname(v, t));
        const Type *want = type_scalar(i->sub == FXW_BALLOT ? SC_UINT64 : SC_BOOLEAN);
        if (!type_equal(i->type, want))
            fail(v, i->loc, "%s has type %s, got %s", iname(v, i), tname(v, want), tname(v, i->type));
        return;
    }
    case FXW_SUM: case FXW_MAX: case FXW_MIN:
        if (is_number(t) && t->scalar == SC_BOOLEAN)
            fail(v, i->loc, "%s must be a number, got %s", operand_desc(v, i, 0), tname(v, t));
        break;
    default:
        break;
    }
    if (!is_number(t))
        fail(v, i->loc, "%s must be a scalar or vector, got %s", operand_desc(v, i, 0), tname(v, t));
    else if (!type_equal(i->type, t))
        fail(v, i->loc, "%s must have its operand's type %s, got %s", iname(v, i), tname(v, t), tname(v, i->type));
}

static void check_wave_exchange(Verifier *v, const FxInst *i)
{
    const Type *t = ty(i->ops[0]);
    if (!is_number(t))
        fail(v, i->loc, "%s must be a scalar or vector, got %s", operand_desc(v, i, 0), tname(v, t));
    else if (!i->type || i->type->kind != TY_PTR || !type_equal(i->type->elem, t))
        fail(v, i->loc, "%s has type Ptr[%s], got %s", iname(v, i), tname(v, t), tname(v, i->type));
}

/* fx.printf: a canonical format (abi/fxprintf.h) whose conversions take
 * the operands in order, each of the 64-bit type its conversion names. */
static void check_print(Verifier *v, const FxInst *i)
{
    if (!i->text) {
        fail(v, i->loc, "%s has no format", iname(v, i));
        return;
    }
    static const ScalarId want[] = { [FXPF_INT64] = SC_INT64, [FXPF_UINT64] = SC_UINT64,
                                     [FXPF_FLOAT64] = SC_FLOAT64 };
    size_t pos = 0;
    int k = 0;
    FxPfSpec sp;
    const char *why = NULL;
    int got;
    while ((got = fxpf_next(i->text, &pos, &sp, &why)) > 0) {
        FxPfArg arg = fxpf_canonical_arg(&sp);
        if (arg == FXPF_OTHER) {
            fail(v, i->loc, "print format conversion '%.*s' is not canonical", (int)sp.len, i->text + sp.start);
            return;
        }
        if (arg == FXPF_PERCENT)
            continue;
        if (k >= i->nops) {
            fail(v, i->loc, "print format has more conversions than its %d operand%s", i->nops,
                 i->nops == 1 ? "" : "s");
            return;
        }
        const Type *t = i->ops[k++]->type;
        bool ok = arg == FXPF_CHAR ? type_equal(t, type_scalar(SC_INT64)) || type_equal(t, type_scalar(SC_UINT64))
                                   : type_equal(t, type_scalar(want[arg]));
        if (!ok)
            fail(v, i->loc, "print conversion '%.*s' takes operand %d of type %s", (int)sp.len,
                 i->text + sp.start, k - 1, tname(v, t));
    }
    if (got < 0)
        fail(v, i->loc, "print format is malformed: %s", why);
    else if (k != i->nops)
        fail(v, i->loc, "print format has %d conversion%s for %d operands", k, k == 1 ? "" : "s", i->nops);
}

static void check_assert(Verifier *v, const FxInst *i)
{
    if (!type_equal(i->ops[0]->type, type_scalar(SC_BOOLEAN)))
        fail(v, i->loc, "assert condition has type %s, expected Boolean", tname(v, i->ops[0]->type));
    if (!i->text)
        fail(v, i->loc, "%s has no message", iname(v, i));
}

/* Instructions without a value have type None, type_simple(TY_VOID) (fxir.h). */
static void check_no_value(Verifier *v, const FxInst *i)
{
    if (!is_void(i->type))
        fail(v, i->loc, "%s has no value, so its type must be None, got %s", iname(v, i), tname(v, i->type));
}

/* Whether every operand the type rules read is present and typed. */
static bool operands_typed(const FxInst *i)
{
    for (int k = 0; k < i->nops; k++)
        if (!(i->op == FX_LOOP && k == 0) && (!i->ops[k] || !i->ops[k]->type))
            return false;
    return true;
}

/* No-wrap flags belong on integer add, sub and mul only, and PROMISED
 * qualifies an NSW (fxir.h). */
static void check_nowrap(Verifier *v, const FxInst *i)
{
    if (!i->nowrap)
        return;
    bool arith = i->op == FX_BINOP && (i->sub == FXB_ADD || i->sub == FXB_SUB || i->sub == FXB_MUL);
    if (!arith || !i->type || !type_is_int(type_elem_scalar(i->type)))
        fail(v, i->loc, "%s carries nsw/nuw/wraps, which only integer add, sub and mul take", iname(v, i));
    else if ((i->nowrap & FXNW_PROMISED) && !(i->nowrap & FXNW_NSW))
        fail(v, i->loc, "%s is 'promised' without nsw", iname(v, i));
    else if ((i->nowrap & FXNW_PROMISED) && (i->nowrap & FXNW_WRAPS))
        fail(v, i->loc, "%s is both 'promised' and 'wraps'", iname(v, i));
    else if ((i->nowrap & FXNW_LAST) && (i->sub != FXB_ADD || !(i->nowrap & FXNW_WRAPS)))
        fail(v, i->loc, "%s is 'last', which only a range loop's increment (an add that 'wraps') is", iname(v, i));
    else if ((i->nowrap & FXNW_INDEX) &&
             (i->sub != FXB_ADD || !(i->nowrap & FXNW_NSW) || (i->nowrap & (FXNW_PROMISED | FXNW_WRAPS)) ||
              !type_info(type_elem_scalar(i->type))->is_signed))
        fail(v, i->loc, "%s is 'index', which only qualifies the nsw of a signed add", iname(v, i));
}

static void check_types(Verifier *v, const FxInst *i)
{
    check_nowrap(v, i);
    switch (i->op) {
    case FX_CONST: check_const(v, i); break;
    case FX_PARAM: check_param(v, i); break;
    case FX_BINOP: check_binop(v, i); break;
    case FX_CMP: check_cmp(v, i); break;
    case FX_UNOP: check_unop(v, i); break;
    case FX_CAST: check_cast(v, i); break;
    case FX_BITCAST: check_bitcast(v, i); break;
    case FX_SELECT: check_select(v, i); break;
    case FX_PTR_OFFSET: check_ptr_offset(v, i); break;
    case FX_FMA: check_fma(v, i); break;
    case FX_MATH: check_math(v, i); break;
    case FX_MINMAX: check_minmax(v, i); break;
    case FX_CEILDIV: check_ceildiv(v, i); break;
    case FX_SPECIAL: check_special(v, i); break;
    case FX_ALLOCA: check_alloca(v, i); break;
    case FX_LOAD: check_load(v, i); break;
    case FX_STORE: check_store(v, i); check_no_value(v, i); break;
    case FX_ATOMIC: check_atomic(v, i); break;
    case FX_SPLAT: check_splat(v, i); break;
    case FX_EXTRACT: check_extract(v, i); break;
    case FX_INSERT: check_insert(v, i); break;
    case FX_IF: case FX_LOOP: check_condition(v, i); check_no_value(v, i); break;
    case FX_RETURN: check_return(v, i); check_no_value(v, i); break;
    case FX_CALL: check_call(v, i); break;
    case FX_MFMA: check_mfma(v, i); break;
    case FX_WAVE: check_wave(v, i); break;
    case FX_WAVE_EXCHANGE: check_wave_exchange(v, i); break;
    case FX_WAVE_ACTIVE:
        if (!type_equal(i->type, type_scalar(SC_UINT64)))
            fail(v, i->loc, "%s has type Uint64, got %s", iname(v, i), tname(v, i->type));
        break;
    case FX_LDEXP: check_ldexp(v, i); break;
    case FX_FREXP_EXP: check_frexp_exp(v, i); break;
    case FX_BARRIER: case FX_BREAK: case FX_CONTINUE: case FX_FENCE: check_no_value(v, i); break;
    case FX_PRINT: check_print(v, i); check_no_value(v, i); break;
    case FX_ASSERT: check_assert(v, i); check_no_value(v, i); break;
    default: break;
    }
}

/* ---- the check walk ---- */

/* The innermost loop block around an instruction (if blocks do not change it). */
typedef enum { IN_NO_LOOP, IN_LOOP_COND, IN_LOOP_BODY, IN_LOOP_STEP } LoopPart;

static void check_jump(Verifier *v, const FxInst *i, LoopPart part)
{
    static const char *const where[] = { "outside any loop", "in a loop's condition block",
                                         NULL, "in a loop's step block" };
    if ((i->op == FX_BREAK || i->op == FX_CONTINUE) && part != IN_LOOP_BODY)
        fail(v, i->loc, "%s is %s; it must be inside a loop body (below blocks[1] of a loop, which is "
             "the loop codegen makes current)", iname(v, i), where[part]);
}

static bool is_terminator(const FxInst *i)
{
    return i->op == FX_RETURN || i->op == FX_BREAK || i->op == FX_CONTINUE;
}

static void check_inst(Verifier *v, const FxInst *i, LoopPart part)
{
    if (!i->type)
        fail(v, i->loc, "%s has no type (instructions without a value have type None)", iname(v, i));
    if (!check_counts(v, i))
        return;
    bool sub_ok = check_sub(v, i);
    check_operands(v, i);
    check_jump(v, i, part);
    if (i->type && sub_ok && operands_typed(i))
        check_types(v, i);
}

static void walk_block(Verifier *v, const FxBlock *b, const FxInst *owner, LoopPart part);

/* Block b's own instructions go out of scope. */
static void end_scope(Verifier *v, const FxBlock *b)
{
    for (const FxInst *i = b->first; i && set_get(&v->set, i) == ST_VISIBLE; i = i->next)
        set_put(&v->set, i, ST_ENDED);
}

static void walk_scope(Verifier *v, const FxBlock *b, const FxInst *owner, LoopPart part)
{
    walk_block(v, b, owner, part);
    end_scope(v, b);
}

static void walk_loop(Verifier *v, const FxInst *loop)
{
    walk_block(v, &loop->blocks[0], loop, IN_LOOP_COND);
    /* The condition is read after the condition block: it must be visible
     * there, before that block's values go out of scope. */
    if (loop->ops[0])
        check_visible(v, loop, 0);
    end_scope(v, &loop->blocks[0]);
    walk_scope(v, &loop->blocks[1], loop, IN_LOOP_BODY);
    walk_scope(v, &loop->blocks[2], loop, IN_LOOP_STEP);
}

static bool has_walkable_blocks(const FxInst *i)
{
    return i->blocks && i->nblocks > 0 && i->nblocks <= 3;
}

static void walk_nested(Verifier *v, const FxInst *i, LoopPart part)
{
    if (!has_walkable_blocks(i))
        return;
    if (i->op == FX_LOOP && i->nblocks == 3 && i->nops == 1 && i->ops) {
        walk_loop(v, i);
        return;
    }
    for (int k = 0; k < i->nblocks; k++)
        walk_scope(v, &i->blocks[k], i, part);
}

static void check_block_ends(Verifier *v, const FxBlock *b, const FxInst *owner, const FxInst *last)
{
    Loc loc = owner ? owner->loc : v->f->loc;
    if (b->owner != owner)
        fail(v, loc, "a block of %s has an owner field that does not name it",
             owner ? a_name(v, owner) : "the function body");
    if (b->last != last)
        fail(v, loc, "a block of %s has a last link that is not its final instruction",
             owner ? a_name(v, owner) : "the function body");
}

static void walk_block(Verifier *v, const FxBlock *b, const FxInst *owner, LoopPart part)
{
    const FxInst *prev = NULL, *terminator = NULL;
    bool dead_reported = false;
    /* An instruction not pending any more was met before: a cycle, reported while collecting. */
    for (const FxInst *i = b->first; i && set_get(&v->set, i) == ST_PENDING; i = i->next) {
        check_links(v, b, i, prev);
        if (terminator && !dead_reported) {
            fail(v, i->loc, "%s follows a %s in the same block and can never run", iname(v, i),
                 fxir_opcode_name(terminator->op));
            dead_reported = true;
        }
        check_inst(v, i, part);
        walk_nested(v, i, part);
        set_put(&v->set, i, ST_VISIBLE);
        if (!terminator && is_terminator(i))
            terminator = i;
        prev = i;
    }
    if (!v->lists_broken)
        check_block_ends(v, b, owner, prev);
}

/* ---- the collect walk ---- */

static void collect_block(Verifier *v, const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (set_get(&v->set, i) != ST_ABSENT) {
            fail(v, i->loc, "%s appears twice in this function's blocks (a cycle in the next links, or one "
                 "instruction in two blocks)", iname(v, i));
            v->lists_broken = true;
            return;
        }
        set_put(&v->set, i, ST_PENDING);
        if (has_walkable_blocks(i))
            for (int k = 0; k < i->nblocks; k++)
                collect_block(v, &i->blocks[k]);
    }
}

/* ---- "a fn with a result returns on every path" ----
 * A block returns when, before any break or continue at its top level, it
 * has an instruction after which control cannot go on: a return, an if
 * whose two blocks both return, or a `while True` loop (condition NULL or
 * the constant True) that no break leaves. Anything else may fall through
 * (a loop with a real condition may run zero times). */

static bool block_returns(const FxBlock *b);

static bool breaks_out(const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_BREAK)
            return true;
        if (i->op == FX_IF && i->nblocks == 2 && (breaks_out(&i->blocks[0]) || breaks_out(&i->blocks[1])))
            return true;   /* nested loops have breaks of their own: not followed */
    }
    return false;
}

static bool is_while_true(const FxInst *loop)
{
    const FxInst *c = loop->ops[0];
    return !c || (c->op == FX_CONST && is_bool_scalar(c->type) && (c->cval.lo & 1));
}

static bool never_falls_through(const FxInst *i)
{
    switch (i->op) {
    case FX_RETURN:
        return true;
    case FX_IF:
        return i->nblocks == 2 && block_returns(&i->blocks[0]) && block_returns(&i->blocks[1]);
    case FX_LOOP:
        return i->nblocks == 3 && i->nops == 1 && is_while_true(i) && !breaks_out(&i->blocks[0]) &&
               !breaks_out(&i->blocks[1]) && !breaks_out(&i->blocks[2]);
    default:
        return false;
    }
}

static bool block_returns(const FxBlock *b)
{
    for (const FxInst *i = b->first; i; i = i->next) {
        if (i->op == FX_BREAK || i->op == FX_CONTINUE)
            return false;
        if (never_falls_through(i))
            return true;
    }
    return false;
}

/* ---- functions ---- */

static void check_signature(Verifier *v, const FxFunc *f)
{
    if (!f->ret)
        fail_plain(v, f->loc, "%s has no return type (None when it returns nothing)", v->where);
    else if (f->kind == FXF_KERNEL && !is_void(f->ret))
        fail_plain(v, f->loc, "%s returns %s; kernels return nothing", v->where, tname(v, f->ret));
    if (f->nparams > 0 && !f->params) {
        fail_plain(v, f->loc, "%s has %d parameters but no parameter list", v->where, f->nparams);
        return;
    }
    for (int k = 0; k < f->nparams; k++)
        if (!f->params[k].type)
            fail_plain(v, f->loc, "parameter %d of %s has no type", k, v->where);
        else if (f->params[k].type->kind == TY_ARRAY && f->kind != FXF_FN)
            fail_plain(v, f->loc, "parameter %d of %s is an Array; only a fn takes one (a shared array)", k,
                       v->where);
}

static void check_returns_on_every_path(Verifier *v, const FxFunc *f)
{
    if (f->kind != FXF_FN || !f->ret || is_void(f->ret) || v->lists_broken)
        return;
    if (!block_returns(&f->body))
        fail_plain(v, f->loc, "fn '%s' returns %s but its body can end without a return", f->name,
                   tname(v, f->ret));
}

static int verify_func(const FxModule *m, const FxFunc *f, Arena *tmp)
{
    Verifier v = { .m = m, .f = f, .tmp = tmp };
    v.where = func_desc(tmp, f);
    check_signature(&v, f);
    if (f->nparams == 0 || f->params) {   /* params are indexed by every FX_PARAM */
        collect_block(&v, &f->body);
        walk_block(&v, &f->body, NULL, IN_NO_LOOP);
        check_returns_on_every_path(&v, f);
    }
    free(v.set.slots);
    return v.errors;
}

/* ---- programs ---- */

static const char *shape_text(Verifier *v, const Type *t)
{
    char *s = arena_printf(v->tmp, "[");
    for (int d = 0; d < t->ndims; d++) {
        const char *n = t->dim_names ? t->dim_names[d] : NULL;
        s = n ? arena_printf(v->tmp, "%s%s%s", s, d ? ", " : "", n)
              : arena_printf(v->tmp, "%s%s%lld", s, d ? ", " : "", (long long)t->dims[d]);
    }
    return arena_printf(v->tmp, "%s]", s);
}

/* Dim da of a equals dim db of b: symbolic dims compare by name (graph.c). */
static bool dim_equal(const Type *a, int da, const Type *b, int db)
{
    const char *na = a->dim_names ? a->dim_names[da] : NULL, *nb = b->dim_names ? b->dim_names[db] : NULL;
    if (na || nb)
        return na && nb && strcmp(na, nb) == 0;
    return a->dims[da] == b->dims[db];
}

static bool dim_is_one(const Type *t, int d)
{
    return !(t->dim_names && t->dim_names[d]) && t->dims[d] == 1;
}

static const FxParam *program_param(const FxProgram *p, int index)
{
    return index >= 0 && index < p->nparams ? &p->params[index] : NULL;
}

static bool in_program(const FxProgram *p, const FxTensor *t)
{
    for (int k = 0; k < p->tensors.len; k++)
        if (p->tensors.items[k] == t)
            return true;
    return false;
}

/* A symbolic dim names an Int32 parameter: lowering reads the size from it. */
static void check_dim_names(Verifier *v, const FxProgram *p, const FxTensor *t)
{
    for (int d = 0; t->type->dim_names && d < t->type->ndims; d++) {
        const char *n = t->type->dim_names[d];
        bool found = false;
        for (int k = 0; n && k < p->nparams && !found; k++)
            found = p->params[k].name && strcmp(p->params[k].name, n) == 0 &&
                    type_equal(p->params[k].type, type_scalar(SC_INT32));
        if (n && !found)
            fail(v, t->loc, "dimension %d of tensor '%s' is '%s', which is not an Int32 parameter of the program",
                 d, t->name, n);
    }
}

enum { MAX_RANK = 8 };   /* program lowering keeps coordinates in arrays of 8 */

static bool tensor_type_ok(const Type *tt)
{
    return tt && tt->kind == TY_TENSOR && is_number(tt->elem) && tt->ndims >= 1 && tt->ndims <= MAX_RANK && tt->dims;
}

/* The dims of t other than size-1 ones, in order, equal those of u. */
static bool same_elements(const Type *t, const Type *u)
{
    int i = 0, j = 0;
    for (;;) {
        while (i < t->ndims && dim_is_one(t, i))
            i++;
        while (j < u->ndims && dim_is_one(u, j))
            j++;
        if (i == t->ndims || j == u->ndims)
            return i == t->ndims && j == u->ndims;
        if (!dim_equal(t, i++, u, j++))
            return false;
    }
}

/* A view: a row-major reshape of a row-major transient that is no view
 * itself, with the same element type and the same elements (size-1 dims
 * added or dropped); nothing writes a view (writers write its base). */
static void check_view(Verifier *v, const FxProgram *p, const FxTensor *t)
{
    const FxTensor *b = t->view_of;
    if (!in_program(p, b) || b->view_of || b->param_index >= 0 || t->param_index >= 0) {
        fail(v, t->loc, "view '%s' must view a transient of the program that is no view itself", t->name);
        return;
    }
    if (!tensor_type_ok(b->type))
        return;
    if (!type_equal(t->type->elem, b->type->elem) || t->type->col_major || b->type->col_major ||
        !same_elements(t->type, b->type))
        fail(v, t->loc, "view '%s' of shape %s does not hold the elements of '%s' of shape %s (same element type, "
             "row-major, only size-1 dims added or dropped)", t->name, shape_text(v, t->type), b->name,
             shape_text(v, b->type));
    for (int k = 0; k < p->nodes.len; k++) {
        const FxNode *n = p->nodes.items[k];
        if (n && n->out == t)
            fail(v, n->loc, "node %d writes view '%s'; nodes write the viewed tensor '%s'", k, t->name, b->name);
    }
}

static void check_tensor(Verifier *v, const FxProgram *p, const FxTensor *t)
{
    const Type *tt = t->type;
    if (!tensor_type_ok(tt)) {
        fail(v, t->loc, "tensor '%s' must have a Tensor type of numbers with 1 to %d dimensions, got %s",
             t->name ? t->name : "?", MAX_RANK, tname(v, tt));
        return;
    }
    if (t->param_index >= 0) {
        const FxParam *pp = program_param(p, t->param_index);
        if (!pp || !type_equal(pp->type, tt))
            fail(v, t->loc, "tensor '%s' is parameter %d, but that parameter is %s", t->name, t->param_index,
                 pp ? tname(v, pp->type) : "out of range");
    }
    check_dim_names(v, p, t);
    if (t->view_of)
        check_view(v, p, t);
}

/* A tensor a node reads or writes: one of the program's, well-typed. */
static bool node_tensor(Verifier *v, const FxProgram *p, const FxNode *n, const FxTensor *t, const char *role)
{
    if (!t) {
        fail(v, n->loc, "the %s tensor of a node is missing (NULL)", role);
        return false;
    }
    if (!in_program(p, t)) {
        fail(v, n->loc, "the %s tensor '%s' of a node is not a tensor of the program", role, t->name);
        return false;
    }
    return tensor_type_ok(t->type);   /* otherwise reported with the tensor */
}

static bool scalar_param_ok(const FxProgram *p, int index)
{
    const FxParam *pp = program_param(p, index);
    return pp && pp->type && pp->type->kind == TY_SCALAR;
}

static void check_scalar_arg(Verifier *v, const FxProgram *p, const FxNode *n, FxScalarArg s, const char *what,
                             bool may_be_absent)
{
    if (s.kind == FXS_NONE && !may_be_absent)
        fail(v, n->loc, "matmul %s must be a static value or a parameter, not absent", what);
    else if (s.kind == FXS_PARAM && !scalar_param_ok(p, s.param_index))
        fail(v, n->loc, "matmul %s reads parameter %d, which is not a scalar parameter of the program", what,
             s.param_index);
}

static void check_matmul_types(Verifier *v, const FxNode *n, const FxTensor *a, const FxTensor *b)
{
    const Type *ea = a->type->elem, *eb = b->type->elem;
    bool float8s = fxir_float8_operand(n->in_type) && fxir_float8_operand(n->in_type_b);
    if (ea->kind != TY_SCALAR || eb->kind != TY_SCALAR || ea->scalar != n->in_type || eb->scalar != n->in_type_b ||
        (n->in_type_b != n->in_type && !float8s))
        fail(v, n->loc, "matmul inputs must hold in_type %s and in_b %s scalars (the same type but for two 8-bit "
             "float formats), got %s and %s",
             (int)n->in_type >= 0 && n->in_type < SC_COUNT ? type_info(n->in_type)->name : "?",
             (int)n->in_type_b >= 0 && n->in_type_b < SC_COUNT ? type_info(n->in_type_b)->name : "?", tname(v, ea),
             tname(v, eb));
    if ((int)n->acc_type < 0 || n->acc_type >= SC_COUNT ||
        !(type_is_int(n->acc_type) || type_is_float(n->acc_type)))
        fail(v, n->loc, "matmul acc_type must be an integer or float type, got %d", (int)n->acc_type);
    const Type *eo = n->out->type->elem;
    if (eo->kind != TY_SCALAR || eo->scalar != n->out_type)
        fail(v, n->loc, "matmul out_type %s must be the element type of its output, which holds %s",
             (int)n->out_type >= 0 && n->out_type < SC_COUNT ? type_info(n->out_type)->name : "?", tname(v, eo));
}

static void check_matmul(Verifier *v, const FxProgram *p, const FxNode *n)
{
    bool beta = n->beta.kind != FXS_NONE;
    if (n->nins != (beta ? 3 : 2)) {
        fail(v, n->loc, "matmul %s reads %d inputs (A, B%s), got %d", beta ? "with beta" : "without beta",
             beta ? 3 : 2, beta ? ", C" : "", n->nins);
        return;
    }
    if (beta && n->ins[2] != n->out) {
        fail(v, n->loc, "matmul input 2 (C, scaled by beta) must be its output '%s', got '%s'", n->out->name,
             n->ins[2]->name);
        return;
    }
    const FxTensor *a = n->ins[0], *b = n->ins[1], *o = n->out;
    if (fxg_base(a) == o || fxg_base(b) == o)   /* its tiles would read what other tiles wrote */
        fail(v, n->loc, "matmul writes '%s', which it reads as %s", o->name, fxg_base(a) == o ? "A" : "B");
    if (a->type->ndims != 2 || b->type->ndims != 2 || o->type->ndims != 2) {
        fail(v, n->loc, "matmul multiplies 2-D tensors into a 2-D tensor, got %s @ %s -> %s",
             shape_text(v, a->type), shape_text(v, b->type), shape_text(v, o->type));
        return;
    }
    int am = n->trans_a ? 1 : 0, ak = 1 - am, bk = n->trans_b ? 1 : 0, bn = 1 - bk;
    if (!dim_equal(a->type, ak, b->type, bk))
        fail(v, n->loc, "matmul inner dimensions differ: %s%s @ %s%s", shape_text(v, a->type),
             n->trans_a ? ".T" : "", shape_text(v, b->type), n->trans_b ? ".T" : "");
    else if (!dim_equal(o->type, 0, a->type, am) || !dim_equal(o->type, 1, b->type, bn))
        fail(v, n->loc, "matmul %s%s @ %s%s gives rows of A by columns of B, but its output is %s",
             shape_text(v, a->type), n->trans_a ? ".T" : "", shape_text(v, b->type), n->trans_b ? ".T" : "",
             shape_text(v, o->type));
    check_matmul_types(v, n, a, b);
    check_scalar_arg(v, p, n, n->alpha, "alpha", false);
    check_scalar_arg(v, p, n, n->beta, "beta", true);
}

/* numpy broadcasting into the output: trailing dims align; each input dim
 * equals the output's or is a static 1 (lowering reads index 0 there). */
static bool broadcasts_to(const Type *in, const Type *out)
{
    if (in->ndims > out->ndims)
        return false;
    for (int j = 0; j < in->ndims; j++)
        if (!dim_equal(in, j, out, j + out->ndims - in->ndims) && !dim_is_one(in, j))
            return false;
    return true;
}

/* `what` names the node kind in messages: "map" or "reduce". */
static void check_body_params(Verifier *v, const FxProgram *p, const FxNode *n, const FxFunc *body, const char *what)
{
    for (int k = 0; k < n->nins; k++)
        if (!type_equal(body->params[k].type, n->ins[k]->type->elem))
            fail(v, n->loc, "%s body '%s' parameter %d has type %s, but input '%s' holds %s", what, body->name, k,
                 tname(v, body->params[k].type), n->ins[k]->name, tname(v, n->ins[k]->type->elem));
    for (int k = 0; k < n->nscalars; k++) {
        int sp = n->scalar_params ? n->scalar_params[k] : -1;
        if (!scalar_param_ok(p, sp)) {
            fail(v, n->loc, "%s scalar %d reads parameter %d, which is not a scalar parameter of the program", what,
                 k, sp);
            continue;
        }
        const FxParam *bp = &body->params[n->nins + k];
        if (!type_equal(bp->type, p->params[sp].type))
            fail(v, n->loc, "%s body '%s' parameter %d has type %s, but program parameter '%s' is %s", what,
                 body->name, n->nins + k, tname(v, bp->type), p->params[sp].name, tname(v, p->params[sp].type));
    }
}

/* The body that computes node n's elements over the index space of
 * `space` (a Map's output, a Reduce's domain): a fn of the module taking
 * one element of each input, then each scalar, and returning an element of
 * `space`; every input broadcasts to its shape. */
static void check_body(Verifier *v, const FxProgram *p, const FxNode *n, const char *what, const FxTensor *space,
                       const char *space_role)
{
    const FxFunc *body = n->body;
    if (!in_module(v->m, body))
        fail(v, n->loc, "%s body '%s' is not a function of the module", what, body->name);
    if (body->kind != FXF_FN || body->nparams != n->nins + n->nscalars || (body->nparams && !body->params)) {
        fail(v, n->loc, "%s body '%s' must be a fn of %d parameters (%d elements, %d scalars), got a %s of %d", what,
             body->name, n->nins + n->nscalars, n->nins, n->nscalars, body->kind == FXF_FN ? "fn" : "kernel",
             body->nparams);
        return;
    }
    check_body_params(v, p, n, body, what);
    if (!type_equal(body->ret, space->type->elem))
        fail(v, n->loc, "%s body '%s' returns %s, but %s '%s' holds %s", what, body->name, tname(v, body->ret),
             space_role, space->name, tname(v, space->type->elem));
    for (int k = 0; k < n->nins; k++)
        if (!broadcasts_to(n->ins[k]->type, space->type))
            fail(v, n->loc, "%s input '%s' of shape %s does not broadcast to the %s shape %s", what, n->ins[k]->name,
                 shape_text(v, n->ins[k]->type), space_role, shape_text(v, space->type));
}

static void check_map(Verifier *v, const FxProgram *p, const FxNode *n)
{
    if (!n->body)
        fail(v, n->loc, "map has no body");
    else
        check_body(v, p, n, "map", n->out, "output");
}

/* "[M]": the input's shape without the axis, "[1]" when nothing is left. */
static const char *reduced_shape_text(Verifier *v, const Type *in, int axis)
{
    if (in->ndims == 1)
        return "[1]";
    const char *s = "[";
    for (int d = 0, o = 0; d < in->ndims; d++) {
        if (d == axis)
            continue;
        const char *n = in->dim_names ? in->dim_names[d] : NULL;
        s = n ? arena_printf(v->tmp, "%s%s%s", s, o ? ", " : "", n)
              : arena_printf(v->tmp, "%s%s%lld", s, o ? ", " : "", (long long)in->dims[d]);
        o++;
    }
    return arena_printf(v->tmp, "%s]", s);
}

/* The input's shape without the axis; [1] when nothing is left. */
static bool reduced_shape_ok(const Type *in, int axis, const Type *out)
{
    if (in->ndims == 1)
        return out->ndims == 1 && dim_is_one(out, 0);
    if (out->ndims != in->ndims - 1)
        return false;
    for (int d = 0, o = 0; d < in->ndims; d++)
        if (d != axis && !dim_equal(in, d, out, o++))
            return false;
    return true;
}

/* A Reduce that computes its elements with a body (map-fusion folded a Map
 * into it) reduces over its domain: a well-formed tensor of no buffer. */
static bool check_reduce_body(Verifier *v, const FxProgram *p, const FxNode *n)
{
    const FxTensor *d = n->domain;
    if (!d || !tensor_type_ok(d->type)) {
        fail(v, n->loc, "reduce with body '%s' must have a domain: a Tensor type of numbers with 1 to %d "
             "dimensions, got %s", n->body->name, MAX_RANK, d ? tname(v, d->type) : "none");
        return false;
    }
    check_dim_names(v, p, d);
    check_body(v, p, n, "reduce", d, "domain");
    if (fxg_node_reads(n, n->out))   /* a workgroup would read what another one writes */
        fail(v, n->loc, "reduce with body '%s' reads its output '%s'", n->body->name, n->out->name);
    return true;
}

static void check_reduce(Verifier *v, const FxProgram *p, const FxNode *n)
{
    if (n->body) {
        if (!check_reduce_body(v, p, n))
            return;
    } else if (n->nins != 1) {
        fail(v, n->loc, "reduce reads 1 tensor, got %d", n->nins);
        return;
    } else if (n->domain) {
        fail(v, n->loc, "reduce of '%s' has a domain but no body", n->ins[0]->name);
    }
    const Type *in = fxg_reduce_domain(n)->type, *out = n->out->type;
    if ((int)n->reduce < FXR_SUM || n->reduce > FXR_MINABS_NZ)
        fail(v, n->loc, "reduce has kind %d, expected sum, max, min, maxabs or minabsnz", (int)n->reduce);
    if (n->axis < 0 || n->axis >= in->ndims) {
        fail(v, n->loc, "reduce axis %d is out of range for a tensor of shape %s", n->axis, shape_text(v, in));
        return;
    }
    if (!reduced_shape_ok(in, n->axis, out))
        fail(v, n->loc, "reduce of %s over axis %d gives %s (the input shape without that axis), but its output "
             "is %s", shape_text(v, in), n->axis, reduced_shape_text(v, in, n->axis), shape_text(v, out));
    if (!type_equal(in->elem, out->elem))
        fail(v, n->loc, "reduce keeps the element type: input holds %s, output %s", tname(v, in->elem),
             tname(v, out->elem));
    else if (in->elem->kind != TY_SCALAR || !(type_is_int(in->elem->scalar) || type_is_float(in->elem->scalar)))
        fail(v, n->loc, "reduce works on integer or float scalars, got %s", tname(v, in->elem));
}

/* A node may read a parameter, or a transient an earlier node wrote. */
static void check_reads_written(Verifier *v, const FxProgram *p, int index)
{
    const FxNode *n = p->nodes.items[index];
    for (int k = 0; k < n->nins; k++) {
        const FxTensor *t = fxg_base(n->ins[k]);
        bool written = t->param_index >= 0;
        for (int j = 0; j < index && !written; j++)
            written = ((const FxNode *)p->nodes.items[j])->out == t;
        if (!written)
            fail(v, n->loc, "node %d reads transient '%s' before any node writes it", index, t->name);
    }
}

/* `when`: an Int32 tensor of the program that an earlier node wrote. */
static void check_condition_tensor(Verifier *v, const FxProgram *p, int index)
{
    const FxNode *n = p->nodes.items[index];
    if (!n->when)
        return;
    const FxTensor *w = fxg_base(n->when);
    bool written = false;
    for (int j = 0; j < index && !written; j++)
        written = ((const FxNode *)p->nodes.items[j])->out == w;
    if (!in_program(p, n->when) || !tensor_type_ok(n->when->type) || !type_equal(n->when->type->elem, type_scalar(SC_INT32)))
        fail(v, n->loc, "node %d runs when tensor '%s' is %s 0, which must be an Int32 tensor of the program", index,
             n->when->name, n->when_nonzero ? "!=" : "==");
    else if (!written)
        fail(v, n->loc, "node %d runs when '%s' is %s 0, but no earlier node writes '%s'", index, n->when->name,
             n->when_nonzero ? "!=" : "==", w->name);
}

/* The tensor a Reduce reduces over, or NULL when it has none to check
 * (check_reduce reports that). */
static const FxTensor *checked_domain(const FxNode *n)
{
    const FxTensor *d = n->body ? n->domain : n->nins >= 1 && n->ins ? n->ins[0] : NULL;
    return d && tensor_type_ok(d->type) ? d : NULL;
}

/* The shape a group member runs over: a Map's output, a Reduce's domain
 * with the axis it reduces. */
static const char *kernel_shape_text(Verifier *v, const FxNode *n)
{
    if (n->kind == FXN_MAP)
        return shape_text(v, n->out->type);
    return arena_printf(v->tmp, "%s over axis %d", shape_text(v, fxg_reduce_domain(n)->type), n->axis);
}

/* `with previous`: node index joins the kernel of the Maps (or Reduces)
 * before it, so it is a node of their kind and shape under their condition
 * that reads nothing they write and writes nothing they touch (the group's
 * order is free); reductions are at most FXG_MAX_REDUCE_SIBLINGS. */
static void check_sibling(Verifier *v, const FxProgram *p, int index)
{
    const FxNode *n = p->nodes.items[index];
    if (!n->with_previous)
        return;
    const FxNode *prev = index > 0 ? p->nodes.items[index - 1] : NULL;
    if (n->kind == FXN_MATMUL || !prev || prev->kind != n->kind) {
        fail(v, n->loc, "node %d is marked 'with previous', but only a Map right after a Map, or a Reduce right "
             "after a Reduce, can run in its kernel", index);
        return;
    }
    if (n->kind == FXN_REDUCE && (!checked_domain(n) || !checked_domain(prev)))
        return;
    if (!fxg_same_kernel_shape(prev, n))
        fail(v, n->loc, "node %d runs in the kernel of node %d, but its shape %s is not %s", index, index - 1,
             kernel_shape_text(v, n), kernel_shape_text(v, prev));
    if (prev->when != n->when || prev->when_nonzero != n->when_nonzero)
        fail(v, n->loc, "node %d runs in the kernel of node %d, but under another condition", index, index - 1);
    if (n->note)
        fail(v, n->loc, "node %d runs in the kernel of node %d and has a note of its own", index, index - 1);
    int members = 1;
    for (int g = index - 1; g >= 0; g--) {
        const FxNode *m = p->nodes.items[g];
        members++;
        if (m->out == n->out)
            fail(v, n->loc, "node %d and node %d, in one kernel, both write '%s'", index, g, n->out->name);
        else if (fxg_node_reads(n, m->out))
            fail(v, n->loc, "node %d reads '%s', which node %d writes in the same kernel", index, m->out->name, g);
        else if (fxg_node_reads(m, n->out))
            fail(v, n->loc, "node %d writes '%s', which node %d reads in the same kernel", index, n->out->name, g);
        if (!m->with_previous)
            break;
    }
    if (n->kind == FXN_REDUCE && members == FXG_MAX_REDUCE_SIBLINGS + 1)
        fail(v, n->loc, "node %d is reduction %d of one kernel; at most %d run in one (each has its own LDS "
             "buffer)", index, members, FXG_MAX_REDUCE_SIBLINGS);
}

static bool node_tensors_ok(Verifier *v, const FxProgram *p, const FxNode *n)
{
    bool ok = node_tensor(v, p, n, n->out, "output");
    if (n->nins > 0 && !n->ins) {
        fail(v, n->loc, "node has %d inputs but no input list", n->nins);
        return false;
    }
    for (int k = 0; k < n->nins; k++)
        ok &= node_tensor(v, p, n, n->ins[k], "input");
    return ok;
}

static void check_node(Verifier *v, const FxProgram *p, int index)
{
    const FxNode *n = p->nodes.items[index];
    if (!node_tensors_ok(v, p, n))
        return;
    switch (n->kind) {
    case FXN_MATMUL: check_matmul(v, p, n); break;
    case FXN_MAP: check_map(v, p, n); break;
    case FXN_REDUCE: check_reduce(v, p, n); break;
    default: fail(v, n->loc, "node has kind %d, expected matmul, map or reduce", (int)n->kind); return;
    }
    check_reads_written(v, p, index);
    check_condition_tensor(v, p, index);
    check_sibling(v, p, index);
}

static int verify_program(const FxModule *m, const FxProgram *p, Arena *tmp)
{
    Verifier v = { .m = m, .tmp = tmp };
    v.where = arena_printf(tmp, "program '%s'", p->name ? p->name : "?");
    if (p->nparams > 0 && !p->params) {   /* tensors and nodes index the parameters */
        fail(&v, p->loc, "the program has %d parameters but no parameter list", p->nparams);
        return v.errors;
    }
    for (int k = 0; k < p->tensors.len; k++) {
        const FxTensor *t = p->tensors.items[k];
        if (t)
            check_tensor(&v, p, t);
        else
            fail(&v, p->loc, "tensor %d of the program is missing (NULL)", k);
    }
    for (int k = 0; k < p->nodes.len; k++) {
        if (!p->nodes.items[k])
            fail(&v, p->loc, "node %d of the program is missing (NULL)", k);
        else
            check_node(&v, p, k);
    }
    return v.errors;
}

/* ---- entry points ---- */

bool fxir_verify_func(const FxModule *m, const FxFunc *f)
{
    Arena *tmp = arena_new();
    int errors = verify_func(m, f, tmp);
    arena_free(tmp);
    return errors == 0;
}

bool fxir_verify(const FxModule *m)
{
    Arena *tmp = arena_new();
    int errors = 0;
    for (int k = 0; k < m->funcs.len; k++)
        errors += verify_func(m, m->funcs.items[k], tmp);
    for (int k = 0; k < m->programs.len; k++)
        errors += verify_program(m, m->programs.items[k], tmp);
    arena_free(tmp);
    return errors == 0;
}
