/* test_heap.c - fxcc's heap on huge pages (src/driver/heap.c): after the
 * call, small and large blocks alike come from the program-break heap, in
 * a mapping advised for huge pages. Its own process: the call must come
 * before the heap is much used, as in fxcc. */
#include "fxtest.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver/heap.h"

/* Whether the kernel's setting, e.g. "always [madvise] never", selects one
 * of the words in `any`. */
static bool thp_setting_is(const char *file, const char *const *any)
{
    char path[128], text[256] = "";
    snprintf(path, sizeof path, "/sys/kernel/mm/transparent_hugepage/%s", file);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool got = fgets(text, sizeof text, f) != NULL;
    fclose(f);
    for (int i = 0; got && any[i]; i++) {
        char word[40];
        snprintf(word, sizeof word, "[%s]", any[i]);
        if (strstr(text, word))
            return true;
    }
    return false;
}

/* Whether a first touch of an advised range gets a huge page whenever the
 * machine has one or can make one by compaction. */
static bool advised_faults_get_huge_pages(void)
{
    static const char *const enabled[] = { "always", "madvise", NULL };
    static const char *const defrag[] = { "always", "madvise", "defer+madvise", NULL };
    return thp_setting_is("enabled", enabled) && thp_setting_is("defrag", defrag);
}

static bool kernel_has_huge_pages(void)
{
    return access("/sys/kernel/mm/transparent_hugepage/enabled", F_OK) == 0;
}

/* Writes a byte on every page (a memset before free may be left out). */
static void touch_every_page(char *p, size_t size)
{
    volatile char *v = p;
    for (size_t at = 0; at < size; at += 4096)
        v[at] = 1;
}

static void test_blocks_on_advised_heap(void)
{
    uintptr_t break_before = (uintptr_t)sbrk(0);
    bool advised = heap_prefer_huge_pages();
#ifdef HEAP_SANITIZED
    CU_ASSERT_FALSE(advised);
    return;
#endif
    if (!kernel_has_huge_pages()) {
        CU_ASSERT_FALSE(advised);
        return;
    }
    CU_ASSERT_TRUE_FATAL(advised);
    uintptr_t break_after = (uintptr_t)sbrk(0);
    CU_ASSERT(break_after - break_before >= HEAP_RESERVE);
    /* 1 MiB, 8 MiB and 20 MiB: each would have been a mapping of its own
     * under glibc's default thresholds. (A smaller block may be cut from
     * the part of the heap used up before the call, which stays as it
     * was.) */
    static const size_t sizes[] = { (size_t)1 << 20, (size_t)8 << 20, (size_t)20 << 20 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *p = malloc(sizes[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT((uintptr_t)p > break_before && (uintptr_t)p + sizes[i] <= break_after);
        char *flags = fxt_smaps_line(p + sizes[i] - 1, "VmFlags:");
        CU_ASSERT_PTR_NOT_NULL(flags);
        if (flags && !strstr(flags, " hg")) {
            fprintf(stderr, "block of %zu bytes at %p: %s", sizes[i], (void *)p, flags);
            CU_FAIL("the block's mapping is not advised for huge pages");
        }
        free(flags);
        touch_every_page(p, sizes[i]);
        /* Every 2 MiB the heap has touched in the advised mapping is one
         * huge page: nothing in it was touched before the advice. */
        char *last = p + sizes[i] - 1;
        long rss = fxt_smaps_kb(last, "Rss:"), huge = fxt_smaps_kb(last, "AnonHugePages:");
        if (advised_faults_get_huge_pages() && rss != huge) {
            fprintf(stderr, "block of %zu bytes: Rss %ld kB, AnonHugePages %ld kB\n", sizes[i], rss, huge);
            CU_FAIL("the advised heap has small pages");
        }
        free(p);
    }
    /* Freed, the blocks stay in the heap: the break does not move back. */
    CU_ASSERT_EQUAL((uintptr_t)sbrk(0), break_after);
}

int main(int argc, char **argv)
{
    static const FxtTest tests[] = { { "blocks_on_advised_heap", test_blocks_on_advised_heap }, { NULL, NULL } };
    static const FxtSuite suites[] = { { "heap", tests, NULL, NULL }, { NULL, NULL, NULL, NULL } };
    return fxt_main(argc, argv, TEST_DIR, suites);
}
