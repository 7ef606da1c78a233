/* test_parser.c - CUnit suites for the scanner and the parser.
 *
 *   lexer        every token kind, literal forms, strings, comments, layout
 *   parser       golden/X.fx parses and dumps exactly as golden/X.ast;
 *                precedence, AST fields, expression inputs
 *   diagnostics  errors/X.fx gives exactly errors/X.expected on stderr
 *   robustness   truncated / mutated / random inputs never crash and always
 *                either parse or report exactly one error
 *
 * usage: test_parser [--dir TESTS_PARSER_DIR] [suite...]
 * FX_UPDATE_GOLDEN=1 rewrites the .ast and .expected files from the current
 * output instead of comparing. */
#include "fxtest.h"
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "parser/ast.h"
#include "fx_parse.h"

/* Captures everything diag_* prints while alive. */
typedef struct {
    int unused;
} Capture;

static void capture_begin(Capture *c)
{
    (void)c;
    fxt_capture_begin();
}

static char *capture_end(Capture *c)
{
    (void)c;
    return fxt_capture_end();   /* caller frees */
}

/* Parse `src` as a file, returning the dump (or NULL) and the diagnostics. */
static char *dump_to_string(const AstNode *n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ast_dump(f, n);
    fclose(f);
    return buf;
}

/* ---- token listing ---- */

typedef struct {
    int tok;
    Loc loc;
    PARSE_STYPE val;
    char text[48];
} Tok;

/* Scan all of `src`; returns the number of tokens (END or LEX_ERROR last). */
static int lex_all(const char *src, Tok *out, int max, char **diags)
{
    Arena *a = arena_new();
    static Arena *keep;   /* token strings stay valid until the next call */
    if (keep)
        arena_free(keep);
    keep = a;
    SrcFile f = { "lex.fx", src, (long)strlen(src) };
    ParseCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = a;
    ctx.file = &f;
    Capture cap;
    capture_begin(&cap);
    int n = 0;
    if (lex_begin(&ctx) == 0) {
        for (;;) {
            Tok t;
            memset(&t, 0, sizeof t);
            t.tok = lex_scan(&t.val, &t.loc, ctx.scanner);
            memcpy(t.text, ctx.lex_text, sizeof t.text);
            if (n < max)
                out[n++] = t;
            if (t.tok == TOK_END || t.tok == TOK_LEX_ERROR || n >= max)
                break;
        }
        lex_end(&ctx);
    }
    char *d = capture_end(&cap);
    if (diags)
        *diags = d;
    else
        free(d);
    return n;
}

/* A compact rendering of the token stream: names and literals with their
 * values, keywords and operators by text, NL for NEWLINE. */
static char *lex_render(const char *src)
{
    static char buf[8192];
    Tok toks[512];
    int n = lex_all(src, toks, 512, NULL);
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < n; i++) {
        const Tok *t = &toks[i];
        char one[256];
        switch (t->tok) {
        case TOK_NAME: snprintf(one, sizeof one, "name:%s", t->val.str); break;
        case TOK_INT: snprintf(one, sizeof one, "int:%s", t->val.str); break;
        case TOK_FLOAT: snprintf(one, sizeof one, "float:%s", t->val.str); break;
        case TOK_STRING: snprintf(one, sizeof one, "str:%s", t->val.str); break;
        case TOK_NEWLINE: snprintf(one, sizeof one, "NL"); break;
        case TOK_END: snprintf(one, sizeof one, "EOF"); break;
        case TOK_LEX_ERROR: snprintf(one, sizeof one, "ERROR"); break;
        case TOK_LSET: snprintf(one, sizeof one, "set{"); break;
        case TOK_AUGASSIGN: snprintf(one, sizeof one, "aug%s", ast_op_text(t->val.op)); break;
        default: snprintf(one, sizeof one, "%s", t->text); break;
        }
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? " " : "", one);
        if (len >= sizeof buf)
            break;
    }
    return buf;
}

/* Compare strings, showing both sides when they differ. */
#define STR_IS(got_expr, expected)                                              \
    do {                                                                        \
        const char *got_ = (got_expr);                                          \
        if (!got_)                                                              \
            got_ = "(null)";                                                    \
        if (strcmp(got_, (expected)) != 0)                                      \
            fprintf(stderr, "\n  got:  %s\n  want: %s\n", got_, (expected));  \
        CU_ASSERT_STRING_EQUAL(got_, (expected));                               \
    } while (0)

#define LEX_IS(src, expected) STR_IS(lex_render(src), expected)

/* ---- S-expressions for precedence checks ---- */

static void sx(const AstNode *n, char *buf, size_t cap, size_t *len)
{
#define OUT(...) (*len += (size_t)snprintf(buf + *len, *len < cap ? cap - *len : 0, __VA_ARGS__))
    if (!n) {
        OUT("null");
        return;
    }
    switch (n->kind) {
    case AST_INT: case AST_FLOAT: OUT("%s", n->text); break;
    case AST_NAME: OUT("%s", n->name); break;
    case AST_BOOL: OUT("%s", n->bval ? "True" : "False"); break;
    case AST_STRING: OUT("\"%s\"", n->text); break;
    case AST_BINARY:
        OUT("(%s ", ast_op_text(n->op));
        sx(n->a, buf, cap, len);
        OUT(" ");
        sx(n->b, buf, cap, len);
        OUT(")");
        break;
    case AST_UNARY:
        OUT("(%s ", ast_op_text(n->op));
        sx(n->a, buf, cap, len);
        OUT(")");
        break;
    case AST_ATTR:
        OUT("(. ");
        sx(n->a, buf, cap, len);
        OUT(" %s)", n->name);
        break;
    case AST_KWARG:
        OUT("%s=", n->name);
        sx(n->a, buf, cap, len);
        break;
    case AST_CALL: case AST_INDEX:
        OUT("(%s ", n->kind == AST_CALL ? "call" : "idx");
        sx(n->a, buf, cap, len);
        for (int i = 0; i < n->list.len; i++) {
            OUT(" ");
            sx(n->list.items[i], buf, cap, len);
        }
        OUT(")");
        break;
    case AST_TUPLE: case AST_LIST: case AST_SET:
        OUT("%s", n->kind == AST_TUPLE ? "(tuple" : n->kind == AST_LIST ? "[" : "{");
        for (int i = 0; i < n->list.len; i++) {
            OUT(" ");
            sx(n->list.items[i], buf, cap, len);
        }
        OUT("%s", n->kind == AST_TUPLE ? ")" : n->kind == AST_LIST ? " ]" : " }");
        break;
    default:
        OUT("<%s>", ast_kind_name(n->kind));
        break;
    }
#undef OUT
}

/* Parse `src` as an expression; its S-expression, or "ERROR: <diag>". */
static const char *expr_sx(const char *src)
{
    static char buf[4096];
    Arena *a = arena_new();
    SrcFile f = { "<eval>", src, (long)strlen(src) };
    Capture cap;
    capture_begin(&cap);
    AstNode *n = parse_expression(a, &f);
    char *d = capture_end(&cap);
    size_t len = 0;
    if (n) {
        sx(n, buf, sizeof buf, &len);
    } else {
        char *nl = strchr(d, '\n');
        snprintf(buf, sizeof buf, "ERROR: %.*s", nl ? (int)(nl - d) : (int)strlen(d), d);
    }
    free(d);
    arena_free(a);
    return buf;
}

