/* warn.h - the named warnings: which exist, which are on, which are errors.
 * The table in warn.c is the one place that decides a warning's name (as
 * gcc spells its option: -Wname, -Wno-name, -Werror=name) and the group
 * (default, -Wall, -Wextra, or only by name) that turns it on. */
#ifndef FX_WARN_H
#define FX_WARN_H
#include <stdbool.h>
#include "support/diag.h"

typedef enum {
    WARN_UNUSED_VARIABLE,    /* a let or var never read */
    WARN_UNUSED_PARAMETER,   /* a fn or kernel parameter never read */
    WARN_SIGN_COMPARE,       /* signed vs unsigned: differs from the mathematical result */
    WARN_SHADOW,             /* a let/var hides a name of an enclosing scope */
    WARN_CONSTANT_CONDITION, /* `if` on a condition made of literals only */
    WARN_UNREACHABLE_CODE,   /* a statement after return, break or continue */
    WARN_DIVERGENT_BARRIER,  /* fx.barrier() under a thread_idx-dependent condition */
    WARN_COUNT
} WarnId;

typedef enum { WARN_BY_DEFAULT, WARN_IN_WALL, WARN_IN_WEXTRA, WARN_BY_NAME } WarnGroup;

typedef struct WarnInfo {
    WarnId id;
    const char *name;      /* the option's spelling after -W */
    WarnGroup group;
    const char *what;      /* one line for --help and the docs test */
} WarnInfo;

const WarnInfo *warn_info(WarnId id);
/* Every warning, in WarnId order. */
const WarnInfo *warn_table(int *n);

/* Back to the defaults: the WARN_BY_DEFAULT ones on, none an error. */
void warn_reset(void);
/* Applies one -W option (-Wall, -Wextra, -Wname, -Wno-name, -Werror=name,
 * -Wno-error=name). False: not a warning option this table knows (the
 * caller says so); -Werror and -w stay the driver's. */
bool warn_apply(const char *arg);
bool warn_enabled(WarnId id);
/* Whether warn_apply would take arg (for checking a command line first). */
bool warn_is_option(const char *arg);

/* Reports warning id at loc when it is on: "warning: msg [-Wname]", or as
 * an error "[-Werror=name]" under -Werror=name (or -Werror). */
void warn_at(WarnId id, Loc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
