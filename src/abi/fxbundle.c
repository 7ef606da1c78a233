/* fxbundle.c - writing and reading clang offload bundles (fxbundle.h). */
#include "abi/fxbundle.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void put64(unsigned char *p, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

static uint64_t get64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int k = 0; k < 8; k++)
        v |= (uint64_t)p[k] << (8 * k);
    return v;
}

static size_t header_size(const FxBundleEntry *e, int n)
{
    size_t h = strlen(FXBUNDLE_MAGIC) + 8 + 24 + strlen(FXBUNDLE_HOST_ID);
    for (int i = 0; i < n; i++)
        h += 24 + strlen(e[i].id);
    return h;
}

static size_t align_up(size_t x)
{
    return (x + FXBUNDLE_ALIGN - 1) / FXBUNDLE_ALIGN * FXBUNDLE_ALIGN;
}

/* One entry's descriptor at p; returns the end. */
static unsigned char *put_entry(unsigned char *p, const char *id, size_t offset, size_t size)
{
    size_t n = strlen(id);
    put64(p, offset);
    put64(p + 8, size);
    put64(p + 16, n);
    memcpy(p + 24, id, n);
    return p + 24 + n;
}

unsigned char *fxbundle_write(const FxBundleEntry *e, int n, size_t *len)
{
    size_t head = header_size(e, n), total = head;
    size_t *offsets = malloc(sizeof(size_t) * (size_t)(n + 1));
    if (!offsets)
        return NULL;
    for (int i = 0; i < n; i++) {
        offsets[i] = align_up(total);
        total = offsets[i] + e[i].size;
    }
    unsigned char *b = calloc(1, total ? total : 1);
    if (!b) {
        free(offsets);
        return NULL;
    }
    memcpy(b, FXBUNDLE_MAGIC, strlen(FXBUNDLE_MAGIC));
    unsigned char *p = b + strlen(FXBUNDLE_MAGIC);
    put64(p, (uint64_t)n + 1);
    p = put_entry(p + 8, FXBUNDLE_HOST_ID, head, 0);
    for (int i = 0; i < n; i++) {
        p = put_entry(p, e[i].id, offsets[i], e[i].size);
        memcpy(b + offsets[i], e[i].data, e[i].size);
    }
    free(offsets);
    *len = total;
    return b;
}

const void *fxbundle_find(const void *bundle, size_t len, const char *id, size_t *size)
{
    const unsigned char *b = bundle, *p = b + strlen(FXBUNDLE_MAGIC);
    if (len < strlen(FXBUNDLE_MAGIC) + 8 || memcmp(b, FXBUNDLE_MAGIC, strlen(FXBUNDLE_MAGIC)) != 0)
        return NULL;
    uint64_t n = get64(p);
    p += 8;
    for (uint64_t i = 0; i < n; i++) {
        if ((size_t)(p - b) + 24 > len)
            return NULL;
        uint64_t off = get64(p), sz = get64(p + 8), idl = get64(p + 16);
        p += 24;
        if (idl > len - (size_t)(p - b) || off > len || sz > len - off)
            return NULL;
        if (idl == strlen(id) && memcmp(p, id, idl) == 0) {
            *size = sz;
            return b + off;
        }
        p += idl;
    }
    return NULL;
}
