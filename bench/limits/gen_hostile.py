#!/usr/bin/env python3
"""Writes the hostile inputs of issue 15 at a chosen size, and measures fxcc on them.

    gen_hostile.py gen KIND N [-o FILE]      write one input (stdout by default)
    gen_hostile.py run FXCC KIND N [N ...] [--target host|gfx942] [--timeout S]
                                             compile each size with `fxcc -S`,
                                             print wall and CPU seconds, peak MiB, exit status
                                             and the first diagnostic line

KIND is one of the names in KINDS below; N is its size (kernels, items,
depth, trip count, ...). Sizes take suffixes: 10k, 2M. Peak memory is the child's
own rusage from wait4 (ru_maxrss, its maximum resident set size).
"""
import os
import subprocess
import sys
import tempfile
import time


def many_kernels(n):
    """n small kernels in one file."""
    return "".join(f"kernel k{i}(p: Ptr[Float32]) {{\n    p[{i % 64}] = {i}.0\n}}\n"
                   for i in range(n))


def many_consts(n):
    """n independent const items (the issue's 50 MB file), used by one kernel."""
    body = "".join(f"const C{i} = {i}\n" for i in range(n))
    return body + "kernel k(p: Ptr[Int32]) {\n    p[0] = C0\n}\n"


def const_chain(n):
    """const C{i} = C{i-1} + 1: n definitions, each depending on the one before."""
    body = "const C0 = 1\n" + "".join(f"const C{i} = C{i - 1} + 1\n" for i in range(1, n))
    return body + f"kernel k(p: Ptr[Int32]) {{\n    p[0] = C{n - 1}\n}}\n"


def const_chain_reversed(n):
    """The same chain, uses written before definitions (sema resolves on demand)."""
    body = "".join(f"const C{i} = C{i - 1} + 1\n" for i in range(n - 1, 0, -1)) + "const C0 = 1\n"
    return f"kernel k(p: Ptr[Int32]) {{\n    p[0] = C{n - 1}\n}}\n" + body


def nested_parens(n):
    """One expression inside n pairs of parentheses."""
    return f"const C = {'(' * n}1{')' * n}\nkernel k(p: Ptr[Int32]) {{\n    p[0] = C\n}}\n"


def long_sum(n):
    """1 + 1 + ... + 1 with n terms (a left-deep tree n high)."""
    return f"const C = {' + '.join(['1'] * n)}\nkernel k(p: Ptr[Int32]) {{\n    p[0] = C\n}}\n"


def nested_blocks(n):
    """n nested `if` blocks in one kernel."""
    opens = "".join(f"{'    ' * (i % 8)}if p[{i % 7}] > 0 {{\n" for i in range(n))
    return f"kernel k(p: Ptr[Int32]) {{\n{opens}p[0] = 1\n{'}' * n}\n}}\n"


def many_statements(n):
    """One kernel with n statements."""
    stmts = "".join(f"    p[{i % 64}] = p[{(i * 7) % 64}] + {i}.0\n" for i in range(n))
    return f"kernel k(p: Ptr[Float32]) {{\n{stmts}}}\n"


def static_range_flat(n):
    """One static_range(n) loop with one store in its body."""
    return ("kernel k(p: Ptr[Float32]) {\n"
            f"    for i in static_range({n}) {{\n        p[i] = p[i] + 1.0\n    }}\n}}\n")


def static_range_nested(n):
    """Two nested static_range(n) loops: n*n copies of the body."""
    return ("kernel k(p: Ptr[Float32]) {\n"
            f"    for i in static_range({n}) {{\n"
            f"        for j in static_range({n}) {{\n"
            "            p[0] = p[0] + 1.0\n        }\n    }\n}\n")


