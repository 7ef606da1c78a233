/* read.c - reads the printer's text form back into FXIR (fxir_print.c and
 * fxir_program.c write it), so pass tests are .fxir files in and out and a
 * module survives print -> read -> print unchanged.
 *
 *   module   := '# FXIR module' NAME? { func | program }
 *   func     := ['@index_nowrap'] ['@outlined'] ['@launch_bounds(' INT ')'] ('kernel'|'fn') NAME '(' params ')' ['->' type] '{' block '}'
 *   block    := { inst NEWLINE }
 *   inst     := [VALUE '='] op operands [':' type] ['{' flags '}'] ['# name']
 *             | 'if' VALUE '{' block ['} else {' block] '}'
 *             | 'loop {' block '} while' (VALUE|'True') '{' block ['} step {' block] '}'
 *   program  := 'program' NAME '(' params ')' '{' { transient | node } '}'
 *
 * Every instruction gets the location of its line in the text, so the
 * verifier's errors point into the .fxir file. Errors are located
 * diag_error()s; the reader then returns NULL. */
#include "fxir/fxir.h"
#include "fxir/builder.h"
#include "fxir/graph.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens ---- */

typedef enum { T_EOF, T_NEWLINE, T_VALUE, T_GLOBAL, T_WORD, T_NUMBER, T_PUNCT, T_COMMENT, T_STRING } TokKind;

typedef struct Tok {
    TokKind kind;
    const char *s;      /* the token's text (VALUE/GLOBAL: after the sigil) */
    int len;
    Loc loc;
} Tok;

typedef struct Reader {
    Arena *a;
    const SrcFile *file;
    const char *p;      /* next character */
    int line, col;
    Tok tok;            /* current token */
    bool failed;
    FxModule *m;
    FxBuilder b;
    FxFunc *f;          /* function being read */
    FxInst **values;    /* %N -> instruction */
    int nvalues;
} Reader;

static bool is_word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static void advance_char(Reader *r)
{
    if (*r->p == '\n') {
        r->line++;
        r->col = 1;
    } else {
        r->col++;
    }
    r->p++;
}

/* A number as the printer writes one: 42, -7, 0.1, 1e+20, -0.0, 0x7fc00000, inf, nan. */
static void lex_number(Reader *r)
{
    if (*r->p == '-')
        advance_char(r);
    while (is_word_char(*r->p) || *r->p == '.' ||
           ((*r->p == '+' || *r->p == '-') && (r->p[-1] == 'e' || r->p[-1] == 'E')))
        advance_char(r);
}

static void next(Reader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\r')
        advance_char(r);
    Tok t = { T_EOF, r->p, 0, { r->file, r->line, r->col, r->line, r->col } };
    char c = *r->p;
    if (!c) {
        r->tok = t;
        return;
    }
    if (c == '\n') {
        t.kind = T_NEWLINE;
        advance_char(r);
    } else if (c == '"') {
        /* a print format or assert message; decoded by read_string() */
        t.kind = T_STRING;
        advance_char(r);
        while (*r->p && *r->p != '"' && *r->p != '\n') {
            if (*r->p == '\\' && r->p[1] && r->p[1] != '\n')
                advance_char(r);
            advance_char(r);
        }
        if (*r->p == '"')
            advance_char(r);
        else
            t.kind = T_PUNCT;   /* unclosed: read_string() reports it */
    } else if (c == '#') {
        t.kind = T_COMMENT;
        while (*r->p && *r->p != '\n')
            advance_char(r);
    } else if ((c == '%' || c == '@') && is_word_char(r->p[1])) {
        t.kind = c == '%' ? T_VALUE : T_GLOBAL;
        advance_char(r);
        t.s = r->p;
        while (is_word_char(*r->p))
            advance_char(r);
    } else if ((c >= '0' && c <= '9') || (c == '-' && r->p[1] >= '0' && r->p[1] <= '9') ||
               (c == '-' && (!strncmp(r->p + 1, "inf", 3) || !strncmp(r->p + 1, "nan", 3)))) {
        t.kind = T_NUMBER;
        lex_number(r);
    } else if (is_word_char(c)) {
        /* words may hold dots between parts: binop.add, special.block_idx.x */
        t.kind = T_WORD;
        while (is_word_char(*r->p) || (*r->p == '.' && is_word_char(r->p[1])))
            advance_char(r);
    } else {
        t.kind = T_PUNCT;
        advance_char(r);
        if (c == '-' && *r->p == '>')
            advance_char(r);
    }
    if (!t.len)
        t.len = (int)(r->p - t.s);
    t.loc.end_col = r->col > 1 ? r->col - 1 : 1;
    r->tok = t;
}

/* ---- helpers ---- */

static bool error(Reader *r, const char *what)
{
    if (!r->failed) {
        if (r->tok.kind == T_NEWLINE || r->tok.kind == T_EOF)
            diag_error(r->tok.loc, "malformed FXIR: expected %s at the end of the line", what);
        else
            diag_error(r->tok.loc, "malformed FXIR: expected %s, got '%.*s'", what, r->tok.len, r->tok.s);
    }
    r->failed = true;
    return false;
}

static bool is_punct(const Reader *r, const char *p)
{
    return r->tok.kind == T_PUNCT && r->tok.len == (int)strlen(p) && strncmp(r->tok.s, p, strlen(p)) == 0;
}

