/* types.c - the scalar type table and composite type constructors. */
#include "fxir/types.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One row per scalar type; every other module derives widths, signedness and
 * float formats from here. Index is the 64-bit address-arithmetic integer. */
const ScalarInfo type_scalars[SC_COUNT] = {
    [SC_BOOLEAN]  = { SC_BOOLEAN, "Boolean", SCK_BOOL, 1, true, 0, NULL },
    [SC_INT4]     = { SC_INT4, "Int4", SCK_INT, 4, true, 0, NULL },
    [SC_INT8]     = { SC_INT8, "Int8", SCK_INT, 8, true, 0, NULL },
    [SC_INT16]    = { SC_INT16, "Int16", SCK_INT, 16, true, 0, NULL },
    [SC_INT32]    = { SC_INT32, "Int32", SCK_INT, 32, true, 0, NULL },
    [SC_INT64]    = { SC_INT64, "Int64", SCK_INT, 64, true, 0, NULL },
    [SC_INT128]   = { SC_INT128, "Int128", SCK_INT, 128, true, 0, NULL },
    [SC_UINT8]    = { SC_UINT8, "Uint8", SCK_INT, 8, false, 0, NULL },
    [SC_UINT16]   = { SC_UINT16, "Uint16", SCK_INT, 16, false, 0, NULL },
    [SC_UINT32]   = { SC_UINT32, "Uint32", SCK_INT, 32, false, 0, NULL },
    [SC_UINT64]   = { SC_UINT64, "Uint64", SCK_INT, 64, false, 0, NULL },
    [SC_UINT128]  = { SC_UINT128, "Uint128", SCK_INT, 128, false, 0, NULL },
    [SC_INDEX]    = { SC_INDEX, "Index", SCK_INT, 64, true, 0, NULL },
    [SC_FLOAT16]  = { SC_FLOAT16, "Float16", SCK_FLOAT, 16, true, 1, &ff_float16 },
    [SC_BFLOAT16] = { SC_BFLOAT16, "BFloat16", SCK_FLOAT, 16, true, 1, &ff_bfloat16 },
    [SC_FLOAT32]  = { SC_FLOAT32, "Float32", SCK_FLOAT, 32, true, 2, &ff_float32 },
    [SC_FLOAT64]  = { SC_FLOAT64, "Float64", SCK_FLOAT, 64, true, 3, &ff_float64 },
    [SC_F8E5M2]   = { SC_F8E5M2, "Float8E5M2", SCK_NARROW, 8, true, 0, &ff_f8e5m2 },
    [SC_F8E4M3FN] = { SC_F8E4M3FN, "Float8E4M3FN", SCK_NARROW, 8, true, 0, &ff_f8e4m3fn },
    [SC_F8E4M3FNUZ] = { SC_F8E4M3FNUZ, "Float8E4M3FNUZ", SCK_NARROW, 8, true, 0, &ff_f8e4m3fnuz },
    [SC_F8E4M3B11FNUZ] = { SC_F8E4M3B11FNUZ, "Float8E4M3B11FNUZ", SCK_NARROW, 8, true, 0, &ff_f8e4m3b11fnuz },
    [SC_F8E4M3]   = { SC_F8E4M3, "Float8E4M3", SCK_NARROW, 8, true, 0, &ff_f8e4m3 },
    [SC_F6E2M3FN] = { SC_F6E2M3FN, "Float6E2M3FN", SCK_NARROW, 6, true, 0, &ff_f6e2m3fn },
    [SC_F6E3M2FN] = { SC_F6E3M2FN, "Float6E3M2FN", SCK_NARROW, 6, true, 0, &ff_f6e3m2fn },
    [SC_F8E8M0FNU] = { SC_F8E8M0FNU, "Float8E8M0FNU", SCK_NARROW, 8, false, 0, &ff_f8e8m0fnu },
    [SC_F4E2M1FN] = { SC_F4E2M1FN, "Float4E2M1FN", SCK_NARROW, 4, true, 0, &ff_f4e2m1fn },
    [SC_F8E5M2FNUZ] = { SC_F8E5M2FNUZ, "Float8E5M2FNUZ", SCK_NARROW, 8, true, 0, &ff_f8e5m2fnuz },
};

static const int vector_lanes[] = { 1, 2, 3, 4, 8, 16, 32, 64 };
enum { NUM_LANE_COUNTS = sizeof vector_lanes / sizeof vector_lanes[0] };

