/* fxtest.h - what every test suite shares: one CUnit main that exits
 * non-zero when any assertion failed (CU_get_error() does not), golden
 * files (an input beside its expected output; FX_UPDATE_GOLDEN=1 rewrites
 * the expected files), reading files and capturing diagnostics. */
#ifndef FX_TEST_FXTEST_H
#define FX_TEST_FXTEST_H
#include <CUnit/Basic.h>
#include <stdbool.h>

typedef struct FxtTest {
    const char *name;
    void (*run)(void);
} FxtTest;

typedef struct FxtSuite {
    const char *name;
    const FxtTest *tests;     /* ended by { NULL, NULL } */
    int (*init)(void);        /* optional set-up / tear-down; non-zero fails the suite */
    int (*clean)(void);
} FxtSuite;

/* The suite's source folder, from its meson.build (-DTEST_DIR=...). */
#ifndef TEST_DIR
#define TEST_DIR "."
/* The line starting with `field` (e.g. "VmFlags:") of the mapping holding
 * addr in /proc/self/smaps (malloc'd), or NULL when no mapping holds it;
 * fxt_smaps_kb reads a "Field:  N kB" line's N (-1 when there is none). */
char *fxt_smaps_line(const void *addr, const char *field);
long fxt_smaps_kb(const void *addr, const char *field);

#endif

/* Runs the suites (ended by { NULL, NULL }) named on the command line, or
 * all of them. fxt_dir is `dir` unless `--dir DIR` is given; other words
 * that name no suite are left in fxt_args for the suite (e.g. the paths of
 * the programs it drives). Returns the process's exit status: 0 when every
 * assertion held. Call it as fxt_main(argc, argv, TEST_DIR, suites). */
int fxt_main(int argc, char **argv, const char *dir, const FxtSuite *suites);
extern const char *fxt_dir;
extern char **fxt_args;
extern int fxt_nargs;

/* x as the xf32 matrix instructions read it (docs/waves.md): rounded to
 * Float32, then its low 13 significand bits dropped. */
float fxt_xf32(double x);

char *fxt_read_file(const char *path);             /* malloc'd; NULL when unreadable */
char *fxt_read_bytes(const char *path, size_t *len); /* the same, for binary files */
bool fxt_write_file(const char *path, const char *text);
bool fxt_updating(void);                            /* FX_UPDATE_GOLDEN=1 */
/* `got` against the file `expected` (rewritten when updating). On a
 * mismatch both texts are printed. */
bool fxt_golden(const char *expected, const char *got);
/* For every file of fxt_dir/sub ending in in_ext (sorted): produce its
 * output and compare it with the file of the same stem ending in out_ext.
 * Returns how many inputs there were. */
int fxt_golden_dir(const char *sub, const char *in_ext, const char *out_ext,
                   char *(*produce)(const char *in_path, const char *name, void *ctx), void *ctx);
/* The names (not paths) of dir's files ending in ext, sorted; free with fxt_free_list. */
char **fxt_list(const char *dir, const char *ext, int *n);
void fxt_free_list(char **names, int n);

/* Diagnostics printed between begin and end, as a malloc'd string. */
void fxt_capture_begin(void);
char *fxt_capture_end(void);

/* The line starting with `field` (e.g. "VmFlags:") of the mapping holding
 * addr in /proc/self/smaps (malloc'd), or NULL when no mapping holds it;
 * fxt_smaps_kb reads a "Field:  N kB" line's N (-1 when there is none). */
char *fxt_smaps_line(const void *addr, const char *field);
long fxt_smaps_kb(const void *addr, const char *field);

#endif