#define SX_IS(src, expected) STR_IS(expr_sx(src), expected)

/* Parse `src` as a file; the module or NULL, diagnostics in *diags. */
static AstNode *parse_src(Arena *a, SrcFile *f, const char *src, char **diags)
{
    f->name = "t.fx";
    f->text = src;
    f->len = (long)strlen(src);
    Capture cap;
    capture_begin(&cap);
    AstNode *n = parse_file(a, f);
    char *d = capture_end(&cap);
    if (diags)
        *diags = d;
    else
        free(d);
    return n;
}

/* The first message line of parsing `src` as a file ("" when it parses). */
static const char *file_error(const char *src)
{
    static char buf[1024];
    Arena *a = arena_new();
    SrcFile f;
    char *d;
    AstNode *n = parse_src(a, &f, src, &d);
    char *nl = strchr(d, '\n');
    snprintf(buf, sizeof buf, "%.*s", nl ? (int)(nl - d) : (int)strlen(d), d);
    if (n && d[0])
        snprintf(buf, sizeof buf, "parsed but printed: %s", d);
    free(d);
    arena_free(a);
    return buf;
}

#define FILE_ERR_IS(src, expected) STR_IS(file_error(src), expected)

/* ------------------------------------------------------- lexer suite */

static void test_lex_keywords(void)
{
    static const struct { const char *text; int tok; } kw[] = {
        { "kernel", TOK_KERNEL }, { "fn", TOK_FN }, { "program", TOK_PROGRAM },
        { "const", TOK_CONST }, { "let", TOK_LET }, { "var", TOK_VAR },
        { "shared", TOK_SHARED }, { "if", TOK_IF }, { "else", TOK_ELSE },
        { "for", TOK_FOR }, { "in", TOK_IN }, { "while", TOK_WHILE },
        { "break", TOK_BREAK }, { "continue", TOK_CONTINUE }, { "return", TOK_RETURN },
        { "with", TOK_WITH }, { "import", TOK_IMPORT }, { "static_assert", TOK_STATIC_ASSERT },
        { "and", TOK_AND }, { "or", TOK_OR }, { "not", TOK_NOT },
        { "True", TOK_TRUE }, { "False", TOK_FALSE },
    };
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++) {
        Tok t[4];
        int n = lex_all(kw[i].text, t, 4, NULL);
        CU_ASSERT_EQUAL_FATAL(n, 2);
        CU_ASSERT_EQUAL(t[0].tok, kw[i].tok);
        CU_ASSERT_EQUAL(t[1].tok, TOK_END);
    }
    /* Near-keywords are names; identifiers are ASCII [A-Za-z_][A-Za-z0-9_]*. */
    LEX_IS("kernels fn_ _if true none Else x1 _ __x Float32x4",
           "name:kernels name:fn_ name:_if name:true name:none name:Else name:x1 name:_ "
           "name:__x name:Float32x4 EOF");
}

static void test_lex_operators(void)
{
    static const struct { const char *text; int tok; int op; } ops[] = {
        { "+", '+', 0 }, { "-", '-', 0 }, { "*", '*', 0 }, { "/", '/', 0 }, { "%", '%', 0 },
        { "@", '@', 0 }, { "<", '<', 0 }, { ">", '>', 0 }, { "&", '&', 0 }, { "|", '|', 0 },
        { "^", '^', 0 }, { "~", '~', 0 }, { "=", '=', 0 }, { ",", ',', 0 }, { ":", ':', 0 },
        { ";", ';', 0 }, { ".", '.', 0 }, { "(", '(', 0 }, { "[", '[', 0 },
        { "**", TOK_POW, 0 }, { "//", TOK_FLOORDIV, 0 }, { "<<", TOK_SHL, 0 },
        { ">>", TOK_SHR, 0 }, { "<=", TOK_LE, 0 }, { ">=", TOK_GE, 0 }, { "==", TOK_EQ, 0 },
        { "!=", TOK_NE, 0 }, { "->", TOK_ARROW, 0 },
        { "+=", TOK_AUGASSIGN, OP_ADD }, { "-=", TOK_AUGASSIGN, OP_SUB },
        { "*=", TOK_AUGASSIGN, OP_MUL }, { "/=", TOK_AUGASSIGN, OP_DIV },
        { "//=", TOK_AUGASSIGN, OP_FLOORDIV }, { "%=", TOK_AUGASSIGN, OP_MOD },
        { "&=", TOK_AUGASSIGN, OP_BITAND }, { "|=", TOK_AUGASSIGN, OP_BITOR },
        { "^=", TOK_AUGASSIGN, OP_BITXOR }, { "<<=", TOK_AUGASSIGN, OP_SHL },
        { ">>=", TOK_AUGASSIGN, OP_SHR }, { "**=", TOK_AUGASSIGN, OP_POW },
        { "@=", TOK_AUGASSIGN, OP_MATMUL },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        Tok t[4];
        int n = lex_all(ops[i].text, t, 4, NULL);
        CU_ASSERT_EQUAL_FATAL(n, 2);
        CU_ASSERT_EQUAL(t[0].tok, ops[i].tok);
        if (ops[i].tok == TOK_AUGASSIGN)
            CU_ASSERT_EQUAL(t[0].val.op, ops[i].op);
        CU_ASSERT_EQUAL(t[0].loc.col, 1);
        CU_ASSERT_EQUAL(t[0].loc.end_col, (int)strlen(ops[i].text));
    }
    /* Maximal munch. */
    LEX_IS("a**=b**c//=d//e<<=f<<g>>h->i", "name:a aug** name:b ** name:c aug// name:d // name:e "
           "aug<< name:f << name:g >> name:h -> name:i EOF");
    LEX_IS("a<=b>=c==d!=e=f", "name:a <= name:b >= name:c == name:d != name:e = name:f EOF");
    LEX_IS("x = -1", "name:x = - int:1 EOF");
    /* Closing brackets, braces (block vs set). */
    LEX_IS("f(a)[b] {c}", "name:f ( name:a ) [ name:b ] { name:c } EOF");
}

static void test_lex_integers(void)
{
    LEX_IS("42 0xFF 0o17 0b1010 1_000_000", "int:42 int:0xFF int:0o17 int:0b1010 int:1000000 EOF");
    LEX_IS("0 00 0_0 0X1f 0O7 0B1 0x_ff 0b_1_0", "int:0 int:00 int:00 int:0X1f int:0O7 int:0B1 "
           "int:0xff int:0b10 EOF");
    LEX_IS("123456789012345678901234567890123456789",
           "int:123456789012345678901234567890123456789 EOF");
    /* A '+'/'-' after a hex 'e' is an operator, not an exponent sign. */
    LEX_IS("0xe+1 0xE-0x1", "int:0xe + int:1 int:0xE - int:0x1 EOF");
    LEX_IS("1+2-3", "int:1 + int:2 - int:3 EOF");
}

