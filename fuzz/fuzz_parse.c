/* fuzz_parse.c - harness: source bytes -> AST (the scanner, the parser, its
 * error recovery and the AST printer of --emit-ast). Bad input must give
 * located errors; a crash, a sanitizer report or an internal error is a
 * finding. */
#include "fuzz_common.h"

int fz_one(const uint8_t *data, size_t size)
{
    FzCompile z;
    fz_options(&z, NULL, 0);
    AstNode *ast = fz_parse_only(&z, data, size);
    if (ast)
        ast_dump(z.diag_out, ast);   /* into the captured diagnostics: nowhere */
    fz_finish(&z);
    return 0;
}
