/* diag.h - source files, source locations and gcc-style diagnostics. */
#ifndef FX_DIAG_H
#define FX_DIAG_H
#include <stdbool.h>
#include <stdio.h>
#include <stdarg.h>

typedef struct SrcFile {
    const char *name;   /* as given on the command line, or "<eval>" */
    const char *text;   /* whole contents, NUL-terminated */
    long len;
} SrcFile;

/* A source range; lines and columns are 1-based, end is inclusive.
 * line == 0 means "no location" (command-line errors). */
typedef struct Loc {
    const SrcFile *file;
    int line, col;
    int end_line, end_col;
} Loc;

typedef enum { DIAG_TEXT, DIAG_JSON } DiagFormat;

/* Process-wide diagnostic settings and counters (one compilation at a time). */
void diag_reset(void);
void diag_set_stream(FILE *out);      /* default stderr */
void diag_set_format(DiagFormat f);
/* JSON: writes the last diagnostic, which waits for its notes; fxcc and
 * fxrun call it before they exit (a no-op for text). */
void diag_flush(void);
void diag_set_werror(bool on);
void diag_set_no_warnings(bool on);
bool diag_warnings_are_errors(void);   /* -Werror */
bool diag_warnings_suppressed(void);   /* -w */
/* A warning already formatted (support/warn.c names it): printed as an
 * error, and counted as one, when as_error. */
void diag_report_warning(Loc loc, bool as_error, const char *msg);
/* Print exact repeats (same place, same message) once, until diag_reset. */
void diag_set_dedupe(bool on);
int diag_error_count(void);

void diag_error(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_warning(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_note(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An optimization remark (-Rpass / -Rpass-missed): printed as "remark:". */
void diag_remark(Loc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_vreport(const char *severity, Loc loc, const char *fmt, va_list ap);

/* The largest source file fxcc reads (docs/limits.md): a bound on the
 * memory a compilation can take, and what keeps `fxcc /dev/zero` or
 * `import "/dev/zero"` from reading forever. */
#define DIAG_MAX_SOURCE_BYTES (64L << 20)

/* Read a whole file into a SrcFile allocated with malloc; NULL (errno set) on
 * failure. A file of more than DIAG_MAX_SOURCE_BYTES is not read: errno EFBIG. */
SrcFile *diag_load_file(const char *path);
SrcFile *diag_file_from_string(const char *name, const char *text);
void diag_free_file(SrcFile *f);

Loc loc_span(Loc a, Loc b);  /* from the start of a to the end of b */

#endif
