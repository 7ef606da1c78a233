"""The Python module fxrt, run from an install tree (tests/python/run.sh):
every scalar type through a kernel, every documented argument error, eval
against fxcc --eval's own cases, programs on the host and in a GPU's wave
model, the checker, fx.assert, conversions."""
import os
import re
import subprocess
import warnings

import numpy as np
import pytest

import fxrt

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("FXRT_TEST_SOURCE_ROOT", os.path.join(HERE, "..", ".."))
EXAMPLES = os.path.join(SOURCE, "examples")

SAXPY = os.path.join(EXAMPLES, "saxpy.fx")
GEMM = os.path.join(EXAMPLES, "gemm.fx")


@pytest.fixture(scope="module")
def saxpy():
    return fxrt.load(SAXPY)


def test_the_package_is_the_install_trees():
    """No build or source tree on the path: the package, its library and
    its compiler come from one install tree."""
    from fxrt import _native
    assert os.path.commonpath([fxrt.__file__, _native.LIBFXRT, _native.FXCC]) == _native.PREFIX
    assert fxrt.library_version() == fxrt.__version__


# ---- every scalar type round-trips through a kernel ----

def encodings(name, dt):
    """Values of type name in their storage form: every encoding of an 8-bit
    or smaller type, the edges and random values of the wider ones."""
    elem = fxrt._types.SCALARS[name]
    rng = np.random.default_rng(7)
    if elem["class"] == "bool":
        return np.array([False, True, True, False])
    if elem["width"] == 128:
        lo, hi = (-(1 << 127), (1 << 127) - 1) if elem["signed"] else (0, (1 << 128) - 1)
        return fxrt.to_int128([lo, hi, 0, 1, -1 if elem["signed"] else 5, 12345678901234567890123],
                              signed=elem["signed"])
    if name == "Int4":
        return np.arange(-8, 8, dtype=np.int8)
    if elem["width"] <= 8:
        return np.arange(1 << elem["width"], dtype=dt)   # every encoding, NaNs too
    if dt.kind == "f":
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -2.5], dtype=dt)
        return np.concatenate([special, rng.standard_normal(64).astype(dt)])
    info = np.iinfo(dt)
    return np.concatenate([np.array([info.min, info.max, 0, 1], dtype=dt),
                           rng.integers(info.min, info.max, 64, dtype=dt, endpoint=True)])


COPY = """kernel copy(x: const Ptr[T], y: Ptr[T], s: T, out: Ptr[T], n: Int32) {
    let i = block_idx.x * block_dim.x + thread_idx.x
    if i < n {
        y[i] = x[i]
    }
    if i == 0 {
        out[0] = s
    }
}
"""


