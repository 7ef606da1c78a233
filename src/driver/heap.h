/* heap.h - how fxcc's and fxrun's processes ask for the memory LLVM's
 * compilation allocates (docs/compile-time.md, "Page faults in the heap:
 * transparent huge pages"). */
#ifndef FX_DRIVER_HEAP_H
#define FX_DRIVER_HEAP_H

#include <stdbool.h>
#include <stddef.h>

/* Under a sanitizer malloc is the sanitizer's, without a program-break
 * heap to advise. */
#if defined(__SANITIZE_ADDRESS__)
#define HEAP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define HEAP_SANITIZED 1
#endif
#endif

/* Bytes the heap grows by at once, all of them advised for huge pages. */
#define HEAP_RESERVE ((size_t)256 << 20)

/* Makes the C library's heap grow in one step of HEAP_RESERVE, all of it
 * but its first page starting on a 2 MiB boundary (x86-64's huge page) and
 * advised for transparent huge pages before any of it is touched, so that
 * large blocks are cut from it too, and returns
 * whether the advice was given (false under a sanitizer's allocator, on a
 * kernel without huge pages, or when the heap could not be moved: the
 * compilation is then only slower). Call it once, before the first large
 * allocation. */
bool heap_prefer_huge_pages(void);

#endif
