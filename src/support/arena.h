/* arena.h - bump allocation for everything that lives as long as one compilation. */
#ifndef FX_ARENA_H
#define FX_ARENA_H
#include <stddef.h>
#include <stdarg.h>

typedef struct Arena Arena;

Arena *arena_new(void);
void arena_free(Arena *a);
/* Zero-filled, aligned for any scalar type. Never returns NULL (aborts on OOM). */
void *arena_alloc(Arena *a, size_t size);
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_printf(Arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *arena_vprintf(Arena *a, const char *fmt, va_list ap);

/* A growable array of pointers whose storage lives in an arena. */
typedef struct {
    void **items;
    int len, cap;
} PtrVec;
void ptrvec_push(Arena *a, PtrVec *v, void *item);

#endif
