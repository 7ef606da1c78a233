/* heap.c - the C library's heap for a compilation, on huge pages.
 *
 * Why: a compilation is short, and LLVM touches a few MB of fresh heap in
 * it. On a virtual machine each first touch of a 4 KiB page is a page
 * fault, which may cost 9 to 13 µs: a third of a small kernel's compile
 * time (docs/compile-time.md, "Page faults in the heap: transparent huge
 * pages"). A transparent huge page is one fault per 2 MiB. The kernel
 * gives them to a mapping advised with MADV_HUGEPAGE, but only for 2 MiB
 * ranges of which nothing has been touched yet, so the heap must be
 * advised between growing and first use. glibc does that itself under
 * GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which a process can only be
 * started with; this file does the same from inside, once:
 *
 *   1. growth by HEAP_RESERVE at once (mallopt): a large block is then
 *      cut from the heap's free top, as long as the top holds it,
 *      instead of being a mapping of its own;
 *   2. the top of the heap is used up, so the next request grows it;
 *   3. the program break moves to one page before a 2 MiB boundary, so
 *      the heap's new part starts there and glibc's headers for the
 *      growth (the new block's and the new top's) fall on that one page;
 *   4. a small request grows the heap by HEAP_RESERVE, and everything
 *      after the first page, up to the last 2 MiB boundary, is advised.
 *
 * Nothing here changes what a compilation computes, only how its memory is
 * mapped; where a step does not work out, the heap stays as it was. */
#include "driver/heap.h"
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef HEAP_SANITIZED
bool heap_prefer_huge_pages(void)
{
    return false;   /* the sanitizer's allocator has no program-break heap */
}
#else
#define HUGE_PAGE ((uintptr_t)2 << 20)

static uintptr_t align_up(uintptr_t x, uintptr_t to)
{
    return (x + to - 1) & ~(to - 1);
}

/* The heap then grows by at least HEAP_RESERVE at a time, and a freed
 * top is given back only beyond HEAP_RESERVE of it, so the advised part is
 * never given back (to be mapped again without the advice). */
static bool grow_in_large_steps(void)
{
    return mallopt(M_TOP_PAD, (int)HEAP_RESERVE) == 1;
}

/* Takes all but a few hundred bytes of the heap's free top, so that no
 * request of a page or so can be cut from it; returns the block (to free
 * afterwards: it goes back to the free lists, not to the top). */
static void *use_up_top(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.keepcost > 1024 ? malloc(mi.keepcost - 1024) : NULL;
}

/* Grows the heap with a request small enough that glibc writes only on
 * the growth's first page; returns that block, or NULL when the request
 * was met from freed memory instead (sizes tried: two). */
static void *grow_heap(uintptr_t from, size_t page)
{
    static const size_t sizes[] = { 1536, 3072 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        void *p = malloc(sizes[i]);
        if (!p)
            return NULL;
        if ((uintptr_t)p >= from && (uintptr_t)p < from + page)
            return p;
        free(p);
    }
    return NULL;
}

bool heap_prefer_huge_pages(void)
{
    if (!grow_in_large_steps())
        return false;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *filler = use_up_top();
    uintptr_t brk_now = (uintptr_t)sbrk(0);
    uintptr_t from = align_up(brk_now + page, HUGE_PAGE) - page;
    bool ok = brk_now != (uintptr_t)-1 && sbrk((intptr_t)(from - brk_now)) != (void *)-1;
    void *first = ok ? grow_heap(from, page) : NULL;
    uintptr_t end = (uintptr_t)sbrk(0) & ~(HUGE_PAGE - 1);
    ok = first && end > from + page && madvise((void *)(from + page), end - (from + page), MADV_HUGEPAGE) == 0;
    free(first);
    free(filler);
    return ok;
}
#endif
