/* pipeline.c - parse -> sema -> FXIR -> (passes) -> LLVM. */
#include "driver/pipeline.h"
#include "passes/passes.h"
#include "support/timer.h"
#include "support/warn.h"
#include <errno.h>
#include <string.h>

/* The target whose FXIR is built (options.h); callers that fill FxOptions
 * themselves may leave it to be the code's target. */
static const TgtTarget *lowering_target(const FxOptions *o)
{
    return o->lowering ? o->lowering : o->target;
}

void pipe_init(FxCompilation *c, const FxOptions *o)
{
    memset(c, 0, sizeof *c);
    c->arena = arena_new();
    c->opts = o;
    timer_enable(o->time_passes);
    diag_reset();
    diag_set_format(o->diag_format);
    diag_set_werror(o->werror);
    diag_set_no_warnings(o->no_warnings);
    warn_reset();
    for (int i = 0; i < o->warnings.len; i++)
        warn_apply(o->warnings.items[i]);
    diag_set_dedupe(true);   /* an error in an unrolled loop body is reported once */
    SemaOptions *so = &c->sema_opts;
    so->defines = (const char *const *)o->defines.items;
    so->ndefines = o->defines.len;
    so->include_dirs = (const char *const *)o->includes.items;
    so->nincludes = o->includes.len;
    so->fastmath = o->fastmath;
    so->wave_size = lowering_target(o)->wave_size;
    so->no_assert = o->no_assert;
    so->target = lowering_target(o);
    c->sema = sema_new(c->arena, so);
}

bool pipe_parse(FxCompilation *c)
{
    if (!c->opts->input)
        return true;
    /* "-": standard input, which fxcc read before (o->stdin_text) */
    bool from_stdin = strcmp(c->opts->input, "-") == 0;
    c->file = from_stdin ? diag_file_from_string("<stdin>", c->opts->stdin_text ? c->opts->stdin_text : "")
                         : diag_load_file(c->opts->input);
    if (!c->file && errno == EFBIG) {
        diag_error((Loc){ 0 }, "cannot read '%s': the file is larger than %ld MiB, the most fxcc reads "
                   "(docs/limits.md)", c->opts->input, DIAG_MAX_SOURCE_BYTES >> 20);
        return false;
    }
    if (!c->file) {
        diag_error((Loc){ 0 }, "cannot read '%s': %s", c->opts->input, strerror(errno));
        return false;
    }
    TimerMark t = timer_mark();
    c->ast = parse_file(c->arena, c->file);
    timer_add("parse", t);
    if (!c->ast)
        return false;
    t = timer_mark();
    bool ok = sema_add_module(c->sema, c->ast) && diag_error_count() == 0;
    timer_add("sema", t);
    return ok;
}

bool pipe_lower(FxCompilation *c)
{
    TimerMark t = timer_mark();
    c->module = sema_lower(c->sema);
    timer_add("sema", t);
    if (!c->module)
        return false;
    c->module->source_name = c->opts->input;
    const FxOptions *o = c->opts;
    PassOptions po = { .target = lowering_target(o), .host_codegen = o->target->kind == TGT_HOST, .verify_each = o->verify_each, .fp_contract = o->fp_contract,
                       .precision = o->precision, .direct_rescaling = o->direct_rescaling,
                       .guard_fallback = o->guard_fallback, .guard_adapt = o->guard_adapt,
                       .remarks = o->rpass, .remarks_missed = o->rpass_missed,
                       .print_after = o->print_after, .print_out = c->print_out ? c->print_out : stdout };
    return pass_run_pipeline(c->module, &po);
}

CgModule *pipe_codegen(FxCompilation *c)
{
    char *features = arena_alloc(c->arena, 64);
    tgt_llvm_features(&c->opts->target_id, features, 64);
    CgOptions cg = { c->opts->target, c->opts->opt_level, lowering_target(c->opts)->wave_size,
                     c->opts->target->kind == TGT_AMDGPU ? features : NULL, c->opts->check != 0, c->opts->debug,
                     c->opts->host_fibers };
    TimerMark t = timer_mark();
    CgModule *m = cg_build(c->module, &cg);
    timer_add("codegen (FXIR to LLVM IR)", t);
    if (!m)
        return NULL;
    t = timer_mark();
    bool ok = cg_optimize(m);
    timer_add("LLVM optimization", t);
    if (!ok) {
        cg_free(m);
        return NULL;
    }
    return m;
}

RtHostModule *pipe_jit(FxCompilation *c, char **err)
{
    *err = NULL;
    CgModule *m = pipe_codegen(c);
    if (!m)
        return NULL;
    LLVMModuleRef mod;
    LLVMContextRef ctx;
    cg_release(m, &mod, &ctx);
    TimerMark t = timer_mark();
    RtHostModule *hm = rt_host_load(mod, ctx, err);
    timer_add("JIT (machine code)", t);
    return hm;
}

FxPlan *pipe_plan(FxCompilation *c, const char *name)
{
    for (int i = 0; c->module && i < c->module->programs.len; i++)
        if (strcmp(((FxProgram *)c->module->programs.items[i])->name, name) == 0)
            return c->module->plans.items[i];
    return NULL;
}

void pipe_free(FxCompilation *c)
{
    timer_report(stderr);
    if (c->sema)
        sema_free(c->sema);
    diag_free_file(c->file);
    for (int i = 0; i < c->extra_files.len; i++)
        diag_free_file(c->extra_files.items[i]);
    arena_free(c->arena);
}
