/* ast.c - AST constructors, names, the --emit-ast dump, and the two parse
 * entry points that drive the flex scanner and the bison parser. */
#include "parser/ast.h"
#include <stdlib.h>
#include <string.h>
#include "fx_parse.h"

AstNode *ast_new(Arena *arena, AstKind kind, Loc loc)
{
    AstNode *n = arena_alloc(arena, sizeof *n);
    n->kind = kind;
    n->loc = loc;
    n->depth = 1;
    return n;
}

void ast_push(Arena *arena, AstList *list, AstNode *item)
{
    if (list->len == list->cap) {
        int cap = list->cap ? list->cap * 2 : 4;
        AstNode **items = arena_alloc(arena, sizeof *items * (size_t)cap);
        if (list->len)
            memcpy(items, list->items, sizeof *items * (size_t)list->len);
        list->items = items;
        list->cap = cap;
    }
    list->items[list->len++] = item;
}

const char *ast_kind_name(AstKind kind)
{
    static const char *const names[AST_KIND_COUNT] = {
        [AST_INT] = "Int", [AST_FLOAT] = "Float", [AST_BOOL] = "Bool",
        [AST_STRING] = "String", [AST_NAME] = "Name", [AST_BINARY] = "Binary",
        [AST_UNARY] = "Unary", [AST_IFEXP] = "IfExp", [AST_CALL] = "Call", [AST_KWARG] = "Kwarg",
        [AST_ATTR] = "Attr", [AST_INDEX] = "Index", [AST_TUPLE] = "Tuple",
        [AST_LIST] = "List", [AST_SET] = "Set", [AST_BLOCK] = "Block",
        [AST_LET] = "Let", [AST_VAR] = "Var", [AST_SHARED] = "Shared",
        [AST_ASSIGN] = "Assign", [AST_EXPR_STMT] = "ExprStmt", [AST_IF] = "If",
        [AST_FOR] = "For", [AST_WHILE] = "While", [AST_BREAK] = "Break",
        [AST_CONTINUE] = "Continue", [AST_RETURN] = "Return", [AST_WITH] = "With",
        [AST_STATIC_ASSERT] = "StaticAssert", [AST_IMPORT] = "Import",
        [AST_CONST] = "Const", [AST_FN] = "Fn", [AST_KERNEL] = "Kernel",
        [AST_PROGRAM] = "Program", [AST_PARAM] = "Param", [AST_DECORATOR] = "Decorator",
        [AST_MODULE] = "Module",
    };
    if ((int)kind < 0 || kind >= AST_KIND_COUNT || !names[kind])
        return "?";
    return names[kind];
}

