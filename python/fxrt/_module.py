"""Loaded modules, and calling their kernels and programs on numpy arrays."""
import ctypes
import functools
import os
import threading

import numpy as np

from . import _compiler, _native, _types
from ._compiler import Error

# libfxrt runs one launch at a time per process (<fxrt.h>).
_launch_lock = threading.Lock()


class LaunchError(Error):
    """A launch failed: an out-of-bounds access (named: "out-of-bounds store
    to 'y'[1000] (buffer has 1000 elements) in kernel saxpy"), a race the
    checker found, a spinning wave, ..."""


class KernelAssertionError(LaunchError):
    """An fx.assert failed; the message is located (file:line:col, block and
    thread)."""


def _launch_result(rc, err):
    text = _native.take_string(err.value)
    if rc == -2:   # RT_LAUNCH_ASSERT
        raise KernelAssertionError(text or "assertion failed")
    if rc != 0:
        raise LaunchError(text or "launch failed")


def _dims(value, what):
    """grid=/block=: an int or up to three ints, x first."""
    if isinstance(value, (int, np.integer)):
        value = (value,)
    value = tuple(int(v) for v in value)
    if not 1 <= len(value) <= 3 or any(v < 1 or v >= 1 << 32 for v in value):
        raise ValueError("%s=%r: expected one to three positive sizes, x first" % (what, value))
    return _native.Uint3(*(value + (1,) * (3 - len(value))))


class _Call:
    """The arguments of one call, bound to the parameters by name."""

    def __init__(self, entry, params, args, kwargs):
        self.entry = entry
        if len(args) > len(params):
            raise TypeError("%s takes %d arguments, %d given" % (entry, len(params), len(args)))
        self.values = {}
        for p, v in zip(params, args):
            self.values[p["name"]] = v
        for name, v in kwargs.items():
            if name in self.values:
                raise TypeError("%s: parameter '%s' given twice" % (entry, name))
            if not any(p["name"] == name for p in params):
                raise TypeError("%s has no parameter named '%s'" % (entry, name))
            self.values[name] = v
        self.keep = []   # what the C argument slots point to, alive until the launch is over

    def missing(self, p):
        raise TypeError("%s: missing argument for parameter '%s: %s'" % (self.entry, p["name"], p["type"]))

    def buffer(self, p, array, contiguous="C"):
        """A Ptr's or Tensor's array: its dtype, layout and alignment."""
        name, want = p["name"], _types.dtype_of(p)
        if not isinstance(array, np.ndarray):
            raise TypeError("parameter '%s' is %s: expected a numpy array, not %s"
                            % (name, p["type"], type(array).__name__))
        if array.dtype != want:
            raise TypeError("parameter '%s' is %s: expected a numpy array of dtype %s, not %s"
                            % (name, p["type"], want, array.dtype))
        ok = array.flags.c_contiguous if contiguous == "C" else array.flags.f_contiguous
        if not ok:
            order = "C (row-major)" if contiguous == "C" else "Fortran (column-major)"
            raise ValueError("parameter '%s' is %s: the array is not %s-contiguous; pass "
                             "np.ascontiguousarray(...)%s" % (name, p["type"], order,
                                                                "" if contiguous == "C" else " of its transpose, or np.asfortranarray(...)"))
        if not (p.get("const") or array.flags.writeable):
            raise ValueError("parameter '%s' is %s: the array is read-only, and the kernel may write it"
                             % (name, p["type"]))
        if array.size % p["lanes"]:
            raise ValueError("parameter '%s' is %s: the array's %d elements are not whole vectors of %d"
                             % (name, p["type"], array.size, p["lanes"]))
        if array.ctypes.data % _types.alignment(p):
            raise ValueError("parameter '%s' is %s: the array is not aligned to %d bytes"
                             % (name, p["type"], _types.alignment(p)))
        if p["scalar"] == "Int4" and array.size and (array.min() < -8 or array.max() > 7):
            raise ValueError("parameter '%s' is %s: an Int4 element is outside -8..7" % (name, p["type"]))
        slot = ctypes.c_void_p(array.ctypes.data if array.size else None)
        self.keep += [array, slot]
        return ctypes.cast(ctypes.pointer(slot), ctypes.c_void_p)

    def scalar(self, p, value):
        data = ctypes.create_string_buffer(_types.scalar_bytes(p, value, convert), 16)
        self.keep.append(data)
        return ctypes.cast(data, ctypes.c_void_p)