static void test_lex_floats(void)
{
    LEX_IS("1.0 1. .5 1e-3 2.5E+4 0x1.8p3", "float:1.0 float:1. float:.5 float:1e-3 float:2.5E+4 "
           "float:0x1.8p3 EOF");
    LEX_IS("1e5 1E5 1.e5 0.0 007.5 1_0.2_5e1_0 0x1p-2 0X.8P+1 0xAp0",
           "float:1e5 float:1E5 float:1.e5 float:0.0 float:007.5 float:10.25e10 float:0x1p-2 "
           "float:0X.8P+1 float:0xAp0 EOF");
    /* Attribute access on a float literal and subtraction after an exponent. */
    LEX_IS("1.0.to(T) 2e-3-1", "float:1.0 . name:to ( name:T ) float:2e-3 - int:1 EOF");
    Tok t[8];
    lex_all("0x1.8p3 .5 1e-3 2.5E+4", t, 8, NULL);
    Arena *a = arena_new();
    const char *texts[] = { "0x1.8p3", ".5", "1e-3", "2.5E+4" };
    const double vals[] = { 12.0, 0.5, 0.001, 25000.0 };
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_STRING_EQUAL(t[i].val.str, texts[i]);
        SrcFile f = { "e", texts[i], (long)strlen(texts[i]) };
        AstNode *n = parse_expression(a, &f);
        CU_ASSERT_PTR_NOT_NULL_FATAL(n);
        CU_ASSERT_EQUAL(n->kind, AST_FLOAT);
        CU_ASSERT_DOUBLE_EQUAL(n->fval, vals[i], 0.0);
    }
    SrcFile f = { "e", "1_000.000_5", 11 };
    AstNode *n = parse_expression(a, &f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n);
    CU_ASSERT_STRING_EQUAL(n->text, "1000.0005");
    CU_ASSERT_DOUBLE_EQUAL(n->fval, 1000.0005, 0.0);
    SrcFile g = { "e", "1e999", 5 };
    n = parse_expression(a, &g);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n);
    CU_ASSERT(isinf(n->fval));
    arena_free(a);
}

