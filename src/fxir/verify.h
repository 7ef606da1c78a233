/* verify.h - the FXIR verifier: checks that a module keeps the invariants
 * listed at the top of fxir.h, and the shapes codegen and program lowering
 * rely on, before anything consumes it.
 *
 * Each problem is reported with diag_error() at the offending instruction's
 * `loc` (or the function's, program's, node's or tensor's), as
 * "FXIR verifier: <what was expected, what was found>". Instructions have no
 * stable names, so an operand is described by its position and opcode:
 * "operand 1 of store (a load)" is ops[1] of the store, numbered from 0 as in
 * fxir.h's comments. Messages about an instruction end with the function it
 * is in: "(in kernel 'k')".
 *
 * What is checked, briefly (verify.c has the details and the reasons):
 *  - structure: result type present, operand and block counts per opcode,
 *    `sub` in range, non-NULL operands, parent/prev/next/owner links;
 *  - types: one type per operation (type_equal), Boolean conditions and
 *    compare results of the operands' shape, casts and bitcasts between
 *    numbers (bitcasts of equal width), loads/stores/atomics through a Ptr or
 *    an alloca with the right number of integer indices, calls that match
 *    their callee, returns that match their function, parameters that match
 *    their declaration, binops only on the classes codegen implements;
 *  - scope (structured dominance): an operand is defined earlier in the same
 *    block or in an enclosing one (parameters: anywhere in the function);
 *    a loop's condition must be visible at the end of its condition block
 *    (defined there, or outside the loop: sema reuses the value of
 *    `while c` when c is a parameter or a let);
 *  - control flow: break/continue with a loop body (blocks[1]) as their
 *    innermost loop block, nothing after a return/break/continue in the same
 *    block, and a fn with a result returns on every path: its body "returns",
 *    where a block returns when, before any top-level break or continue, it
 *    holds a return, an if whose two blocks both return, or a loop without
 *    exit (condition NULL or the constant True, and no break of its own);
 *  - programs: tensors, node inputs and outputs, MatMul/Map/Reduce shapes and
 *    element types, Map bodies, and that no node reads a transient before it
 *    is written. */
#ifndef FX_FXIR_VERIFY_H
#define FX_FXIR_VERIFY_H
#include <stdbool.h>
#include "fxir/fxir.h"

/* Every function and every program of m. True when well-formed; otherwise
 * every problem found has been reported and the result is false. */
bool fxir_verify(const FxModule *m);
/* One function of m (m supplies the functions a call may name). */
bool fxir_verify_func(const FxModule *m, const FxFunc *f);

#endif
