/* ulpcmp.c - compares two raw files of Float32 element by element, in
 * units in the last place (the distance between the two values counted in
 * representable floats).
 *
 *   ulpcmp A.bin B.bin MAX_ULPS
 *
 * Prints the number of elements that differ, the largest distance and the
 * first element where it occurs; exit status 0 when no distance exceeds
 * MAX_ULPS (0: the files are equal bit for bit), 1 when one does, or when
 * the sizes differ or a value is a NaN, 2 for a usage or file error. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The float's bits mapped to an integer that orders like the float:
 * neighbouring floats are neighbouring integers, -0.0 and +0.0 are both 0. */
static int64_t ordered(uint32_t bits)
{
    return (bits & 0x80000000u) ? -(int64_t)(bits & 0x7fffffffu) : (int64_t)bits;
}

static uint32_t *load(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        fprintf(stderr, "ulpcmp: cannot open '%s': %s\n", path, strerror(errno));
        exit(2);
    }
    long size = ftell(f);
    if (size < 0 || size % 4 != 0 || fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "ulpcmp: '%s' is not a whole number of Float32\n", path);
        exit(2);
    }
    *count = (size_t)size / 4;
    uint32_t *v = malloc(*count ? (size_t)size : 1);
    if (!v || fread(v, 4, *count, f) != *count) {
        fprintf(stderr, "ulpcmp: cannot read '%s'\n", path);
        exit(2);
    }
    fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: ulpcmp A.bin B.bin MAX_ULPS\n");
        return 2;
    }
    char *end;
    long long max_ulps = strtoll(argv[3], &end, 10);
    if (*end || end == argv[3] || max_ulps < 0) {
        fprintf(stderr, "ulpcmp: MAX_ULPS is a number of units from 0\n");
        return 2;
    }
    size_t na, nb;
    uint32_t *a = load(argv[1], &na), *b = load(argv[2], &nb);
    if (na != nb) {
        printf("ulpcmp: %zu elements against %zu\n", na, nb);
        return 1;
    }
    size_t differ = 0, worst_at = 0, nans = 0;
    int64_t worst = 0;
    for (size_t i = 0; i < na; i++) {
        if ((a[i] & 0x7fffffffu) > 0x7f800000u || (b[i] & 0x7fffffffu) > 0x7f800000u) {
            nans++;
            continue;
        }
        int64_t d = ordered(a[i]) - ordered(b[i]);
        if (d < 0)
            d = -d;
        if (a[i] != b[i])
            differ++;
        if (d > worst) {
            worst = d;
            worst_at = i;
        }
    }
    printf("%zu of %zu elements differ, by at most %lld ulp", differ, na, (long long)worst);
    if (worst > 0) {
        float fa, fb;
        memcpy(&fa, &a[worst_at], 4);
        memcpy(&fb, &b[worst_at], 4);
        printf(" (element %zu: %.9g against %.9g)", worst_at, (double)fa, (double)fb);
    }
    if (nans)
        printf("; %zu NaNs", nans);
    printf("\n");
    free(a);
    free(b);
    return nans || worst > max_ulps;
}