static void test_lex_bad_numbers(void)
{
    static const struct { const char *src, *msg; } bad[] = {
        { "0x", "lex.fx:1:1: error: '0x' must be followed by hexadecimal digits" },
        { "0b", "lex.fx:1:1: error: '0b' must be followed by binary digits" },
        { "0o", "lex.fx:1:1: error: '0o' must be followed by octal digits" },
        { "0b102", "lex.fx:1:1: error: invalid digit '2' in binary literal '0b102'" },
        { "0o19", "lex.fx:1:1: error: invalid digit '9' in octal literal '0o19'" },
        { "0xFG", "lex.fx:1:1: error: invalid character 'G' in number '0xFG'" },
        { "1__0", "lex.fx:1:1: error: invalid '_' in number '1__0': '_' may only appear between digits" },
        { "1_", "lex.fx:1:1: error: invalid '_' in number '1_': '_' may only appear between digits" },
        { "1_.5", "lex.fx:1:1: error: invalid '_' in number '1_.5': '_' may only appear between digits" },
        { "1._5", "lex.fx:1:1: error: invalid '_' in number '1._5': '_' may only appear between digits" },
        { "1e", "lex.fx:1:1: error: the exponent of '1e' has no digits" },
        { "1e+", "lex.fx:1:1: error: the exponent of '1e+' has no digits" },
        { "0x1p", "lex.fx:1:1: error: the exponent of '0x1p' has no digits" },
        { "0x1.8", "lex.fx:1:1: error: hexadecimal float literal '0x1.8' needs a 'p' exponent (e.g. 0x1.8p0)" },
        { "017", "lex.fx:1:1: error: leading zeros are not allowed in decimal integer '017'; write '0o' for an octal literal" },
        { "1.0f", "lex.fx:1:1: error: invalid character 'f' in number '1.0f'" },
        { "12abc", "lex.fx:1:1: error: invalid character 'a' in number '12abc'" },
        { "0b1.0", "lex.fx:1:1: error: binary literal '0b1.0' cannot have a fraction" },
        { "1.5e+x", "lex.fx:1:1: error: the exponent of '1.5e+x' has no digits" },
        { "2.to", "lex.fx:1:1: error: invalid character 't' in number '2.to'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Tok t[4];
        char *d;
        int n = lex_all(bad[i].src, t, 4, &d);
        CU_ASSERT_EQUAL(t[n - 1].tok, TOK_LEX_ERROR);
        char *nl = strchr(d, '\n');
        if (nl)
            *nl = 0;
        CU_ASSERT_STRING_EQUAL(d, bad[i].msg);
        free(d);
    }
}

static void test_lex_strings(void)
{
    Tok t[4];
    lex_all("\"a\\\"b\\\\c\\nd\"", t, 4, NULL);
    CU_ASSERT_EQUAL_FATAL(t[0].tok, TOK_STRING);
    CU_ASSERT_STRING_EQUAL(t[0].val.str, "a\"b\\c\nd");
    CU_ASSERT_EQUAL(t[0].loc.col, 1);
    CU_ASSERT_EQUAL(t[0].loc.end_col, 12);
    LEX_IS("\"\" \"nnan,ninf\" \"x # not a comment\"", "str: str:nnan,ninf str:x # not a comment EOF");
    LEX_IS("\"tab\there\" \"\xc3\xa9\"", "str:tab\there str:\xc3\xa9 EOF");

    static const struct { const char *src, *msg; } bad[] = {
        { "\"abc", "lex.fx:1:1: error: unterminated string literal (missing closing '\"' before the end of the line)" },
        { "\"abc\ndef\"", "lex.fx:1:1: error: unterminated string literal (missing closing '\"' before the end of the line)" },
        { "x = \"a\\qb\"", "lex.fx:1:7: error: unknown escape sequence '\\q' in string literal; the escapes are \\\", \\\\ and \\n" },
        { "\"a\\", "lex.fx:1:1: error: unterminated string literal (missing closing '\"' before the end of the line)" },
        { "\"a\x01\"", "lex.fx:1:3: error: control character (byte 0x01) in string literal" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *d;
        int n = lex_all(bad[i].src, t, 4, &d);
        CU_ASSERT_EQUAL(t[n - 1].tok, TOK_LEX_ERROR);
        char *nl = strchr(d, '\n');
        if (nl)
            *nl = 0;
        CU_ASSERT_STRING_EQUAL(d, bad[i].msg);
        free(d);
    }
}

static void test_lex_comments_and_newlines(void)
{
    LEX_IS("a # comment\nb", "name:a NL name:b EOF");
    LEX_IS("# only a comment", "EOF");
    LEX_IS("\n\n  # c\n\na\n\n\n# c\n\nb\n", "name:a NL name:b NL EOF");
    LEX_IS("a;b;\nc", "name:a ; name:b ; NL name:c EOF");
    LEX_IS("a\r\nb\r\n", "name:a NL name:b NL EOF");
    LEX_IS("a\t\tb", "name:a name:b EOF");
    /* Newlines inside ( ) and [ ] are ignored; inside a block they separate. */
    LEX_IS("f(a,\n  b)\n", "name:f ( name:a , name:b ) NL EOF");
    LEX_IS("x[\n1,\n\n2\n]\ny", "name:x [ int:1 , int:2 ] NL name:y EOF");
    LEX_IS("f((\n[\n]\n))", "name:f ( ( [ ] ) ) EOF");
    LEX_IS("if c {\na\nb\n}\n", "if name:c { NL name:a NL name:b NL } NL EOF");
    /* ... but a block inside parentheses cannot occur; a brace after '(' is a set. */
    LEX_IS("g({a,\nb})\n", "name:g ( set{ name:a , name:b } ) NL EOF");
    LEX_IS("s = {a,\n b}", "name:s = set{ name:a , name:b } EOF");
    LEX_IS("if x == {a} {\n}", "if name:x == set{ name:a } { NL } EOF");
    LEX_IS("if c {} else {}", "if name:c { } else { } EOF");
    /* A newline before `else` is dropped. */
    LEX_IS("if c {\n}\nelse {\n}", "if name:c { NL } else { NL } EOF");
    LEX_IS("if c {\n}\n\n  # note\n\n  else {}", "if name:c { NL } else { } EOF");
    LEX_IS("if c {\n}\nelsewhere", "if name:c { NL } NL name:elsewhere EOF");
    LEX_IS("if c {}\nelse", "if name:c { } else EOF");
    /* A '{' at the start of a statement or after an operator is a set. */
    LEX_IS("{a}", "set{ name:a } EOF");
    LEX_IS("return {a}", "return set{ name:a } EOF");
    LEX_IS("fn f() -> {", "fn name:f ( ) -> { EOF");
}

static void test_lex_locations(void)
{
    Tok t[16];
    int n = lex_all("let x = 0x1F\n  foo(\"s\",\n      1.5)  # c\n", t, 16, NULL);
    CU_ASSERT_EQUAL_FATAL(n, 13);
    const int want[][4] = {
        { 1, 1, 1, 3 }, { 1, 5, 1, 5 }, { 1, 7, 1, 7 }, { 1, 9, 1, 12 }, { 1, 13, 1, 13 },
        { 2, 3, 2, 5 }, { 2, 6, 2, 6 }, { 2, 7, 2, 9 }, { 2, 10, 2, 10 }, { 3, 7, 3, 9 },
        { 3, 10, 3, 10 },
    };
    for (int i = 0; i < 11; i++) {
        CU_ASSERT_EQUAL(t[i].loc.line, want[i][0]);
        CU_ASSERT_EQUAL(t[i].loc.col, want[i][1]);
        CU_ASSERT_EQUAL(t[i].loc.end_line, want[i][2]);
        CU_ASSERT_EQUAL(t[i].loc.end_col, want[i][3]);
    }
    CU_ASSERT_EQUAL(t[4].tok, TOK_NEWLINE);
    CU_ASSERT_EQUAL(t[11].tok, TOK_NEWLINE);
    CU_ASSERT_EQUAL(t[11].loc.line, 3);
    CU_ASSERT_EQUAL(t[11].loc.col, 16);
    CU_ASSERT_EQUAL(t[12].tok, TOK_END);
    /* The end of file is placed just after the last token. */
    CU_ASSERT_EQUAL(t[12].loc.line, 3);
    CU_ASSERT_EQUAL(t[12].loc.col, 11);
}

static void test_lex_bad_characters(void)
{
    static const struct { const char *src, *msg; } bad[] = {
        { "a && b", "lex.fx:1:3: error: '&&' is not an operator; use 'and'" },
        { "a || b", "lex.fx:1:3: error: '||' is not an operator; use 'or'" },
        { "!a", "lex.fx:1:1: error: '!' is not an operator; use 'not' (or '!=' to compare)" },
        { "a $ b", "lex.fx:1:3: error: unexpected character '$'" },
        { "a ? b", "lex.fx:1:3: error: unexpected character '?'" },
        { "`x`", "lex.fx:1:1: error: unexpected character '`'" },
        { "'s'", "lex.fx:1:1: error: unexpected single quote: string literals use double quotes" },
        { "a + \\\n b", "lex.fx:1:5: error: unexpected '\\': there is no line continuation character; a line break inside ( ) or [ ] joins lines" },
        { "x\xc2\xa0= 1", "lex.fx:1:2: error: unexpected non-ASCII character; only comments and string literals may contain non-ASCII text" },
        { "a\x01", "lex.fx:1:2: error: unexpected control character (byte 0x01)" },
        { "f(a]", "lex.fx:1:4: error: expected ')' to close '(' opened at 1:2, found ']'" },
        { "[a)", "lex.fx:1:3: error: expected ']' to close '[' opened at 1:1, found ')'" },
        { "({a)", "lex.fx:1:4: error: expected '}' to close '{' opened at 1:2, found ')'" },
        { "a)", "lex.fx:1:2: error: unmatched ')'" },
        { "}", "lex.fx:1:1: error: unmatched '}'" },
        { "if a { b) }", "lex.fx:1:9: error: unmatched ')'" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Tok t[8];
        char *d;
        int n = lex_all(bad[i].src, t, 8, &d);
        CU_ASSERT_EQUAL(t[n - 1].tok, TOK_LEX_ERROR);
        char *nl = strchr(d, '\n');
        if (nl)
            *nl = 0;
        CU_ASSERT_STRING_EQUAL(d, bad[i].msg);
        free(d);
    }
    /* A UTF-8 byte order mark may start the file (and takes no column). */
    Tok bt[4];
    lex_all("\xef\xbb\xbfx", bt, 4, NULL);
    CU_ASSERT_EQUAL(bt[0].tok, TOK_NAME);
    CU_ASSERT_EQUAL(bt[0].loc.col, 1);
    LEX_IS("x \xef\xbb\xbf", "name:x ERROR");
    /* Non-ASCII text is fine in comments and strings. */
    LEX_IS("# \xe2\x88\x9e\n\"\xe2\x88\x9e\"", "str:\xe2\x88\x9e EOF");
    /* NUL bytes are located errors, not the end of the input. */
    Arena *a = arena_new();
    char src[] = "const X = 1\0";
    SrcFile f = { "nul.fx", src, 12 };
    Capture cap;
    capture_begin(&cap);
    AstNode *r = parse_file(a, &f);
    char *d = capture_end(&cap);
    CU_ASSERT_PTR_NULL(r);
    CU_ASSERT(strstr(d, "nul.fx:1:12: error: unexpected control character (byte 0x00)") == d);
    free(d);
    arena_free(a);
}

/* ------------------------------------------------------ parser suite */

static int run_golden_dir(const char *sub, const char *in_ext, const char *out_ext,
                          bool expect_errors)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", fxt_dir, sub);
    DIR *dp = opendir(dir);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dp);
    char *names[1024];
    int count = 0;
    for (struct dirent *e; (e = readdir(dp)) && count < 1024;) {
        size_t l = strlen(e->d_name);
        if (l > strlen(in_ext) && !strcmp(e->d_name + l - strlen(in_ext), in_ext))
            names[count++] = strdup(e->d_name);
    }
    closedir(dp);
    int checked = 0;
    for (int i = 0; i < count; i++) {
        char *in, *out;
        int stem = (int)(strlen(names[i]) - strlen(in_ext));
        if (asprintf(&in, "%s/%s", dir, names[i]) < 0 ||
            asprintf(&out, "%s/%.*s%s", dir, stem, names[i], out_ext) < 0)
            abort();
        SrcFile *loaded = diag_load_file(in);
        CU_ASSERT_PTR_NOT_NULL_FATAL(loaded);
        /* Messages name the file as it would be named from its directory. */
        SrcFile *f = diag_file_from_string(names[i], loaded->text);
        f->len = loaded->len;
        diag_free_file(loaded);
        Arena *a = arena_new();
        Capture cap;
        capture_begin(&cap);
        int before = diag_error_count();
        AstNode *n = parse_file(a, f);
        int errors = diag_error_count() - before;
        char *diags = capture_end(&cap);
        char *got;
        if (expect_errors) {
            got = strdup(diags);
            if (n || errors != 1)
                fprintf(stderr, "\n  %s: expected exactly one error, got %d%s\n", in, errors,
                        n ? " and a module" : "");
            CU_ASSERT_PTR_NULL(n);
            CU_ASSERT_EQUAL(errors, 1);
        } else {
            if (!n || diags[0])
                fprintf(stderr, "\n  %s: unexpected diagnostics:\n%s", in, diags);
            CU_ASSERT_PTR_NOT_NULL(n);
            CU_ASSERT_STRING_EQUAL(diags, "");
            got = n ? dump_to_string(n) : strdup("");
        }
        if (!fxt_golden(out, got)) {
            fprintf(stderr, "  (from %s)\n", in);
            CU_FAIL("output differs from the golden file");
        }
        free(got);
        free(diags);
        arena_free(a);
        diag_free_file(f);
        free(names[i]);
        free(in);
        free(out);
        checked++;
    }
    return checked;
}

static void test_parse_golden(void)
{
    int n = run_golden_dir("golden", ".fx", ".ast", false);
    CU_ASSERT(n >= 10);
}

static void test_parse_precedence(void)
{
    SX_IS("-2**2", "(- (** 2 2))");
    SX_IS("2**-1", "(** 2 (- 1))");
    SX_IS("2**3**2", "(** 2 (** 3 2))");
    SX_IS("-x**2", "(- (** x 2))");
    SX_IS("(-2)**2", "(** (- 2) 2)");
    SX_IS("~a**b", "(~ (** a b))");
    SX_IS("a*-b", "(* a (- b))");
    SX_IS("--a", "(- (- a))");
    SX_IS("a - b - c", "(- (- a b) c)");
    SX_IS("a / b // c % d @ e * f", "(* (@ (% (// (/ a b) c) d) e) f)");
    SX_IS("a + b * c", "(+ a (* b c))");
    SX_IS("a << b + c", "(<< a (+ b c))");
    SX_IS("a & b << c", "(& a (<< b c))");
    SX_IS("a ^ b & c", "(^ a (& b c))");
    SX_IS("a | b ^ c", "(| a (^ b c))");
    SX_IS("a < b | c", "(< a (| b c))");
    SX_IS("not a < b", "(not (< a b))");
    SX_IS("not a and b", "(and (not a) b)");
    SX_IS("a and b or c and d", "(or (and a b) (and c d))");
    SX_IS("a or b or c", "(or (or a b) c)");
    SX_IS("not not a", "(not (not a))");
    SX_IS("a == b and b != c", "(and (== a b) (!= b c))");
    SX_IS("(a < b) < c", "(< (< a b) c)");
    SX_IS("a < (b < c)", "(< a (< b c))");
    SX_IS("a <= b >= c", "ERROR: <eval>:1:8: error: comparison operators cannot be chained; write `a <= b and b >= c`");
    SX_IS("a < b < c", "ERROR: <eval>:1:7: error: comparison operators cannot be chained; write `a < b and b < c`");
    SX_IS("a == b == c", "ERROR: <eval>:1:8: error: comparison operators cannot be chained; write `a == b and b == c`");
    SX_IS("f(x)[i].y", "(. (idx (call f x) i) y)");
    SX_IS("A.T @ B", "(@ (. A T) B)");
    SX_IS("-A.T", "(- (. A T))");
    SX_IS("x.to(Float16, rounding_mode=fx.RoundingMode.downward)",
          "(call (. x to) Float16 rounding_mode=(. (. fx RoundingMode) downward))");
    SX_IS("f(x, axis=1, fastmath=\"fast\")", "(call f x axis=1 fastmath=\"fast\")");
    SX_IS("f(a, b,)", "(call f a b)");
    SX_IS("f()", "(call f)");
    SX_IS("f()()", "(call (call f))");
    SX_IS("Array[T, 4, 4]", "(idx Array T 4 4)");
    SX_IS("Tensor[T, M, K, col_major]", "(idx Tensor T M K col_major)");
    SX_IS("a[i, j,]", "(idx a i j)");
    SX_IS("(a, b)", "(tuple a b)");
    SX_IS("(a,)", "(tuple a)");
    SX_IS("()", "(tuple)");
    SX_IS("[a, b]", "[ a b ]");
    SX_IS("[]", "[ ]");
    SX_IS("{a, b}", "{ a b }");
    SX_IS("fx.fastmath({fx.FastMathFlags.nnan, fx.FastMathFlags.ninf})",
          "(call (. fx fastmath) { (. (. fx FastMathFlags) nnan) (. (. fx FastMathFlags) ninf) })");
    SX_IS("True and not False", "(and True (not False))");
    SX_IS("f(a=1, 2)", "ERROR: <eval>:1:8: error: positional argument follows a keyword argument");
}

static void test_parse_expressions(void)
{
    /* Inputs fxcc --eval, -D and fxrun arguments hand to parse_expression. */
    static const char *ok[] = {
        "(Int8(1) + Int16(1)).dtype", "Uint32(0xFFFFFFFF) + Uint32(2)", "Uint64(Uint128(2**100 + 7))",
        "Boolean(True) + Boolean(True)", "Float32(1.0).bitcast(Int32)", "Int32.log_width",
        "(Int32(1) < Int32(2)).select(Int32(1), Int32(2))", "len(Float32x4(0.0).bitcast(Int8))",
        "fx.max(Float32(fx.nan), Float32(1.0))", "fx.ceildiv(Float32(1.0), Float32(2.0))",
        "Int32(7) // Int32(0)", "divmod(7, 2)", "Float32[1, 2, 3]", "zeros(Float32, 1024)",
        "iota(Int32, 64)", "rand(Float64, 64, 64, seed=1)", "Float32[fx.nan, -fx.inf, 2**31]",
        "BFloat16", "128", "-0.0", "  1  \n", "\n\n1 # comment\n\n", "x.dtype == Uint32",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        const char *r = expr_sx(ok[i]);
        if (r && !strncmp(r, "ERROR", 5))
            fprintf(stderr, "\n  %s -> %s\n", ok[i], r);
        CU_ASSERT(strncmp(r, "ERROR", 5) != 0);
    }
    SX_IS("", "ERROR: <eval>:1:1: error: expected an expression, found end of input");
    SX_IS("1 2", "ERROR: <eval>:1:3: error: expected the end of the expression, found number '2'");
    SX_IS("a +", "ERROR: <eval>:1:4: error: expected an expression after '+', found end of input");
    SX_IS("f(1,", "ERROR: <eval>:1:2: error: unclosed '(' opened at line 1: expected ')' before the end of the input");
    SX_IS("1; 2", "ERROR: <eval>:1:2: error: expected the end of the expression, found ';'");
    SX_IS("x = 1", "ERROR: <eval>:1:3: error: expected the end of the expression, found '='");
    SX_IS("let x = 1", "ERROR: <eval>:1:1: error: expected an expression, found keyword 'let'");
    SX_IS("a\nb", "ERROR: <eval>:2:1: error: expected the end of the expression, found name 'b'");
}

static void test_parse_fields(void)
{
    Arena *a = arena_new();
    SrcFile f;
    const char *src =
        "@launch_bounds(256)\n"
        "@inline\n"
        "kernel k(x: const Ptr[Float32], n: Int32) {\n"
        "    let (q, r) = divmod(n, 3)\n"
        "    var acc: Float32\n"
        "    acc //= (q)\n"
        "    if q { } else if r { } else { }\n"
        "}\n"
        "fn f() -> Int32 { return }\n";
    AstNode *m = parse_src(a, &f, src, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->kind, AST_MODULE);
    CU_ASSERT_EQUAL_FATAL(m->list.len, 2);
    AstNode *k = m->list.items[0];
    CU_ASSERT_EQUAL(k->kind, AST_KERNEL);
    CU_ASSERT_STRING_EQUAL(k->name, "k");
    CU_ASSERT_EQUAL(k->loc.line, 3);
    CU_ASSERT_EQUAL(k->loc.col, 1);
    CU_ASSERT_EQUAL(k->loc.end_line, 8);
    CU_ASSERT_EQUAL(k->name_loc.col, 8);
    CU_ASSERT_PTR_NULL(k->a);
    /* decorators */
    CU_ASSERT_EQUAL_FATAL(k->list2.len, 2);
    CU_ASSERT_STRING_EQUAL(k->list2.items[0]->name, "launch_bounds");
    CU_ASSERT(k->list2.items[0]->flag);
    CU_ASSERT_EQUAL(k->list2.items[0]->list.len, 1);
    CU_ASSERT_STRING_EQUAL(k->list2.items[1]->name, "inline");
    CU_ASSERT(!k->list2.items[1]->flag);
    /* params */
    CU_ASSERT_EQUAL_FATAL(k->list.len, 2);
    CU_ASSERT_EQUAL(k->list.items[0]->kind, AST_PARAM);
    CU_ASSERT(k->list.items[0]->flag);
    CU_ASSERT(!k->list.items[1]->flag);
    CU_ASSERT_EQUAL(k->list.items[0]->a->kind, AST_INDEX);
    /* body */
    AstNode *body = k->b;
    CU_ASSERT_EQUAL_FATAL(body->kind, AST_BLOCK);
    CU_ASSERT_EQUAL_FATAL(body->list.len, 4);
    AstNode *let = body->list.items[0];
    CU_ASSERT_EQUAL(let->kind, AST_LET);
    CU_ASSERT_PTR_NULL(let->name);
    CU_ASSERT_EQUAL_FATAL(let->list2.len, 2);
    CU_ASSERT_STRING_EQUAL(let->list2.items[0]->name, "q");
    CU_ASSERT_STRING_EQUAL(let->list2.items[1]->name, "r");
    CU_ASSERT_EQUAL(let->b->kind, AST_CALL);
    AstNode *var = body->list.items[1];
    CU_ASSERT_EQUAL(var->kind, AST_VAR);
    CU_ASSERT_PTR_NOT_NULL(var->a);
    CU_ASSERT_PTR_NULL(var->b);
    AstNode *as = body->list.items[2];
    CU_ASSERT_EQUAL(as->kind, AST_ASSIGN);
    CU_ASSERT_EQUAL(as->op, OP_FLOORDIV);
    CU_ASSERT_EQUAL(as->op_loc.col, 9);
    CU_ASSERT_EQUAL(as->op_loc.end_col, 11);
    CU_ASSERT(as->b->parenthesized);
    CU_ASSERT(!as->a->parenthesized);
    AstNode *ifs = body->list.items[3];
    CU_ASSERT_EQUAL(ifs->kind, AST_IF);
    CU_ASSERT_EQUAL_FATAL(ifs->c->kind, AST_IF);
    CU_ASSERT_EQUAL(ifs->c->c->kind, AST_BLOCK);
    AstNode *fn = m->list.items[1];
    CU_ASSERT_EQUAL(fn->kind, AST_FN);
    CU_ASSERT_EQUAL(fn->a->kind, AST_NAME);
    CU_ASSERT_EQUAL(fn->b->list.items[0]->kind, AST_RETURN);
    CU_ASSERT_PTR_NULL(fn->b->list.items[0]->a);
    arena_free(a);

    /* Binary nodes record the operator; ranges span the operands. */
    a = arena_new();
    SrcFile e = { "e", "a +  b * c", 10 };
    AstNode *n = parse_expression(a, &e);
    CU_ASSERT_PTR_NOT_NULL_FATAL(n);
    CU_ASSERT_EQUAL(n->op, OP_ADD);
    CU_ASSERT_EQUAL(n->op_loc.col, 3);
    CU_ASSERT_EQUAL(n->loc.col, 1);
    CU_ASSERT_EQUAL(n->loc.end_col, 10);
    CU_ASSERT_EQUAL(n->b->op_loc.col, 8);
    CU_ASSERT_EQUAL(n->depth, 3);
    arena_free(a);
}

static void test_parse_layout(void)
{
    /* Statements: newline or ';'; a '}' may end the last one. */
    FILE_ERR_IS("fn f() { a = 1; b = 2 }\n", "");
    FILE_ERR_IS("fn f() { a = 1; b = 2; }", "");
    FILE_ERR_IS("fn f() {\n\n a = 1\n\n ;;\n b = 2\n\n}", "");
    FILE_ERR_IS("fn f() { if a { b = 1 } else { b = 2 } }", "");
    FILE_ERR_IS("fn f() {\n if a {\n }\n else {\n }\n}", "");
    FILE_ERR_IS("fn f() {\n if a {\n } # c\n # c\n else if b {\n }\n else {\n }\n}", "");
    FILE_ERR_IS("fn f() {}", "");
    FILE_ERR_IS("fn f() {} fn g() {}", "t.fx:1:11: error: expected end of line or ';' after the declaration, found keyword 'fn'");
    FILE_ERR_IS("fn f() { a = 1 b = 2 }", "t.fx:1:16: error: expected end of line or ';' after the statement, found name 'b'");
    FILE_ERR_IS("", "");
    FILE_ERR_IS("# nothing but a comment", "");
    FILE_ERR_IS("const A = 1", "");
    FILE_ERR_IS("\n\n;\n", "");
}

/* -------------------------------------------------- diagnostics suite */

static void test_diag_golden(void)
{
    int n = run_golden_dir("errors", ".fx", ".expected", true);
    CU_ASSERT(n >= 25);
}

static void test_diag_messages(void)
{
    FILE_ERR_IS("fn f() {\n  if a = 1 {\n  }\n}\n", "t.fx:2:8: error: '=' assigns; did you mean '==' to compare?");
    FILE_ERR_IS("fn f() {\n  while a = 1 {\n  }\n}\n", "t.fx:2:11: error: '=' assigns; did you mean '==' to compare?");
    FILE_ERR_IS("fn f() {\n  a < b = 1\n}\n", "t.fx:2:9: error: cannot assign to a comparison; did you mean '=='?");
    FILE_ERR_IS("fn f() {\n  (a, b) = t\n}\n", "t.fx:2:3: error: cannot assign to a tuple (use `let (a, b) = ...` to unpack); the left side of '=' must be a name, an element `a[i]` or an attribute `a.b`");
    FILE_ERR_IS("fn f() {\n  a + b += 1\n}\n", "t.fx:2:3: error: cannot assign to an operator expression; the left side of '+=' must be a name, an element `a[i]` or an attribute `a.b`");
    FILE_ERR_IS("fn f() {\n  for i in range(3)\n  { }\n}\n", "t.fx:2:20: error: expected '{' after the 'for' header, found end of line (the '{' must be on the same line)");
    FILE_ERR_IS("fn f() {\n  for i, j in x { }\n}\n", "t.fx:2:8: error: a 'for' loop has exactly one loop variable; expected 'in', found ','");
    FILE_ERR_IS("fn f() {\n  with x\n}\n", "t.fx:2:9: error: expected '{' after the 'with' expression, found end of line");
    FILE_ERR_IS("fn f() {\n  if a {\n  } else b\n}\n", "t.fx:3:10: error: expected '{' or 'if' after 'else', found name 'b'");
    FILE_ERR_IS("fn f() {\n  if {\n  }\n}\n", "t.fx:2:6: error: expected a condition after 'if', found '{'");
    FILE_ERR_IS("fn f() {\n  let x =\n}\n", "t.fx:2:10: error: expected an expression after '=', found end of line");
    FILE_ERR_IS("fn f() {\n  let (a, 1) = t\n}\n", "t.fx:2:11: error: expected a name or ')' to close '(' opened at 2:7, found number '1'");
    FILE_ERR_IS("fn f() {\n  var a: = 1\n}\n", "t.fx:2:10: error: expected the type of 'var a', found '='");
    FILE_ERR_IS("fn f() {\n  shared t\n}\n", "t.fx:2:11: error: expected ':' and an array type after 'shared t' (e.g. `shared t: Array[Float32, 256]`), found end of line");
    FILE_ERR_IS("fn f() {\n  return x.\n}\n", "t.fx:2:12: error: expected an attribute name after '.', found end of line");
    FILE_ERR_IS("fn f() -> {\n}\n", "t.fx:1:11: error: expected a return type after '->', found '{'");
    FILE_ERR_IS("fn f(x: ) {\n}\n", "t.fx:1:9: error: expected the type of parameter 'x', found ')'");
    FILE_ERR_IS("fn f(1) {\n}\n", "t.fx:1:6: error: expected a parameter name or ')', found number '1'");
    FILE_ERR_IS("fn (x: T) {\n}\n", "t.fx:1:4: error: expected a name after 'fn', found '('");
    FILE_ERR_IS("kernel k {\n}\n", "t.fx:1:10: error: expected '(' after 'kernel k', found '{'");
    FILE_ERR_IS("program p() -> T {\n}\n", "t.fx:1:13: error: a program cannot return a value; only a 'fn' has a '-> Type'");
    FILE_ERR_IS("@\nfn f() {}\n", "t.fx:1:2: error: expected a decorator name after '@', found end of line");
    FILE_ERR_IS("@inline\n", "t.fx:1:8: error: expected 'fn', 'kernel' or 'program' after the decorator, found end of file");
    FILE_ERR_IS("static_assert x\n", "t.fx:1:15: error: expected '(' after 'static_assert', found name 'x'");
    FILE_ERR_IS("const = 3\n", "t.fx:1:7: error: expected a name after 'const', found '='");
    FILE_ERR_IS("const X: Int32\n", "t.fx:1:15: error: 'const X' needs a value: write `const X: T = value`");
    FILE_ERR_IS("import\n", "t.fx:1:7: error: expected a file name string after 'import' (e.g. import \"common.fx\"), found end of line");
    FILE_ERR_IS("x = 1\n", "t.fx:1:1: error: expected a declaration ('fn', 'kernel', 'program', 'const', 'import' or 'static_assert'), found name 'x'");
    FILE_ERR_IS("fn f() {\n  elif x {\n  }\n}\n", "t.fx:2:3: error: 'elif' is not a keyword; write 'else if'");
    FILE_ERR_IS("fn f() {\n  x = f(1, 2\n  y = 3\n}\n", "t.fx:3:3: error: expected ')' to close '(' opened at 2:8, found name 'y'");
    FILE_ERR_IS("fn f() {\n  x = [1 2]\n}\n", "t.fx:2:10: error: expected ',' or ']' to close '[' opened at 2:7, found number '2'");
    FILE_ERR_IS("fn f() {\n  x = a[1:2]\n}\n", "t.fx:2:10: error: expected ',' or ']' to close '[' opened at 2:8, found ':'");
}

static void test_diag_unclosed(void)
{
    /* The '{' whose '}' went missing is found by indentation. */
    FILE_ERR_IS("fn f() {\n    if a {\n        b = 1\n    while c {\n        d = 1\n    }\n}\n",
                "t.fx:2:10: error: unclosed '{' opened at line 2: expected '}' before the end of the file");
    FILE_ERR_IS("fn f() {\n    b = 1\n", "t.fx:1:8: error: unclosed '{' opened at line 1: expected '}' before the end of the file");
    FILE_ERR_IS("fn f() {\n    b = g(1,\n", "t.fx:2:10: error: unclosed '(' opened at line 2: expected ')' before the end of the file");
    FILE_ERR_IS("const A = [1,\n  2\n", "t.fx:1:11: error: unclosed '[' opened at line 1: expected ']' before the end of the file");
    FILE_ERR_IS("fn f() {\n  if a", "t.fx:1:8: error: unclosed '{' opened at line 1: expected '}' before the end of the file");
}

static void test_diag_depth(void)
{
    /* Deep trees are rejected with a message, never a crash. */
    size_t n = 20000;
    char *s = malloc(4 * n + 64);
    strcpy(s, "const X = ");
    size_t l = strlen(s);
    for (size_t i = 0; i < 3000; i++)
        s[l++] = '-';
    strcpy(s + l, "1\n");
    const char *r = file_error(s);
    CU_ASSERT(strstr(r, "expression is nested too deeply (more than 1000 levels)") != NULL);
    strcpy(s, "const X = ");
    l = strlen(s);
    for (size_t i = 0; i < n; i++)
        s[l++] = '(';
    s[l++] = '1';
    for (size_t i = 0; i < n; i++)
        s[l++] = ')';
    s[l] = 0;
    r = file_error(s);
    CU_ASSERT(strstr(r, "error: the input is nested too deeply for the parser") != NULL);
    strcpy(s, "const X = 1");
    l = strlen(s);
    for (size_t i = 0; i < 999; i++)
        l += (size_t)sprintf(s + l, "+1");
    r = file_error(s);
    CU_ASSERT_STRING_EQUAL(r, "");
    free(s);
}

/* --------------------------------------------------- robustness suite */

static unsigned long long rng_state = 0x9E3779B97F4A7C15ULL;

static unsigned rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (unsigned)(rng_state >> 11);
}

