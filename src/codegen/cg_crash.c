/* cg_crash.c - what is being compiled, for the messages of LLVM fatal errors
 * and of crashes (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL) while fxcc
 * compiles: both print "internal compiler error" and a note
 *
 *   fxcc: note: currently compiling: kernel 'k', line 12 of x.fx (building LLVM IR)
 *
 * and exit with status 70. The note is kept in preformatted static buffers
 * (the kernel, the file, the phase) and one integer (the source line being
 * turned into LLVM IR), so that a signal handler can print it with write(2)
 * alone: it must not call malloc or stdio, which the crash may have broken.
 *
 * The signal handlers claim a crash only while a module is being compiled (a
 * fault in fxrun's JIT-compiled kernels, after compilation, keeps its signal),
 * and they are not installed over a handler someone else set first (the
 * sanitizers and libFuzzer report crashes themselves). */
#include "codegen/cg_internal.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <llvm-c/ErrorHandling.h>

static char g_unit[512];            /* "kernel 'k'", "fn 'f'", "kernels 'a' (line 3), 'b' (line 9)" */
static char g_file[256];            /* the source file's name */
static const char *volatile g_phase; /* a string literal */
static volatile sig_atomic_t g_line; /* 0: no line */
static volatile sig_atomic_t g_active;

static void put(const char *s)
{
    size_t n = strlen(s);
    while (n) {
        ssize_t w = write(STDERR_FILENO, s, n);
        if (w <= 0)
            return;
        s += w;
        n -= (size_t)w;
    }
}

static void put_int(long v)
{
    char buf[24];
    int n = sizeof buf;
    buf[--n] = 0;
    do {
        buf[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0 && n > 0);
    put(buf + n);
}

static void put_note(void)
{
    if (!g_active || !g_unit[0])
        return;
    put("fxcc: note: currently compiling: ");
    put(g_unit);
    if (g_line > 0) {
        put(", line ");
        put_int((long)g_line);
    }
    if (g_file[0]) {
        put(g_line > 0 ? " of " : " in ");
        put(g_file);
    }
    if (g_phase) {
        put(" (");
        put(g_phase);
        put(")");
    }
    put("\n");
}

void cg_crash_begin(const FxModule *m)
{
    snprintf(g_file, sizeof g_file, "%s", m->source_name ? m->source_name : "");
    g_unit[0] = 0;
    g_line = 0;
    g_phase = "building LLVM IR";
    g_active = 1;
}

void cg_crash_func(const FxFunc *f)
{
    snprintf(g_unit, sizeof g_unit, "%s '%s'", f->kind == FXF_KERNEL ? "kernel" : "fn", f->name);
    g_line = 0;
}

/* The module's kernels and their lines: LLVM works on all of them at once. */
void cg_crash_phase(const FxModule *m, const char *phase)
{
    size_t n = 0;
    int nk = 0, shown = 0;
    for (int k = 0; k < m->funcs.len; k++)
        nk += ((const FxFunc *)m->funcs.items[k])->kind == FXF_KERNEL;
    g_unit[0] = 0;
    for (int k = 0; k < m->funcs.len; k++) {
        const FxFunc *f = m->funcs.items[k];
        if (f->kind != FXF_KERNEL)
            continue;
        int w = snprintf(g_unit + n, sizeof g_unit - n, "%s'%s' (line %d)",
                         n ? ", " : nk > 1 ? "kernels " : "kernel ", f->name, f->loc.line);
        if (w < 0 || (size_t)w >= sizeof g_unit - n - 32) {
            g_unit[n] = 0;
            break;
        }
        n += (size_t)w;
        shown++;
    }
    if (shown < nk)
        snprintf(g_unit + n, sizeof g_unit - n, " and %d more", nk - shown);
    g_line = 0;
    g_phase = phase;
    g_active = 1;
}

void cg_crash_line(int line)
{
    g_line = line;
}

void cg_crash_end(void)
{
    g_active = 0;
}

static void fatal_handler(const char *reason)
{
    put("fxcc: internal compiler error: ");
    put(reason);
    put("\n");
    put_note();
    _exit(70);
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "a segmentation fault (SIGSEGV)";
    case SIGABRT: return "an abort (SIGABRT)";
    case SIGBUS: return "a bus error (SIGBUS)";
    case SIGFPE: return "an arithmetic exception (SIGFPE)";
    default: return "an illegal instruction (SIGILL)";
    }
}

static void crash_handler(int sig)
{
    if (!g_active) {
        /* not compiling: the default action, as if no handler were there */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    put("fxcc: internal compiler error: ");
    put(signal_name(sig));
    put(" inside the compiler\n");
    put_note();
    _exit(70);
}

/* An alternate stack, so that a stack overflow can still be reported. */
static void install_signal_handlers(void)
{
    static char altstack[1 << 16];
    static const int sigs[] = { SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL };
    stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
    sigaltstack(&ss, NULL);
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct sigaction old;
        if (sigaction(sigs[k], NULL, &old) != 0 || old.sa_handler != SIG_DFL || (old.sa_flags & SA_SIGINFO))
            continue;   /* someone else's handler (a sanitizer, libFuzzer) */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = crash_handler;
        sa.sa_flags = SA_ONSTACK | SA_NODEFER | SA_RESETHAND;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[k], &sa, NULL);
    }
}

void cg_install_fatal_handler(void)
{
    LLVMInstallFatalErrorHandler(fatal_handler);
    install_signal_handlers();
}
