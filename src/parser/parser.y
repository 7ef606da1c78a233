/* parser.y - the .fx grammar: a pure, reentrant bison parser that builds AstNodes.
 *
 * The scanner (src/lexer/lexer.l) hands us tokens with Loc ranges. Each rule
 * carries its grammar in a comment; precedence is spelled out as one
 * nonterminal per level (Python's table, spec §3.4) instead of %left/%right, so
 * the grammar reads top to bottom and `%expect 0` holds.
 *
 * Layout rules (spec §1):
 *   - A newline or ';' ends a statement. The scanner drops newlines inside
 *     ( ), [ ] and set braces, and collapses runs of blank/comment lines into
 *     one NEWLINE token.
 *   - `else` may sit on the line after the closing '}' (C/Java habit) as well
 *     as on the same line (`} else {`). This is the only place a newline is not
 *     a separator: the scanner suppresses a NEWLINE whose next significant
 *     token is `else`. `else` can never start a statement, so this removes no
 *     meaning from the language and keeps `}\nelse {` from being the
 *     surprising error it is in Go.
 *   - The '{' of a block must be on the same line as its header (`if c {`),
 *     as in Go; a '{' on the next line gets a dedicated hint.
 *   - A '{' is a block opener when the previous token ends an expression
 *     (a name, literal, ')' ']' '}') or is `else` or `->`; elsewhere it opens a
 *     set literal and is returned as LSET. Sets appear in expression position
 *     only (`fx.fastmath({fx.FastMathFlags.nnan, ...})`).
 *
 * Errors: we stop at the first syntax error (one good message beats ten
 * cascades). parse_error() (bison's yyerror) only remembers bison's detailed
 * message; the error productions below then get a chance to say what is
 * probably wrong ("expected '{' after 'if' condition", "did you mean '=='?"),
 * but only when bison's error token sits exactly on the offending token (see
 * ERROR_HERE); otherwise parse_report_pending() rewrites the detailed message
 * into friendlier text. Default reductions (the LALR default, no LAC) let the
 * parser reduce as far as it can before detecting an error, which is what
 * makes those anchored error productions fire in the state we want. */

%code top {
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
}

%code requires {
#include "parser/ast.h"

/* What the scanner remembers about an open bracket. kind is '(', '[', '{'
 * (a block) or 's' (a set literal's '{'). */
typedef struct LexBracket {
    char kind;
    Loc loc;
    long offset;   /* byte offset of the bracket in the source */
    int indent;    /* indentation of the line holding it (blocks only) */
} LexBracket;

enum { PARSE_MODE_FILE, PARSE_MODE_EXPR };

/* All state of one parse: shared by the scanner (lexer.l), the parser
 * (parser.y) and the driver functions in ast.c. */
typedef struct ParseCtx {
    Arena *arena;
    const SrcFile *file;
    int mode;                 /* PARSE_MODE_FILE or PARSE_MODE_EXPR */
    void *scanner;            /* flex's yyscan_t */
    AstNode *result;

    /* ---- scanner state (owned by lexer.l) ---- */
    long offset;              /* byte offset of the next character */
    long tok_off;             /* byte offset of the current token */
    int line, col;            /* position of the next character */
    int last_tok;             /* last token returned, 0 before the first */
    Loc last_end;             /* location of the last non-NEWLINE token */
    long line_off;            /* byte offset where the current line starts */
    int indent_line, indent;  /* cached indentation of line indent_line */
    long indent_end;          /* offset of that line's first non-blank byte */
    long layout_end;          /* the last look-ahead over blank lines ended here, */
    bool layout_else;         /* ... at an `else` */
    LexBracket *brackets;     /* open brackets, innermost last (malloc'd) */
    int nbrackets, cap_brackets;
    bool have_suspect;        /* a block '{' closed by a mis-indented '}' */
    LexBracket suspect;
    char lex_text[48];        /* text of the token just scanned (truncated) */

    /* ---- token history (parse_lex) ---- */
    bool started;             /* the START_* token has been delivered */
    int tok, prev_tok;        /* the lookahead and the token before it */
    Loc tok_loc, prev_loc;
    char tok_text[48], prev_text[48];

    /* ---- errors ---- */
    bool error_reported;      /* a located error was printed: stay quiet */
    bool pending;             /* bison reported a syntax error not yet printed */
    bool exhausted;           /* bison ran out of stack */
    char pending_msg[512];
    Loc err_loc;              /* the lookahead at the syntax error */
    Loc err_prev_loc;         /* the token before it */
    int err_tok, err_prev_tok;
    char err_text[48], err_prev_text[48];
} ParseCtx;
}

%code provides {
/* Scanner entry points (lexer.l). */
int lex_begin(ParseCtx *ctx);       /* 0 on success */
void lex_end(ParseCtx *ctx);
int lex_scan(PARSE_STYPE *lval, Loc *lloc, void *scanner);
/* First significant character after the current token (skipping blanks,
 * newlines and comments), or -1 at the end of the input. */
int lex_peek_char(const ParseCtx *ctx);
/* The n-th innermost open bracket (0 = innermost), or NULL. */
const LexBracket *lex_open_bracket(const ParseCtx *ctx, int n);

/* Parser side. */
int parse_lex(PARSE_STYPE *lval, Loc *lloc, ParseCtx *ctx);
void parse_error(Loc *lloc, ParseCtx *ctx, const char *msg);
/* Print the syntax error bison detected, unless something better was
 * already printed. Called by the driver when parse_parse fails. */
void parse_report_pending(ParseCtx *ctx);
}

%define api.pure full
%define api.prefix {parse_}
%define api.token.prefix {TOK_}
%define api.location.type {Loc}
%define parse.error detailed
%locations
%expect 0
%parse-param {ParseCtx *ctx}
%lex-param {ParseCtx *ctx}

%initial-action {
    @$ = (Loc){ ctx->file, 1, 1, 1, 1 };
}

%union {
    AstNode *node;
    AstList list;
    const char *str;
    AstOp op;
    AstKind kind;
}

