"""How the language's scalar types meet numpy: one dtype per type (the type
tower's storage form, as fxcc --print-interface describes each parameter),
and scalar arguments in their storage bytes."""
import math
import numbers

import numpy as np

#: Int128 and Uint128 elements: 16 bytes, little-endian, as two 64-bit words
#: (numpy has no 128-bit integer). Read them with fxrt.from_int128.
int128 = np.dtype([("lo", "<u8"), ("hi", "<i8")])
uint128 = np.dtype([("lo", "<u8"), ("hi", "<u8")])

# The floats numpy computes with; every other float (BFloat16, the Float8,
# Float6 and Float4 formats, Float8E8M0FNU) is held as its encoding in an
# unsigned integer of its storage size: fxrt.convert turns values into
# encodings and back.
_NUMPY_FLOATS = {"Float16": np.float16, "Float32": np.float32, "Float64": np.float64}


def dtype_of(elem):
    """The numpy dtype of one lane of an interface element (a dict with
    scalar, class, width, signed, lanes, bytes)."""
    lane_bytes = elem["bytes"] // elem["lanes"]
    cls, name = elem["class"], elem["scalar"]
    if cls == "bool":
        dt = np.dtype(np.bool_)
    elif cls == "int" and elem["width"] == 128:
        dt = int128 if elem["signed"] else uint128
    elif cls == "int":
        dt = np.dtype("%s%d" % ("i" if elem["signed"] else "u", lane_bytes))
    elif name in _NUMPY_FLOATS:
        dt = np.dtype(_NUMPY_FLOATS[name])
    else:
        dt = np.dtype("u%d" % lane_bytes)
    if dt.itemsize != lane_bytes:
        raise AssertionError("fxrt: %s is %d bytes in memory, its dtype %s" % (name, lane_bytes, dt))
    return dt


def dtype(type_name):
    """The numpy dtype that holds values of a scalar type, e.g.
    fxrt.dtype("BFloat16") is uint16 (the encoding)."""
    elem = SCALARS.get(type_name)
    if elem is None:
        raise ValueError("fxrt: no scalar type named %r" % (type_name,))
    return dtype_of(elem)


def alignment(elem):
    """A Ptr element's alignment (<fxrt.h>): the lane type's for scalars and
    3-lane vectors, the vector's size otherwise."""
    lanes, size = elem["lanes"], elem["bytes"]
    if lanes in (1, 3):
        return size // lanes
    return size


def _is_integral(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))


def _integer_value(param, value):
    """An integer parameter takes an integral value in its range, as fxrun
    does (no silent wrap-around)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError("parameter '%s' is %s: expected an integer, not a Boolean" % (param["name"], param["type"]))
    if isinstance(value, numbers.Real) and not _is_integral(value):
        v = float(value)
        if not math.isfinite(v) or v != math.floor(v):
            raise ValueError("parameter '%s' is %s: %r is not an integer" % (param["name"], param["type"], value))
        value = int(v)
    if not _is_integral(value):
        raise TypeError("parameter '%s' is %s: expected an integer, not %s"
                        % (param["name"], param["type"], type(value).__name__))
    value, width = int(value), param["width"]
    lo, hi = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if param["signed"] else (0, (1 << width) - 1)
    if not lo <= value <= hi:
        raise ValueError("parameter '%s' is %s: %d is outside its range %d..%d"
                         % (param["name"], param["type"], value, lo, hi))
    return value


def scalar_bytes(param, value, convert):
    """A scalar argument in its storage form (fxhost.h): what a kernel
    parameter's slot points to. Floats numpy lacks go through `convert`
    (the compiler's own conversion, fxrt.convert)."""
    cls, size = param["class"], param["bytes"]
    if param["lanes"] != 1:
        raise NotImplementedError("parameter '%s' is %s: vector parameters cannot be given from Python yet"
                                  % (param["name"], param["type"]))
    if cls == "bool":
        if isinstance(value, (bool, np.bool_)) or (_is_integral(value) and int(value) in (0, 1)):
            return bytes([1 if value else 0])
        raise ValueError("parameter '%s' is Boolean: expected True, False, 0 or 1, not %r" % (param["name"], value))
    if cls == "int":
        return _integer_value(param, value).to_bytes(size, "little", signed=param["signed"])
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError("parameter '%s' is %s: expected a number, not %s"
                        % (param["name"], param["type"], type(value).__name__))
    if param["scalar"] in _NUMPY_FLOATS:
        # through Float64 and then rounded to nearest, as numpy converts
        # (overflowing to inf, as the language's constructor does)
        with np.errstate(over="ignore"):
            return np.array(float(value), dtype=_NUMPY_FLOATS[param["scalar"]]).tobytes()
    return convert(np.array([float(value)]), param["scalar"]).tobytes()


def from_int128(array):
    """Int128 or Uint128 elements as Python ints (a list, in C order)."""
    if array.dtype not in (int128, uint128):
        raise TypeError("fxrt.from_int128: expected fxrt.int128 or fxrt.uint128 elements, not %s" % array.dtype)
    # hi is signed for Int128, so hi * 2**64 + lo is the value either way
    return [int(e["lo"]) | (int(e["hi"]) << 64) for e in np.ravel(array)]


def to_int128(values, signed=True):
    """Python ints as an array of fxrt.int128 (or uint128) elements; each
    must fit."""
    dt = int128 if signed else uint128
    values = list(values)
    out = np.zeros(len(values), dtype=dt)
    lo, hi = (-(1 << 127), (1 << 127) - 1) if signed else (0, (1 << 128) - 1)
    for i, v in enumerate(values):
        v = int(v)
        if not lo <= v <= hi:
            raise ValueError("fxrt.to_int128: %d does not fit in %s" % (v, "Int128" if signed else "Uint128"))
        out[i]["lo"] = v & ((1 << 64) - 1)
        out[i]["hi"] = v >> 64
    return out


# Every scalar type, as the interface describes an element of it (the
# "scalars" of fxcc --print-interface); filled in by the first compilation.
SCALARS = {}
