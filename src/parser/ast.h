/* ast.h - the syntax tree produced by the parser and consumed by sema.
 *
 * One fat node struct with a kind enum (chibicc style). Types are written as
 * expressions (`Ptr[Float32]` is an AST_INDEX of the name Ptr) and interpreted
 * by sema, so `const T = Float32` and `-D T=BFloat16` need nothing special. */
#ifndef FX_AST_H
#define FX_AST_H
#include <stdbool.h>
#include <stdio.h>
#include "support/arena.h"
#include "support/diag.h"

typedef enum {
    /* ---- expressions ---- */
    AST_INT,        /* text: literal digits as written (base prefix kept, '_' removed) */
    AST_FLOAT,      /* text: literal as written ('_' removed); fval: strtod value */
    AST_BOOL,       /* bval */
    AST_STRING,     /* text: the decoded string contents */
    AST_NAME,       /* name */
    AST_BINARY,     /* op, a (lhs), b (rhs); includes comparisons and `and`/`or` */
    AST_UNARY,      /* op (OP_NEG, OP_POS, OP_INVERT, OP_NOT), a */
    AST_IFEXP,      /* a if b else c: only the arm b chooses is evaluated; op_loc: the 'if' */
    AST_CALL,       /* a (callee), list (arguments; keyword arguments are AST_KWARG) */
    AST_KWARG,      /* name = a; only inside AST_CALL.list */
    AST_ATTR,       /* a.name */
    AST_INDEX,      /* a[list...] (one or more subscripts) */
    AST_TUPLE,      /* (list...) — `(a, b)`, `(a,)`, `()` */
    AST_LIST,       /* [list...] */
    AST_SET,        /* {list...} — only meaningful for fast-math flag sets */
    /* ---- statements ---- */
    AST_BLOCK,      /* list: statements */
    AST_LET,        /* let name[: a] = b; or let (names...) = b with names in list2 (AST_NAME nodes) */
    AST_VAR,        /* var name[: a] [= b] */
    AST_SHARED,     /* shared name: a */
    AST_ASSIGN,     /* a (target) op= b; op == OP_NONE for plain `=` */
    AST_EXPR_STMT,  /* a */
    AST_IF,         /* if a { b } else c   (c: AST_BLOCK, AST_IF, or NULL) */
    AST_FOR,        /* for name in a { b }   (a: the iterable, e.g. a call of range/static_range) */
    AST_WHILE,      /* while a { b } */
    AST_BREAK,
    AST_CONTINUE,
    AST_RETURN,     /* return [a] */
    AST_WITH,       /* with a { b } */
    AST_STATIC_ASSERT, /* static_assert(a[, b]) — statement or top-level item */
    /* ---- top-level items ---- */
    AST_IMPORT,     /* import "text" */
    AST_CONST,      /* const name[: a] = b */
    AST_FN,         /* fn name(list: AST_PARAM...) [-> a] { b }; list2: decorators */
    AST_KERNEL,     /* kernel name(list) { b }; list2: decorators */
    AST_PROGRAM,    /* program name(list) { b }; list2: decorators */
    AST_PARAM,      /* name: a (type expression); flag: declared `const`;
                       bval: declared `shared` (a shared array, by reference) */
    AST_DECORATOR,  /* @name or @name(list...) ; flag: had parentheses */
    AST_MODULE,     /* list: items of one file (imports are resolved by sema/driver) */
    AST_KIND_COUNT
} AstKind;

typedef enum {
    OP_NONE,
    /* arithmetic */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FLOORDIV, OP_MOD, OP_POW, OP_MATMUL,
    /* bitwise and shifts */
    OP_SHL, OP_SHR, OP_BITAND, OP_BITOR, OP_BITXOR,
    /* comparisons (non-associative) */
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
    /* boolean */
    OP_AND, OP_OR, OP_NOT,
    /* unary */
    OP_NEG, OP_POS, OP_INVERT,
    OP_COUNT
} AstOp;

typedef struct AstNode AstNode;
typedef struct {
    AstNode **items;
    int len, cap;
} AstList;

struct AstNode {
    AstKind kind;
    Loc loc;            /* the whole construct's source range */
    AstOp op;
    const char *name;
    const char *text;
    double fval;
    bool bval;
    bool flag;
    bool parenthesized; /* expression was written inside ( ) */
    AstNode *a, *b, *c;
    AstList list;
    AstList list2;
    /* ---- added by the parser (fields above keep their meaning) ---- */
    Loc op_loc;         /* AST_BINARY, AST_UNARY, AST_ASSIGN: the operator token;
                           AST_CALL, AST_INDEX: the '(' or '['; AST_ATTR: the '.' */
    Loc name_loc;       /* the name token of AST_ATTR, AST_KWARG, AST_LET (the
                           parenthesized name list for `let (q, r)`), AST_VAR,
                           AST_SHARED, AST_FOR, AST_CONST, AST_FN, AST_KERNEL,
                           AST_PROGRAM, AST_PARAM, AST_DECORATOR */
    int depth;          /* expression subtree height (1 for leaves); the parser
                           rejects trees deeper than 1000 so recursive passes
                           cannot overflow the stack */
};

AstNode *ast_new(Arena *arena, AstKind kind, Loc loc);
void ast_push(Arena *arena, AstList *list, AstNode *item);
const char *ast_kind_name(AstKind kind);
const char *ast_op_text(AstOp op);  /* "+", "//", "<<=" is not an op: compound ops use the plain op */
/* Stable, readable, indented dump (fxcc --emit-ast). */
void ast_dump(FILE *out, const AstNode *node);

/* Parse one source file. Returns the AST_MODULE, or NULL after reporting
 * syntax errors through diag_error (at least one error is reported then). */
AstNode *parse_file(Arena *arena, const SrcFile *file);
/* Parse a single expression (fxcc --eval, -D NAME=VALUE, fxrun arguments).
 * Returns NULL after reporting an error. */
AstNode *parse_expression(Arena *arena, const SrcFile *file);

#endif