%code {
/* Location of a rule: from its first to its last symbol; an empty rule sits
 * at the end of the symbol before it. */
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                   \
    do {                                                              \
        if (N) {                                                      \
            (Cur) = loc_span(YYRHSLOC(Rhs, 1), YYRHSLOC(Rhs, N));     \
        } else {                                                      \
            (Cur) = YYRHSLOC(Rhs, 0);                                 \
            (Cur).line = (Cur).end_line;                              \
            (Cur).col = (Cur).end_col;                                \
        }                                                             \
    } while (0)

/* Deeper expression trees than this are rejected, so no later (recursive)
 * stage can run out of stack on generated or hostile input. */
enum { PARSE_MAX_DEPTH = 1000 };

static void parse_fail(ParseCtx *ctx, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static bool error_here(ParseCtx *ctx, Loc err);
static const char *found(ParseCtx *ctx);
static AstNode *mk(ParseCtx *ctx, AstKind kind, Loc loc);
static AstNode *mk_binary(ParseCtx *ctx, AstOp op, AstNode *a, AstNode *b, Loc op_loc);
static AstNode *mk_unary(ParseCtx *ctx, AstOp op, AstNode *a, Loc op_loc);
static AstNode *mk_seq(ParseCtx *ctx, AstKind kind, Loc loc, AstList list);
static bool check_depth(ParseCtx *ctx, AstNode *n);
static bool check_target(ParseCtx *ctx, AstNode *target, Loc op_loc, const char *op);
static bool push_arg(ParseCtx *ctx, AstList *list, AstNode *arg);
static void block_brace_error(ParseCtx *ctx, const char *what);
static const char *kind_word(AstKind k);
static bool is_elif(const ParseCtx *ctx);

#define A (ctx->arena)
/* Report a located error and stop parsing. */
#define FAIL(loc, ...) do { parse_fail(ctx, (loc), __VA_ARGS__); YYABORT; } while (0)
/* In an error production: go on only if bison's error token starts exactly
 * at the offending lookahead, i.e. the error was detected in this very
 * state. Otherwise the real error is further right (bison popped states to
 * get here) and the generic message describes it better. */
#define ERROR_HERE(err)                                               \
    do {                                                              \
        if (ctx->error_reported)                                      \
            YYABORT;                                                  \
        if (!error_here(ctx, (err)) ||                                \
            (ctx->err_tok == TOK_END && lex_open_bracket(ctx, 0)) ||  \
            is_elif(ctx)) {                                           \
            parse_report_pending(ctx);                                \
            YYABORT;                                                  \
        }                                                             \
    } while (0)
#define LA (ctx->err_tok)   /* the offending lookahead token */
#define IS_END_OF_STMT(t) ((t) == TOK_NEWLINE || (t) == ';' || (t) == '}' || (t) == TOK_END)
#define CHECK(n) do { if (!check_depth(ctx, (n))) YYABORT; } while (0)
}

%token END 0 "end of file"
%token START_FILE "start of file" START_EXPR "start of expression"
%token NEWLINE "end of line"
%token <str> NAME "a name" INT "an integer" FLOAT "a float" STRING "a string"
/* Keywords, KERNEL through FALSE: keep them contiguous, is_keyword() and the
 * "a keyword cannot be a name" hints test the range. */
%token KERNEL "'kernel'" FN "'fn'" PROGRAM "'program'" CONST "'const'" LET "'let'"
%token VAR "'var'" SHARED "'shared'" IF "'if'" ELSE "'else'" FOR "'for'" IN "'in'"
%token WHILE "'while'" BREAK "'break'" CONTINUE "'continue'" RETURN "'return'"
%token WITH "'with'" IMPORT "'import'" STATIC_ASSERT "'static_assert'"
%token AND "'and'" OR "'or'" NOT "'not'" TRUE "'True'" FALSE "'False'"
%token POW "'**'" FLOORDIV "'//'" SHL "'<<'" SHR "'>>'"
%token LE "'<='" GE "'>='" EQ "'=='" NE "'!='" ARROW "'->'"
%token LSET "'{' of a set"
%token <op> AUGASSIGN "a compound assignment"
%token LEX_ERROR "an invalid token"

%type <node> item import_item const_item func_item decorator static_assert
%type <node> block stmt if_stmt else_opt
%type <node> expr or_expr and_expr not_expr comparison bitor bitxor bitand shift
%type <node> arith term factor power postfix primary arg param ret_opt expr_input
%type <list> module item_lines stmts stmt_lines params param_list args arg_list expr_list
%type <list> name_list decorators_opt decorator_list
%type <op> cmp_op
%type <kind> func_kw

%start start

%%

/* start = START_FILE module | START_EXPR expr_input
 * (parse_lex delivers the START_* token that selects the mode) */
start
    : START_FILE module {
          ctx->result = mk_seq(ctx, AST_MODULE, (Loc){ ctx->file, 1, 1, 1, 1 }, $2);
      }
    | START_EXPR expr_input { ctx->result = $2; }
    ;

/* expr_input = expr NEWLINE?            (fxcc --eval, -D NAME=VALUE) */
expr_input
    : expr          { $$ = $1; }
    | expr NEWLINE  { $$ = $1; }
    | error {
          ERROR_HERE(@1);
          FAIL(ctx->err_loc, "expected an expression, found %s", found(ctx));
      }
    | expr error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected the end of the expression, found %s", found(ctx));
      }
    ;

/* ---------------------------------------------------------------- items */

/* module     = item_lines item?
 * item_lines = (sep | item sep)*     items are separated by newlines or ';' */
module
    : item_lines       { $$ = $1; }
    | item_lines item  { $$ = $1; ast_push(A, &$$, $2); }
    ;

item_lines
    : %empty                 { $$ = (AstList){ 0 }; }
    | item_lines sep         { $$ = $1; }
    | item_lines item sep    { $$ = $1; ast_push(A, &$$, $2); }
    ;

sep : NEWLINE | ';' ;

/* item = import_item | const_item | func_item | static_assert */
item
    : import_item
    | const_item
    | func_item
    | static_assert
    ;

/* import_item = "import" STRING */
import_item
    : IMPORT STRING {
          $$ = mk(ctx, AST_IMPORT, @$);
          $$->text = $2;
      }
    | IMPORT error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a file name string after 'import' "
               "(e.g. import \"common.fx\"), found %s", found(ctx));
      }
    ;

