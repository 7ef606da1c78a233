/* A preloaded library that logs the first touch of every page of a
 * program's code and read-only data, for link_order.py.
 *
 * LD_PRELOAD=libfx_first_touch.so FX_FIRST_TOUCH_LOG=FILE program ...
 *
 * Its constructor runs before the program's own (a preloaded library is
 * initialized first), takes the program's executable and read-only
 * segments away (PROT_NONE) and catches SIGSEGV. Each fault in them gives
 * the page its access back and appends the faulting address, one hex
 * number per line, to FILE: for code that is the first instruction run on
 * the page, for data the first byte read. The kernel's own fault-around
 * maps 16 pages per fault, so the page faults perf counts cannot tell which
 * pages a run needs; this can.
 *
 * A system call handed a pointer into a protected page fails with EFAULT
 * instead of faulting; link_order.py runs every input once more without
 * this library and compares the outputs, so such a run is noticed. */
/* dladdr, RTLD_NEXT: _GNU_SOURCE comes from the project's arguments. */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { FT_PAGE = 4096, FT_MAX_RANGES = 8 };

typedef struct {
    uintptr_t lo, hi;   /* page-aligned, [lo, hi) */
    int prot;           /* what a touched page gets back */
} FtRange;

static FtRange ft_ranges[FT_MAX_RANGES];
static int ft_nranges;
static int ft_log = -1;

static int (*ft_real_sigaction)(int, const struct sigaction *, struct sigaction *);

/* write(2) of the address in hex: the handler may call nothing that is not
 * async-signal-safe. */
static void ft_log_address(uintptr_t a)
{
    char digits[2 * sizeof a + 1];
    int n = (int)sizeof digits;
    digits[--n] = '\n';
    do {
        digits[--n] = "0123456789abcdef"[a & 15];
        a >>= 4;
    } while (a);
    ssize_t w = write(ft_log, digits + n, sizeof digits - (size_t)n);
    (void)w;
}

static void ft_on_fault(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    uintptr_t a = (uintptr_t)si->si_addr;
    for (int i = 0; i < ft_nranges; i++)
        if (a >= ft_ranges[i].lo && a < ft_ranges[i].hi) {
            mprotect((void *)(a & ~(uintptr_t)(FT_PAGE - 1)), FT_PAGE, ft_ranges[i].prot);
            ft_log_address(a);
            return;
        }
    /* A real crash of the program: let it happen as it would have. */
    signal(sig, SIG_DFL);
}

/* The main program's loadable segments that are never written: its code
 * and its read-only data (what the link can order). */
static int ft_find_ranges(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name[0])
        return 0; /* a shared library; the main program has no name */
    for (int k = 0; k < info->dlpi_phnum && ft_nranges < FT_MAX_RANGES; k++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
        if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W))
            continue;
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        /* Whole pages only: a page shared with the ELF headers or with a
         * writable segment stays accessible. */
        uintptr_t lo = (start + FT_PAGE - 1) & ~(uintptr_t)(FT_PAGE - 1);
        uintptr_t hi = (start + ph->p_memsz) & ~(uintptr_t)(FT_PAGE - 1);
        if (hi <= lo)
            continue;
        int prot = PROT_READ | ((ph->p_flags & PF_X) ? PROT_EXEC : 0);
        ft_ranges[ft_nranges++] = (FtRange){lo, hi, prot};
    }
    return 1;
}

__attribute__((constructor)) static void ft_start(void)
{
    const char *path = getenv("FX_FIRST_TOUCH_LOG");
    ft_real_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))
        dlsym(RTLD_NEXT, "sigaction");
    if (!path || !ft_real_sigaction)
        return;
    ft_log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (ft_log < 0)
        return;
    dl_iterate_phdr(ft_find_ranges, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = ft_on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    ft_real_sigaction(SIGSEGV, &sa, NULL);
    for (int i = 0; i < ft_nranges; i++)
        mprotect((void *)ft_ranges[i].lo, ft_ranges[i].hi - ft_ranges[i].lo, PROT_NONE);
}

/* The program may install its own SIGSEGV handler (LLVM's crash reporter
 * does): while logging, it is told it succeeded and ours stays. */
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (!ft_real_sigaction)
        ft_real_sigaction = (int (*)(int, const struct sigaction *, struct sigaction *))
            dlsym(RTLD_NEXT, "sigaction");
    if (sig == SIGSEGV && act && ft_log >= 0) {
        if (old)
            memset(old, 0, sizeof *old);
        return 0;
    }
    return ft_real_sigaction(sig, act, old);
}