static Type scalar_types[SC_COUNT];
static Type vector_types[SC_COUNT][NUM_LANE_COUNTS];
static Type simple_types[TY_SPECIAL + 1];
static bool initialized;

static void init_types(void)
{
    if (initialized)
        return;
    for (int s = 0; s < SC_COUNT; s++) {
        scalar_types[s] = (Type){ .kind = TY_SCALAR, .scalar = (ScalarId)s, .lanes = 1 };
        for (int l = 0; l < NUM_LANE_COUNTS; l++)
            vector_types[s][l] = (Type){ .kind = TY_VECTOR, .scalar = (ScalarId)s,
                                         .lanes = vector_lanes[l] };
    }
    for (int k = 0; k <= TY_SPECIAL; k++)
        simple_types[k] = (Type){ .kind = (TypeKind)k };
    initialized = true;
}

const Type *type_scalar(ScalarId id)
{
    init_types();
    return &scalar_types[id];
}

const Type *type_vector(ScalarId id, int lanes)
{
    init_types();
    for (int l = 0; l < NUM_LANE_COUNTS; l++)
        if (vector_lanes[l] == lanes)
            return &vector_types[id][l];
    return NULL;
}

const Type *type_simple(TypeKind kind)
{
    init_types();
    return &simple_types[kind];
}

const Type *type_ptr(Arena *a, const Type *elem, bool is_const)
{
    Type *t = arena_alloc(a, sizeof *t);
    t->kind = TY_PTR;
    t->elem = elem;
    t->is_const = is_const;
    return t;
}

static int64_t *copy_dims(Arena *a, int ndims, const int64_t *dims)
{
    int64_t *d = arena_alloc(a, sizeof(int64_t) * (size_t)(ndims ? ndims : 1));
    for (int i = 0; i < ndims; i++)
        d[i] = dims[i];
    return d;
}

const Type *type_array(Arena *a, const Type *elem, int ndims, const int64_t *dims)
{
    Type *t = arena_alloc(a, sizeof *t);
    t->kind = TY_ARRAY;
    t->elem = elem;
    t->ndims = ndims;
    t->dims = copy_dims(a, ndims, dims);
    return t;
}

bool type_is_dyn_array(const Type *t)
{
    return t && t->kind == TY_ARRAY && t->ndims == 1 && t->dims[0] == TYPE_DIM_DYN;
}

const Type *type_tensor(Arena *a, const Type *elem, int ndims, const int64_t *dims,
                        const char *const *dim_names, bool col_major)
{
    Type *t = arena_alloc(a, sizeof *t);
    t->kind = TY_TENSOR;
    t->elem = elem;
    t->ndims = ndims;
    t->dims = copy_dims(a, ndims, dims);
    t->dim_names = arena_alloc(a, sizeof(char *) * (size_t)(ndims ? ndims : 1));
    for (int i = 0; i < ndims; i++)
        t->dim_names[i] = dim_names ? dim_names[i] : NULL;
    t->col_major = col_major;
    return t;
}

const Type *type_tuple(Arena *a, int n, const Type **elems)
{
    Type *t = arena_alloc(a, sizeof *t);
    t->kind = TY_TUPLE;
    t->ndims = n;
    t->elems = arena_alloc(a, sizeof(Type *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        t->elems[i] = elems[i];
    return t;
}

static bool dims_equal(const Type *a, const Type *b)
{
    if (a->ndims != b->ndims)
        return false;
    for (int i = 0; i < a->ndims; i++) {
        if (a->dims[i] != b->dims[i])
            return false;
        const char *na = a->dim_names ? a->dim_names[i] : NULL;
        const char *nb = b->dim_names ? b->dim_names[i] : NULL;
        if ((na || nb) && (!na || !nb || strcmp(na, nb) != 0))
            return false;
    }
    return true;
}

bool type_equal(const Type *a, const Type *b)
{
    if (a == b)
        return true;
    if (!a || !b || a->kind != b->kind)
        return false;
    switch (a->kind) {
    case TY_SCALAR:
        return a->scalar == b->scalar;
    case TY_VECTOR:
        return a->scalar == b->scalar && a->lanes == b->lanes;
    case TY_PTR:
        return a->is_const == b->is_const && type_equal(a->elem, b->elem);
    case TY_ARRAY:
    case TY_TENSOR:
        return a->col_major == b->col_major && type_equal(a->elem, b->elem) && dims_equal(a, b);
    case TY_TUPLE:
        if (a->ndims != b->ndims)
            return false;
        for (int i = 0; i < a->ndims; i++)
            if (!type_equal(a->elems[i], b->elems[i]))
                return false;
        return true;
    default:
        return true;
    }
}

const ScalarInfo *type_info(ScalarId id) { return &type_scalars[id]; }

ScalarId type_elem_scalar(const Type *t) { return t->scalar; }

bool type_is_int(ScalarId id) { return type_scalars[id].cls == SCK_INT; }
bool type_is_float(ScalarId id) { return type_scalars[id].cls == SCK_FLOAT; }
bool type_is_narrow(ScalarId id) { return type_scalars[id].cls == SCK_NARROW; }

bool type_is_numeric_value(const Type *t)
{
    return t->kind == TY_SCALAR || t->kind == TY_VECTOR;
}

int type_log_width(int width)
{
    int log = 0;
    while ((1 << log) < width)
        log++;
    return log;
}

int type_storage_bits(const Type *t)
{
    int w = type_scalars[t->scalar].width;
    int bits = w < 8 ? 8 : w;   /* sub-byte types take a whole byte each */
    return t->kind == TY_VECTOR ? bits * t->lanes : bits;
}

static void append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "%s", s);
}

