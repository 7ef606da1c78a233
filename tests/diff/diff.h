/* diff.h - the differential test: kernels generated over the whole type tower,
 * run on the host backend and compared lane by lane with the constant folder.
 *
 *   values.c   operand sets (edge values, rounding ties, random), their exact
 *              `.fx` spellings and their memory (storage) form
 *   gen.c      the groups: one `.fx` module per group; each operation x type
 *              (pair) is one statement with its own result buffer, in the
 *              kernel of all pairs that take the same inputs (and cases)
 *   fold.c     the expected value of a case: the constant folder through sema,
 *              as `fxcc --eval` computes it
 *   test_diff.c  compile + JIT + run + compare, the device compiles per arch */
#ifndef FX_TEST_DIFF_H
#define FX_TEST_DIFF_H
#include <stdbool.h>
#include <stdint.h>
#include "sema/sema.h"
#include "fxir/types.h"

typedef unsigned __int128 u128;

/* ---- values.c ---- */

typedef struct {
    u128 *v;
    int n, cap;
} Vals;

void vals_push(Vals *s, u128 x);        /* appends unless already present */
void vals_free(Vals *s);

uint64_t rng_next(uint64_t *state);     /* splitmix64 */

int sc_width(ScalarId s);
u128 sc_mask(ScalarId s);
bool sc_signed(ScalarId s);             /* signed integers only */
const FloatFormat *sc_fmt(ScalarId s);  /* NULL for integers and Boolean */
const char *sc_name(ScalarId s);

/* Edge operands of a scalar type. `full` adds the rounding ties of every
 * narrower format and the integer boundaries (for conversions and unary ops);
 * the core set is meant to be crossed with itself. 8-bit and smaller float
 * formats are exhaustive either way. */
void edges(ScalarId s, bool full, Vals *out);
/* A random operand: random bits, or a random "ordinary" value for floats. */
u128 random_operand(ScalarId s, uint64_t *rng);

/* The exact `.fx` spelling of a static value of type s with encoding x:
 * Int8(-0x80), Uint16(0x3c00).bitcast(Float16), Float6E2M3FN(0x1.8p-1) ... */
void spell(ScalarId s, u128 x, char *buf, size_t cap);
void hex128(u128 v, char *buf, size_t cap);        /* 0x7fc00001 */
/* Hex of the encoding, for reports: 0x7fc00001 */
void hexbits(ScalarId s, u128 x, char *buf, size_t cap);

/* Memory form: bytes of one lane, of a whole element (vectors packed:
 * Float32x3 takes 12 bytes). */
int lane_bytes(ScalarId s);
int elem_bytes(const Type *t);
void put_lane(unsigned char *p, ScalarId s, u128 x);
u128 get_lane(const unsigned char *p, ScalarId s);   /* raw storage bytes */
u128 storage_of(ScalarId s, u128 x);                 /* what put_lane writes */

/* ---- fold.c ---- */

typedef struct Folder Folder;
Folder *folder_new(void);
void folder_free(Folder *f);
/* Evaluates `text` with sema (the `--eval` path). Returns false after an
 * error; on success *type is the value's type and *bits its encoding. */
bool fold_text(Folder *f, const char *text, const Type **type, u128 *bits);

/* ---- gen.c ---- */

typedef enum {
    EXP_FOLD,    /* the folder on the lane's operands; `rule` covers the cases
                    the folder rejects by design (static division by zero...) */
    EXP_ROUND,   /* x.to(U, rounding_mode=M): ff_from_double, as the folder would */
    EXP_BYTES,   /* vector bitcast across lane counts: the bytes are unchanged */
} ExpKind;

typedef enum {
    RULE_NONE,
    RULE_DIV,      /* integer // and %: x // 0 == x % 0 == 0 at run time */
    RULE_TRUEDIV,  /* integer /: a zero divisor has no folded answer: not compared */
    RULE_SHIFT,    /* a negative count (in the common type) behaves as a count >= width */
    RULE_POW,      /* negative exponent (in the common type): 0 unless the base is +-1 */
    RULE_CEILDIV,  /* b == 0 gives 0, (MIN, -1) gives MIN */
} Rule;

/* One operation x type (pair), with its operand cases. */
typedef struct Kern {
    char label[128];        /* "Int8 // Int8", "Float32 -> Float16 upward" */
    char tmpl[256];         /* expression over $0 $1 $2 (lane operands) */
    int nin;
    ScalarId in[3];         /* lane types of the inputs */
    ScalarId out;           /* lane type of the result */
    int lanes;              /* 1 for scalar kernels */
    int out_lanes;          /* lanes of the result (bitcasts may change it) */
    ExpKind exp;
    Rule rule;
    int rm;                 /* FfRound for EXP_ROUND */
    bool exact_nan;         /* NaNs must keep their bits (bitcast, select) */
    /* cases: ncases lane tuples; for vector kernels, `lanes` consecutive
     * tuples form one element */
    int ncases, cap;
    u128 *ops[3];
    /* kernels with the same inputs share their cases and one `.fx` kernel
     * (see group_source): */
    struct Kern *leader;    /* the one whose case list they all use */
    char kname[16];         /* the `.fx` kernel computing it */
    int slot, nslots;       /* its result buffer r<slot> of nslots */
    int line;               /* its statement's line in the module's source */
    bool skipped;           /* codegen: "not supported yet" */
    char *skip_msg;
    /* the expected result of every case, computed once (test_diff.c) and
     * reused when the kernel runs again at another -O */
    u128 *expect;
    unsigned char *expect_st;   /* 0: not computed yet, else ExpectStatus + 1 */
} Kern;

typedef struct Group {
    const char *name;
    Kern **k;
    int n, cap;
} Group;

/* Expands $0 $1 $2 of an operation's template with the given strings. */
void tmpl_expand(const char *tmpl, const char *const *ops, char *out, size_t cap);
/* Builds every group (kernels and cases). */
int gen_groups(Folder *f, Group **out);
/* The module's source: one `.fx` kernel per input signature, one result
 * buffer and one source line per operation (so an error's line names the
 * operation); skipped operations are left out. Sets kname, slot, nslots and
 * line of every operation. Thousands of one-operation kernels would cost
 * the AMDGPU backend several times as much. */
char *group_source(Group *g);
void groups_free(Group *g, int n);

#endif