static long robust_runs, robust_bad;

/* Parse n bytes of buf; it must either parse silently or fail with exactly
 * one error. */
static void robust_one(const char *buf, size_t n, bool expr)
{
    char *t = malloc(n + 1);
    memcpy(t, buf, n);
    t[n] = 0;
    SrcFile f = { "fuzz.fx", t, (long)n };
    Arena *a = arena_new();
    int before = diag_error_count();
    AstNode *r = expr ? parse_expression(a, &f) : parse_file(a, &f);
    int errors = diag_error_count() - before;
    if (r) {
        FILE *sink = fopen("/dev/null", "w");
        ast_dump(sink, r);
        fclose(sink);
    }
    if ((r && errors) || (!r && errors != 1)) {
        robust_bad++;
        fprintf(stderr, "\n  invariant broken (module=%s errors=%d) on: %.*s\n", r ? "yes" : "no",
                errors, (int)n, t);
    }
    robust_runs++;
    arena_free(a);
    free(t);
}

static char **load_goldens(int *count)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/golden", fxt_dir);
    DIR *dp = opendir(dir);
    char **texts = calloc(256, sizeof *texts);
    *count = 0;
    if (!dp)
        return texts;
    for (struct dirent *e; (e = readdir(dp)) && *count < 256;) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".fx"))
            continue;
        char *path;
        if (asprintf(&path, "%s/%s", dir, e->d_name) < 0)
            abort();
        char *t = fxt_read_file(path);
        free(path);
        if (t)
            texts[(*count)++] = t;
    }
    closedir(dp);
    return texts;
}

