"""ctypes declarations of libfxrt's C API (<fxrt.h>, <fxrt_program.h>,
<abi/fxplan.h>), and the library and compiler of the install tree this
package belongs to."""
import ctypes
import os

from . import _config

_here = os.path.dirname(os.path.abspath(__file__))
PREFIX = os.path.normpath(os.path.join(_here, _config.PREFIX_FROM_PACKAGE))
FXCC = os.path.join(PREFIX, _config.BINDIR, "fxcc")
LIBFXRT = os.path.join(PREFIX, _config.LIBDIR, _config.SONAME)


class LaunchOptions(ctypes.Structure):
    """RtLaunchOptions"""
    _fields_ = [("arg_bytes", ctypes.POINTER(ctypes.c_size_t)),
                ("shared_bytes", ctypes.c_size_t),
                ("checks", ctypes.c_uint)]


class RunReport(ctypes.Structure):
    """RtRunReport"""
    _fields_ = [("notes", ctypes.c_void_p)]


class Plan(ctypes.Structure):
    """The leading fields of FxPlan: the program's argument names."""
    _fields_ = [("program", ctypes.c_char_p),
                ("args", ctypes.POINTER(ctypes.c_char_p)),
                ("nargs", ctypes.c_int),
                ("transients", ctypes.c_void_p),
                ("ntransients", ctypes.c_int)]


Uint3 = ctypes.c_uint * 3
_ERR = ctypes.POINTER(ctypes.c_void_p)


def _declare(lib):
    v, p, s, i = ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int
    table = {
        "rt_version_string": ([], s),
        "rt_host_load_file": ([s, _ERR], p),
        "rt_host_launch_with": ([p, s, Uint3, Uint3, ctypes.POINTER(ctypes.c_void_p),
                                 ctypes.POINTER(LaunchOptions), _ERR], i),
        "rt_host_free": ([p], None),
        "rt_host_set_threads": ([ctypes.c_uint], None),
        "rt_host_plan": ([p, s, _ERR], v),
        "fxplan_parse": ([s, _ERR], ctypes.POINTER(Plan)),
        "fxplan_free": ([ctypes.POINTER(Plan)], None),
        "rt_program_run_report": ([p, ctypes.POINTER(Plan), ctypes.POINTER(ctypes.c_void_p),
                                   ctypes.POINTER(RunReport), _ERR], i),
        "rt_run_report_free": ([ctypes.POINTER(RunReport)], None),
    }
    for name, (args, res) in table.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = res


_lib = None
_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]


def lib():
    """libfxrt, loaded on first use. RTLD_GLOBAL: the code its JIT makes
    calls support routines (libgcc's, libm's) that it finds by name among
    the process's global symbols, which a library loaded privately would
    not add to."""
    global _lib
    if _lib is None:
        if not os.path.exists(LIBFXRT):
            raise OSError("fxrt: the library %s is missing from the install tree" % LIBFXRT)
        _lib = ctypes.CDLL(LIBFXRT, mode=ctypes.RTLD_GLOBAL)
        _declare(_lib)
    return _lib


def take_string(address):
    """A malloc'd C string from libfxrt as a Python string; frees it."""
    if not address:
        return None
    text = ctypes.string_at(address).decode("utf-8", "replace")
    _libc.free(address)
    return text


def new_err():
    return ctypes.c_void_p(None)
