"""Kernels and a program of examples/ checked against numpy with pytest,
through the Python module fxrt (docs/python.md):

    PYTHONPATH=<prefix>/<python package dir> python3 -m pytest examples/python

Each test compiles its .fx file with the installed fxcc and runs it on the
host CPU; the GEMM also runs as gfx942's kernels, its matrix instructions
emulated."""
import os

import numpy as np
import pytest

import fxrt

EXAMPLES = os.path.join(os.environ.get("FXRT_TEST_SOURCE_ROOT", os.path.join(os.path.dirname(__file__), "..", "..")),
                        "examples")


def example(name):
    return os.path.join(EXAMPLES, name)


def test_saxpy():
    mod = fxrt.load(example("saxpy.fx"))
    n = 10000
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    # a * x + y rounded once: the kernel's multiply-add is contracted to an
    # FMA, and Float64 holds a * x exactly and (for these magnitudes) the sum
    want = (2.5 * x.astype(np.float64) + y.astype(np.float64)).astype(np.float32)
    mod.saxpy(grid=((n + 255) // 256,), block=(256,), x=x, y=y, a=2.5, n=n)
    np.testing.assert_array_equal(y, want)


def test_softmax():
    mod = fxrt.load(example("softmax.fx"))
    rows, cols = 64, 1000
    x = np.random.default_rng(1).standard_normal((rows, cols)).astype(np.float32)
    y = np.zeros_like(x)
    mod.softmax(grid=(rows,), block=(256,), x=x, y=y, rows=rows, cols=cols)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("arch", [None, "gfx942"])
def test_gemm_program(arch):
    mod = fxrt.load(example("gemm.fx"), arch=arch)
    rng = np.random.default_rng(2)
    A, B, C = rng.random((96, 40)), rng.random((40, 72)), rng.random((96, 72))
    want = 2.0 * (A @ B) - C
    notes = mod.gemm(A=A, B=B, C=C, alpha=2.0, beta=-1.0)   # M, N, K from the shapes
    assert notes == []
    np.testing.assert_allclose(C, want, rtol=1e-13, atol=1e-13)
