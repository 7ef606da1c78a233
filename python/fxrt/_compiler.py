"""Running the install tree's fxcc: compiling a module for the host (or a
GPU's wave model), its interface, and --eval."""
import json
import os
import subprocess
import tempfile
import warnings

from . import _native, _types


class Error(Exception):
    """What fxrt raises for a failure of the compiler or of a launch."""


class CompileError(Error):
    """fxcc refused the source: .diagnostics holds its located messages
    (file:line:col: error: ... with the source line and a caret)."""

    def __init__(self, diagnostics):
        super().__init__(diagnostics.rstrip("\n"))
        self.diagnostics = diagnostics


class CompileWarning(UserWarning):
    """fxcc compiled the source and warned (-Wall and the like)."""


_CHECKS = {"races": 1, "uninit": 2}   # RT_CHECK_* of <fxrt.h>


def check_bits(check):
    """check="races", "uninit", "races,uninit" (or a list): the RT_CHECK_*
    bits, and the --check option that compiles the checker's calls in."""
    if not check:
        return 0, []
    names = check.split(",") if isinstance(check, str) else list(check)
    bits = 0
    for n in names:
        if n not in _CHECKS:
            raise ValueError("fxrt: check=%r: expected races, uninit or both" % (check,))
        bits |= _CHECKS[n]
    return bits, ["--check=" + ",".join(n for n in _CHECKS if bits & _CHECKS[n])]


def _run(args, stdin_text=None):
    try:
        done = subprocess.run([_native.FXCC] + args, input=stdin_text, capture_output=True, text=True)
    except FileNotFoundError:
        raise Error("fxrt: the compiler %s is missing from the install tree" % _native.FXCC) from None
    if done.returncode != 0:
        raise CompileError(done.stderr or "fxcc exited with status %d" % done.returncode)
    if done.stderr.strip():
        warnings.warn(done.stderr.rstrip("\n"), CompileWarning, stacklevel=4)
    return done.stdout


def source_options(defines, options, check_opts):
    out = []
    for name, value in (defines or {}).items():
        if isinstance(value, bool):
            value = "True" if value else "False"
        out += ["-D", "%s=%s" % (name, value)]
    return out + list(options or []) + check_opts


def compile_host(input_args, stdin_text, arch, opts, workdir):
    """The module's interface (a dict) and the path of its host artifact:
    bitcode for the host, or with arch the host code that runs that GPU's
    kernels with its waves emulated (fxcc --target=host --offload-arch)."""
    target = ["--target=host"] + (["--offload-arch=" + arch] if arch else [])
    iface = json.loads(_run(input_args + target + ["--print-interface"] + opts, stdin_text))
    remember_scalars(iface)
    out = os.path.join(workdir, "module.bc")
    _run(input_args + target + ["--emit-llvm", "-o", out] + opts, stdin_text)
    return iface, out


def remember_scalars(iface):
    for s in iface["scalars"]:
        _types.SCALARS[s["scalar"]] = s


def scalar_types():
    """The type tower, from the compiler once per process."""
    if not _types.SCALARS:
        remember_scalars(json.loads(_run(["-", "--print-interface"], "")))
    return _types.SCALARS


def eval_text(expr):
    """fxcc --eval EXPR's output line."""
    return _run(["--eval", expr]).rstrip("\n")


def temporary_directory():
    return tempfile.TemporaryDirectory(prefix="fxrt-")