class Kernel:
    """A kernel of a loaded module: call it with grid=, block= and its
    arguments by name (or in order); Ptr parameters take numpy arrays, which
    the kernel reads and writes in place."""

    def __init__(self, module, info):
        self._module, self.info = module, info
        self.name = info["name"]
        self.params = info["params"]

    def __call__(self, *args, grid, block, shared_bytes=None, **kwargs):
        call = _Call("kernel " + self.name, self.params, args, kwargs)
        argv = (ctypes.c_void_p * (len(self.params) + 1))()
        sizes = (ctypes.c_size_t * (len(self.params) + 1))()
        for i, p in enumerate(self.params):
            if p["name"] not in call.values:
                call.missing(p)
            v = call.values[p["name"]]
            if p["kind"] == "ptr":
                argv[i] = call.buffer(p, v)
                sizes[i] = v.nbytes   # bounds checks: every Ptr access against its array
            elif p["kind"] == "scalar":
                argv[i] = call.scalar(p, v)
            else:
                raise NotImplementedError("parameter '%s' of type %s cannot be given from Python yet"
                                          % (p["name"], p["type"]))
        dyn = self.info["dynamic_shared"]
        if dyn and shared_bytes is None:
            raise TypeError("kernel %s has a dynamic shared array '%s': give its size in bytes with shared_bytes="
                            % (self.name, dyn["name"]))
        opts = _native.LaunchOptions(sizes, int(shared_bytes or 0), self._module.checks)
        err = _native.new_err()
        with _launch_lock:
            rc = _native.lib().rt_host_launch_with(self._module.handle(), self.name.encode(),
                                                   _dims(grid, "grid"), _dims(block, "block"),
                                                   argv, ctypes.byref(opts), ctypes.byref(err))
        _launch_result(rc, err)

    def __repr__(self):
        return "<fxrt kernel %s(%s)>" % (self.name, ", ".join("%s: %s" % (p["name"], p["type"]) for p in self.params))


