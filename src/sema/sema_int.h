/* sema_int.h - state shared by the files of src/sema. */
#ifndef FX_SEMA_INT_H
#define FX_SEMA_INT_H
#include "sema/sema.h"
#include "fxir/builder.h"
#include "sema/fold.h"
#include "sema/promote.h"
#include "support/warn.h"

typedef enum {
    B_CONST,      /* top-level const: decl, evaluated lazily */
    B_FN,         /* fn item: decl; lowered FxFunc in fn */
    B_KERNEL,
    B_PROGRAM,
    B_VALUE,      /* let binding, parameter, static loop variable: val */
    B_VAR,        /* var / shared / Array: slot (FX_ALLOCA) of type `type` */
    B_BUILTIN     /* builtin name: val (types, fx, thread_idx, range, ...) */
} BindingKind;

typedef struct Binding Binding;
struct Binding {
    const char *name;
    BindingKind kind;
    AstNode *decl;
    Val *val;
    FxInst *slot;
    const Type *type;
    bool evaluating;      /* B_CONST: cycle detection */
    bool failed;          /* B_CONST: its initializer had an error */
    FxFunc *fn;           /* B_FN after lowering */
    bool lowering;        /* B_FN: recursion detection */
    long expanded;        /* B_FN after lowering: FXIR instructions with its calls inlined */
    bool used;            /* read at least once (-Wunused-variable / -parameter) */
    Binding *next;        /* next in the same scope */
};

/* A scope is a list of bindings, newest first. Once it holds more than a
 * few names it also gets a hash index (name -> newest binding), so a file
 * of a million consts or a block of many lets is looked up in constant
 * time, not by a walk of the list (issue 15: that walk made sema quadratic). */
typedef struct Scope Scope;
struct Scope {
    Binding *first;
    Scope *parent;
    int count;             /* bindings in the list */
    Binding **index;       /* open addressing, cap slots; NULL until count > SCOPE_INDEX_MIN */
    size_t cap;
};

/* Where emitted instructions go, and the function-level facts they need. */
/* The most dimensions an Array or Tensor has (docs/limits.md). */
enum { SEMA_MAX_DIMS = 8 };

/* Limits that keep sema's recursion inside the C stack and a kernel's code
 * inside what LLVM compiles in reasonable time (docs/limits.md, issue 15).
 * SEMA_MAX_NESTING counts sema_expr and sema_block frames one inside
 * another, through consts and fns too: it is the one that protects the
 * stack (a const chain of long expressions multiplies the two); the const
 * and call limits come first in the usual cases and say what is deep. */
enum {
    SEMA_MAX_NESTING = 4000,
    SEMA_MAX_CONST_DEPTH = 1000,
    SEMA_MAX_CALL_DEPTH = 500,
    SEMA_MAX_KERNEL_SIZE = 1 << 15,
};

typedef struct FnCtx {
    FxFunc *func;
    bool is_kernel;
    bool is_eval;           /* --eval scratch context */
    bool in_program;        /* an elementwise map of a program: no work-items, no waves */
    const Type *ret;
    int loop_depth;
    bool returned;          /* a return statement was seen (fn must return on all paths) */
    long size;              /* FXIR instructions so far, inlined calls and unrolled
                               iterations included (less those in Ctx.b.placed) */
    bool too_big;           /* SEMA_MAX_KERNEL_SIZE was crossed and reported */
    int unrolling;          /* static_range loops being unrolled: they, not the
                               statements of their bodies, report the size */
} FnCtx;

typedef struct Ctx Ctx;
struct Ctx {
    Sema *sema;
    Arena *arena;
    Scope *scope;
    FnCtx *fn;
    FxBlock *block;         /* current insertion block */
    FxBuilder b;            /* positioned at the end of `block` by sema_builder */
    unsigned fmf;           /* effective ambient fast-math flags */
    bool discard;           /* checking an untaken static branch: emit into scratch,
                               and what the target lacks is no error */
};

struct Sema {
    Arena *arena;
    const SemaOptions *opts;
    Scope globals;
    Scope builtins;
    FxModule *module;
    PtrVec files;           /* SrcFile* loaded for imports (freed with the Sema) */
    PtrVec deps;            /* names of imported files, for -MD */
    PtrVec imported;        /* canonical paths already imported */
    PtrVec items;           /* AstNode* of every item, all files */
    PtrVec kernels;         /* Binding* of kernels in source order */
    int nesting;            /* sema_expr/sema_block frames on the stack */
    int const_depth;        /* consts being evaluated, one inside another */
    int call_depth;         /* fns being lowered, one calling the next */
    bool deep_reported;     /* a nesting limit was reported: stay quiet after */
    bool defines_applied;
    FxBlock scratch;        /* where run-time values built outside kernels go */
    FxJudged *divergence;   /* verdicts on lowered fns (fxir_divergent_barriers) */
    FnCtx scratch_fn;
};