static void robust_setup(Capture *cap)
{
    robust_runs = robust_bad = 0;
    capture_begin(cap);
}

static void robust_finish(Capture *cap)
{
    free(capture_end(cap));
    CU_ASSERT(robust_runs > 0);
    CU_ASSERT_EQUAL(robust_bad, 0);
}

static void test_robust_truncations(void)
{
    int count;
    char **texts = load_goldens(&count);
    CU_ASSERT(count > 0);
    Capture cap;
    robust_setup(&cap);
    for (int i = 0; i < count; i++) {
        size_t len = strlen(texts[i]);
        for (size_t n = 0; n <= len; n++)
            robust_one(texts[i], n, false);
        free(texts[i]);
    }
    free(texts);
    robust_finish(&cap);
}

static void test_robust_mutations(void)
{
    static const char *frags[] = {
        "(", ")", "[", "]", "{", "}", ",", ":", ";", ".", "=", "==", "+=", "->", "@", "\n",
        "if ", "else ", "for ", " in ", "let ", "var ", "fn ", "kernel ", "and ", "not ",
        "\"", "#", "0x", "1_", "1.", "e+", "**", "//", "<", "x", " ",
    };
    int count;
    char **texts = load_goldens(&count);
    Capture cap;
    robust_setup(&cap);
    char buf[16384];
    for (int i = 0; i < count; i++) {
        size_t len = strlen(texts[i]);
        if (len >= sizeof buf / 2)
            len = sizeof buf / 2;
        for (int iter = 0; iter < 400; iter++) {
            memcpy(buf, texts[i], len);
            size_t n = len;
            int edits = 1 + (int)(rng() % 3);
            for (int k = 0; k < edits && n > 0; k++) {
                size_t p = rng() % n;
                switch (rng() % 3) {
                case 0:   /* delete a byte */
                    memmove(buf + p, buf + p + 1, n - p - 1);
                    n--;
                    break;
                case 1:   /* replace a byte */
                    buf[p] = (char)(rng() & 0xff);
                    break;
                default: {  /* insert a fragment */
                    const char *s = frags[rng() % (sizeof frags / sizeof frags[0])];
                    size_t l = strlen(s);
                    if (n + l < sizeof buf) {
                        memmove(buf + p + l, buf + p, n - p);
                        memcpy(buf + p, s, l);
                        n += l;
                    }
                    break;
                }
                }
            }
            robust_one(buf, n, false);
        }
        free(texts[i]);
    }
    free(texts);
    robust_finish(&cap);
}