/* const_item = "const" NAME (":" expr)? "=" expr */
const_item
    : CONST NAME '=' expr {
          $$ = mk(ctx, AST_CONST, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->b = $4;
      }
    | CONST NAME ':' expr '=' expr {
          $$ = mk(ctx, AST_CONST, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->a = $4;
          $$->b = $6;
      }
    | CONST error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a name after 'const', found %s", found(ctx));
      }
    | CONST NAME error {
          ERROR_HERE(@3);
          if (IS_END_OF_STMT(LA))
              FAIL(ctx->err_loc, "'const %s' needs a value: write `const %s = value`", $2, $2);
          FAIL(ctx->err_loc, "expected '=' or ':' after 'const %s', found %s", $2, found(ctx));
      }
    | CONST NAME ':' expr error {
          ERROR_HERE(@5);
          if (IS_END_OF_STMT(LA))
              FAIL(ctx->err_loc, "'const %s' needs a value: write `const %s: T = value`", $2, $2);
          FAIL(ctx->err_loc, "expected '=' after the type of 'const %s', found %s", $2, found(ctx));
      }
    ;

/* func_item = decorator* ("fn" | "kernel" | "program") NAME "(" params ")" ("->" expr)? block
 * Only a fn may declare a return type. */
func_item
    : decorators_opt func_kw NAME '(' params ')' ret_opt block {
          if ($7 && $2 != AST_FN)
              FAIL(@7, "a %s cannot return a value; only a 'fn' has a '-> Type'", kind_word($2));
          $$ = mk(ctx, $2, loc_span(@2, @8));
          $$->name = $3;
          $$->name_loc = @3;
          $$->list = $5;
          $$->a = $7;
          $$->b = $8;
          $$->list2 = $1;
      }
    | decorators_opt error {
          ERROR_HERE(@2);
          if ($1.len > 0)
              FAIL(ctx->err_loc, "expected 'fn', 'kernel' or 'program' after the decorator, found %s",
                   found(ctx));
          if (LA == TOK_LET || LA == TOK_VAR || LA == TOK_SHARED || LA == TOK_IF ||
              LA == TOK_FOR || LA == TOK_WHILE || LA == TOK_RETURN || LA == TOK_WITH ||
              LA == TOK_BREAK || LA == TOK_CONTINUE)
              FAIL(ctx->err_loc, "expected a declaration ('fn', 'kernel', 'program', 'const', "
                   "'import' or 'static_assert'), found %s; statements belong inside a "
                   "function body", found(ctx));
          if (LA == TOK_NAME && (!strcmp(ctx->err_text, "def") || !strcmp(ctx->err_text, "func") ||
                                 !strcmp(ctx->err_text, "function")))
              FAIL(ctx->err_loc, "'%s' is not a keyword; functions are declared with 'fn'",
                   ctx->err_text);
          FAIL(ctx->err_loc, "expected a declaration ('fn', 'kernel', 'program', 'const', "
               "'import' or 'static_assert'), found %s", found(ctx));
      }
    | decorators_opt func_kw error {
          ERROR_HERE(@3);
          FAIL(ctx->err_loc, "expected a name after '%s', found %s%s", kind_word($2), found(ctx),
               LA == TOK_NAME ? "" : (LA >= TOK_KERNEL && LA <= TOK_FALSE ? " (a keyword cannot be a name)" : ""));
      }
    | decorators_opt func_kw NAME error {
          ERROR_HERE(@4);
          FAIL(ctx->err_loc, "expected '(' after '%s %s', found %s", kind_word($2), $3, found(ctx));
      }
    | decorators_opt func_kw NAME '(' error {
          ERROR_HERE(@5);
          FAIL(ctx->err_loc, "expected a parameter name or ')', found %s", found(ctx));
      }
    | decorators_opt func_kw NAME '(' param_list ',' error {
          ERROR_HERE(@7);
          FAIL(ctx->err_loc, "expected a parameter name or ')', found %s", found(ctx));
      }
    | decorators_opt func_kw NAME '(' params ')' ret_opt error {
          ERROR_HERE(@8);
          if (LA == TOK_ARROW && $2 != AST_FN)
              FAIL(ctx->err_loc, "a %s cannot return a value; only a 'fn' has a '-> Type'", kind_word($2));
          if (LA == TOK_NEWLINE && lex_peek_char(ctx) == '{')
              FAIL(ctx->err_loc, "the '{' that starts the body of '%s' must be on the same line "
                   "as its parameters", $3);
          if ($7 || $2 != AST_FN)
              FAIL(ctx->err_loc, "expected '{' to start the body of '%s', found %s", $3, found(ctx));
          FAIL(ctx->err_loc, "expected '->' or '{' after the parameters of '%s', found %s", $3,
               found(ctx));
      }
    ;

func_kw
    : FN       { $$ = AST_FN; }
    | KERNEL   { $$ = AST_KERNEL; }
    | PROGRAM  { $$ = AST_PROGRAM; }
    ;

/* ret_opt = ("->" expr)? */
ret_opt
    : %empty      { $$ = NULL; }
    | ARROW expr  { $$ = $2; }
    | ARROW error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a return type after '->', found %s", found(ctx));
      }
    ;

/* decorators_opt = (decorator NEWLINE?)* */
decorators_opt
    : %empty          { $$ = (AstList){ 0 }; }
    | decorator_list  { $$ = $1; }
    ;

decorator_list
    : decorator                          { $$ = (AstList){ 0 }; ast_push(A, &$$, $1); }
    | decorator NEWLINE                  { $$ = (AstList){ 0 }; ast_push(A, &$$, $1); }
    | decorator_list decorator           { $$ = $1; ast_push(A, &$$, $2); }
    | decorator_list decorator NEWLINE   { $$ = $1; ast_push(A, &$$, $2); }
    ;

/* decorator = "@" NAME ("(" args ")")? */
decorator
    : '@' NAME {
          $$ = mk(ctx, AST_DECORATOR, @$);
          $$->name = $2;
          $$->name_loc = @2;
      }
    | '@' NAME '(' args ')' {
          $$ = mk(ctx, AST_DECORATOR, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->list = $4;
          $$->flag = true;
      }
    | '@' error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a decorator name after '@', found %s", found(ctx));
      }
    ;

/* params = (param ("," param)* ","?)? */
params
    : %empty              { $$ = (AstList){ 0 }; }
    | param_list          { $$ = $1; }
    | param_list ','      { $$ = $1; }
    ;

param_list
    : param                 { $$ = (AstList){ 0 }; ast_push(A, &$$, $1); }
    | param_list ',' param  { $$ = $1; ast_push(A, &$$, $3); }
    ;

/* param = "shared"? NAME ":" "const"? expr */
param
    : NAME ':' expr {
          $$ = mk(ctx, AST_PARAM, @$);
          $$->name = $1;
          $$->name_loc = @1;
          $$->a = $3;
      }
    | SHARED NAME ':' expr {
          $$ = mk(ctx, AST_PARAM, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->a = $4;
          $$->bval = true;
      }
    | SHARED error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a parameter name after 'shared', found %s", found(ctx));
      }
    | NAME ':' CONST expr {
          $$ = mk(ctx, AST_PARAM, @$);
          $$->name = $1;
          $$->name_loc = @1;
          $$->a = $4;
          $$->flag = true;
      }
    | NAME error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected ':' and a type after parameter '%s', found %s", $1, found(ctx));
      }
    | NAME ':' error {
          ERROR_HERE(@3);
          FAIL(ctx->err_loc, "expected the type of parameter '%s', found %s", $1, found(ctx));
      }
    ;

/* static_assert = "static_assert" "(" expr ("," expr)? ","? ")"
 * (a statement and a top-level item) */
static_assert
    : STATIC_ASSERT '(' expr ')' {
          $$ = mk(ctx, AST_STATIC_ASSERT, @$);
          $$->a = $3;
      }
    | STATIC_ASSERT '(' expr ',' ')' {
          $$ = mk(ctx, AST_STATIC_ASSERT, @$);
          $$->a = $3;
      }
    | STATIC_ASSERT '(' expr ',' expr ')' {
          $$ = mk(ctx, AST_STATIC_ASSERT, @$);
          $$->a = $3;
          $$->b = $5;
      }
    | STATIC_ASSERT '(' expr ',' expr ',' ')' {
          $$ = mk(ctx, AST_STATIC_ASSERT, @$);
          $$->a = $3;
          $$->b = $5;
      }
    | STATIC_ASSERT error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected '(' after 'static_assert', found %s", found(ctx));
      }
    ;

/* ----------------------------------------------------------- statements */

/* block      = "{" stmt_lines stmt? "}"
 * stmt_lines = (sep | stmt sep)*     a '}' may also end the last statement */
