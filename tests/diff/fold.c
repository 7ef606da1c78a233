/* fold.c - expected values: the constant folder, reached the way `fxcc --eval`
 * reaches it (parse_expression + sema_eval), on the exact spelling of the
 * operands. */
#include "diff.h"
#include <stdio.h>
#include <stdlib.h>
#include "sema/fold.h"

struct Folder {
    Arena *arena;
    Sema *sema;
    SemaOptions so;
    int uses;
    FILE *sink;     /* diagnostics of rejected expressions go nowhere */
};

static void renew(Folder *f)
{
    if (f->sema)
        sema_free(f->sema);
    if (f->arena)
        arena_free(f->arena);
    f->arena = arena_new();
    f->sema = sema_new(f->arena, &f->so);
    f->uses = 0;
}

Folder *folder_new(void)
{
    Folder *f = calloc(1, sizeof *f);
    f->so.wave_size = 1;
    f->sink = fopen("/dev/null", "w");
    renew(f);
    return f;
}

void folder_free(Folder *f)
{
    sema_free(f->sema);
    arena_free(f->arena);
    fclose(f->sink);
    free(f);
}

bool fold_text(Folder *f, const char *text, const Type **type, u128 *bits)
{
    if (++f->uses > 4000) /* the arena only grows: start afresh now and then */
        renew(f);
    diag_set_stream(f->sink);
    SrcFile *sf = diag_file_from_string("<fold>", text);
    AstNode *e = parse_expression(f->arena, sf);
    Val *v = e ? sema_eval(f->sema, e) : NULL;
    bool ok = v && v->is_static && v->type->kind == TY_SCALAR;
    if (ok) {
        *type = v->type;
        if (type_info(v->type->scalar)->fmt) {
            *bits = fold_bits64(v);
        } else {
            BigInt b = fold_bits_big(v);
            *bits = ((u128)b.w[1] << 64) | b.w[0];
        }
        *bits &= sc_mask(v->type->scalar);
    }
    diag_free_file(sf);
    diag_set_stream(NULL);
    return ok;
}
