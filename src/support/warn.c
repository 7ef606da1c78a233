/* warn.c - the table of named warnings and their on/error state. */
#include "support/warn.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const WarnInfo table[WARN_COUNT] = {
    { WARN_UNUSED_VARIABLE, "unused-variable", WARN_IN_WALL,
      "a let or var whose value is never read (a name starting with '_' is exempt)" },
    { WARN_UNUSED_PARAMETER, "unused-parameter", WARN_IN_WEXTRA,
      "a parameter of a fn or kernel that is never read (a name starting with '_' is exempt)" },
    { WARN_SIGN_COMPARE, "sign-compare", WARN_BY_DEFAULT,
      "a comparison of signed and unsigned integers whose result differs from the mathematical one for some values" },
    { WARN_SHADOW, "shadow", WARN_BY_NAME,
      "a let or var that hides a name bound in an enclosing scope" },
    { WARN_CONSTANT_CONDITION, "constant-condition", WARN_IN_WALL,
      "an `if` whose condition is made of literals only (a condition naming a const is a compile-time choice)" },
    { WARN_UNREACHABLE_CODE, "unreachable-code", WARN_IN_WALL,
      "a statement after return, break or continue in the same block" },
    { WARN_DIVERGENT_BARRIER, "divergent-barrier", WARN_BY_DEFAULT,
      "fx.barrier() (also through a fn) under a condition or loop that depends on thread_idx" },
};

static struct {
    bool on[WARN_COUNT];
    bool error[WARN_COUNT];
} state;

const WarnInfo *warn_info(WarnId id)
{
    return &table[id];
}

const WarnInfo *warn_table(int *n)
{
    *n = WARN_COUNT;
    return table;
}

void warn_reset(void)
{
    for (int i = 0; i < WARN_COUNT; i++) {
        state.on[i] = table[i].group == WARN_BY_DEFAULT;
        state.error[i] = false;
    }
}

static int warn_by_name(const char *name)
{
    for (int i = 0; i < WARN_COUNT; i++)
        if (strcmp(table[i].name, name) == 0)
            return i;
    return -1;
}

/* -Wall turns on the default and -Wall groups; -Wextra those and its own. */
static void enable_groups(WarnGroup upto)
{
    for (int i = 0; i < WARN_COUNT; i++)
        if (table[i].group <= upto)
            state.on[i] = true;
}

/* One -W option, read: a group (-Wall, -Wextra) or one warning, maybe
 * negated (-Wno-) and maybe about its error state (-Werror=). */
typedef struct WarnOption {
    int group;          /* WARN_IN_WALL / WARN_IN_WEXTRA; -1: one warning */
    int warning;        /* its index when group < 0 */
    bool negated, error;
} WarnOption;

static bool read_option(const char *arg, WarnOption *o)
{
    *o = (WarnOption){ -1, -1, false, false };
    if (strncmp(arg, "-W", 2) != 0)
        return false;
    const char *w = arg + 2;
    if (strcmp(w, "all") == 0 || strcmp(w, "extra") == 0) {
        o->group = w[0] == 'a' ? WARN_IN_WALL : WARN_IN_WEXTRA;
        return true;
    }
    o->negated = strncmp(w, "no-", 3) == 0;
    if (o->negated)
        w += 3;
    o->error = strncmp(w, "error=", 6) == 0;
    if (o->error)
        w += 6;
    o->warning = warn_by_name(w);
    return o->warning >= 0;
}

bool warn_is_option(const char *arg)
{
    WarnOption o;
    return read_option(arg, &o);
}

bool warn_apply(const char *arg)
{
    WarnOption o;
    if (!read_option(arg, &o))
        return false;
    if (o.group >= 0) {
        enable_groups((WarnGroup)o.group);
    } else if (o.error) {
        /* as gcc: -Werror=name also turns name on; -Wno-error=name keeps it as it is */
        state.error[o.warning] = !o.negated;
        if (!o.negated)
            state.on[o.warning] = true;
    } else {
        state.on[o.warning] = !o.negated;
    }
    return true;
}

bool warn_enabled(WarnId id)
{
    return state.on[id] && !diag_warnings_suppressed();
}

void warn_at(WarnId id, Loc loc, const char *fmt, ...)
{
    if (!warn_enabled(id))
        return;
    char msg[1800], full[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bool as_error = state.error[id] || diag_warnings_are_errors();
    snprintf(full, sizeof full, "%s [-W%s%s]", msg, as_error ? "error=" : "", table[id].name);
    diag_report_warning(loc, as_error, full);
}
