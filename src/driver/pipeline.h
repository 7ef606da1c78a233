/* pipeline.h - one compilation from source text to FXIR (and on to LLVM):
 * the stages in order, shared by fxcc, fxrun and the tests. */
#ifndef FX_PIPELINE_H
#define FX_PIPELINE_H
#include "driver/options.h"
#include "parser/ast.h"
#include "abi/fxplan.h"
#include "runtime/fxrt_llvm.h"
#include "sema/sema.h"

typedef struct FxCompilation {
    Arena *arena;
    const FxOptions *opts;
    SemaOptions sema_opts;
    SrcFile *file;
    AstNode *ast;
    Sema *sema;
    FxModule *module;
    PtrVec extra_files;     /* SrcFile*: command-line expressions, freed with the compilation */
    FILE *print_out;        /* where --print-after writes; NULL: stdout */
} FxCompilation;

/* Sets up the compilation (diagnostic settings, sema options). */
void pipe_init(FxCompilation *c, const FxOptions *o);
/* Loads and parses o->input (or nothing, for a bare --eval); registers the
 * items with sema. False after errors. */
bool pipe_parse(FxCompilation *c);
/* Checks and lowers to FXIR, then runs the FXIR passes. False after errors. */
bool pipe_lower(FxCompilation *c);
/* Builds, optimizes and verifies the LLVM module for `o`. */
CgModule *pipe_codegen(FxCompilation *c);
/* Builds the host module (the compilation's target must be the host) and
 * JITs it; NULL with *err (malloc'd, or NULL after located errors). */
RtHostModule *pipe_jit(FxCompilation *c, char **err);
/* The launch plan of program `name` after lowering, or NULL. */
FxPlan *pipe_plan(FxCompilation *c, const char *name);
void pipe_free(FxCompilation *c);

#endif