static void test_robust_random(void)
{
    static const char *toks[] = {
        "fn", "kernel", "program", "const", "let", "var", "shared", "if", "else", "for", "in",
        "while", "break", "continue", "return", "with", "import", "static_assert", "and", "or",
        "not", "True", "False", "x", "f", "(", ")", "[", "]", "{", "}", ",", ":", ";", ".", "=",
        "+=", "->", "@", "+", "-", "*", "**", "//", "<", "==", "~", "\n", " ", "1", "1.5",
        "\"s\"", "#c\n",
    };
    Capture cap;
    robust_setup(&cap);
    char buf[2048];
    for (int iter = 0; iter < 3000; iter++) {
        size_t n = 0;
        if (iter % 3 == 0) {
            n = rng() % 120;
            for (size_t i = 0; i < n; i++)
                buf[i] = (char)(rng() & 0xff);
        } else {
            int k = (int)(rng() % 50);
            for (int i = 0; i < k; i++) {
                const char *s = toks[rng() % (sizeof toks / sizeof toks[0])];
                size_t l = strlen(s);
                if (n + l + 1 >= sizeof buf)
                    break;
                memcpy(buf + n, s, l);
                n += l;
                if (rng() % 2)
                    buf[n++] = ' ';
            }
        }
        robust_one(buf, n, iter % 4 == 0);
    }
    robust_finish(&cap);
}

