/* interface.h - what a compilation offers a caller: fxcc --print-interface. */
#ifndef FX_INTERFACE_H
#define FX_INTERFACE_H
#include <stdio.h>
#include "fxir/fxir.h"

/* Writes m's kernels and programs, with their parameters' types and storage,
 * as one JSON object (docs/python.md describes the fields). */
void iface_print(FILE *out, Arena *a, const FxModule *m);

#endif