block
    : '{' stmts '}' { $$ = mk_seq(ctx, AST_BLOCK, @$, $2); }
    | '{' stmts error {
          ERROR_HERE(@3);
          if (LA == TOK_ELSE)
              FAIL(ctx->err_loc, "unexpected 'else': it must follow the '}' that closes an 'if' block");
          int p = ctx->err_prev_tok;
          if (p != TOK_NEWLINE && p != ';' && p != '{')
              FAIL(ctx->err_loc, "expected end of line or ';' after the statement, found %s", found(ctx));
          FAIL(ctx->err_loc, "expected a statement or '}', found %s", found(ctx));
      }
    ;

stmts
    : stmt_lines       { $$ = $1; }
    | stmt_lines stmt  { $$ = $1; ast_push(A, &$$, $2); }
    ;

stmt_lines
    : %empty                { $$ = (AstList){ 0 }; }
    | stmt_lines sep        { $$ = $1; }
    | stmt_lines stmt sep   { $$ = $1; ast_push(A, &$$, $2); }
    ;

stmt
    /* "let" NAME (":" expr)? "=" expr */
    : LET NAME '=' expr {
          $$ = mk(ctx, AST_LET, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->b = $4;
      }
    | LET NAME ':' expr '=' expr {
          $$ = mk(ctx, AST_LET, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->a = $4;
          $$->b = $6;
      }
    /* "let" "(" NAME ("," NAME)* ","? ")" "=" expr */
    | LET '(' name_list ')' '=' expr {
          $$ = mk(ctx, AST_LET, @$);
          $$->list2 = $3;
          $$->name_loc = @3;
          $$->b = $6;
      }
    | LET '(' name_list ',' ')' '=' expr {
          $$ = mk(ctx, AST_LET, @$);
          $$->list2 = $3;
          $$->name_loc = @3;
          $$->b = $7;
      }
    | LET error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a name or '(' after 'let', found %s%s", found(ctx),
               LA >= TOK_KERNEL && LA <= TOK_FALSE ? " (a keyword cannot be a name)" : "");
      }
    | LET NAME error {
          ERROR_HERE(@3);
          if (IS_END_OF_STMT(LA))
              FAIL(ctx->err_loc, "'let %s' needs an initializer: write `let %s = value` "
                   "(use `var %s: Type` for a variable without one)", $2, $2, $2);
          if (LA == TOK_EQ)
              FAIL(ctx->err_loc, "expected '=' after 'let %s', found '=='", $2);
          FAIL(ctx->err_loc, "expected '=' or ':' after 'let %s', found %s", $2, found(ctx));
      }
    | LET NAME ':' expr error {
          ERROR_HERE(@5);
          if (IS_END_OF_STMT(LA))
              FAIL(ctx->err_loc, "'let %s' needs an initializer: write `let %s: T = value` "
                   "(use `var %s: T` for a variable without one)", $2, $2, $2);
          FAIL(ctx->err_loc, "expected '=' after the type of 'let %s', found %s", $2, found(ctx));
      }
    | LET '(' error {
          ERROR_HERE(@3);
          FAIL(ctx->err_loc, "expected a name to bind in 'let (...)', found %s", found(ctx));
      }
    | LET '(' name_list error {
          ERROR_HERE(@4);
          FAIL(ctx->err_loc, "expected ',' or ')' in 'let (...)', found %s (only names can be bound)",
               found(ctx));
      }
    | LET '(' name_list ')' error {
          ERROR_HERE(@5);
          FAIL(ctx->err_loc, "expected '=' after 'let (...)', found %s", found(ctx));
      }
    | LET '(' name_list ',' ')' error {
          ERROR_HERE(@6);
          FAIL(ctx->err_loc, "expected '=' after 'let (...)', found %s", found(ctx));
      }
    /* "var" NAME ":" expr ("=" expr)?  |  "var" NAME "=" expr */
    | VAR NAME ':' expr {
          $$ = mk(ctx, AST_VAR, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->a = $4;
      }
    | VAR NAME ':' expr '=' expr {
          $$ = mk(ctx, AST_VAR, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->a = $4;
          $$->b = $6;
      }
    | VAR NAME '=' expr {
          $$ = mk(ctx, AST_VAR, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->b = $4;
      }
    | VAR error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a name after 'var', found %s%s", found(ctx),
               LA >= TOK_KERNEL && LA <= TOK_FALSE ? " (a keyword cannot be a name)" : "");
      }
    | VAR NAME error {
          ERROR_HERE(@3);
          if (IS_END_OF_STMT(LA))
              FAIL(ctx->err_loc, "'var %s' needs a type or an initializer: write `var %s: Type` "
                   "or `var %s = value`", $2, $2, $2);
          FAIL(ctx->err_loc, "expected ':' or '=' after 'var %s', found %s", $2, found(ctx));
      }
    | VAR NAME ':' error {
          ERROR_HERE(@4);
          FAIL(ctx->err_loc, "expected the type of 'var %s', found %s", $2, found(ctx));
      }
    /* "shared" NAME ":" expr       (never initialized) */
    | SHARED NAME ':' expr {
          $$ = mk(ctx, AST_SHARED, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->a = $4;
      }
    | SHARED NAME ':' expr '=' expr {
          FAIL(@5, "a 'shared' array cannot have an initializer (workgroup memory starts "
               "uninitialized); store its elements in the kernel body");
      }
    | SHARED error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a name after 'shared', found %s", found(ctx));
      }
    | SHARED NAME error {
          ERROR_HERE(@3);
          FAIL(ctx->err_loc, "expected ':' and an array type after 'shared %s' "
               "(e.g. `shared %s: Array[Float32, 256]`), found %s", $2, $2, found(ctx));
      }
    | SHARED NAME ':' error {
          ERROR_HERE(@4);
          FAIL(ctx->err_loc, "expected the array type of 'shared %s', found %s", $2, found(ctx));
      }
    /* expr "=" expr  |  expr AUGASSIGN expr  |  expr */
    | expr '=' expr {
          if (!check_target(ctx, $1, @2, "="))
              YYABORT;
          $$ = mk(ctx, AST_ASSIGN, @$);
          $$->op = OP_NONE;
          $$->op_loc = @2;
          $$->a = $1;
          $$->b = $3;
      }
    | expr AUGASSIGN expr {
          if (!check_target(ctx, $1, @2, arena_printf(A, "%s=", ast_op_text($2))))
              YYABORT;
          $$ = mk(ctx, AST_ASSIGN, @$);
          $$->op = $2;
          $$->op_loc = @2;
          $$->a = $1;
          $$->b = $3;
      }
    | expr {
          $$ = mk(ctx, AST_EXPR_STMT, @$);
          $$->a = $1;
      }
    | if_stmt
    /* "for" NAME "in" expr block */
    | FOR NAME IN expr block {
          $$ = mk(ctx, AST_FOR, @$);
          $$->name = $2;
          $$->name_loc = @2;
          $$->a = $4;
          $$->b = $5;
      }
    | FOR error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a loop variable name after 'for', found %s", found(ctx));
      }
    | FOR NAME error {
          ERROR_HERE(@3);
          if (LA == ',')
              FAIL(ctx->err_loc, "a 'for' loop has exactly one loop variable; expected 'in', found ','");
          FAIL(ctx->err_loc, "expected 'in' after 'for %s' (e.g. `for %s in range(n) { }`), found %s",
               $2, $2, found(ctx));
      }
    | FOR NAME IN error {
          ERROR_HERE(@4);
          FAIL(ctx->err_loc, "expected what to iterate over after 'in' (e.g. range(n)), found %s",
               found(ctx));
      }
    | FOR NAME IN expr error {
          ERROR_HERE(@5);
          block_brace_error(ctx, "the 'for' header");
          YYABORT;
      }
    /* "while" expr block */
    | WHILE expr block {
          $$ = mk(ctx, AST_WHILE, @$);
          $$->a = $2;
          $$->b = $3;
      }
    | WHILE error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a condition after 'while', found %s", found(ctx));
      }
    | WHILE expr error {
          ERROR_HERE(@3);
          if ($2->kind == AST_SET && !$2->parenthesized)
              FAIL($2->loc, "expected a condition after 'while', found '{'");
          block_brace_error(ctx, "'while' condition");
          YYABORT;
      }
    /* "with" expr block */
    | WITH expr block {
          $$ = mk(ctx, AST_WITH, @$);
          $$->a = $2;
          $$->b = $3;
      }
    | WITH error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected an expression after 'with' (e.g. fx.fastmath(\"fast\")), found %s",
               found(ctx));
      }
    | WITH expr error {
          ERROR_HERE(@3);
          block_brace_error(ctx, "the 'with' expression");
          YYABORT;
      }
    | BREAK         { $$ = mk(ctx, AST_BREAK, @$); }
    | CONTINUE      { $$ = mk(ctx, AST_CONTINUE, @$); }
    | RETURN        { $$ = mk(ctx, AST_RETURN, @$); }
    | RETURN expr   { $$ = mk(ctx, AST_RETURN, @$); $$->a = $2; }
    | static_assert
    ;