/* limits.c */
bool sema_enter(Ctx *c, Loc loc);
void sema_leave(Ctx *c);
bool sema_enter_const(Ctx *c, const char *name, Loc use);
bool sema_enter_call(Ctx *c, const char *name, Loc call);
long sema_fn_size(Ctx *c);
/* Add n instructions (an inlined call of callee, or n unrolled copies when
 * callee is NULL; n == 0 checks the statement just done) to the current
 * function's size; false, after one error, when it crosses the limit. */
bool sema_grow(Ctx *c, long n, Loc loc, const char *callee);

/* scope.c */
void sema_global_ctx(Sema *s, Ctx *c);
Binding *sema_lookup(Ctx *c, const char *name);
/* sema_lookup for the target of an assignment: a store is not a read. */
Binding *sema_lookup_target(Ctx *c, const char *name);
/* Warns about the let, var and parameter bindings of scope s never read. */
void sema_warn_unused(Ctx *c, Scope *s);
/* -Wdivergent-barrier on function f's FXIR (fxir/divergence.c finds them). */
void sema_warn_divergent_barriers(Sema *s, FxFunc *f);
Binding *sema_lookup_local(Ctx *c, const char *name);
Binding *sema_bind(Ctx *c, const char *name, BindingKind kind, AstNode *decl);
void sema_push_scope(Ctx *c, Scope *s);
void sema_pop_scope(Ctx *c);
Val *sema_const_value(Ctx *c, Binding *b, Loc use);
void sema_init_builtins(Sema *s);
void sema_check_static_assert(Ctx *c, AstNode *sa);

/* expr.c */
Val *sema_expr(Ctx *c, AstNode *e);
Val *sema_expr_static(Ctx *c, AstNode *e, const char *what);
Val *sema_binary_values(Ctx *c, AstOp op, Val *x, Val *y, Loc loc);
Val *sema_unary_value(Ctx *c, AstOp op, Val *x, Loc loc);
/* Ptr p moved by k elements of its own type and viewed as Ptr type t. */
Val *sema_ptr_view(Ctx *c, Val *p, Val *k, const Type *t, Loc loc);
const Type *sema_type_expr(Ctx *c, AstNode *e);
bool sema_static_int(Ctx *c, AstNode *e, const char *what, int64_t *out);

/* convert.c */
Val *val_runtime(Ctx *c, const Type *t, FxInst *ir, Loc loc);
FxInst *sema_materialize(Ctx *c, Val *v);
Val *sema_convert(Ctx *c, Val *v, const Type *to, FfRound rm, bool explicit_rm, Loc loc);
void sema_advise_wide_literal(Ctx *c, AstNode *e, const Type *to);
Val *sema_assign_convert_expr(Ctx *c, Val *v, const Type *to, AstNode *e);
Val *sema_assign_convert(Ctx *c, Val *v, const Type *to, Loc loc);
Val *sema_literal_as(Ctx *c, Val *lit, ScalarId to, Loc loc);
ScalarId sema_literal_type(Ctx *c, Val *lit, bool *ok);
bool sema_is_numeric(const Val *v);
bool sema_reject_narrow(Ctx *c, const Val *v, const char *what);
FxInst *sema_emit(Ctx *c, FxOpcode op, int sub, const Type *t, Loc loc, int nops, ...);
/* The builder at the end of the current block, giving new instructions `loc`. */
FxBuilder *sema_builder(Ctx *c, Loc loc);
const Type *sema_vector_of(const Type *shape, ScalarId s);
Val *sema_splat(Ctx *c, Val *v, const Type *vt, Loc loc);
void sema_fold_error(Ctx *c, FxFoldStatus st, Loc loc);

/* builtins.c */
Val *sema_call(Ctx *c, AstNode *call);
/* The type a choice between numbers takes (`.select`, `a if c else b`):
 * the common scalar of their elements, in the vector shape if any. */
bool sema_choice_type(Ctx *c, Val **vals, int n, const char *what, const Type **out);
Val *sema_attr(Ctx *c, AstNode *e);

/* debug.c: fx.printf and fx.assert on evaluated arguments */
Val *sema_debug_printf(Ctx *c, Val **args, int nargs, Loc loc);
Val *sema_debug_assert(Ctx *c, Val **args, int nargs, Loc loc);
Val *sema_debug_void(Ctx *c, Loc loc);
Val *sema_fastmath_spec(Ctx *c, Val *v, Loc loc, bool *ok);

/* stmt.c */
void sema_block(Ctx *c, AstNode *block);
FxFunc *sema_lower_fn(Sema *s, Binding *b);
FxFunc *sema_lower_kernel(Sema *s, Binding *b);

/* program.c */
FxProgram *sema_lower_program(Sema *s, Binding *b);

#define VOID_TYPE type_simple(TY_VOID)

#endif