class Program:
    """A tensor program of a loaded module: call it with its tensors (numpy
    arrays, read and written in place) and scalars by name. A symbolic size
    not given is taken from the shapes of the arrays that use it. Returns
    the run's notes (e.g. a contraction guard's fallback), a list of str."""

    def __init__(self, module, info):
        self._module, self.info = module, info
        self.name = info["name"]
        self.params = info["params"]

    def _sizes(self, call):
        """Symbolic sizes: given, or read off an array whose dimensions match
        the tensor's, and then every tensor's shape checked against them."""
        sizes = {}
        for p in self.params:
            if p["kind"] == "tensor" and isinstance(call.values.get(p["name"]), np.ndarray):
                a = call.values[p["name"]]
                if a.ndim == len(p["dims"]):
                    for d, n in zip(p["dims"], a.shape):
                        if isinstance(d, str) and d not in call.values:
                            sizes.setdefault(d, (n, p["name"]))
        for d, (n, _) in sizes.items():
            call.values[d] = n
        for p in self.params:
            if p["kind"] != "tensor" or p["name"] not in call.values:
                continue
            a = call.values[p["name"]]
            if not isinstance(a, np.ndarray):
                continue   # buffer() says what it wants
            dims = [call.values.get(d) if isinstance(d, str) else d for d in p["dims"]]
            if any(d is None for d in dims):
                continue   # a missing size is reported below
            try:
                dims = [int(d) for d in dims]
            except (TypeError, ValueError):
                continue   # scalar() reports a size that is not a number
            if any(d < 0 for d in dims):
                raise ValueError("parameter '%s' is %s: a negative size %s" % (p["name"], p["type"], dims))
            want = int(np.prod(dims))
            if a.ndim == len(dims) and list(a.shape) != dims:
                raise ValueError("parameter '%s' is %s = %s: the array's shape is %s"
                                 % (p["name"], p["type"], tuple(dims), a.shape))
            if a.size != want:
                raise ValueError("parameter '%s' is %s, which holds %d elements, but the array has %d"
                                 % (p["name"], p["type"], want, a.size))

    def _no_shared_buffers(self, call):
        """The plan may write one tensor while it reads another: they must
        not overlap (fxrun refuses the same)."""
        tensors = [p["name"] for p in self.params if p["kind"] == "tensor"]
        for i, a in enumerate(tensors):
            for b in tensors[:i]:
                x, y = call.values.get(a), call.values.get(b)
                if isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and np.shares_memory(x, y):
                    raise ValueError("parameters '%s' and '%s' share memory: a program's tensors cannot "
                                     "share a buffer (its plan may write one while reading the other)" % (a, b))

    def __call__(self, *args, **kwargs):
        call = _Call("program " + self.name, self.params, args, kwargs)
        self._sizes(call)
        self._no_shared_buffers(call)
        argv = (ctypes.c_void_p * (len(self.params) + 1))()
        for i, p in enumerate(self.params):
            if p["name"] not in call.values:
                call.missing(p)
            v = call.values[p["name"]]
            if p["kind"] == "tensor":
                argv[i] = call.buffer(p, v, "F" if p["col_major"] and v.ndim > 1 else "C")
            else:
                argv[i] = call.scalar(p, v)
        report = _native.RunReport()
        err = _native.new_err()
        with _launch_lock:
            rc = _native.lib().rt_program_run_report(self._module.handle(), self._module.plan(self.name), argv,
                                                     ctypes.byref(report), ctypes.byref(err))
        notes = ctypes.string_at(report.notes).decode() if report.notes else ""
        _native.lib().rt_run_report_free(ctypes.byref(report))
        _launch_result(rc, err)
        return [line for line in notes.split("\n") if line]

    def __repr__(self):
        return "<fxrt program %s(%s)>" % (self.name, ", ".join("%s: %s" % (p["name"], p["type"]) for p in self.params))


class Module:
    """A compiled .fx file, JIT-compiled into this process: its kernels and
    programs are attributes (mod.saxpy), also in mod.kernels and
    mod.programs."""

    def __init__(self, iface, artifact, arch, checks):
        self.arch, self.checks = arch, checks
        self.interface = iface
        err = _native.new_err()
        self._handle = _native.lib().rt_host_load_file(artifact.encode(), ctypes.byref(err))
        if not self._handle:
            raise Error(_native.take_string(err.value) or "fxrt: cannot load the compiled module")
        self._plans = {}
        self.kernels = {k["name"]: Kernel(self, k) for k in iface["kernels"]}
        self.programs = {p["name"]: Program(self, p) for p in iface["programs"]}

    def handle(self):
        if not self._handle:
            raise Error("fxrt: the module was closed")
        return self._handle

    def plan(self, program):
        """The program's launch plan, as it travels inside the artifact."""
        if program not in self._plans:
            err = _native.new_err()
            text = _native.take_string(_native.lib().rt_host_plan(self.handle(), program.encode(), ctypes.byref(err)))
            if text is None:
                raise Error(_native.take_string(err.value) or "fxrt: no plan for program " + program)
            plan = _native.lib().fxplan_parse(text.encode(), ctypes.byref(err))
            if not plan:
                raise Error(_native.take_string(err.value) or "fxrt: malformed plan of program " + program)
            names = [plan.contents.args[i].decode() for i in range(plan.contents.nargs - plan.contents.ntransients)]
            if names != [p["name"] for p in self.programs[program].params]:
                _native.lib().fxplan_free(plan)
                raise Error("fxrt: the plan of %s takes %s, its interface %s" % (program, names, self.programs[program].params))
            self._plans[program] = plan
        return self._plans[program]

    def __getattr__(self, name):
        entries = self.__dict__.get("kernels", {}), self.__dict__.get("programs", {})
        for table in entries:
            if name in table:
                return table[name]
        raise AttributeError("the module has no kernel or program named '%s'" % name)

    def close(self):
        """Frees the JIT'd code now rather than when the module is collected."""
        lib = _native.lib()
        for plan in self._plans.values():
            lib.fxplan_free(plan)
        self._plans = {}
        if self._handle:
            lib.rt_host_free(self._handle)
            self._handle = None

    def __del__(self):
        # at interpreter exit the ctypes machinery may be gone before the
        # module: the process's end frees the JIT'd code then
        if self.__dict__.get("_handle"):
            try:
                self.close()
            except Exception:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _load(input_args, stdin_text, arch, defines, options, check):
    checks, check_opts = _compiler.check_bits(check)
    opts = _compiler.source_options(defines, options, check_opts)
    with _compiler.temporary_directory() as tmp:
        iface, artifact = _compiler.compile_host(input_args, stdin_text, arch, opts, tmp)
        return Module(iface, artifact, arch, checks)