@pytest.mark.parametrize("name", fxrt.scalar_types())
def test_every_scalar_type_round_trips(name):
    dt = fxrt.dtype(name)
    mod = fxrt.loads(COPY.replace("T", name))
    x = encodings(name, dt)
    y, out = np.zeros_like(x), np.zeros(1, dtype=dt)
    elem = fxrt._types.SCALARS[name]
    if elem["class"] == "bool":
        s, want_s = True, np.array([True])
    elif elem["class"] == "int":
        s = (-(1 << (elem["width"] - 1))) if elem["signed"] else (1 << elem["width"]) - 1
        want_s = fxrt.to_int128([s], signed=elem["signed"]) if elem["width"] == 128 else np.array([s], dtype=dt)
    else:
        s = 0.1
        want_s = fxrt.convert(np.array([0.1]), name)
    mod.copy(grid=((x.size + 63) // 64,), block=(64,), x=x, y=y, s=s, out=out, n=x.size)
    assert x.tobytes() == y.tobytes(), name
    assert out.tobytes() == want_s.tobytes(), name


def test_numpy_floats_take_python_numbers_rounded_to_nearest():
    mod = fxrt.loads(COPY.replace("T", "Float16"))
    out = np.zeros(1, np.float16)
    mod.copy(grid=1, block=1, x=np.zeros(1, np.float16), y=np.zeros(1, np.float16), s=70000.0, out=out, n=1)
    assert np.isinf(out[0])
    mod.copy(grid=1, block=1, x=np.zeros(1, np.float16), y=np.zeros(1, np.float16), s=1 / 3, out=out, n=1)
    assert out[0] == np.float16(1 / 3)


def test_convert_follows_the_language():
    """fxrt.convert is the language's constructor: the same bits as fxcc
    --eval folds."""
    for name, value in [("BFloat16", 0.1), ("Float8E4M3FN", 300.0), ("Float8E4M3FN", 1e9),
                        ("Float8E5M2", -0.3), ("Float4E2M1FN", -1.5), ("Float6E3M2FN", 7.0),
                        ("Float8E8M0FNU", 4.0)]:
        bits = fxrt.convert(np.array([value]), name)[0]
        back = fxrt.convert(np.array([bits], dtype=fxrt.dtype(name)), "Float64", from_type=name)[0]
        want = fxrt.eval("Float64(%s(Float64(%r)))" % (name, value)).value
        assert back == want or (np.isnan(back) and np.isnan(want)), (name, value)
    assert fxrt.convert(np.array([0.1]), "BFloat16")[0] == fxrt.eval("BFloat16(Float64(0.1)).bitcast(Uint16)").value
    assert fxrt.convert(np.array([2 ** 40], dtype=np.int64), "Int32")[0] == 0   # the constructor wraps
    with pytest.raises(TypeError, match="from_type"):
        fxrt.convert(np.zeros(2, dtype=np.complex64), "Float32")


# ---- every bad argument raises the documented exception ----

def vectors(n=1000):
    return np.arange(n, dtype=np.float32), np.ones(n, dtype=np.float32)


def test_kernel_runs_in_place(saxpy):
    x, y = vectors()
    saxpy.saxpy(grid=(4,), block=(256,), x=x, y=y, a=2.5, n=1000)
    assert np.array_equal(y, np.float32(2.5) * x + np.float32(1))
    x, y = vectors()
    saxpy.saxpy(x, y, 2.5, 1000, grid=4, block=256)   # in order
    assert np.array_equal(y, np.float32(2.5) * x + np.float32(1))


def test_wrong_dtype_names_the_parameter(saxpy):
    x, y = vectors()
    with pytest.raises(TypeError, match=r"parameter 'x' is const Ptr\[Float32\]: .*dtype float32, not float64"):
        saxpy.saxpy(grid=4, block=256, x=x.astype(np.float64), y=y, a=2.5, n=1000)
    with pytest.raises(TypeError, match=r"parameter 'y' .*numpy array, not list"):
        saxpy.saxpy(grid=4, block=256, x=x, y=[1.0] * 1000, a=2.5, n=1000)


def test_too_small_array_names_the_parameter(saxpy):
    x, y = vectors()
    with pytest.raises(fxrt.LaunchError, match=r"out-of-bounds load from 'x'\[500\] \(buffer has 500 elements\)"):
        saxpy.saxpy(grid=4, block=256, x=x[:500].copy(), y=y, a=2.5, n=1000)
    assert np.array_equal(y[:10], np.float32(2.5) * x[:10] + 1)   # work before the stop is done
    g = fxrt.load(GEMM)
    with pytest.raises(ValueError, match=r"parameter 'C' is Tensor\[Float64, M, N\], which holds 12 elements, "
                                         r"but the array has 11"):
        g.gemm(A=np.zeros(6), B=np.zeros(8), C=np.zeros(11), alpha=1, beta=0, M=3, N=4, K=2)
    with pytest.raises(ValueError, match=r"parameter 'B' is Tensor\[Float64, K, N\] = \(2, 4\): the array's "
                                         r"shape is \(3, 4\)"):
        g.gemm(A=np.zeros((3, 2)), B=np.zeros((3, 4)), C=np.zeros((3, 4)), alpha=1, beta=0)


def test_non_contiguous_array_names_the_parameter(saxpy):
    x, y = vectors(2000)
    with pytest.raises(ValueError, match=r"parameter 'x' .*not C \(row-major\)-contiguous"):
        saxpy.saxpy(grid=4, block=256, x=x[::2], y=y[:1000], a=2.5, n=1000)


def test_read_only_array_for_a_written_parameter(saxpy):
    x, y = vectors()
    y.flags.writeable = False
    with pytest.raises(ValueError, match=r"parameter 'y' .*read-only"):
        saxpy.saxpy(grid=4, block=256, x=x, y=y, a=2.5, n=1000)
    x.flags.writeable = False   # const Ptr: fine
    saxpy.saxpy(grid=4, block=256, x=x, y=np.zeros(1000, np.float32), a=2.5, n=1000)


def test_missing_and_unknown_arguments(saxpy):
    x, y = vectors()
    with pytest.raises(TypeError, match=r"missing argument for parameter 'n: Int32'"):
        saxpy.saxpy(grid=4, block=256, x=x, y=y, a=2.5)
    with pytest.raises(TypeError, match=r"has no parameter named 'm'"):
        saxpy.saxpy(grid=4, block=256, x=x, y=y, a=2.5, n=1000, m=3)
    with pytest.raises(TypeError, match=r"parameter 'x' given twice"):
        saxpy.saxpy(x, grid=4, block=256, x=x, y=y, a=2.5, n=1000)
    with pytest.raises(TypeError, match="grid"):
        saxpy.saxpy(block=256, x=x, y=y, a=2.5, n=1000)
    with pytest.raises(AttributeError, match="no kernel or program named 'saxpi'"):
        saxpy.saxpi
    with pytest.raises(TypeError, match=r"missing argument for parameter 'alpha: Float64'"):
        fxrt.load(GEMM).gemm(A=np.zeros((3, 2)), B=np.zeros((2, 4)), C=np.zeros((3, 4)), beta=0)


def test_bad_scalars_name_the_parameter(saxpy):
    x, y = vectors()
    with pytest.raises(ValueError, match=r"parameter 'n' is Int32: 1099511627776 is outside its range"):
        saxpy.saxpy(grid=4, block=256, x=x, y=y, a=2.5, n=2 ** 40)
    with pytest.raises(ValueError, match=r"parameter 'n' is Int32: 2.5 is not an integer"):
        saxpy.saxpy(grid=4, block=256, x=x, y=y, a=2.5, n=2.5)
    with pytest.raises(TypeError, match=r"parameter 'a' is Float32: expected a number, not str"):
        saxpy.saxpy(grid=4, block=256, x=x, y=y, a="2.5", n=1000)
    with pytest.raises(TypeError, match=r"parameter 'n' is Int32: expected an integer, not a Boolean"):
        saxpy.saxpy(grid=4, block=256, x=x, y=y, a=2.5, n=True)
    with pytest.raises(ValueError, match=r"grid=\(0,\)"):
        saxpy.saxpy(grid=0, block=256, x=x, y=y, a=2.5, n=1000)


def test_int4_elements_must_be_in_range():
    mod = fxrt.loads(COPY.replace("T", "Int4"))
    with pytest.raises(ValueError, match=r"parameter 'x' .*Int4 element is outside -8..7"):
        mod.copy(grid=1, block=4, x=np.array([1, 2, 8, 0], np.int8), y=np.zeros(4, np.int8), s=1,
                 out=np.zeros(1, np.int8), n=4)


def test_compile_errors_carry_located_diagnostics(tmp_path):
    bad = tmp_path / "bad.fx"
    bad.write_text("kernel k(x: Ptr[Float32]) {\n    x[0] = y\n}\n")
    with pytest.raises(fxrt.CompileError) as e:
        fxrt.load(bad)
    assert "bad.fx:2:12: error:" in e.value.diagnostics
    assert "    x[0] = y\n" in e.value.diagnostics and "^" in e.value.diagnostics
    with pytest.raises(fxrt.CompileError, match=r"<stdin>:1:\d+: error"):
        fxrt.loads("kernel k( {")
    with pytest.raises(fxrt.CompileError, match="unknown option"):
        fxrt.load(SAXPY, options=["--no-such-option"])


def test_warnings_become_python_warnings():
    with pytest.warns(fxrt.CompileWarning, match="unused"):
        fxrt.loads("kernel k(x: Ptr[Float32]) {\n    let unused = 1\n}\n", options=["-Wall"])


def test_defines_override_consts():
    src = "const SCALE: Float32 = 1.0\nkernel k(y: Ptr[Float32]) {\n    y[0] = SCALE\n}\n"
    y = np.zeros(1, np.float32)
    fxrt.loads(src, defines={"SCALE": 3.5}).k(grid=1, block=1, y=y)
    assert y[0] == 3.5


def test_dynamic_shared_memory_needs_its_size():
    src = ("kernel k(y: Ptr[Float32]) {\n    shared s: Array[Float32, DYN]\n"
           "    s[thread_idx.x] = Float32(thread_idx.x)\n    fx.barrier()\n"
           "    y[thread_idx.x] = s[block_dim.x - 1 - thread_idx.x]\n}\n")
    mod = fxrt.loads(src)
    y = np.zeros(64, np.float32)
    with pytest.raises(TypeError, match="shared_bytes"):
        mod.k(grid=1, block=64, y=y)
    mod.k(grid=1, block=64, y=y, shared_bytes=256)
    assert np.array_equal(y, np.arange(63, -1, -1, dtype=np.float32))
    with pytest.raises(fxrt.LaunchError, match="out-of-bounds"):
        mod.k(grid=1, block=64, y=y, shared_bytes=128)


# ---- eval agrees with fxcc --eval ----

def eval_cases():
    files = [os.path.join(SOURCE, "tests", "sema", "eval", f) for f in ("promotion.txt", "narrow.txt", "floats.txt")]
    shared = os.path.join(SOURCE, "..", "shared", "conformance", "eval.txt")
    files += [shared] if os.path.exists(shared) else []
    cases = []
    for path in files:
        with open(path) as f:
            for line in f:
                line = line.rstrip("\n")
                if line and not line.startswith("#") and "  =>  " in line:
                    cases.append(tuple(line.split("  =>  ", 1)))
    return cases


def test_eval_agrees_with_fxcc_on_the_eval_cases():
    cases = eval_cases()
    assert len(cases) > 1000
    bad = []
    for expr, want in cases:
        try:
            got = str(fxrt.eval(expr))
        except fxrt.CompileError as e:
            got = "error" if "error" in e.diagnostics else e.diagnostics
        if got != want:
            bad.append((expr, want, got))
    assert not bad, bad[:10]


def test_eval_values():
    assert fxrt.eval("Uint32(0xFFFFFFFF) + Uint32(2)").value == 1
    assert str(fxrt.eval("Uint32(0xFFFFFFFF) + Uint32(2)")) == "Uint32(1)"
    assert fxrt.eval("Int128(1) << 100").value == 1 << 100
    v = fxrt.eval("Float32(0.1)")
    assert v.type == "Float32" and isinstance(v.value, np.float32) and v.value == np.float32(0.1)
    assert fxrt.eval("Float8E4M3FN(300.0)").value == 288.0   # printed as 300.0, its shortest spelling
    assert fxrt.eval("Int4(7) + Int4(1)").value == -8
    assert fxrt.eval("Boolean(1)").value is True
    assert fxrt.eval("(Int8(1) + Int16(1)).dtype").value == "Int16"
    assert fxrt.eval("1 + 2").value == 3
    with pytest.raises(fxrt.CompileError, match="<eval>:1:1: error"):
        fxrt.eval("Float32x4(1)")


# ---- programs, the wave model, the run report, the checker, fx.assert ----

@pytest.mark.parametrize("arch", [None, "gfx942", "gfx1100"])
def test_gemm_program_on_numpy_arrays(arch):
    g = fxrt.load(GEMM, arch=arch)
    rng = np.random.default_rng(1)
    A, B, C = rng.random((64, 32)), rng.random((32, 48)), rng.random((64, 48))
    want = 1.5 * (A @ B) + 0.5 * C
    assert g.gemm(A=A, B=B, C=C, alpha=1.5, beta=0.5) == []   # sizes from the shapes
    assert np.abs(C - want).max() <= 32 * 2 * np.finfo(np.float64).eps * np.abs(want).max()


def test_small_integer_gemm_is_exact_on_every_target():
    """Products and sums of small integers are exact: the host, the wave
    model's matrix instructions and numpy agree bit for bit."""
    rng = np.random.default_rng(2)
    A, B = rng.integers(-8, 8, (40, 24)).astype(np.float64), rng.integers(-8, 8, (24, 36)).astype(np.float64)
    for arch in (None, "gfx90a", "gfx942", "gfx1100", "gfx1201"):
        C = np.zeros((40, 36))
        fxrt.load(GEMM, arch=arch).gemm(A, B, C, 1.0, 0.0, 40, 36, 24)
        assert np.array_equal(C, A @ B), arch


def test_col_major_tensors_take_fortran_arrays():
    src = ("program t(A: Tensor[Float32, M, N, col_major], B: Tensor[Float32, M, N], M: Int32, N: Int32) {\n"
           "    B = A * 2.0\n}\n")
    mod = fxrt.loads(src)
    A = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    B = np.zeros((3, 4), np.float32)
    mod.t(A=A, B=B)
    assert np.array_equal(B, 2 * A)
    with pytest.raises(ValueError, match=r"parameter 'A' .*not Fortran \(column-major\)-contiguous"):
        mod.t(A=np.ascontiguousarray(A), B=B)


def test_programs_refuse_overlapping_tensors():
    g = fxrt.load(GEMM)
    A = np.zeros((4, 4))
    with pytest.raises(ValueError, match="'C' and 'A' share memory"):
        g.gemm(A=A, B=np.zeros((4, 4)), C=A, alpha=1, beta=0)


def test_the_run_reports_notes():
    """A contraction guard's fallback is a note of the run (the Ozaki
    schemes need a static K)."""
    src = ("program p(A: Tensor[Float64, M, 32], B: Tensor[Float64, 32, N], C: Tensor[Float64, M, N], "
           "M: Int32, N: Int32) {\n    C = A @ B\n}\n")
    g = fxrt.loads(src, options=["--contraction-precision=ozaki2", "--contraction-guard=fallback"])
    rng = np.random.default_rng(3)
    A = rng.random((16, 32)) * np.exp2(rng.integers(-300, 300, (16, 32)))
    B, C = rng.random((32, 16)), np.zeros((16, 16))
    notes = g.p(A=A, B=B, C=C)
    assert len(notes) == 1 and "ran natively" in notes[0], notes
    np.testing.assert_allclose(C, A @ B, rtol=1e-14)
    A = rng.random((16, 32))
    assert g.p(A=A, B=B, C=C) == []
    np.testing.assert_allclose(C, A @ B, rtol=1e-14)


def test_wave_operations_run_in_the_wave_model():
    src = "kernel k(y: Ptr[Int32]) {\n    y[thread_idx.x] = fx.wave_sum(Int32(1))\n}\n"
    for arch, lanes in (("gfx942", 64), ("gfx1100", 32)):
        y = np.zeros(128, np.int32)
        fxrt.loads(src, arch=arch).k(grid=1, block=128, y=y)
        assert (y == lanes).all(), arch


def test_the_race_checker():
    src = ("kernel k(y: Ptr[Float32]) {\n    shared s: Array[Float32, 64]\n    s[thread_idx.x] = 1.0\n"
           "    y[thread_idx.x] = s[(thread_idx.x + 1) % 64]\n}\n")
    y = np.zeros(64, np.float32)
    fxrt.loads(src).k(grid=1, block=64, y=y)   # unchecked: runs
    with pytest.raises(fxrt.LaunchError, match="race"):
        fxrt.loads(src, check="races").k(grid=1, block=64, y=y)
    with pytest.raises(ValueError, match="check="):
        fxrt.loads(src, check="racy")


def test_a_failed_assertion():
    src = "kernel k(y: Ptr[Int32]) {\n    fx.assert(thread_idx.x < 5, \"too far\")\n    y[thread_idx.x] = 1\n}\n"
    with pytest.raises(fxrt.KernelAssertionError, match=r"<stdin>:2:\d+: assertion failed in kernel k.*too far"):
        fxrt.loads(src).k(grid=1, block=8, y=np.zeros(8, np.int32))


def test_threads_do_not_change_results(saxpy):
    results = []
    for n in (1, 2, 3):
        fxrt.set_threads(n)
        x, y = vectors(100000)
        saxpy.saxpy(grid=(100000 + 255) // 256, block=256, x=x, y=y, a=0.1, n=100000)
        results.append(y.tobytes())
    fxrt.set_threads(0)
    assert results[0] == results[1] == results[2]


def test_eval_needs_no_module():
    # the command line and the module agree on a case outside the case files
    expr = "fx.max(Float32(1.0), Float32(fx.nan))"
    out = subprocess.run([fxrt._native.FXCC, "--eval", expr], capture_output=True, text=True).stdout.strip()
    assert str(fxrt.eval(expr)) == out


def test_the_docs_dtype_table_is_true():
    """docs/python.md's table of dtypes says what fxrt.dtype does, for every
    scalar type."""
    with open(os.path.join(SOURCE, "docs", "python.md")) as f:
        text = f.read()
    table = text.split("| type | dtype |", 1)[1].split("\n\n", 1)[0]
    said = {}
    for row in table.strip().split("\n")[1:]:
        types, cell = [c.strip() for c in row.strip("|").split("|")]
        types = types.split(", ")
        named = re.findall(r"`([^`]*)`", cell)
        for i, t in enumerate(types):
            if " ... " in cell:                    # int8 ... uint64: the type's own name
                said[t] = t.lower()
            elif len(named) >= len(types) and len(types) > 1:
                said[t] = named[i]                 # one dtype per type, in order
            else:
                said[t] = named[0]
    assert sorted(said) == sorted(fxrt.scalar_types())
    for t, dt in said.items():
        assert dt == ("fxrt." + t.lower() if t in ("Int128", "Uint128") else str(fxrt.dtype(t))) or \
            (dt.startswith("fxrt.") and fxrt.dtype(t) == getattr(fxrt, dt[5:])), (t, dt)