/* if_stmt = "if" expr block ("else" (block | if_stmt))? */
if_stmt
    : IF expr block else_opt {
          $$ = mk(ctx, AST_IF, $4 ? loc_span(@1, $4->loc) : loc_span(@1, @3));
          $$->a = $2;
          $$->b = $3;
          $$->c = $4;
      }
    | IF error {
          ERROR_HERE(@2);
          FAIL(ctx->err_loc, "expected a condition after 'if', found %s", found(ctx));
      }
    | IF expr error {
          ERROR_HERE(@3);
          if ($2->kind == AST_SET && !$2->parenthesized)
              FAIL($2->loc, "expected a condition after 'if', found '{'");
          block_brace_error(ctx, "'if' condition");
          YYABORT;
      }
    ;

else_opt
    : %empty            { $$ = NULL; }
    | ELSE block        { $$ = $2; }
    | ELSE if_stmt      { $$ = $2; }
    | ELSE error {
          ERROR_HERE(@2);
          if (LA == ':')
              FAIL(ctx->err_loc, "expected '{' or 'if' after 'else', found ':' (blocks are "
                   "written in braces: `else { ... }`)");
          if (LA == TOK_NEWLINE && lex_peek_char(ctx) == '{')
              FAIL(ctx->err_loc, "expected '{' or 'if' after 'else', found end of line (the "
                   "'{' must be on the same line)");
          FAIL(ctx->err_loc, "expected '{' or 'if' after 'else', found %s", found(ctx));
      }
    ;

/* name_list = NAME ("," NAME)* */
name_list
    : NAME {
          $$ = (AstList){ 0 };
          AstNode *n = mk(ctx, AST_NAME, @1);
          n->name = $1;
          ast_push(A, &$$, n);
      }
    | name_list ',' NAME {
          $$ = $1;
          AstNode *n = mk(ctx, AST_NAME, @3);
          n->name = $3;
          ast_push(A, &$$, n);
      }
    ;

/* ---------------------------------------------------------- expressions */

/* expr = or_expr ("if" or_expr "else" expr)?
 * Python's conditional expression: `a if c else b` evaluates c, then only
 * the arm it chooses; it groups to the right (`a if c else b if d else e`). */
expr
    : or_expr
    | or_expr IF or_expr ELSE expr {
          $$ = mk(ctx, AST_IFEXP, loc_span($1->loc, $5->loc));
          $$->a = $1;
          $$->b = $3;
          $$->c = $5;
          $$->op_loc = @2;
      }
    ;

/* or_expr = and_expr ("or" and_expr)* */
or_expr
    : and_expr
    | or_expr OR and_expr { $$ = mk_binary(ctx, OP_OR, $1, $3, @2); CHECK($$); }
    ;

/* and_expr = not_expr ("and" not_expr)* */
and_expr
    : not_expr
    | and_expr AND not_expr { $$ = mk_binary(ctx, OP_AND, $1, $3, @2); CHECK($$); }
    ;

/* not_expr = "not" not_expr | comparison */
not_expr
    : comparison
    | NOT not_expr { $$ = mk_unary(ctx, OP_NOT, $2, @1); CHECK($$); }
    ;

/* comparison = bitor (cmp_op bitor)?
 * Comparisons do not associate: `a < b < c` is parsed left-assoc and then
 * rejected here, unless the left operand was parenthesized. */
comparison
    : bitor
    | comparison cmp_op bitor {
          if ($1->kind == AST_BINARY && $1->op >= OP_LT && $1->op <= OP_NE && !$1->parenthesized)
              FAIL(@2, "comparison operators cannot be chained; write `a %s b and b %s c`",
                   ast_op_text($1->op), ast_op_text($2));
          $$ = mk_binary(ctx, $2, $1, $3, @2);
          CHECK($$);
      }
    ;

cmp_op
    : '<'  { $$ = OP_LT; }
    | LE   { $$ = OP_LE; }
    | '>'  { $$ = OP_GT; }
    | GE   { $$ = OP_GE; }
    | EQ   { $$ = OP_EQ; }
    | NE   { $$ = OP_NE; }
    ;

/* bitor = bitor "|" bitxor | bitxor */
bitor
    : bitxor
    | bitor '|' bitxor { $$ = mk_binary(ctx, OP_BITOR, $1, $3, @2); CHECK($$); }
    ;

/* bitxor = bitxor "^" bitand | bitand */
bitxor
    : bitand
    | bitxor '^' bitand { $$ = mk_binary(ctx, OP_BITXOR, $1, $3, @2); CHECK($$); }
    ;

/* bitand = bitand "&" shift | shift */
bitand
    : shift
    | bitand '&' shift { $$ = mk_binary(ctx, OP_BITAND, $1, $3, @2); CHECK($$); }
    ;

/* shift = shift ("<<" | ">>") arith | arith */
shift
    : arith
    | shift SHL arith { $$ = mk_binary(ctx, OP_SHL, $1, $3, @2); CHECK($$); }
    | shift SHR arith { $$ = mk_binary(ctx, OP_SHR, $1, $3, @2); CHECK($$); }
    ;