def load(path, arch=None, defines=None, options=None, check=None):
    """Compiles the .fx file at path and loads it into this process.
    arch=None: for the host CPU; arch="gfx942" (any processor fxcc knows):
    that GPU's kernels with its waves emulated, as fxrun --arch runs them.
    defines: {NAME: value} overrides consts (-D); options: more fxcc options
    (e.g. ["--contraction-guard=fallback"]); check="races", "uninit" or
    "races,uninit": compiled with the checker, which every launch runs.
    Raises CompileError with fxcc's diagnostics."""
    return _load([os.fspath(path)], None, arch, defines, options, check)


def loads(source, arch=None, defines=None, options=None, check=None):
    """load() for source text (named <stdin> in diagnostics)."""
    return _load(["-"], source, arch, defines, options, check)


@functools.lru_cache(maxsize=None)
def _converter(src, dst):
    """A kernel that converts Ptr[src] to Ptr[dst] with the language's own
    constructor dst(x), compiled once per pair and process."""
    return loads("kernel convert(x: const Ptr[%s], y: Ptr[%s], n: Int32) {\n"
                 "    let i = block_idx.x * block_dim.x + thread_idx.x\n"
                 "    if i < n {\n        y[i] = %s(x[i])\n    }\n}\n" % (src, dst, dst)).convert


def _type_of_dtype(dt):
    for name, elem in _compiler.scalar_types().items():
        if elem["class"] in ("bool", "int", "float") and name not in ("Int4", "Index", "BFloat16") \
                and elem["width"] != 128 and _types.dtype_of(elem) == dt:
            return name
    raise TypeError("fxrt.convert: give the type of %s elements with from_type=" % dt)


def convert(array, to_type, from_type=None):
    """array's elements as to_type, converted as the language's to_type(x)
    does (rounding to nearest, the saturation and NaN rules of the narrow
    floats): a new array of fxrt.dtype(to_type). from_type names the type of
    array's elements when its dtype is an encoding (fxrt.dtype("BFloat16")
    is uint16); otherwise the dtype says (float64: Float64, int32: Int32).
    Converts on the host, with a kernel compiled once per pair of types."""
    array = np.ascontiguousarray(array)
    src = from_type or _type_of_dtype(array.dtype)
    for t in (src, to_type):
        if t not in _compiler.scalar_types():
            raise ValueError("fxrt.convert: no scalar type named %r" % (t,))
    if array.size >= 1 << 31:
        raise ValueError("fxrt.convert: at most 2**31 - 1 elements at a time")
    out = np.zeros(array.shape, dtype=_types.dtype(to_type))
    if array.size:
        _converter(src, to_type)(grid=((array.size + 255) // 256,), block=(256,), x=array.reshape(-1),
                                 y=out.reshape(-1), n=array.size)
    return out


def set_threads(n):
    """Worker threads for later launches: n > 0 that many (at most 1024);
    0: the default (FX_THREADS, else one per processor). Results do not
    depend on it."""
    if not 0 <= int(n) <= 1024:
        raise ValueError("fxrt.set_threads: expected 0 to 1024, not %r" % (n,))
    _native.lib().rt_host_set_threads(int(n))
