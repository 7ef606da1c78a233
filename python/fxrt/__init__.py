"""fxrt: compile .fx kernels and tensor programs with fxcc and run them on
numpy arrays on the host CPU, through libfxrt (ctypes, no compiled
extension). docs/python.md is the reference.

    import numpy as np, fxrt
    mod = fxrt.load("saxpy.fx")
    x = np.arange(1000, dtype=np.float32); y = np.zeros(1000, np.float32)
    mod.saxpy(grid=(4,), block=(256,), x=x, y=y, a=2.5, n=1000)   # y in place
"""
import re

import numpy as np

from . import _compiler, _config, _native, _types
from ._compiler import CompileError, CompileWarning, Error
from ._module import (KernelAssertionError, Kernel, LaunchError, Module, Program, convert, load, loads,
                      set_threads)
from ._types import from_int128, int128, to_int128, uint128

__version__ = _config.VERSION
__all__ = ["load", "loads", "eval", "convert", "dtype", "scalar_types", "set_threads", "library_version", "Module", "Kernel",
           "Program", "Value", "Error", "CompileError", "CompileWarning", "LaunchError", "KernelAssertionError",
           "int128", "uint128", "from_int128", "to_int128"]


def dtype(type_name):
    """The numpy dtype holding values of scalar type type_name: float32 for
    Float32, int8 for Int4 (-8..7), bool for Boolean, fxrt.int128 for Int128,
    and for the floats numpy lacks (BFloat16, Float8E4M3FN, ...) an unsigned
    integer holding the encoding (see fxrt.convert)."""
    _compiler.scalar_types()
    return _types.dtype(type_name)


def scalar_types():
    """The names of every scalar type of the language, in the tower's order."""
    return list(_compiler.scalar_types())


def library_version():
    """The version of the libfxrt this package runs with."""
    return _native.lib().rt_version_string().decode()


class Value:
    """A static value, as fxcc --eval prints it: str(v) is its text
    ("Uint32(1)"), v.type its type's name (None for an untyped literal,
    "Type" for a type), v.value the value: int for integers of every width,
    bool for Boolean, numpy.float16/32/64 for those floats, float (exactly
    the value) for BFloat16 and the narrow floats, a str for a type."""

    def __init__(self, text, type_name, value):
        self.text, self.type, self.value = text, type_name, value

    def __str__(self):
        return self.text

    def __repr__(self):
        return "fxrt.Value(%s)" % self.text

    def __eq__(self, other):
        return isinstance(other, Value) and other.text == self.text

    def __hash__(self):
        return hash(self.text)


_NUMPY_FLOATS = {"Float16": np.float16, "Float32": np.float32, "Float64": np.float64}


def _float_value(expr, type_name):
    """A float's exact value: through Float64, which holds every float type's
    values exactly, as fxcc's folder converts it."""
    payload = _compiler.eval_text("Float64(%s)" % expr) if type_name != "Float64" else None
    if payload is not None:
        payload = re.fullmatch(r"Float64\((.*)\)", payload).group(1)
    return payload


def eval(expr):
    """The static value of a .fx expression, folded by fxcc exactly as run
    time computes it: fxrt.eval("Uint32(0xFFFFFFFF) + Uint32(2)") is
    Uint32(1). Raises CompileError for an expression fxcc rejects."""
    text = _compiler.eval_text(expr)
    m = re.fullmatch(r"([A-Za-z][A-Za-z0-9]*)\((.*)\)", text)
    if not m:   # an untyped literal: 3, 1.5
        return Value(text, None, float(text) if re.search(r"[.eEn]", text) else int(text))
    type_name, payload = m.group(1), m.group(2)
    scalars = _compiler.scalar_types()
    if type_name not in scalars:
        return Value(text, type_name, payload)
    cls = scalars[type_name]["class"]
    if cls == "bool":
        value = payload == "True"
    elif cls == "int":
        value = int(payload)
    else:
        exact = float(_float_value(expr, type_name) or payload)
        value = _NUMPY_FLOATS[type_name](exact) if type_name in _NUMPY_FLOATS else exact
    return Value(text, type_name, value)
