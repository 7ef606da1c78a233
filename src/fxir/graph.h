/* graph.h - editing program graphs (spec §7): tensors, MatMul/Map/Reduce
 * nodes, Map bodies, readers and writers. Sema builds graphs with it and
 * the passes that rewrite them (map-fusion, contraction-precision) use it;
 * nothing else reaches into FxProgram's vectors. The verifier and program
 * lowering ask it what a node reads (fxg_node_reads, fxg_base). */
#ifndef FX_FXIR_GRAPH_H
#define FX_FXIR_GRAPH_H
#include "fxir/builder.h"

/* A program with nparams parameters (the caller fills params[]), added to m. */
FxProgram *fxg_program(FxModule *m, const char *name, int nparams, Loc loc);
/* The tensor of a Tensor parameter (registered in the program's tensors). */
FxTensor *fxg_param_tensor(FxModule *m, FxProgram *p, int param_index);
/* A transient tensor the plan allocates; row-major. */
FxTensor *fxg_transient(FxModule *m, FxProgram *p, const char *name, const Type *elem, int rank,
                        const int64_t *dims, const char *const *dim_names, Loc loc);
/* A transient of the same shape (and storage order) as `like`, with another element type. */
FxTensor *fxg_transient_like(FxModule *m, FxProgram *p, const char *name, const Type *elem, const FxTensor *like,
                             Loc loc);

/* A view of base (or of what base views): the same elements in the same
 * order, with this shape; row-major base, element counts equal. */
FxTensor *fxg_view(FxModule *m, FxProgram *p, const char *name, FxTensor *base, int rank, const int64_t *dims,
                   const char *const *dim_names, Loc loc);

/* A node appended to the program, or inserted before `before` when given. */
FxNode *fxg_node(FxModule *m, FxProgram *p, FxNodeKind kind, FxTensor *out, Loc loc, FxNode *before);
void fxg_set_inputs(FxModule *m, FxNode *n, int nins, FxTensor *const *ins);
void fxg_set_scalars(FxModule *m, FxNode *n, int nscalars, const int *params);
/* Replaces every read of `old` by node n with a read of `repl`. */
void fxg_replace_input(FxNode *n, const FxTensor *old, FxTensor *repl);
void fxg_remove_node(FxProgram *p, FxNode *n);
void fxg_remove_tensor(FxProgram *p, FxTensor *t);
int fxg_node_index(const FxProgram *p, const FxNode *n);
/* Moves n to index `to` of the program's nodes; those between shift by one. */
void fxg_move_node(FxProgram *p, FxNode *n, int to);

/* The tensor whose buffer t uses: t, or what t is a view of. */
const FxTensor *fxg_base(const FxTensor *t);
/* Whether node n reads t's buffer (directly or through a view). */
bool fxg_node_reads(const FxNode *n, const FxTensor *t);

/* How many nodes read t (directly or through a view); *last: the index of the last one. */
int fxg_readers(const FxProgram *p, const FxTensor *t, int *last);
/* The node that writes t, or NULL (a parameter only read). */
FxNode *fxg_writer(const FxProgram *p, const FxTensor *t);
/* The tensor whose index space a Reduce node reduces over: its input, or
 * the domain of the body it computes its elements with. */
const FxTensor *fxg_reduce_domain(const FxNode *n);
/* Whether b can run in the kernel of a (map-fusion's siblings, `with
 * previous`): Maps of the same shape, or Reduces over domains of the same
 * shape along the same axis. */
bool fxg_same_kernel_shape(const FxNode *a, const FxNode *b);
/* Reductions that run in one kernel are at most this many: each has its
 * own LDS buffer for the tree (256 elements of up to 8 bytes). */
enum { FXG_MAX_REDUCE_SIBLINGS = 8 };
/* Equal shapes: symbolic dims compare by name. */
bool fxg_same_shape(const Type *a, const Type *b);

/* The body of Map node n: an FXF_FN with one parameter per input tensor
 * element, then one per scalar parameter of the program, returning `ret`.
 * The builder is left in its body; params[i] receive the parameter values. */
FxFunc *fxg_map_body(FxBuilder *b, FxModule *m, const FxProgram *p, FxNode *n, const char *name, const Type *ret,
                     FxInst **params);

#endif