/* arith = arith ("+" | "-") term | term */
arith
    : term
    | arith '+' term { $$ = mk_binary(ctx, OP_ADD, $1, $3, @2); CHECK($$); }
    | arith '-' term { $$ = mk_binary(ctx, OP_SUB, $1, $3, @2); CHECK($$); }
    ;

/* term = term ("*" | "/" | "//" | "%" | "@") factor | factor */
term
    : factor
    | term '*' factor      { $$ = mk_binary(ctx, OP_MUL, $1, $3, @2); CHECK($$); }
    | term '/' factor      { $$ = mk_binary(ctx, OP_DIV, $1, $3, @2); CHECK($$); }
    | term FLOORDIV factor { $$ = mk_binary(ctx, OP_FLOORDIV, $1, $3, @2); CHECK($$); }
    | term '%' factor      { $$ = mk_binary(ctx, OP_MOD, $1, $3, @2); CHECK($$); }
    | term '@' factor      { $$ = mk_binary(ctx, OP_MATMUL, $1, $3, @2); CHECK($$); }
    ;

/* factor = ("+" | "-" | "~") factor | power
 * so `-2**2` is -(2**2), as in Python */
factor
    : power
    | '-' factor { $$ = mk_unary(ctx, OP_NEG, $2, @1); CHECK($$); }
    | '+' factor { $$ = mk_unary(ctx, OP_POS, $2, @1); CHECK($$); }
    | '~' factor { $$ = mk_unary(ctx, OP_INVERT, $2, @1); CHECK($$); }
    ;

/* power = postfix ("**" factor)?
 * right-associative, and `2**-1` is 2**(-1) */
power
    : postfix
    | postfix POW factor { $$ = mk_binary(ctx, OP_POW, $1, $3, @2); CHECK($$); }
    ;

/* postfix = primary ( "(" args ")" | "[" expr_list ","? "]" | "." NAME )* */
postfix
    : primary
    | postfix '(' args ')' {
          $$ = mk(ctx, AST_CALL, @$);
          $$->a = $1;
          $$->list = $3;
          $$->op_loc = @2;
          CHECK($$);
      }
    | postfix '[' expr_list ']' {
          $$ = mk(ctx, AST_INDEX, @$);
          $$->a = $1;
          $$->list = $3;
          $$->op_loc = @2;
          CHECK($$);
      }
    | postfix '[' expr_list ',' ']' {
          $$ = mk(ctx, AST_INDEX, @$);
          $$->a = $1;
          $$->list = $3;
          $$->op_loc = @2;
          CHECK($$);
      }
    | postfix '.' NAME {
          $$ = mk(ctx, AST_ATTR, @$);
          $$->a = $1;
          $$->name = $3;
          $$->name_loc = @3;
          $$->op_loc = @2;
          CHECK($$);
      }
    | postfix '.' error {
          ERROR_HERE(@3);
          FAIL(ctx->err_loc, "expected an attribute name after '.', found %s", found(ctx));
      }
    ;

/* args = (arg ("," arg)* ","?)?
 * arg  = expr | NAME "=" expr          (keyword arguments come last) */
args
    : %empty           { $$ = (AstList){ 0 }; }
    | arg_list         { $$ = $1; }
    | arg_list ','     { $$ = $1; }
    ;

arg_list
    : arg {
          $$ = (AstList){ 0 };
          if (!push_arg(ctx, &$$, $1))
              YYABORT;
      }
    | arg_list ',' arg {
          $$ = $1;
          if (!push_arg(ctx, &$$, $3))
              YYABORT;
      }
    ;

arg
    : expr
    | NAME '=' expr {
          $$ = mk(ctx, AST_KWARG, @$);
          $$->name = $1;
          $$->name_loc = @1;
          $$->a = $3;
          CHECK($$);
      }
    ;

/* expr_list = expr ("," expr)* */
expr_list
    : expr                { $$ = (AstList){ 0 }; ast_push(A, &$$, $1); }
    | expr_list ',' expr  { $$ = $1; ast_push(A, &$$, $3); }
    ;

/* primary = NAME | INT | FLOAT | STRING | "True" | "False"
 *         | "(" expr ")" | "(" ")" | "(" expr "," (expr_list ","?)? ")"
 *         | "[" (expr_list ","?)? "]" | "{" (expr_list ","?)? "}" */
primary
    : NAME    { $$ = mk(ctx, AST_NAME, @$); $$->name = $1; }
    | INT     { $$ = mk(ctx, AST_INT, @$); $$->text = $1; }
    | FLOAT   { $$ = mk(ctx, AST_FLOAT, @$); $$->text = $1; $$->fval = strtod($1, NULL); }
    | STRING  { $$ = mk(ctx, AST_STRING, @$); $$->text = $1; }
    | TRUE    { $$ = mk(ctx, AST_BOOL, @$); $$->bval = true; }
    | FALSE   { $$ = mk(ctx, AST_BOOL, @$); $$->bval = false; }
    | '(' expr ')' {
          $$ = $2;
          $$->parenthesized = true;
      }
    | '(' ')' { $$ = mk(ctx, AST_TUPLE, @$); }
    | '(' expr ',' ')' {
          $$ = mk(ctx, AST_TUPLE, @$);
          ast_push(A, &$$->list, $2);
          CHECK($$);
      }
    | '(' expr ',' expr_list ')' {
          $$ = mk(ctx, AST_TUPLE, @$);
          ast_push(A, &$$->list, $2);
          for (int i = 0; i < $4.len; i++)
              ast_push(A, &$$->list, $4.items[i]);
          CHECK($$);
      }
    | '(' expr ',' expr_list ',' ')' {
          $$ = mk(ctx, AST_TUPLE, @$);
          ast_push(A, &$$->list, $2);
          for (int i = 0; i < $4.len; i++)
              ast_push(A, &$$->list, $4.items[i]);
          CHECK($$);
      }
    | '[' ']'                   { $$ = mk(ctx, AST_LIST, @$); }
    | '[' expr_list ']'         { $$ = mk_seq(ctx, AST_LIST, @$, $2); CHECK($$); }
    | '[' expr_list ',' ']'     { $$ = mk_seq(ctx, AST_LIST, @$, $2); CHECK($$); }
    | LSET '}'                  { $$ = mk(ctx, AST_SET, @$); }
    | LSET expr_list '}'        { $$ = mk_seq(ctx, AST_SET, @$, $2); CHECK($$); }
    | LSET expr_list ',' '}'    { $$ = mk_seq(ctx, AST_SET, @$, $2); CHECK($$); }
    ;

%%

/* ------------------------------------------------------------ helpers */

static AstNode *mk(ParseCtx *ctx, AstKind kind, Loc loc)
{
    AstNode *n = ast_new(ctx->arena, kind, loc);
    n->depth = 1;
    return n;
}

static AstNode *mk_binary(ParseCtx *ctx, AstOp op, AstNode *a, AstNode *b, Loc op_loc)
{
    AstNode *n = mk(ctx, AST_BINARY, loc_span(a->loc, b->loc));
    n->op = op;
    n->op_loc = op_loc;
    n->a = a;
    n->b = b;
    return n;
}