static bool is_word(const Reader *r, const char *w)
{
    return r->tok.kind == T_WORD && r->tok.len == (int)strlen(w) && strncmp(r->tok.s, w, strlen(w)) == 0;
}

static bool accept_punct(Reader *r, const char *p)
{
    if (!is_punct(r, p))
        return false;
    next(r);
    return true;
}

static bool expect_punct(Reader *r, const char *p)
{
    if (accept_punct(r, p))
        return true;
    char what[16];
    snprintf(what, sizeof what, "'%s'", p);
    return error(r, what);
}

static bool accept_word(Reader *r, const char *w)
{
    if (!is_word(r, w))
        return false;
    next(r);
    return true;
}

static bool expect_word(Reader *r, const char *w)
{
    if (accept_word(r, w))
        return true;
    char what[32];
    snprintf(what, sizeof what, "'%s'", w);
    return error(r, what);
}

static char *tok_text(Reader *r)
{
    return arena_strndup(r->a, r->tok.s, (size_t)r->tok.len);
}

static void skip_newlines(Reader *r)
{
    while (r->tok.kind == T_NEWLINE || r->tok.kind == T_COMMENT)
        next(r);
}

static bool end_of_line(Reader *r)
{
    if (r->tok.kind == T_COMMENT)
        next(r);
    if (r->tok.kind == T_NEWLINE || r->tok.kind == T_EOF) {
        skip_newlines(r);
        return true;
    }
    return error(r, "the end of the line");
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A quoted string as the printer writes one (print formats, assert messages,
 * precision specs, notes) (\" \\ \n \xHH), decoded. */
static const char *read_string(Reader *r)
{
    if (r->tok.kind != T_STRING)
        return error(r, "a closed quoted string"), NULL;
    char *out = arena_alloc(r->a, (size_t)r->tok.len);
    size_t n = 0;
    for (const char *c = r->tok.s + 1, *end = r->tok.s + r->tok.len - 1; c < end; c++) {
        if (*c != '\\') {
            out[n++] = *c;
            continue;
        }
        c++;
        if (*c == 'n') {
            out[n++] = '\n';
        } else if (*c == 'x' && c + 2 < end && hex_digit(c[1]) >= 0 && hex_digit(c[2]) >= 0 &&
                   (hex_digit(c[1]) || hex_digit(c[2]))) {
            out[n++] = (char)(hex_digit(c[1]) * 16 + hex_digit(c[2]));
            c += 2;
        } else if (*c == '"' || *c == '\\') {
            out[n++] = *c;
        } else {
            return error(r, "a string escape (\\\" \\\\ \\n \\xHH)"), NULL;
        }
    }
    out[n] = 0;
    next(r);
    return out;
}

static bool read_int64(Reader *r, int64_t *out)
{
    if (r->tok.kind != T_NUMBER)
        return error(r, "an integer");
    char *end, *text = tok_text(r);
    *out = strtoll(text, &end, 0);
    if (*end)
        return error(r, "an integer");
    next(r);
    return true;
}

/* ---- types ---- */

static const Type *read_type(Reader *r);

/* Array[T, 4, 4] or Tensor[T, M, 64, col_major] after the word */
static const Type *read_shaped(Reader *r, bool tensor)
{
    if (!expect_punct(r, "["))
        return NULL;
    const Type *elem = read_type(r);
    int64_t dims[16];
    const char *names[16];
    int n = 0;
    bool col_major = false;
    while (elem && accept_punct(r, ",")) {
        if (n == 16)
            return error(r, "at most 16 dimensions"), NULL;
        names[n] = NULL;
        dims[n] = -1;
        if (tensor && is_word(r, "col_major")) {
            col_major = true;
            next(r);
        } else if (tensor && r->tok.kind == T_WORD) {
            names[n++] = tok_text(r);
            next(r);
        } else if (!tensor && is_word(r, "DYN")) {
            dims[n++] = TYPE_DIM_DYN;
            next(r);
        } else if (!read_int64(r, &dims[n++])) {
            return NULL;
        }
    }
    if (!elem || !expect_punct(r, "]"))
        return NULL;
    return tensor ? type_tensor(r->a, elem, n, dims, names, col_major) : type_array(r->a, elem, n, dims);
}

static const Type *read_type(Reader *r)
{
    bool is_const = is_word(r, "const");
    if (is_const)
        next(r);
    if (r->tok.kind != T_WORD)
        return error(r, "a type"), NULL;
    char *name = tok_text(r);
    next(r);
    if (!strcmp(name, "Ptr")) {
        if (!expect_punct(r, "["))
            return NULL;
        const Type *e = read_type(r);
        return e && expect_punct(r, "]") ? type_ptr(r->a, e, is_const) : NULL;
    }
    if (is_const)
        return error(r, "Ptr after 'const'"), NULL;
    if (!strcmp(name, "Array") || !strcmp(name, "Tensor"))
        return read_shaped(r, name[0] == 'T');
    if (!strcmp(name, "None"))
        return type_simple(TY_VOID);
    const Type *t = type_from_name(name);
    if (!t)
        diag_error(r->tok.loc, "malformed FXIR: unknown type '%s'", name), r->failed = true;
    return t;
}

/* ---- values ---- */

static void define(Reader *r, int id, FxInst *i)
{
    if (id >= r->nvalues) {
        int n = id * 2 + 16;
        FxInst **v = arena_alloc(r->a, sizeof(FxInst *) * (size_t)n);
        if (r->values)
            memcpy(v, r->values, sizeof(FxInst *) * (size_t)r->nvalues);
        r->values = v;
        r->nvalues = n;
    }
    r->values[id] = i;
}

/* %N or %param */
static FxInst *read_value(Reader *r)
{
    if (r->tok.kind != T_VALUE)
        return error(r, "a value such as %3 or %x"), NULL;
    Tok t = r->tok;
    next(r);
    if (t.s[0] >= '0' && t.s[0] <= '9') {
        int id = atoi(t.s);
        if (id < r->nvalues && r->values[id])
            return r->values[id];
        diag_error(t.loc, "malformed FXIR: %%%.*s is not defined above", t.len, t.s);
        r->failed = true;
        return NULL;
    }
    for (FxInst *i = r->f->body.first; i && i->op == FX_PARAM; i = i->next)
        if (r->f->params[i->param_index].name && (int)strlen(r->f->params[i->param_index].name) == t.len &&
            !strncmp(r->f->params[i->param_index].name, t.s, (size_t)t.len))
            return i;
    diag_error(t.loc, "malformed FXIR: '%%%.*s' is not a parameter of '%s'", t.len, t.s, r->f->name);
    r->failed = true;
    return NULL;
}

/* op1, op2, ... up to the ':' or the end of the line */
static int read_operands(Reader *r, FxInst **ops, int max)
{
    int n = 0;
    if (r->tok.kind != T_VALUE)
        return 0;
    do {
        if (n == max)
            return error(r, "fewer operands"), -1;
        if (!(ops[n++] = read_value(r)))
            return -1;
    } while (accept_punct(r, ","));
    return n;
}

/* base[i, j] or base */
static int read_access(Reader *r, FxInst **ops, int max)
{
    if (!(ops[0] = read_value(r)))
        return -1;
    if (!accept_punct(r, "["))
        return 1;
    int n = read_operands(r, ops + 1, max - 1);
    return n < 0 || !expect_punct(r, "]") ? -1 : n + 1;
}

/* ---- constants ---- */

static bool parse_u128(const char *s, unsigned __int128 *out)
{
    unsigned __int128 v = 0;
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (!*s)
        return false;
    for (; *s; s++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
              : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : 99;
        if (d >= base)
            return false;
        v = v * (unsigned)base + (unsigned)d;
    }
    *out = v;
    return true;
}

/* The constant's text, read before its type is known. */
static bool read_const_text(Reader *r, char *buf, size_t cap, Loc *loc)
{
    *loc = r->tok.loc;
    if (r->tok.kind != T_NUMBER && r->tok.kind != T_WORD)
        return error(r, "a constant");
    snprintf(buf, cap, "%.*s", r->tok.len, r->tok.s);
    next(r);
    if (accept_punct(r, "(")) {   /* nan(0x7fc00000): the exact encoding */
        size_t n = strlen(buf);
        if (r->tok.kind != T_NUMBER)
            return error(r, "a NaN's encoding");
        snprintf(buf + n, cap - n, "(%.*s)", r->tok.len, r->tok.s);
        next(r);
        return expect_punct(r, ")");
    }
    return true;
}

static bool const_value(Reader *r, const char *text, const Type *t, Loc loc, FxConst *out)
{
    if (!type_is_numeric_value(t)) {
        diag_error(loc, "malformed FXIR: a constant must have a scalar or vector type"), r->failed = true;
        return false;
    }
    const ScalarInfo *si = type_info(t->scalar);
    *out = (FxConst){ 0, 0 };
    if (si->cls == SCK_BOOL) {
        if (strcmp(text, "True") && strcmp(text, "False"))
            return diag_error(loc, "malformed FXIR: a Boolean constant is True or False"), r->failed = true, false;
        out->lo = text[0] == 'T';
        return true;
    }
    if (si->fmt) {
        const char *paren = strchr(text, '(');
        unsigned __int128 bits;
        if (paren && parse_u128(arena_strndup(r->a, paren + 1, strlen(paren + 1) - 1), &bits)) {
            out->lo = (uint64_t)bits;
            return true;
        }
        char *end;
        double d = strtod(text, &end);
        if (*end)
            return diag_error(loc, "malformed FXIR: '%s' is not a %s constant", text, si->name), r->failed = true,
                   false;
        out->lo = ff_from_double(si->fmt, d, FF_RNE);
        return true;
    }
    bool neg = text[0] == '-';
    unsigned __int128 v;
    if (!parse_u128(text + neg, &v))
        return diag_error(loc, "malformed FXIR: '%s' is not an integer constant", text), r->failed = true, false;
    if (neg)
        v = ~v + 1;   /* 128-bit two's complement, as FxConst holds integers */
    out->lo = (uint64_t)v;
    out->hi = (uint64_t)(v >> 64);
    return true;
}

/* ---- instructions ---- */

/* {fast} {nnan,ninf} {round=upward} {nnan, round=downward} {nsw,nuw} {nsw,promised} */
static bool read_flags(Reader *r, FxInst *i)
{
    if (!accept_punct(r, "{"))
        return true;
    do {
        if (r->tok.kind != T_WORD)
            return error(r, "a fast-math flag or round=MODE");
        if (is_word(r, "fast")) {
            i->fmf = FMF_FAST;
            next(r);
        } else if (is_word(r, "nsw") || is_word(r, "nuw") || is_word(r, "promised") || is_word(r, "wraps") ||
                   is_word(r, "last") || is_word(r, "index")) {
            i->nowrap |= is_word(r, "nsw") ? FXNW_NSW : is_word(r, "nuw") ? FXNW_NUW
                       : is_word(r, "promised") ? FXNW_PROMISED : is_word(r, "wraps") ? FXNW_WRAPS
                       : is_word(r, "last") ? FXNW_LAST : FXNW_INDEX;
            next(r);
        } else if (is_word(r, "round")) {
            next(r);
            if (!expect_punct(r, "="))
                return false;
            int m = r->tok.kind == T_WORD ? fxir_rounding_by_name(r->tok.s, (size_t)r->tok.len) : -1;
            if (m < 0)
                return error(r, "a rounding mode");
            i->rounding = (FfRound)m;
            next(r);
        } else {
            int bit = -1;
            for (int k = 0; k < FMF_NBITS; k++)
                if ((int)strlen(fxir_fmf_name(k)) == r->tok.len && !strncmp(fxir_fmf_name(k), r->tok.s, (size_t)r->tok.len))
                    bit = k;
            if (bit < 0)
                return error(r, "a fast-math flag");
            i->fmf |= 1u << bit;
            next(r);
        }
    } while (accept_punct(r, ","));
    return expect_punct(r, "}");
}

/* ": Type {flags}  # name" after an instruction with a value */
static bool read_result(Reader *r, FxInst *i)
{
    if (!expect_punct(r, ":"))
        return false;
    const Type *t = read_type(r);
    if (!t)
        return false;
    i->type = t;
    if (!read_flags(r, i))
        return false;
    if (r->tok.kind == T_COMMENT) {
        const char *s = r->tok.s + 1;
        while (*s == ' ')
            s++;
        i->name = arena_strndup(r->a, s, (size_t)(r->tok.len - (s - r->tok.s)));
        next(r);
    }
    return true;
}

static bool read_block(Reader *r, FxBlock *b);

/* print "format"[, %args...] */
static FxInst *read_print(Reader *r)
{
    const char *fmt = read_string(r);
    if (!fmt)
        return NULL;
    FxInst *ops[256];
    int n = 0;
    if (accept_punct(r, ",") && (n = read_operands(r, ops, 256)) < 0)
        return NULL;
    FxInst *i = fxb_emitv(&r->b, FX_PRINT, 0, type_simple(TY_VOID), n, ops);
    i->text = fmt;
    return i;
}

/* assert %cond, "message" */
static FxInst *read_assert(Reader *r)
{
    FxInst *cond = read_value(r);
    if (!cond || !expect_punct(r, ","))
        return NULL;
    const char *msg = read_string(r);
    if (!msg)
        return NULL;
    FxInst *i = fxb_emit(&r->b, FX_ASSERT, 0, type_simple(TY_VOID), 1, cond);
    i->text = msg;
    return i;
}

/* if %c { ... } [else { ... }] */
static bool read_if(Reader *r)
{
    FxInst *c = read_value(r);
    if (!c || !expect_punct(r, "{") || !end_of_line(r))
        return false;
    FxInst *br = fxb_if(&r->b, c);
    if (!read_block(r, &br->blocks[0]))
        return false;
    if (is_word(r, "else")) {
        next(r);
        if (!expect_punct(r, "{") || !end_of_line(r) || !read_block(r, &br->blocks[1]))
            return false;
    }
    fxb_after(&r->b, br);
    return end_of_line(r);
}

/* loop { cond } while %c|True { body } [step { ... }] */
static bool read_loop(Reader *r)
{
    if (!expect_punct(r, "{") || !end_of_line(r))
        return false;
    FxInst *lp = fxb_loop(&r->b);
    if (!read_block(r, &lp->blocks[0]) || !expect_word(r, "while"))
        return false;
    FxInst *cond = NULL;
    if (is_word(r, "True"))
        next(r);
    else if (!(cond = read_value(r)))
        return false;
    lp->ops[0] = cond;
    if (!expect_punct(r, "{") || !end_of_line(r) || !read_block(r, &lp->blocks[1]))
        return false;
    if (is_word(r, "step")) {
        next(r);
        if (!expect_punct(r, "{") || !end_of_line(r) || !read_block(r, &lp->blocks[2]))
            return false;
    }
    fxb_after(&r->b, lp);
    return end_of_line(r);
}

static FxFunc *find_func(Reader *r, const char *name, int len)
{
    for (int k = 0; k < r->m->funcs.len; k++) {
        FxFunc *f = r->m->funcs.items[k];
        if ((int)strlen(f->name) == len && !strncmp(f->name, name, (size_t)len))
            return f;
    }
    return NULL;
}

/* call @f(%a, %b) */
static FxInst *read_call(Reader *r)
{
    if (r->tok.kind != T_GLOBAL)
        return error(r, "@function"), NULL;
    FxFunc *callee = find_func(r, r->tok.s, r->tok.len);
    if (!callee) {
        diag_error(r->tok.loc, "malformed FXIR: no function '%.*s' defined in the module", r->tok.len, r->tok.s);
        r->failed = true;
        return NULL;
    }
    next(r);
    FxInst *args[256];
    int n = 0;
    if (!expect_punct(r, "("))
        return NULL;
    if (!is_punct(r, ")") && (n = read_operands(r, args, 256)) < 0)
        return NULL;
    if (!expect_punct(r, ")"))
        return NULL;
    return fxb_call(&r->b, callee, n, args);
}

/* The opcode word and its sub-operation: binop.add, special.block_idx.x, mfma.cdna3.f64.16x16x4 */
static bool read_opcode(Reader *r, FxOpcode *op, int *sub, int *dim)
{
    const char *w = r->tok.s, *dot = memchr(w, '.', (size_t)r->tok.len);
    size_t oplen = dot ? (size_t)(dot - w) : (size_t)r->tok.len;
    *op = fxir_opcode_by_name(w, oplen);
    *sub = 0;
    *dim = 0;
    if (*op == FX_OPCODE_COUNT)
        return error(r, "an FXIR opcode");
    if (dot) {
        const char *s = dot + 1, *end = w + r->tok.len;
        if (*op == FX_SPECIAL && end - s > 2 && end[-2] == '.') {   /* .x .y .z */
            *dim = end[-1] == 'y' ? 1 : end[-1] == 'z' ? 2 : 0;
            end -= 2;
        }
        *sub = fxir_sub_by_name(*op, s, (size_t)(end - s));
        if (*sub < 0)
            return error(r, "a known sub-operation");
    }
    next(r);
    return true;
}

static bool read_inst(Reader *r)
{
    Loc loc = r->tok.loc;
    r->b.loc = loc;
    int id = -1;
    if (r->tok.kind == T_VALUE) {
        if (r->tok.s[0] < '0' || r->tok.s[0] > '9')
            return error(r, "a numbered value (%N =) or an instruction");
        id = atoi(r->tok.s);
        next(r);
        if (!expect_punct(r, "="))
            return false;
    }
    if (r->tok.kind != T_WORD)
        return error(r, "an instruction");
    if (is_word(r, "if") && id < 0) {
        next(r);
        return read_if(r);
    }
    if (is_word(r, "loop") && id < 0) {
        next(r);
        return read_loop(r);
    }
    FxOpcode op;
    int sub, dim;
    if (!read_opcode(r, &op, &sub, &dim))
        return false;
    FxInst *ops[260];
    int n = 0;
    FxInst *i = NULL;
    char ctext[128];
    Loc cloc;
    switch (op) {
    case FX_CONST:
        if (!read_const_text(r, ctext, sizeof ctext, &cloc))
            return false;
        i = fxb_emit(&r->b, FX_CONST, 0, type_simple(TY_VOID), 0);
        break;
    case FX_CALL:
        i = read_call(r);
        break;
    case FX_PRINT:
        i = read_print(r);
        break;
    case FX_ASSERT:
        i = read_assert(r);
        break;
    case FX_LOAD:
        if ((n = read_access(r, ops, 64)) < 0)
            return false;
        i = fxb_emitv(&r->b, op, 0, type_simple(TY_VOID), n, ops);
        break;
    case FX_STORE:
        if ((n = read_access(r, ops, 64)) < 0 || !expect_punct(r, "="))
            return false;
        memmove(ops + 2, ops + 1, sizeof(FxInst *) * (size_t)(n - 1));
        if (!(ops[1] = read_value(r)))
            return false;
        i = fxb_emitv(&r->b, op, 0, type_simple(TY_VOID), n + 1, ops);
        break;
    case FX_ATOMIC: {
        if ((n = read_access(r, ops, 3)) < 0)
            return false;
        int more = accept_punct(r, ",") ? read_operands(r, ops + n, 4 - n) : 0;
        if (more < 0)
            return false;
        i = fxb_emitv(&r->b, op, sub, type_simple(TY_VOID), n + more, ops);
        break;
    }
    case FX_ALLOCA:
        i = fxb_alloca(&r->b, type_simple(TY_VOID), (FxSpace)sub, NULL);
        sub = 0;
        break;
    default:
        if ((n = read_operands(r, ops, 260)) < 0)
            return false;
        i = fxb_emitv(&r->b, op, sub, type_simple(TY_VOID), n, ops);
        break;
    }
    if (!i)
        return false;
    i->dim = dim;
    if (id >= 0) {
        if (!read_result(r, i))
            return false;
        define(r, id, i);
    }
    if (op == FX_CONST && !const_value(r, ctext, i->type, cloc, &i->cval))
        return false;
    return end_of_line(r);
}

/* Instructions up to the closing '}' (which is consumed). */
static bool read_block(Reader *r, FxBlock *b)
{
    FxBuilder saved = r->b;
    fxb_at_end(&r->b, b);
    skip_newlines(r);
    while (!is_punct(r, "}")) {
        if (r->tok.kind == T_EOF)
            return error(r, "'}'");
        if (!read_inst(r))
            return false;
    }
    next(r);
    r->b = saved;
    return true;
}

/* ---- functions and programs ---- */

/* (%a: T, %b: U) */
static int read_params(Reader *r, FxParam *ps, int max)
{
    int n = 0;
    if (!expect_punct(r, "("))
        return -1;
    if (accept_punct(r, ")"))
        return 0;
    do {
        if (n == max) {
            error(r, "fewer parameters");
            return -1;
        }
        if (r->tok.kind != T_VALUE) {
            error(r, "a parameter %name");
            return -1;
        }
        ps[n].name = tok_text(r);
        ps[n].loc = r->tok.loc;
        next(r);
        if (!expect_punct(r, ":") || !(ps[n].type = read_type(r)))
            return -1;
        n++;
    } while (accept_punct(r, ","));
    return expect_punct(r, ")") ? n : -1;
}

/* flag := '@' NAME NEWLINE. 1 when it is there (read), 0 when not, -1 after an error. */
static int flag_line(Reader *r, const char *name)
{
    int n = (int)strlen(name);
    if (r->tok.kind != T_GLOBAL || r->tok.len != n || strncmp(r->tok.s, name, (size_t)n))
        return 0;
    next(r);
    return end_of_line(r) ? 1 : -1;
}

static bool read_func(Reader *r, int launch_bounds, bool index_nowrap, bool outlined)
{
    FxFuncKind kind = is_word(r, "kernel") ? FXF_KERNEL : FXF_FN;
    Loc loc = r->tok.loc;
    next(r);
    if (r->tok.kind != T_WORD)
        return error(r, "a function name");
    char *name = tok_text(r);
    next(r);
    FxParam ps[256];
    int n = read_params(r, ps, 256);
    if (n < 0)
        return false;
    const Type *ret = type_simple(TY_VOID);
    if (accept_punct(r, "->") && !(ret = read_type(r)))
        return false;
    FxFunc *f = fxb_func(&r->b, r->m, name, kind, n, ret, loc);
    if (launch_bounds > 0)
        f->launch_bounds = launch_bounds;
    f->index_nowrap = index_nowrap && kind == FXF_KERNEL;
    f->outlined = outlined && kind == FXF_FN;
    r->f = f;
    r->nvalues = 0;
    r->values = NULL;
    for (int k = 0; k < n; k++) {
        r->b.loc = ps[k].loc;
        fxb_param(&r->b, f, k, ps[k].name, ps[k].type);
    }
    return expect_punct(r, "{") && end_of_line(r) && read_block(r, &f->body) && end_of_line(r);
}

static FxTensor *find_tensor(Reader *r, FxProgram *p)
{
    for (int i = p->tensors.len - 1; i >= 0; i--) {
        FxTensor *t = p->tensors.items[i];
        if ((int)strlen(t->name) == r->tok.len && !strncmp(t->name, r->tok.s, (size_t)r->tok.len)) {
            next(r);
            return t;
        }
    }
    return error(r, "a tensor of the program"), NULL;
}

static int find_scalar_param(Reader *r, const FxProgram *p)
{
    for (int i = 0; i < p->nparams; i++)
        if (p->params[i].type->kind == TY_SCALAR && (int)strlen(p->params[i].name) == r->tok.len &&
            !strncmp(p->params[i].name, r->tok.s, (size_t)r->tok.len)) {
            next(r);
            return i;
        }
    return -1;
}

/* alpha=1 or alpha=%alpha */
static bool read_scalar_arg(Reader *r, const FxProgram *p, const char *what, FxScalarArg *out)
{
    if (!expect_word(r, what) || !expect_punct(r, "="))
        return false;
    if (r->tok.kind == T_VALUE) {
        int k = find_scalar_param(r, p);
        *out = (FxScalarArg){ FXS_PARAM, 0, k };
        return k >= 0 || error(r, "a scalar parameter");
    }
    if (r->tok.kind != T_NUMBER && r->tok.kind != T_WORD)
        return error(r, "a number");
    char *end, *text = tok_text(r);
    *out = (FxScalarArg){ FXS_STATIC, strtod(text, &end), -1 };
    next(r);
    return !*end || error(r, "a number");
}

static bool read_scalar_type(Reader *r, const char *what, ScalarId *out)
{
    if (!expect_word(r, what) || !expect_punct(r, "="))
        return false;
    const Type *t = read_type(r);
    if (!t || t->kind != TY_SCALAR)
        return error(r, "a scalar type");
    *out = t->scalar;
    return true;
}

/* matmul %A[.T] @ %B[.T] alpha=.. [+ beta*%C beta=..] types(in=T[, in_b=T], acc=T, out=T) [xf32] */
static bool read_matmul(Reader *r, FxProgram *p, FxNode *n)
{
    FxTensor *ins[3];
    bool trans[2];
    for (int k = 0; k < 2; k++) {
        if (k && !expect_punct(r, "@"))
            return false;
        if (r->tok.kind != T_VALUE || !(ins[k] = find_tensor(r, p)))
            return false;
        trans[k] = false;
        if (accept_punct(r, ".")) {
            if (!expect_word(r, "T"))
                return false;
            trans[k] = true;
        }
    }
    n->trans_a = trans[0];
    n->trans_b = trans[1];
    int nins = 2;
    n->beta = (FxScalarArg){ FXS_NONE, 0, -1 };
    if (!read_scalar_arg(r, p, "alpha", &n->alpha))
        return false;
    if (accept_punct(r, "+")) {
        if (!expect_word(r, "beta") || !expect_punct(r, "*") || r->tok.kind != T_VALUE ||
            !(ins[nins++] = find_tensor(r, p)) || !read_scalar_arg(r, p, "beta", &n->beta))
            return false;
    }
    fxg_set_inputs(r->m, n, nins, ins);
    if (!(expect_word(r, "types") && expect_punct(r, "(") && read_scalar_type(r, "in", &n->in_type) &&
          expect_punct(r, ",")))
        return false;
    n->in_type_b = n->in_type;
    if (is_word(r, "in_b") && !(read_scalar_type(r, "in_b", &n->in_type_b) && expect_punct(r, ",")))
        return false;
    if (!(read_scalar_type(r, "acc", &n->acc_type) && expect_punct(r, ",") &&
          read_scalar_type(r, "out", &n->out_type) && expect_punct(r, ")")))
        return false;
    n->xf32 = accept_word(r, "xf32");
    return true;
}

/* map @body(%X, %Y, %scalar) */
static bool read_body_call(Reader *r, FxProgram *p, FxNode *n)
{
    if (r->tok.kind != T_GLOBAL || !(n->body = find_func(r, r->tok.s, r->tok.len)))
        return error(r, "the @name of a fn defined above");
    next(r);
    FxTensor *ins[64];
    int scal[64], nins = 0, nscal = 0;
    if (!expect_punct(r, "("))
        return false;
    while (!is_punct(r, ")")) {
        if ((nins || nscal) && !expect_punct(r, ","))
            return false;
        if (r->tok.kind != T_VALUE || nins + nscal == 64)
            return error(r, "a tensor or a scalar parameter");
        int k = find_scalar_param(r, p);
        if (k >= 0)
            scal[nscal++] = k;
        else if (!(ins[nins++] = find_tensor(r, p)))
            return false;
    }
    next(r);
    fxg_set_inputs(r->m, n, nins, ins);
    fxg_set_scalars(r->m, n, nscal, scal);
    return true;
}

/* over Tensor[...]: the index space of a Reduce that computes its elements
 * with a body; a tensor of no buffer, not one of the program's. */
static bool read_domain(Reader *r, FxNode *n)
{
    Loc loc = r->tok.loc;
    const Type *t;
    if (!expect_word(r, "over") || !(t = read_type(r)))
        return false;
    n->domain = arena_alloc(r->m->arena, sizeof *n->domain);
    *n->domain = (FxTensor){ arena_printf(r->m->arena, "%s.domain", n->out->name), t, -1, loc, NULL };
    return true;
}

/* reduce.max %A axis=1 | reduce.sum @body(%X, %s) over Tensor[...] axis=1 */
static bool read_reduce(Reader *r, FxProgram *p, FxNode *n, const char *kind)
{
    int k = fxir_reduce_by_name(kind);
    if (k < 0)
        return error(r, "reduce.sum, reduce.max, reduce.min, reduce.maxabs or reduce.minabsnz");
    n->reduce = (FxReduceKind)k;
    if (r->tok.kind == T_GLOBAL) {
        if (!read_body_call(r, p, n) || !read_domain(r, n))
            return false;
    } else {
        FxTensor *in = r->tok.kind == T_VALUE ? find_tensor(r, p) : NULL;
        if (!in)
            return error(r, "the reduced tensor or the @name of a fn");
        fxg_set_inputs(r->m, n, 1, &in);
    }
    int64_t axis;
    if (!expect_word(r, "axis") || !expect_punct(r, "=") || !read_int64(r, &axis))
        return false;
    n->axis = (int)axis;
    return true;
}

/* nodeK: %OUT = matmul|map|reduce.K ... : Tensor[...] [when %G ==|!= 0] [note "..."] [with previous] */
static bool read_node(Reader *r, FxProgram *p)
{
    Loc loc = r->tok.loc;
    next(r);
    FxTensor *out;
    if (!expect_punct(r, ":") || r->tok.kind != T_VALUE || !(out = find_tensor(r, p)) || !expect_punct(r, "="))
        return false;
    if (r->tok.kind != T_WORD)
        return error(r, "matmul, map or reduce");
    char *word = tok_text(r);
    next(r);
    bool ok;
    FxNode *n;
    if (!strcmp(word, "matmul")) {
        n = fxg_node(r->m, p, FXN_MATMUL, out, loc, NULL);
        ok = read_matmul(r, p, n);
    } else if (!strcmp(word, "map")) {
        n = fxg_node(r->m, p, FXN_MAP, out, loc, NULL);
        ok = read_body_call(r, p, n);
    } else if (!strncmp(word, "reduce.", 7)) {
        n = fxg_node(r->m, p, FXN_REDUCE, out, loc, NULL);
        ok = read_reduce(r, p, n, word + 7);
    } else {
        return error(r, "matmul, map or reduce");
    }
    /* the printed output type repeats the tensor's; it must agree */
    const Type *t;
    if (!ok || !expect_punct(r, ":") || !(t = read_type(r)))
        return false;
    if (!type_equal(t, out->type)) {
        diag_error(loc, "malformed FXIR: node output type differs from tensor %%%s's type", out->name);
        r->failed = true;
        return false;
    }
    if (is_word(r, "when")) {   /* when %G == 0 | != 0 */
        next(r);
        if (r->tok.kind != T_VALUE || !(n->when = find_tensor(r, p)))
            return false;
        n->when_nonzero = is_punct(r, "!");
        if (!(n->when_nonzero ? expect_punct(r, "!") : expect_punct(r, "=")) || !expect_punct(r, "="))
            return false;
        int64_t zero;
        if (!read_int64(r, &zero) || zero != 0)
            return error(r, "0");
    }
    if (is_word(r, "note")) {
        next(r);
        if (!(n->note = read_string(r)))
            return false;
    }
    if (is_word(r, "with")) {   /* with previous: the Map runs in the previous node's kernel */
        next(r);
        if (!expect_word(r, "previous"))
            return false;
        n->with_previous = true;
    }
    return end_of_line(r);
}

/* view %NAME : Tensor[...] = %BASE */
static bool read_view(Reader *r, FxProgram *p)
{
    Loc loc = r->tok.loc;
    next(r);
    if (r->tok.kind != T_VALUE)
        return error(r, "%name");
    char *name = tok_text(r);
    next(r);
    const Type *t;
    FxTensor *base;
    if (!expect_punct(r, ":") || !(t = read_type(r)) || !expect_punct(r, "=") || r->tok.kind != T_VALUE ||
        !(base = find_tensor(r, p)) || !end_of_line(r))
        return false;
    if (t->kind != TY_TENSOR)
        return error(r, "a Tensor type");
    fxg_view(r->m, p, name, base, t->ndims, t->dims, t->dim_names, loc);
    return true;
}

static bool read_program(Reader *r, const char *precision)
{
    Loc loc = r->tok.loc;
    next(r);
    if (r->tok.kind != T_WORD)
        return error(r, "a program name");
    char *name = tok_text(r);
    next(r);
    FxParam ps[256];
    int n = read_params(r, ps, 256);
    if (n < 0 || !expect_punct(r, "{") || !end_of_line(r))
        return false;
    FxProgram *p = fxg_program(r->m, name, n, loc);
    p->precision = precision;
    for (int k = 0; k < n; k++) {
        p->params[k] = ps[k];
        if (ps[k].type->kind == TY_TENSOR)
            fxg_param_tensor(r->m, p, k);
    }
    while (!accept_punct(r, "}")) {
        if (is_word(r, "transient")) {
            Loc tloc = r->tok.loc;
            next(r);
            if (r->tok.kind != T_VALUE)
                return error(r, "%name");
            char *tname = tok_text(r);
            next(r);
            const Type *t;
            if (!expect_punct(r, ":") || !(t = read_type(r)) || !end_of_line(r))
                return false;
            if (t->kind != TY_TENSOR)
                return error(r, "a Tensor type");
            FxTensor *tt = fxg_transient(r->m, p, tname, t->elem, t->ndims, t->dims, t->dim_names, tloc);
            tt->type = t;
        } else if (is_word(r, "view")) {
            if (!read_view(r, p))
                return false;
        } else if (r->tok.kind == T_WORD && !strncmp(r->tok.s, "node", 4)) {
            if (!read_node(r, p))
                return false;
        } else {
            return error(r, "'transient', 'view', 'nodeN:' or '}'");
        }
    }
    return end_of_line(r);
}

FxModule *fxir_read(Arena *a, const SrcFile *f)
{
    Reader r = { .a = a, .file = f, .p = f->text, .line = 1, .col = 1 };
    r.m = fxir_module_new(a, f->name);
    next(&r);
    if (r.tok.kind == T_COMMENT) {   /* "# FXIR module NAME" */
        const char *s = r.tok.s, *k = "# FXIR module";
        if (r.tok.len >= (int)strlen(k) && !strncmp(s, k, strlen(k))) {
            const char *nm = s + strlen(k);
            while (*nm == ' ')
                nm++;
            if (nm < s + r.tok.len)
                r.m->source_name = arena_strndup(a, nm, (size_t)(s + r.tok.len - nm));
        }
    }
    skip_newlines(&r);
    while (r.tok.kind != T_EOF && !r.failed) {
        int bounds = 0;
        const char *precision = NULL;
        int nowrap = flag_line(&r, "index_nowrap");
        int outlined = nowrap < 0 ? -1 : flag_line(&r, "outlined");
        if (outlined < 0)
            break;
        if (r.tok.kind == T_GLOBAL && r.tok.len == 13 && !strncmp(r.tok.s, "launch_bounds", 13)) {
            next(&r);
            int64_t v = 0;
            if (!expect_punct(&r, "(") || !read_int64(&r, &v) || !expect_punct(&r, ")") || !end_of_line(&r))
                break;
            bounds = (int)v;
        } else if (r.tok.kind == T_GLOBAL && r.tok.len == 21 && !strncmp(r.tok.s, "contraction_precision", 21)) {
            next(&r);
            if (!expect_punct(&r, "(") || !(precision = read_string(&r)) || !expect_punct(&r, ")") ||
                !end_of_line(&r))
                break;
        }
        if ((is_word(&r, "kernel") || is_word(&r, "fn")) && !precision)
            read_func(&r, bounds, nowrap, outlined);
        else if (is_word(&r, "program") && !bounds && !nowrap && !outlined)
            read_program(&r, precision);
        else
            error(&r, "'kernel', 'fn' or 'program'");
    }
    return r.failed ? NULL : r.m;
}
