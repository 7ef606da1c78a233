/* prog.c - compile and run programs on the host for the tests (prog.h). */
#include "prog.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *prog_wave_arch;

/* Parse and lower `src` for a processor or the host; pipe_free(&p->c) after. */
bool prog_lower(Prog *p, const char *src, const char *arch, bool host, const char *const *options)
{
    memset(p, 0, sizeof *p);
    snprintf(p->path, sizeof p->path, "/tmp/fxcc-prog-%d.fx", (int)getpid());
    FILE *f = fopen(p->path, "w");
    fputs(src, f);
    fclose(f);
    opt_defaults(&p->o);
    p->o.input = p->path;
    p->o.arch = arch ? arch : "gfx942";
    p->o.host = host;
    if (host && prog_wave_arch) {
        p->o.arch = prog_wave_arch;
        p->o.arch_given = true;
    }
    p->o.verify_each = true;
    p->options = arena_new();
    for (int n = 0; options && options[n]; n++) {
        char *argv[2] = { NULL, (char *)options[n] };
        int i = 1;
        if (opt_parse_one(p->options, &p->o, 2, argv, &i) != 1)
            return false;
    }
    if (!opt_finish(&p->o))
        return false;
    pipe_init(&p->c, &p->o);
    bool ok = pipe_parse(&p->c) && pipe_lower(&p->c);
    remove(p->path);
    return ok;
}

bool prog_open(Prog *p, const char *src, const char *name, const char *const *options)
{
    if (!prog_lower(p, src, NULL, true, options))
        return false;
    FxPlan *plan = pipe_plan(&p->c, name);
    if (!plan)
        return false;
    /* run the plan as it travels in an artifact: through its text */
    char *err = NULL, *text = fxplan_to_text(plan);
    p->plan = fxplan_parse(text, &err);
    free(text);
    if (p->plan)
        p->hm = pipe_jit(&p->c, &err);
    if (!p->hm && err)
        fprintf(stderr, "load: %s\n", err);
    free(err);
    return p->hm != NULL;
}

bool prog_run(Prog *p, void **args)
{
    char *err = NULL;
    int rc = rt_program_run(p->hm, p->plan, args, &err);
    if (rc != 0) {
        fprintf(stderr, "run: %s\n", err);
        free(err);
    }
    return rc == 0;
}

char *prog_assembly(const char *src, const char *arch, const char *const *options)
{
    Prog p;
    bool ok = prog_lower(&p, src, arch, false, options);
    CgModule *m = ok ? pipe_codegen(&p.c) : NULL;
    char *text = m ? cg_assembly(m) : NULL;
    cg_free(m);
    prog_close(&p);
    return text;
}

void prog_close(Prog *p)
{
    rt_host_free(p->hm);
    fxplan_free(p->plan);
    pipe_free(&p->c);
    arena_free(p->options);
}