static AstNode *mk_unary(ParseCtx *ctx, AstOp op, AstNode *a, Loc op_loc)
{
    AstNode *n = mk(ctx, AST_UNARY, loc_span(op_loc, a->loc));
    n->op = op;
    n->op_loc = op_loc;
    n->a = a;
    return n;
}

static AstNode *mk_seq(ParseCtx *ctx, AstKind kind, Loc loc, AstList list)
{
    AstNode *n = mk(ctx, kind, loc);
    n->list = list;
    return n;
}

/* Compute n->depth from its children; reject trees deeper than the limit. */
static bool check_depth(ParseCtx *ctx, AstNode *n)
{
    int d = 0;
    const AstNode *kids[3] = { n->a, n->b, n->c };
    for (int i = 0; i < 3; i++)
        if (kids[i] && kids[i]->depth > d)
            d = kids[i]->depth;
    for (int i = 0; i < n->list.len; i++)
        if (n->list.items[i]->depth > d)
            d = n->list.items[i]->depth;
    n->depth = d + 1;
    if (n->depth <= PARSE_MAX_DEPTH)
        return true;
    parse_fail(ctx, n->loc, "expression is nested too deeply (more than %d levels); split it "
               "into several 'let' statements", PARSE_MAX_DEPTH);
    return false;
}

/* The left side of an assignment must be a place. */
static bool check_target(ParseCtx *ctx, AstNode *t, Loc op_loc, const char *op)
{
    const char *what = NULL;
    switch (t->kind) {
    case AST_NAME: case AST_INDEX: case AST_ATTR:
        return true;
    case AST_CALL: what = "a function call"; break;
    case AST_INT: case AST_FLOAT: case AST_BOOL: case AST_STRING: what = "a literal"; break;
    case AST_TUPLE: what = "a tuple (use `let (a, b) = ...` to unpack)"; break;
    case AST_LIST: case AST_SET: what = "a list or set"; break;
    case AST_BINARY:
        if (t->op >= OP_LT && t->op <= OP_NE && !t->parenthesized) {
            parse_fail(ctx, op_loc, "cannot assign to a comparison; did you mean '=='?");
            return false;
        }
        what = "an operator expression";
        break;
    default: what = "this expression"; break;
    }
    parse_fail(ctx, t->loc, "cannot assign to %s; the left side of '%s' must be a name, "
               "an element `a[i]` or an attribute `a.b`", what, op);
    return false;
}

static bool push_arg(ParseCtx *ctx, AstList *list, AstNode *arg)
{
    if (arg->kind != AST_KWARG && list->len > 0 && list->items[list->len - 1]->kind == AST_KWARG) {
        parse_fail(ctx, arg->loc, "positional argument follows a keyword argument");
        return false;
    }
    ast_push(ctx->arena, list, arg);
    return true;
}

/* `elif` (Python) instead of `else if`, as the lookahead or just before it. */
static bool is_elif(const ParseCtx *ctx)
{
    return (ctx->err_tok == TOK_NAME && !strcmp(ctx->err_text, "elif")) ||
           (ctx->err_prev_tok == TOK_NAME && !strcmp(ctx->err_prev_text, "elif"));
}

static const char *kind_word(AstKind k)
{
    return k == AST_KERNEL ? "kernel" : k == AST_PROGRAM ? "program" : "fn";
}

static void parse_fail(ParseCtx *ctx, Loc loc, const char *fmt, ...)
{
    if (ctx->error_reported)
        return;
    va_list ap;
    va_start(ap, fmt);
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_error(loc, "%s", msg);
    ctx->error_reported = true;
}

/* Error productions fire only where bison's error token begins at the
 * lookahead that caused the error: nothing was popped to get there. */
static bool error_here(ParseCtx *ctx, Loc err)
{
    return ctx->pending && err.line == ctx->err_loc.line && err.col == ctx->err_loc.col;
}

/* "expected '{' after 'if' condition" and its variants. */
static void block_brace_error(ParseCtx *ctx, const char *what)
{
    int la = ctx->err_tok;
    if (la == '=')
        parse_fail(ctx, ctx->err_loc, "'=' assigns; did you mean '==' to compare?");
    else if (la == ':')
        parse_fail(ctx, ctx->err_loc, "expected '{' after %s, found ':' (blocks are written "
                   "in braces: `{ ... }`)", what);
    else if (la == TOK_NEWLINE && lex_peek_char(ctx) == '{')
        parse_fail(ctx, ctx->err_loc, "expected '{' after %s, found end of line (the '{' must "
                   "be on the same line)", what);
    else
        parse_fail(ctx, ctx->err_loc, "expected '{' after %s, found %s", what, found(ctx));
}

/* ------------------------------------------------- tokens and messages */

static bool is_keyword(int tok)
{
    return tok >= TOK_KERNEL && tok <= TOK_FALSE;
}

/* Describe token `tok` whose text is `text` for "found X". */
static const char *describe(ParseCtx *ctx, int tok, const char *text)
{
    switch (tok) {
    case TOK_END:
        return ctx->mode == PARSE_MODE_EXPR ? "end of input" : "end of file";
    case TOK_NEWLINE:
        return "end of line";
    case TOK_NAME:
        return arena_printf(ctx->arena, "name '%s'", text);
    case TOK_INT: case TOK_FLOAT:
        return arena_printf(ctx->arena, "number '%s'", text);
    case TOK_STRING:
        return arena_printf(ctx->arena, "string %s", text);
    default:
        if (is_keyword(tok))
            return arena_printf(ctx->arena, "keyword '%s'", text);
        return arena_printf(ctx->arena, "'%s'", text);
    }
}

static const char *found(ParseCtx *ctx)
{
    return describe(ctx, ctx->err_tok, ctx->err_text);
}

int parse_lex(PARSE_STYPE *lval, Loc *lloc, ParseCtx *ctx)
{
    int t;
    if (!ctx->started) {
        ctx->started = true;
        *lloc = (Loc){ ctx->file, 1, 1, 1, 1 };
        t = ctx->mode == PARSE_MODE_EXPR ? TOK_START_EXPR : TOK_START_FILE;
        ctx->lex_text[0] = 0;
    } else {
        t = lex_scan(lval, lloc, ctx->scanner);
    }
    ctx->prev_tok = ctx->tok;
    ctx->prev_loc = ctx->tok_loc;
    memcpy(ctx->prev_text, ctx->tok_text, sizeof ctx->prev_text);
    ctx->tok = t;
    ctx->tok_loc = *lloc;
    memcpy(ctx->tok_text, ctx->lex_text, sizeof ctx->tok_text);
    return t;
}

/* bison's yyerror: remember the message; decide what to print later. */
void parse_error(Loc *lloc, ParseCtx *ctx, const char *msg)
{
    if (ctx->pending || ctx->error_reported)
        return;
    ctx->pending = true;
    ctx->exhausted = strcmp(msg, "memory exhausted") == 0;
    snprintf(ctx->pending_msg, sizeof ctx->pending_msg, "%s", msg);
    ctx->err_loc = *lloc;
    ctx->err_tok = ctx->tok;
    ctx->err_prev_tok = ctx->prev_tok;
    ctx->err_prev_loc = ctx->prev_loc;
    memcpy(ctx->err_text, ctx->tok_text, sizeof ctx->err_text);
    memcpy(ctx->err_prev_text, ctx->prev_text, sizeof ctx->err_prev_text);
}