def fn_chain(n):
    """fn f{i} calls f{i-1}: a call chain n deep, inlined into one kernel."""
    fns = "fn f0(x: Float32) -> Float32 {\n    return x + 1.0\n}\n"
    fns += "".join(f"fn f{i}(x: Float32) -> Float32 {{\n    return f{i - 1}(x) + 1.0\n}}\n"
                   for i in range(1, n))
    return fns + f"kernel k(p: Ptr[Float32]) {{\n    p[0] = f{n - 1}(p[0])\n}}\n"


def fn_tree(n):
    """fn f{i} calls f{i-1} twice: 2^n inlined calls from n small functions."""
    fns = "fn f0(x: Float32) -> Float32 {\n    return x + 1.0\n}\n"
    fns += "".join(f"fn f{i}(x: Float32) -> Float32 {{\n    return f{i - 1}(x) + f{i - 1}(x)\n}}\n"
                   for i in range(1, n + 1))
    return fns + f"kernel k(p: Ptr[Float32]) {{\n    p[0] = f{n}(p[0])\n}}\n"


def many_fns(n):
    """n fns, each called once by one kernel (a wide, flat call graph)."""
    fns = "".join(f"fn f{i}(x: Float32) -> Float32 {{\n    return x + {i}.0\n}}\n" for i in range(n))
    calls = "".join(f"    p[{i % 64}] = f{i}(p[{i % 64}])\n" for i in range(n))
    return fns + f"kernel k(p: Ptr[Float32]) {{\n{calls}}}\n"


KINDS = {
    "kernels": many_kernels,
    "consts": many_consts,
    "const_chain": const_chain,
    "const_chain_rev": const_chain_reversed,
    "parens": nested_parens,
    "sum": long_sum,
    "blocks": nested_blocks,
    "stmts": many_statements,
    "static_range": static_range_flat,
    "static_range2": static_range_nested,
    "fn_chain": fn_chain,
    "fn_tree": fn_tree,
    "fns": many_fns,
}


def size(text):
    mult = {"k": 1000, "M": 1000000}
    return int(text[:-1]) * mult[text[-1]] if text[-1] in mult else int(text)


def wait_with_timeout(child, timeout):
    """Exit status (or "timeout") and the rusage of this one child."""
    deadline = time.monotonic() + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            child.returncode = os.waitstatus_to_exitcode(status)
            return child.returncode, usage
        if time.monotonic() > deadline:
            child.kill()
            pid, status, usage = os.wait4(child.pid, 0)
            child.returncode = -9
            return "timeout", usage
        time.sleep(0.02)


def run_one(fxcc, kind, n, target, timeout):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, f"{kind}_{n}.fx")
        with open(src, "w") as f:
            f.write(KINDS[kind](n))
        args = [fxcc, "-S", "-o", os.devnull, src]
        if target == "host":
            args.insert(1, "--target=host")
        else:
            args.insert(1, f"--offload-arch={target}")
        errpath = os.path.join(tmp, "stderr.txt")
        start = time.monotonic()
        with open(errpath, "w") as errf:
            child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=errf)
            rc, usage = wait_with_timeout(child, timeout)
        secs = time.monotonic() - start
        with open(errpath, errors="replace") as errf:
            err = errf.read(4096)
        first = err.strip().splitlines()[0][:110] if err.strip() else ""
        print(f"{kind:16} {n:>9} {target:6} {secs:8.2f} s {usage.ru_utime + usage.ru_stime:8.2f} s cpu {usage.ru_maxrss / 1024:8.1f} MiB exit {rc}  {first}",
              flush=True)


def main(argv):
    if len(argv) >= 3 and argv[0] == "gen":
        text = KINDS[argv[1]](size(argv[2]))
        if len(argv) == 5 and argv[3] == "-o":
            with open(argv[4], "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        return 0
    if len(argv) >= 4 and argv[0] == "run":
        target, timeout, rest = "host", 180, []
        it = iter(argv[3:])
        for a in it:
            if a == "--target":
                target = next(it)
            elif a == "--timeout":
                timeout = float(next(it))
            else:
                rest.append(size(a))
        for n in rest:
            run_one(argv[1], argv[2], n, target, timeout)
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
