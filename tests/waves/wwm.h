/* wwm.h - a check of AMDGPU assembly for whole-wave writes that destroy
 * what other lanes still need (docs/waves.md, "Whole-wave mode").
 *
 * Inside a whole-wave region (s_or_saveexec with -1 up to the move that
 * restores exec) and between the two s_not of exec that write inactive
 * lanes, a VALU write reaches lanes outside the current exec mask. Such a
 * write is safe only when no lane still needs the register's old value.
 * The check runs reaching definitions over the function's control-flow
 * graph (the branches as the machine code has them, every path taken) and
 * reports a read of a VGPR or AGPR that the definitions of two different
 * origins reach, one of them whole-wave: a whole-wave region and the code
 * outside it, or two whole-wave regions. On machine code that is right,
 * a read sees either what a region computed for it (the region's result,
 * read in the lanes that ran it) or a value of ordinary code, never both. */
#ifndef FX_TEST_WWM_H
#define FX_TEST_WWM_H
#include <stddef.h>

/* Checks function `name` of `asm_text`. Returns the number of reads a
 * whole-wave write may have clobbered (-1: the function is not there) and
 * writes the first one, with the instructions involved, into why. */
int wwm_clobbered_reads(const char *asm_text, const char *name, char *why, size_t cap);
/* How many whole-wave regions (and inactive-lane writes) the function has:
 * a check of nothing proves nothing, so tests make sure there are some. */
int wwm_regions(const char *asm_text, const char *name);

#endif