static bool starts_expression(int tok)
{
    switch (tok) {
    case TOK_NAME: case TOK_INT: case TOK_FLOAT: case TOK_STRING: case TOK_TRUE:
    case TOK_FALSE: case '(': case '[': case TOK_LSET: case '-': case '+': case '~':
    case TOK_NOT:
        return true;
    default:
        return false;
    }
}

/* Tokens after which an operand must follow. */
static bool wants_operand(int tok)
{
    switch (tok) {
    case '+': case '-': case '*': case '/': case '%': case '@': case '<': case '>':
    case '&': case '|': case '^': case '~': case '=': case ',': case '(': case '[':
    case ':': case TOK_LSET: case TOK_POW: case TOK_FLOORDIV: case TOK_SHL: case TOK_SHR:
    case TOK_LE: case TOK_GE: case TOK_EQ: case TOK_NE: case TOK_ARROW: case TOK_AUGASSIGN:
    case TOK_AND: case TOK_OR: case TOK_NOT: case TOK_IF: case TOK_WHILE: case TOK_IN:
    case TOK_WITH: case TOK_RETURN:
        return true;
    default:
        return false;
    }
}

static char closer_of(char kind)
{
    return kind == '(' ? ')' : kind == '[' ? ']' : '}';
}

static char opener_char(char kind)
{
    return kind == 's' ? '{' : kind;
}

/* The source byte just before `loc` on its line, or 0. */
static int char_before(const ParseCtx *ctx, Loc loc)
{
    const char *p = ctx->file->text, *end = p + ctx->file->len;
    for (int line = 1; line < loc.line && p < end; p++)
        if (*p == '\n')
            line++;
    return loc.col >= 2 && p + loc.col - 2 < end ? (unsigned char)p[loc.col - 2] : 0;
}

void parse_report_pending(ParseCtx *ctx)
{
    if (ctx->error_reported)
        return;
    ctx->error_reported = true;
    if (!ctx->pending) {
        diag_error(ctx->tok_loc, "syntax error");
        return;
    }
    Loc loc = ctx->err_loc;
    int tok = ctx->err_tok;
    if (ctx->exhausted) {
        diag_error(loc, "the input is nested too deeply for the parser");
        return;
    }

    /* End of file inside brackets: name the bracket that is still open. A
     * block '{' closed by a '}' indented like an outer block is the more
     * likely culprit than the innermost one. */
    const LexBracket *open = lex_open_bracket(ctx, 0);
    if (tok == TOK_END && open) {
        const LexBracket *b = open;
        if (ctx->have_suspect && ctx->suspect.offset > open->offset)
            b = &ctx->suspect;
        diag_error(b->loc, "unclosed '%c' opened at line %d: expected '%c' before the end of the %s",
                   opener_char(b->kind), b->loc.line, closer_of(b->kind),
                   ctx->mode == PARSE_MODE_EXPR ? "input" : "file");
        return;
    }
    if (is_elif(ctx)) {
        bool la = ctx->err_tok == TOK_NAME && !strcmp(ctx->err_text, "elif");
        diag_error(la ? loc : ctx->err_prev_loc, "'elif' is not a keyword; write 'else if'");
        return;
    }
    if (tok == TOK_ELSE) {
        diag_error(loc, "unexpected 'else': it must follow the '}' that closes an 'if' block");
        return;
    }
    const char *fnd = describe(ctx, tok, ctx->err_text);

    /* Split "syntax error, unexpected X, expecting A or B or C". */
    const char *exp[8];
    int nexp = 0;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", ctx->pending_msg);
    char *e = strstr(buf, ", expecting ");
    if (e) {
        char *p = e + strlen(", expecting ");
        while (p && nexp < 8) {
            char *q = strstr(p, " or ");
            if (q)
                *q = 0;
            exp[nexp++] = p;
            p = q ? q + 4 : NULL;
        }
    }

    if (nexp > 0) {
        bool terminators = true;
        for (int i = 0; i < nexp; i++)
            if (strcmp(exp[i], "end of line") && strcmp(exp[i], "';'") && strcmp(exp[i], "'}'") &&
                strcmp(exp[i], "end of file"))
                terminators = false;
        if (terminators) {
            if (ctx->mode == PARSE_MODE_EXPR) {
                diag_error(loc, "expected the end of the expression, found %s", fnd);
            } else {
                const LexBracket *b = lex_open_bracket(ctx, 0);
                diag_error(loc, "expected end of line or ';' after the %s, found %s",
                           b ? "statement" : "declaration", fnd);
            }
            return;
        }
        /* If the bracket that is open can be closed here, say which one. The
         * lookahead may itself be an opening bracket: skip it then. */
        const LexBracket *b = lex_open_bracket(ctx, 0);
        if (b && (tok == '(' || tok == '[' || tok == '{' || tok == TOK_LSET) &&
            b->loc.line == loc.line && b->loc.col == loc.col)
            b = lex_open_bracket(ctx, 1);
        int close_at = -1;
        if (b) {
            char want[4] = { '\'', closer_of(b->kind), '\'', 0 };
            for (int i = 0; i < nexp; i++)
                if (!strcmp(exp[i], want))
                    close_at = i;
        }
        if (close_at >= 0) {   /* put the closing bracket last */
            const char *c = exp[close_at];
            for (int i = close_at; i + 1 < nexp; i++)
                exp[i] = exp[i + 1];
            exp[nexp - 1] = c;
        }
        char list[512];
        size_t n = 0;
        list[0] = 0;
        for (int i = 0; i < nexp; i++) {
            const char *s = i == 0 ? "" : i + 1 == nexp ? " or " : ", ";
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", s, exp[i]);
            if (n >= sizeof list)
                n = sizeof list - 1;
        }
        if (close_at >= 0)
            diag_error(loc, "expected %s to close '%c' opened at %d:%d, found %s", list,
                       opener_char(b->kind), b->loc.line, b->loc.col, fnd);
        else
            diag_error(loc, "expected %s, found %s", list, fnd);
        return;
    }

    if ((ctx->err_prev_tok == '+' || ctx->err_prev_tok == '-') && !starts_expression(tok) &&
        char_before(ctx, ctx->err_prev_loc) == ctx->err_prev_tok) {
        Loc both = ctx->err_prev_loc;
        both.col--;
        diag_error(both, "there is no '%c%c' operator; write `x %c= 1`",
                   ctx->err_prev_tok, ctx->err_prev_tok, ctx->err_prev_tok);
        return;
    }
    if (!starts_expression(tok) && wants_operand(ctx->err_prev_tok)) {
        diag_error(loc, "expected an expression after '%s', found %s", ctx->err_prev_text, fnd);
        return;
    }
    diag_error(loc, "unexpected %s", fnd);
}