/* --------------------------------------------------------------- main */

typedef struct {
    const char *name;
    CU_TestInfo *tests;
} Suite;

static const FxtTest lexer_tests[] = {
    { "keywords", test_lex_keywords },
    { "operators and punctuation", test_lex_operators },
    { "integer literals", test_lex_integers },
    { "float literals", test_lex_floats },
    { "malformed numbers", test_lex_bad_numbers },
    { "string literals", test_lex_strings },
    { "comments, newlines and joining", test_lex_comments_and_newlines },
    { "token locations", test_lex_locations },
    { "bad characters and brackets", test_lex_bad_characters },
    { NULL, NULL },
};
static const FxtTest parser_tests[] = {
    { "golden AST dumps", test_parse_golden },
    { "precedence and postfix", test_parse_precedence },
    { "expression inputs", test_parse_expressions },
    { "node fields", test_parse_fields },
    { "statement layout", test_parse_layout },
    { NULL, NULL },
};
static const FxtTest diag_tests[] = {
    { "golden error files", test_diag_golden },
    { "messages", test_diag_messages },
    { "unclosed brackets", test_diag_unclosed },
    { "nesting limits", test_diag_depth },
    { NULL, NULL },
};
static const FxtTest robust_tests[] = {
    { "every truncation of the golden files", test_robust_truncations },
    { "mutations of the golden files", test_robust_mutations },
    { "random input", test_robust_random },
    { NULL, NULL },
};

int main(int argc, char **argv)
{
    static const FxtSuite suites[] = {
        { "lexer", lexer_tests, NULL, NULL },
        { "parser", parser_tests, NULL, NULL },
        { "diagnostics", diag_tests, NULL, NULL },
        { "robustness", robust_tests, NULL, NULL },
        { NULL, NULL, NULL, NULL },
    };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