static void format_type(char *buf, size_t cap, const Type *t)
{
    char tmp[64];
    switch (t->kind) {
    case TY_SCALAR:
        append(buf, cap, type_scalars[t->scalar].name);
        break;
    case TY_VECTOR:
        snprintf(tmp, sizeof tmp, "%sx%d", type_scalars[t->scalar].name, t->lanes);
        append(buf, cap, tmp);
        break;
    case TY_PTR:
        append(buf, cap, t->is_const ? "const Ptr[" : "Ptr[");
        format_type(buf, cap, t->elem);
        append(buf, cap, "]");
        break;
    case TY_ARRAY:
    case TY_TENSOR:
        append(buf, cap, t->kind == TY_ARRAY ? "Array[" : "Tensor[");
        format_type(buf, cap, t->elem);
        for (int i = 0; i < t->ndims; i++) {
            if (t->dim_names && t->dim_names[i])
                snprintf(tmp, sizeof tmp, ", %s", t->dim_names[i]);
            else if (type_is_dyn_array(t))
                snprintf(tmp, sizeof tmp, ", DYN");
            else
                snprintf(tmp, sizeof tmp, ", %lld", (long long)t->dims[i]);
            append(buf, cap, tmp);
        }
        if (t->col_major)
            append(buf, cap, ", col_major");
        append(buf, cap, "]");
        break;
    case TY_TUPLE:
        append(buf, cap, "(");
        for (int i = 0; i < t->ndims; i++) {
            if (i)
                append(buf, cap, ", ");
            format_type(buf, cap, t->elems[i]);
        }
        append(buf, cap, ")");
        break;
    case TY_TYPE: append(buf, cap, "Type"); break;
    case TY_LITINT: append(buf, cap, "int literal"); break;
    case TY_LITFLOAT: append(buf, cap, "float literal"); break;
    case TY_STRING: append(buf, cap, "string"); break;
    case TY_FASTMATH: append(buf, cap, "FastMathFlags"); break;
    case TY_ROUNDING: append(buf, cap, "RoundingMode"); break;
    case TY_VOID: append(buf, cap, "None"); break;
    case TY_MODULE: append(buf, cap, "module"); break;
    case TY_FUNC: append(buf, cap, "function"); break;
    case TY_SPECIAL: append(buf, cap, "dim3"); break;
    }
}

const char *type_name(Arena *a, const Type *t)
{
    char buf[512] = "";
    format_type(buf, sizeof buf, t);
    return arena_strdup(a, buf);
}

const Type *type_from_name(const char *name)
{
    for (int s = 0; s < SC_COUNT; s++) {
        const char *sn = type_scalars[s].name;
        size_t n = strlen(sn);
        if (strncmp(name, sn, n) != 0)
            continue;
        if (name[n] == 0)
            return type_scalar((ScalarId)s);
        if (name[n] == 'x' && s != SC_INDEX) {
            char *end;
            long lanes = strtol(name + n + 1, &end, 10);
            if (*end == 0 && name[n + 1] >= '1' && name[n + 1] <= '9')
                return type_vector((ScalarId)s, (int)lanes);
        }
    }
    return NULL;
}
