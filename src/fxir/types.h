/* types.h - the type tower: one table describes every scalar type; composite
 * types (vectors, pointers, arrays, tensors, tuples, compile-time-only kinds)
 * are built on top of it. Everything else asks this module, never hard-codes
 * a width or a signedness. */
#ifndef FX_TYPES_H
#define FX_TYPES_H
#include <stdbool.h>
#include <stdint.h>
#include "support/arena.h"
#include "support/floatfmt.h"

typedef enum {
    SC_BOOLEAN,
    SC_INT4, SC_INT8, SC_INT16, SC_INT32, SC_INT64, SC_INT128,
    SC_UINT8, SC_UINT16, SC_UINT32, SC_UINT64, SC_UINT128,
    SC_INDEX,
    SC_FLOAT16, SC_BFLOAT16, SC_FLOAT32, SC_FLOAT64,
    SC_F8E5M2, SC_F8E4M3FN, SC_F8E4M3FNUZ, SC_F8E4M3B11FNUZ, SC_F8E4M3,
    SC_F6E2M3FN, SC_F6E3M2FN, SC_F8E8M0FNU, SC_F4E2M1FN,
    SC_F8E5M2FNUZ,   /* last: added after the others, which keep their numbers */
    SC_COUNT
} ScalarId;

typedef enum { SCK_BOOL, SCK_INT, SCK_FLOAT, SCK_NARROW } ScalarClass;

typedef struct ScalarInfo {
    ScalarId id;
    const char *name;
    ScalarClass cls;
    int width;                /* bits of the value (Int4: 4, Boolean: 1) */
    bool is_signed;           /* integers (Boolean is "signed 1-bit" in the seed but normalizes to 0/1) */
    int float_rank;           /* Float16/BFloat16: 1, Float32: 2, Float64: 3; 0 otherwise */
    const FloatFormat *fmt;   /* floats and narrow floats; NULL otherwise */
} ScalarInfo;

extern const ScalarInfo type_scalars[SC_COUNT];

typedef enum {
    TY_SCALAR,     /* a Numeric or Boolean */
    TY_VECTOR,     /* scalar x lanes */
    TY_PTR,        /* Ptr[elem]: global memory; is_const for `const Ptr` params */
    TY_ARRAY,      /* Array[elem, dims...]: private or shared */
    TY_TENSOR,     /* Tensor[elem, dims...] (programs) */
    TY_TUPLE,      /* static tuples/lists (divmod results, fx.max arguments) */
    TY_TYPE,       /* a type used as a value: `Float32`, `x.dtype` */
    TY_LITINT,     /* an untyped integer literal (exact, unbounded) */
    TY_LITFLOAT,   /* an untyped float literal (binary64) */
    TY_STRING,
    TY_FASTMATH,   /* an fx.FastMathFlags value */
    TY_ROUNDING,   /* an fx.RoundingMode value */
    TY_VOID,
    TY_MODULE,     /* the `fx` namespace and its sub-namespaces */
    TY_FUNC,       /* a builtin or user function used as a value */
    TY_SPECIAL,    /* thread_idx/block_idx/block_dim/grid_dim before `.x` */
} TypeKind;

typedef struct Type Type;
struct Type {
    TypeKind kind;
    ScalarId scalar;      /* TY_SCALAR; TY_VECTOR element */
    int lanes;            /* TY_VECTOR */
    const Type *elem;     /* TY_PTR, TY_ARRAY, TY_TENSOR element type (a scalar or vector type) */
    bool is_const;        /* TY_PTR */
    bool col_major;       /* TY_TENSOR */
    int ndims;            /* TY_ARRAY, TY_TENSOR, TY_TUPLE (number of elements) */
    int64_t *dims;        /* TY_ARRAY; TY_TENSOR: static dims, -1 where symbolic;
                             TY_ARRAY: TYPE_DIM_DYN for Array[T, DYN] */
    const char **dim_names; /* TY_TENSOR: the symbolic dim's parameter name, NULL where static */
    const Type **elems;   /* TY_TUPLE */
};

const Type *type_scalar(ScalarId id);
const Type *type_vector(ScalarId id, int lanes);   /* lanes in {1,2,3,4,8,16,32,64} */
const Type *type_ptr(Arena *a, const Type *elem, bool is_const);
const Type *type_array(Arena *a, const Type *elem, int ndims, const int64_t *dims);
/* The length of a dynamic shared array, Array[T, DYN]: given at launch
 * (one dimension, the only one). */
#define TYPE_DIM_DYN (-1)
bool type_is_dyn_array(const Type *t);
const Type *type_tensor(Arena *a, const Type *elem, int ndims, const int64_t *dims,
                        const char *const *dim_names, bool col_major);
const Type *type_tuple(Arena *a, int n, const Type **elems);
const Type *type_simple(TypeKind kind);             /* TYPE, LITINT, LITFLOAT, STRING, ... */

bool type_equal(const Type *a, const Type *b);
const ScalarInfo *type_info(ScalarId id);
/* Element scalar of a scalar or vector type. */
ScalarId type_elem_scalar(const Type *t);
bool type_is_int(ScalarId id);          /* integers incl. Index, not Boolean */
bool type_is_float(ScalarId id);        /* Float16/BFloat16/Float32/Float64 */
bool type_is_narrow(ScalarId id);       /* the nine storage floats */
bool type_is_numeric_value(const Type *t); /* scalar or vector */
int type_log_width(int width);          /* ceil(log2(width)) */
/* Bits a value of this scalar/vector type occupies in memory (Int4: 8 per element, Boolean: 8). */
int type_storage_bits(const Type *t);
/* "Float32", "Int8x16", "Ptr[Float32]", "Array[Float32, 4, 4]" ... into an arena. */
const char *type_name(Arena *a, const Type *t);
/* Look up a scalar or vector type name ("Float32", "Int8x16"); NULL if none. */
const Type *type_from_name(const char *name);

#endif