const char *ast_op_text(AstOp op)
{
    static const char *const text[OP_COUNT] = {
        [OP_NONE] = "", [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/",
        [OP_FLOORDIV] = "//", [OP_MOD] = "%", [OP_POW] = "**", [OP_MATMUL] = "@",
        [OP_SHL] = "<<", [OP_SHR] = ">>", [OP_BITAND] = "&", [OP_BITOR] = "|",
        [OP_BITXOR] = "^", [OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">", [OP_GE] = ">=",
        [OP_EQ] = "==", [OP_NE] = "!=", [OP_AND] = "and", [OP_OR] = "or", [OP_NOT] = "not",
        [OP_NEG] = "-", [OP_POS] = "+", [OP_INVERT] = "~",
    };
    if ((int)op < 0 || op >= OP_COUNT)
        return "?";
    return text[op];
}

/* ---------------------------------------------------------------- dump */

static void dump_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", out);
        else if (c < 0x20 || c == 0x7f)
            fprintf(out, "\\x%02x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

/* Integral values as "25000.0", others in the shortest %g form that reads
 * back as the same double. */
static void dump_double(FILE *out, double v)
{
    char buf[64];
    if (v == v && v > -1e16 && v < 1e16 && v == (double)(long long)v) {
        fprintf(out, "%.1f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    fputs(buf, out);
}

static void dump_node(FILE *out, const AstNode *n, int depth, const char *role);

static void dump_list(FILE *out, const AstList *l, int depth)
{
    for (int i = 0; i < l->len; i++)
        dump_node(out, l->items[i], depth, NULL);
}

static void dump_node(FILE *out, const AstNode *n, int depth, const char *role)
{
    for (int i = 0; i < depth; i++)
        fputs("  ", out);
    if (role)
        fprintf(out, "%s: ", role);
    if (!n) {
        fputs("(null)\n", out);
        return;
    }
    fputs(ast_kind_name(n->kind), out);
    switch (n->kind) {
    case AST_INT:
        fprintf(out, " %s", n->text ? n->text : "?");
        break;
    case AST_FLOAT:
        fprintf(out, " %s = ", n->text ? n->text : "?");
        dump_double(out, n->fval);
        break;
    case AST_BOOL:
        fputs(n->bval ? " True" : " False", out);
        break;
    case AST_STRING: case AST_IMPORT:
        fputc(' ', out);
        dump_string(out, n->text ? n->text : "");
        break;
    case AST_BINARY: case AST_UNARY:
        fprintf(out, " %s", ast_op_text(n->op));
        break;
    case AST_ASSIGN:
        fprintf(out, " %s=", ast_op_text(n->op));
        break;
    case AST_LET:
        if (!n->name) {
            fputs(" (", out);
            for (int i = 0; i < n->list2.len; i++)
                fprintf(out, "%s%s", i ? ", " : "", n->list2.items[i]->name);
            fputc(')', out);
            break;
        }
        /* fall through */
    default:
        if (n->name)
            fprintf(out, " %s", n->name);
        break;
    }
    if (n->kind == AST_PARAM && n->flag)
        fputs(" const", out);
    if (n->kind == AST_PARAM && n->bval)
        fputs(" shared", out);
    if (n->kind == AST_DECORATOR && n->flag)
        fputs("()", out);
    if (n->parenthesized)
        fputs(" (paren)", out);
    fprintf(out, " @%d:%d\n", n->loc.line, n->loc.col);

    int d = depth + 1;
    switch (n->kind) {
    case AST_LET: case AST_VAR: case AST_SHARED: case AST_CONST:
        if (n->a)
            dump_node(out, n->a, d, "type");
        if (n->b)
            dump_node(out, n->b, d, "init");
        break;
    case AST_FN: case AST_KERNEL: case AST_PROGRAM:
        dump_list(out, &n->list2, d);
        dump_list(out, &n->list, d);
        if (n->a)
            dump_node(out, n->a, d, "ret");
        if (n->b)
            dump_node(out, n->b, d, NULL);
        break;
    case AST_IF:
        dump_node(out, n->a, d, NULL);
        dump_node(out, n->b, d, NULL);
        if (n->c)
            dump_node(out, n->c, d, "else");
        break;
    case AST_IFEXP:
        dump_node(out, n->a, d, "then");
        dump_node(out, n->b, d, "if");
        dump_node(out, n->c, d, "else");
        break;
    case AST_STATIC_ASSERT:
        dump_node(out, n->a, d, NULL);
        if (n->b)
            dump_node(out, n->b, d, "msg");
        break;
    default:
        if (n->a)
            dump_node(out, n->a, d, NULL);
        if (n->b)
            dump_node(out, n->b, d, NULL);
        if (n->c)
            dump_node(out, n->c, d, NULL);
        dump_list(out, &n->list, d);
        if (n->kind != AST_LET)
            dump_list(out, &n->list2, d);
        break;
    }
}

void ast_dump(FILE *out, const AstNode *node)
{
    dump_node(out, node, 0, NULL);
}

/* -------------------------------------------------------------- parsing */

static AstNode *parse_run(Arena *arena, const SrcFile *file, int mode)
{
    if (!arena || !file || !file->text)
        return NULL;
    ParseCtx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = arena;
    ctx.file = file;
    ctx.mode = mode;
    if (lex_begin(&ctx) != 0) {
        diag_error((Loc){ file, 0, 0, 0, 0 }, "cannot start the scanner (out of memory)");
        return NULL;
    }
    int rc = parse_parse(&ctx);
    if (rc != 0)
        parse_report_pending(&ctx);
    lex_end(&ctx);
    return rc == 0 ? ctx.result : NULL;
}

AstNode *parse_file(Arena *arena, const SrcFile *file)
{
    return parse_run(arena, file, PARSE_MODE_FILE);
}

AstNode *parse_expression(Arena *arena, const SrcFile *file)
{
    return parse_run(arena, file, PARSE_MODE_EXPR);
}
