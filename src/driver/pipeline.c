/* pipeline.c - parse -> sema -> FXIR -> (passes) -> LLVM. */
#include "driver/pipeline.h"
#include "passes/passes.h"
#include "passes/plan.h"
#include <errno.h>
#include <string.h>

void pipe_init(FxCompilation *c, const FxOptions *o)
{
    memset(c, 0, sizeof *c);
    c->arena = arena_new();
    c->opts = o;
    diag_reset();
    diag_set_format(o->diag_format);
    diag_set_werror(o->werror);
    diag_set_no_warnings(o->no_warnings);
    diag_set_dedupe(true);   /* an error in an unrolled loop body is reported once */
    SemaOptions *so = &c->sema_opts;
    so->defines = (const char *const *)o->defines.items;
    so->ndefines = o->defines.len;
    so->include_dirs = (const char *const *)o->includes.items;
    so->nincludes = o->includes.len;
    so->fastmath = o->fastmath;
    so->wave_size = o->target->wave_size;
    c->sema = sema_new(c->arena, so);
}

bool pipe_parse(FxCompilation *c)
{
    if (!c->opts->input)
        return true;
    c->file = diag_load_file(c->opts->input);
    if (!c->file) {
        diag_error((Loc){ 0 }, "cannot read '%s': %s", c->opts->input, strerror(errno));
        return false;
    }
    c->ast = parse_file(c->arena, c->file);
    if (!c->ast)
        return false;
    return sema_add_module(c->sema, c->ast) && diag_error_count() == 0;
}

bool pipe_lower(FxCompilation *c)
{
    c->module = sema_lower(c->sema);
    if (!c->module)
        return false;
    c->module->source_name = c->opts->input;
    const FxOptions *o = c->opts;
    PassOptions po = { .fp_contract = o->fp_contract, .remarks = o->rpass, .remarks_missed = o->rpass_missed,
                       .print_after = o->print_after, .print_out = stdout };
    int errors = diag_error_count();
    pass_run_pipeline(c->module, &po);
    /* Programs become kernels plus a launch plan once the passes that
     * rewrite program graphs have run. */
    c->plans = plan_lower_programs(c->module, o->target);
    for (int i = 0; i < c->plans.len; i++) {
        /* The plan travels inside the artifact as __fxplan_<program>. */
        FxPlan *p = c->plans.items[i];
        FxData *d = arena_alloc(c->arena, sizeof *d);
        d->name = arena_printf(c->arena, "__fxplan_%s", p->program);
        d->bytes = plan_to_text(c->arena, p);
        d->len = strlen(d->bytes);
        ptrvec_push(c->arena, &c->module->data, d);
    }
    return diag_error_count() == errors;
}

CgModule *pipe_codegen(FxCompilation *c)
{
    CgOptions cg = { c->opts->target, c->opts->opt_level };
    CgModule *m = cg_build(c->module, &cg);
    if (!m)
        return NULL;
    if (!cg_optimize(m)) {
        cg_free(m);
        return NULL;
    }
    return m;
}

void pipe_free(FxCompilation *c)
{
    if (c->sema)
        sema_free(c->sema);
    diag_free_file(c->file);
    for (int i = 0; i < c->extra_files.len; i++)
        diag_free_file(c->extra_files.items[i]);
    arena_free(c->arena);
}
