#!/usr/bin/env python3
"""perf.py - fxcc against clang-19 on the kernel pairs of bench/perf/kernels,
and fxrun against a C reference on the host. Writes a Markdown report.

    perf.py --build BUILD --out results.md [--runs N] [--host-runs N]

Three parts, each figure measured as a whole process (wall clock from
fork to reap, CPU time from the kernel's rusage of the child):
  1. compile time, source to a linked gfx942 code object, fxcc vs clang-19;
  2. ISA metrics from the assembly of both (-S), with a loop-level look at
     reduce, histogram and sgemm;
  3. host run time of fxrun vs a C reference built with gcc -O2.
The machine is shared, so every pair is run interleaved (A B A B ..., the
order flipped every round) and both min and median are reported.
Only the Python standard library is used."""
import argparse
import math
import os
import platform
import re
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = ["saxpy", "vec4_add", "reduce", "softmax", "transpose", "sgemm",
           "gemm_int8", "cvt_f16", "hash", "histogram"]
LOOP_KERNELS = ["reduce", "histogram", "sgemm"]
ARCH = "gfx942"
CLANG = "clang-19"
HIP_FLAGS = ["-x", "hip", "--offload-arch=" + ARCH, "--cuda-device-only", "--no-gpu-bundle-output",
             "-nogpuinc", "-nogpulib", "-O3"]


# ---- running and timing ----

def run_timed(cmd, stdout=subprocess.DEVNULL):
    """(wall seconds, CPU seconds of the child) of one run; raises on failure."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), proc.returncode, err))
    return wall, usage.ru_utime + usage.ru_stime


def time_pair(cmd_a, cmd_b, runs):
    """Runs A and B alternately (one warm-up each, the order flipped every
    round, so drift in the machine's load hits both alike)."""
    run_timed(cmd_a)
    run_timed(cmd_b)
    a, b = [], []
    for r in range(runs):
        order = [(cmd_a, a), (cmd_b, b)] if r % 2 == 0 else [(cmd_b, b), (cmd_a, a)]
        for cmd, into in order:
            into.append(run_timed(cmd))
    return a, b


def time_single(cmd, runs):
    run_timed(cmd)
    return [run_timed(cmd) for _ in range(runs)]


def summary(samples):
    walls = [w for w, _ in samples]
    cpus = [c for _, c in samples]
    return {"min": min(walls), "med": statistics.median(walls), "cpu": statistics.median(cpus)}


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def ms(x):
    return "%.1f" % (x * 1000.0)


def ratio(a, b):
    return a / b if b else float("nan")


# ---- the compilers ----

def source_commit():
    """The commit of the checkout the bench runs from (the results say which
    code they measured, not where it was built)."""
    r = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return r.stdout.strip() or "unknown"


def fxcc_cmd(build, name, out, asm=False, src=None, fxcc=None):
    cmd = [fxcc or os.path.join(build, "src/driver/fxcc"), src or os.path.join(HERE, "kernels", name + ".fx"),
           "--offload-arch=" + ARCH, "-O3", "-o", out]
    return cmd + (["-S"] if asm else [])


def nowrap_source(name, tmp):
    """A copy of kernel `name` whose kernels are @index_nowrap (their signed
    index arithmetic promised not to overflow)."""
    with open(os.path.join(HERE, "kernels", name + ".fx")) as f:
        text = f.read()
    path = os.path.join(tmp, name + ".nowrap.fx")
    with open(path, "w") as f:
        f.write(re.sub(r"^kernel ", "@index_nowrap\nkernel ", text, flags=re.M))
    return path


def clang_cmd(name, out, asm=False):
    cmd = [CLANG] + HIP_FLAGS + [os.path.join(HERE, "kernels", name + ".hip"), "-o", out]
    return cmd + (["-S"] if asm else [])


# ---- assembly ----

META_KEYS = ["vgpr_count", "sgpr_count", "group_segment_fixed_size", "vgpr_spill_count",
             "sgpr_spill_count", "private_segment_fixed_size"]


def metadata(asm, kernel):
    """The kernel's entry of .amdgpu_metadata (the code object's own note)."""
    meta = asm[asm.index(".amdgpu_metadata"):]
    entries = re.split(r"\n  - ", meta)
    for e in entries:
        if re.search(r"^\s+\.name:\s+%s\s*$" % re.escape(kernel), e, re.M):
            out = {}
            for k in META_KEYS:
                m = re.search(r"^\s+\.%s:\s+(\d+)" % k, e, re.M)
                out[k] = int(m.group(1)) if m else 0
            return out
    raise RuntimeError("no metadata for " + kernel)


def body_lines(asm, kernel):
    """The instruction lines of the kernel's function body, labels kept."""
    lines = asm.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(kernel + ":"))
    out = []
    for l in lines[start + 1:]:
        if l.startswith(".Lfunc_end") or l.strip().startswith(".section"):
            break
        s = l.split(";")[0].strip()
        if not s or (s.startswith(".") and not s.endswith(":")):
            continue
        out.append(s)
    return out


def is_instr(s):
    return not s.endswith(":")


def instr_count(lines):
    return sum(1 for s in lines if is_instr(s))


# LDS atomics are named by their operation (ds_add_u32, ds_max_f32, ...);
# global ones say "atomic".
LDS_ATOMIC_OPS = ("ds_add_", "ds_sub_", "ds_inc_", "ds_dec_", "ds_min_", "ds_max_", "ds_and_", "ds_or_",
                  "ds_xor_", "ds_cmpst_", "ds_cmpswap_", "ds_wrxchg")


def is_atomic(op):
    return "atomic" in op or op.startswith(LDS_ATOMIC_OPS)


def classify(lines):
    """Counts of the kinds of instructions that matter for a loop body."""
    c = {"instr": 0, "valu": 0, "salu": 0, "vmem": 0, "lds": 0, "smem": 0, "atomic": 0,
         "waitcnt": 0, "branch": 0}
    for s in lines:
        if not is_instr(s):
            continue
        op = s.split()[0]
        c["instr"] += 1
        if op.startswith(("global_", "buffer_", "flat_", "scratch_")):
            c["vmem"] += 1
        elif op.startswith("ds_"):
            c["lds"] += 1
        elif op.startswith(("s_load", "s_buffer_load", "s_store")):
            c["smem"] += 1
        elif op.startswith("s_waitcnt"):
            c["waitcnt"] += 1
        elif op.startswith(("s_cbranch", "s_branch")):
            c["branch"] += 1
        elif op.startswith("v_"):
            c["valu"] += 1
        elif op.startswith("s_"):
            c["salu"] += 1
        if is_atomic(op):
            c["atomic"] += 1
    return c


def loops(lines):
    """Loops as backward branches: (label, body lines from the label to the
    branch), innermost first (shortest)."""
    where = {s[:-1]: i for i, s in enumerate(lines) if s.endswith(":")}
    found = []
    for i, s in enumerate(lines):
        parts = s.split()
        if parts and parts[0].startswith(("s_cbranch", "s_branch")) and len(parts) > 1:
            target = parts[-1]
            if target in where and where[target] < i:
                found.append((target, lines[where[target]:i + 1]))
    return sorted(found, key=lambda x: len(x[1]))


def setup_count(lines):
    """Instructions from the kernel's entry to the first loop's label."""
    heads = {label for label, _ in loops(lines)}
    first = next((i for i, s in enumerate(lines) if s.endswith(":") and s[:-1] in heads), len(lines))
    return instr_count(lines[:first])


# ---- the host part ----

C_SAXPY = r"""
#include <stdio.h>
#include <stdlib.h>
/* saxpy over n elements, x = 0, 1, 2, ..., y = 0: what fxrun's iota and
 * zeros give; y written to argv[2] for the comparison. */
int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    float *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n);
    for (int i = 0; i < n; i++)
        x[i] = (float)i, y[i] = 0.0f;
    float a = 2.5f;
    for (int i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    FILE *f = fopen(argv[2], "wb");
    fwrite(y, sizeof *y, n, f);
    fclose(f);
    return 0;
}
"""

C_DGEMM = r"""
#include <stdio.h>
#include <stdlib.h>
/* C = A @ B for n x n Float64 matrices read from argv[2], argv[3]; the
 * i-k-j loop order (unit stride inside), written to argv[4]. */
static double *load(const char *path, size_t n)
{
    double *p = malloc(sizeof *p * n);
    FILE *f = fopen(path, "rb");
    if (!f || fread(p, sizeof *p, n, f) != n)
        exit(1);
    fclose(f);
    return p;
}
int main(int argc, char **argv)
{
    int n = atoi(argv[1]);
    double *A = load(argv[2], (size_t)n * n), *B = load(argv[3], (size_t)n * n);
    double *C = calloc((size_t)n * n, sizeof *C);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double a = A[(size_t)i * n + k];
            for (int j = 0; j < n; j++)
                C[(size_t)i * n + j] += a * B[(size_t)k * n + j];
        }
    FILE *f = fopen(argv[4], "wb");
    fwrite(C, sizeof *C, (size_t)n * n, f);
    fclose(f);
    return 0;
}
"""


def read_floats(path, fmt):
    with open(path, "rb") as f:
        data = f.read()
    size = struct.calcsize(fmt)
    return struct.unpack("<%d%s" % (len(data) // size, fmt), data)


def write_random(path, count, seed):
    """Doubles in [-1, 1) from a fixed linear congruential sequence."""
    state = seed
    vals = []
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        vals.append(((state >> 11) / float(1 << 53)) * 2.0 - 1.0)
    with open(path, "wb") as f:
        f.write(struct.pack("<%dd" % count, *vals))


def compile_c(src, exe, tmp):
    path = os.path.join(tmp, os.path.basename(exe) + ".c")
    with open(path, "w") as f:
        f.write(src)
    subprocess.check_call(["gcc", "-O2", "-o", exe, path])


# ---- the report ----

def section_compile(build, tmp, runs, out):
    out.append("## 1. Compile time: source to a linked gfx942 code object\n")
    out.append("Both compilers take the kernel's source to a linked AMDGPU code object "
               "(ELF `.hsaco`) for gfx942 at -O3: `fxcc K.fx --offload-arch=gfx942 -O3 -o K.hsaco` "
               "and `clang-19 %s K.hip -o K.hsaco` (device only, no offload bundle). "
               "Wall milliseconds of the whole process, min and median of %d runs each after one "
               "warm-up, the two compilers alternating; CPU is the median user+sys time. "
               "Ratio = fxcc median / clang median (below 1: fxcc faster).\n" % (" ".join(HIP_FLAGS), runs))
    out.append("| kernel | fxcc min | fxcc median | fxcc CPU | clang-19 min | clang-19 median | clang-19 CPU | ratio (median) | ratio (CPU) |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    ratios, cpu_ratios = [], []
    for k in KERNELS:
        a, b = time_pair(fxcc_cmd(build, k, os.path.join(tmp, k + ".fx.hsaco")),
                         clang_cmd(k, os.path.join(tmp, k + ".hip.hsaco")), runs)
        sa, sb = summary(a), summary(b)
        r, rc = ratio(sa["med"], sb["med"]), ratio(sa["cpu"], sb["cpu"])
        ratios.append(r)
        cpu_ratios.append(rc)
        out.append("| %s | %s | %s | %s | %s | %s | %s | %.2f | %.2f |" % (
            k, ms(sa["min"]), ms(sa["med"]), ms(sa["cpu"]), ms(sb["min"]), ms(sb["med"]), ms(sb["cpu"]), r, rc))
        print("compile %-10s fxcc %s ms  clang %s ms  ratio %.2f" % (k, ms(sa["med"]), ms(sb["med"]), r), flush=True)
    out.append("| **geomean** | | | | | | | **%.2f** | **%.2f** |\n" % (geomean(ratios), geomean(cpu_ratios)))
    out.append("hipcc (Debian 12: 5.2.3 over clang-15, which does not know gfx942) is timed against "
               "fxcc on gfx90a by bench/compile/run.sh, not here.\n")


def assemblies(build, tmp):
    asms = {}
    for k in KERNELS:
        fx_s, hip_s = os.path.join(tmp, k + ".fx.s"), os.path.join(tmp, k + ".hip.s")
        subprocess.check_call(fxcc_cmd(build, k, fx_s, asm=True))
        subprocess.check_call(clang_cmd(k, hip_s, asm=True))
        with open(fx_s) as f:
            fx_asm = f.read()
        with open(hip_s) as f:
            hip_asm = f.read()
        asms[k] = (fx_asm, hip_asm)
    return asms


def fxcc_assembly(cmd):
    """The assembly fxcc writes for cmd (an -S command ending in -o FILE)."""
    subprocess.check_call(cmd)
    with open(cmd[cmd.index("-o") + 1]) as f:
        return f.read()


def isa_row(asm, k):
    m = metadata(asm, k)
    return instr_count(body_lines(asm, k)), m["vgpr_count"], m["sgpr_count"]


def section_nowrap(build, tmp, asms, baseline, out):
    """Issue 13: what the int-ranges proofs and the @index_nowrap promise
    change, per kernel, against clang-19 (and an fxcc without the pass)."""
    out.append("### Index arithmetic: proofs and @index_nowrap\n")
    out.append("instr / VGPR / SGPR of each kernel. *proved*: this fxcc (nsw/nuw only where the int-ranges "
               "pass proves them); *@index_nowrap*: the same source with every kernel decorated "
               "`@index_nowrap` (signed add/sub/mul promised not to overflow)%s. Geomeans are ratios to "
               "clang-19.\n" % ("; *before*: `%s`, an fxcc without the pass" % baseline if baseline else ""))
    cols = (["before"] if baseline else []) + ["proved", "@index_nowrap", "clang-19"]
    out.append("| kernel | " + " | ".join("%s instr | VGPR | SGPR" % c for c in cols) + " |")
    out.append("|---|" + "---:|" * (3 * len(cols)))
    ratios = {c: ([], [], []) for c in cols}
    for k in KERNELS:
        fa, ha = asms[k]
        rows = {"proved": isa_row(fa, k), "clang-19": isa_row(ha, k)}
        nw = fxcc_cmd(build, k, os.path.join(tmp, k + ".nowrap.s"), asm=True, src=nowrap_source(k, tmp))
        rows["@index_nowrap"] = isa_row(fxcc_assembly(nw), k)
        if baseline:
            old = fxcc_cmd(build, k, os.path.join(tmp, k + ".before.s"), asm=True, fxcc=baseline)
            rows["before"] = isa_row(fxcc_assembly(old), k)
        for c in cols:
            for j in range(3):
                ratios[c][j].append(ratio(rows[c][j], rows["clang-19"][j]))
        out.append("| %s | " % k + " | ".join("%d | %d | %d" % rows[c] for c in cols) + " |")
    out.append("| **geomean vs clang** | " + " | ".join(
        "**%.3f** | **%.3f** | **%.3f**" % tuple(geomean(ratios[c][j]) for j in range(3)) for c in cols) + " |\n")


def section_isa(asms, out):
    out.append("## 2. ISA metrics (gfx942, -O3)\n")
    out.append("From each code object's `.amdgpu_metadata` (`.vgpr_count`, `.sgpr_count`, "
               "`.group_segment_fixed_size` = LDS bytes, `.vgpr_spill_count` + `.sgpr_spill_count`, "
               "`.private_segment_fixed_size` = scratch bytes) and the static instruction count of the "
               "kernel's body (every instruction between its label and `.Lfunc_end`). "
               "Ratio = fxcc / clang.\n")
    out.append("| kernel | instr fxcc | instr clang | ratio | VGPR fxcc | VGPR clang | ratio | SGPR fxcc | SGPR clang | ratio | LDS fxcc | LDS clang | spills fxcc | spills clang | scratch fxcc | scratch clang |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    ri, rv, rs = [], [], []
    for k in KERNELS:
        fa, ha = asms[k]
        mf, mh = metadata(fa, k), metadata(ha, k)
        nf, nh = instr_count(body_lines(fa, k)), instr_count(body_lines(ha, k))
        ri.append(ratio(nf, nh))
        rv.append(ratio(mf["vgpr_count"], mh["vgpr_count"]))
        rs.append(ratio(mf["sgpr_count"], mh["sgpr_count"]))
        out.append("| %s | %d | %d | %.2f | %d | %d | %.2f | %d | %d | %.2f | %d | %d | %d | %d | %d | %d |" % (
            k, nf, nh, ri[-1], mf["vgpr_count"], mh["vgpr_count"], rv[-1], mf["sgpr_count"], mh["sgpr_count"],
            rs[-1], mf["group_segment_fixed_size"], mh["group_segment_fixed_size"],
            mf["vgpr_spill_count"] + mf["sgpr_spill_count"], mh["vgpr_spill_count"] + mh["sgpr_spill_count"],
            mf["private_segment_fixed_size"], mh["private_segment_fixed_size"]))
    out.append("| **geomean** | | | **%.2f** | | | **%.2f** | | | **%.2f** | | | | | | |\n" % (
        geomean(ri), geomean(rv), geomean(rs)))


def section_loops(asms, out):
    out.append("### Loops of reduce, histogram and sgemm\n")
    out.append("Every loop of the assembly (a backward branch to a label), innermost (shortest) first: "
               "instructions from the label to the branch, split into vector ALU, scalar ALU, global "
               "memory (vmem), LDS (ds_), scalar loads (smem), atomics (counted also in vmem or ds), "
               "s_waitcnt and branches.\n")
    out.append("| kernel | compiler | loop | instr | valu | salu | vmem | lds | smem | atomic | waitcnt | branch |")
    out.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k in LOOP_KERNELS:
        for who, asm in zip(("fxcc", "clang-19"), asms[k]):
            found = loops(body_lines(asm, k))
            if not found:
                out.append("| %s | %s | (none) | | | | | | | | | |" % (k, who))
            for label, body in found:
                c = classify(body)
                out.append("| %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |" % (
                    k, who, label, c["instr"], c["valu"], c["salu"], c["vmem"], c["lds"], c["smem"],
                    c["atomic"], c["waitcnt"], c["branch"]))
    out.append("")
    out.append("The innermost loops of reduce and histogram as compiled:\n")
    for k in ("reduce", "histogram"):
        for who, asm in zip(("fxcc", "clang-19"), asms[k]):
            found = loops(body_lines(asm, k))
            if found:
                out.append("%s, %s:\n" % (k, who))
                out.append("```")
                out.extend(found[0][1])
                out.append("```\n")
    out.append("Whole kernels: memory instructions (static counts), and the instructions before the "
               "first loop (the set-up, which for a range holds its limit tests):\n")
    out.append("| kernel | compiler | vmem | lds | smem | atomic | waitcnt | before the first loop |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|")
    for k in LOOP_KERNELS:
        for who, asm in zip(("fxcc", "clang-19"), asms[k]):
            lines = body_lines(asm, k)
            c = classify(lines)
            out.append("| %s | %s | %d | %d | %d | %d | %d | %d |" % (
                k, who, c["vmem"], c["lds"], c["smem"], c["atomic"], c["waitcnt"], setup_count(lines)))
    out.append("")


def max_abs_diff(a, b):
    if len(a) != len(b):
        return float("inf")
    return max((abs(x - y) for x, y in zip(a, b)), default=0.0)


def host_case(name, fx_cmd, c_cmd, fx_out, c_out, fmt, runs, out_rows):
    a, b = time_pair(fx_cmd, c_cmd, runs)
    sa, sb = summary(a), summary(b)
    diff = max_abs_diff(read_floats(fx_out, fmt), read_floats(c_out, fmt))
    out_rows.append((name, sa, sb, diff))
    print("host %-22s fxrun %s ms  C %s ms  max|diff| %g" % (name, ms(sa["med"]), ms(sb["med"]), diff), flush=True)


def section_host(build, tmp, runs, saxpy_n, gemm_n, out):
    fxrun = os.path.join(build, "src/driver/fxrun")
    saxpy_c, gemm_c = os.path.join(tmp, "saxpy_ref"), os.path.join(tmp, "dgemm_ref")
    compile_c(C_SAXPY, saxpy_c, tmp)
    compile_c(C_DGEMM, gemm_c, tmp)
    rows = []
    for n in (1, saxpy_n):
        fx_y, c_y = os.path.join(tmp, "fx_y.bin"), os.path.join(tmp, "c_y.bin")
        grid = (n + 255) // 256
        host_case("saxpy n=%d" % n,
                  [fxrun, os.path.join(HERE, "kernels/saxpy.fx"), "saxpy", "--grid", str(grid), "--block", "256",
                   "x=iota(Float32, %d)" % n, "y=zeros(Float32, %d)" % n, "a=2.5", "n=%d" % n,
                   "--save", "y=" + fx_y],
                  [saxpy_c, str(n), c_y], fx_y, c_y, "f", runs, rows)
    for n in (1, gemm_n):
        a_bin, b_bin = os.path.join(tmp, "A%d.bin" % n), os.path.join(tmp, "B%d.bin" % n)
        write_random(a_bin, n * n, 1)
        write_random(b_bin, n * n, 2)
        fx_c, c_c = os.path.join(tmp, "fx_C.bin"), os.path.join(tmp, "c_C.bin")
        host_case("Float64 GEMM %d^3" % n,
                  [fxrun, os.path.join(HERE, "../../examples/gemm.fx"), "gemm", "A=@" + a_bin, "B=@" + b_bin,
                   "C=zeros(Float64, %d, %d)" % (n, n), "alpha=1", "beta=0", "M=%d" % n, "N=%d" % n, "K=%d" % n,
                   "--save", "C=" + fx_c],
                  [gemm_c, str(n), a_bin, b_bin, c_c], fx_c, c_c, "d", runs, rows)
    # Where fxrun's saxpy time goes: the same buffers made and saved, but a
    # single block of 256 work-items launched.
    n = saxpy_n
    one_block = summary(time_single(
        [fxrun, os.path.join(HERE, "kernels/saxpy.fx"), "saxpy", "--grid", "1", "--block", "256",
         "x=iota(Float32, %d)" % n, "y=zeros(Float32, %d)" % n, "a=2.5", "n=%d" % n,
         "--save", "y=" + os.path.join(tmp, "fx_y1.bin")], runs))
    cc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    out.append("## 3. Host run time: fxrun vs a C reference\n")
    out.append("`fxrun` runs the .fx source on the host: it compiles (fxcc's pipeline, JIT), creates the "
               "buffers, launches with every index checked, and saves the result. The C reference (%s, "
               "`-O2`, one thread) creates the same inputs, computes, and writes its result. Both are "
               "timed as whole processes, %d runs each, interleaved; the results are compared "
               "(max |fxrun - C|). The n=1 rows are the fixed cost (start-up, compilation, output); "
               "'net' subtracts it. saxpy: x = iota, y = 0, a = 2.5. GEMM: `examples/gemm.fx` "
               "(C = alpha * A @ B + beta * C, alpha 1, beta 0) on the same random A and B files (`@file.bin`); "
               "the C reference is the i-k-j triple loop.\n" % (cc, runs))
    out.append("| case | fxrun min | fxrun median | fxrun CPU | C min | C median | C CPU | ratio (wall median) | ratio (CPU) | max abs diff |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, sa, sb, diff in rows:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %.2f | %.2f | %.3g |" % (
            name, ms(sa["min"]), ms(sa["med"]), ms(sa["cpu"]), ms(sb["min"]), ms(sb["med"]), ms(sb["cpu"]),
            ratio(sa["med"], sb["med"]), ratio(sa["cpu"], sb["cpu"]), diff))
    for i in (0, 2):
        base, big = rows[i], rows[i + 1]
        net = {key: (big[1][key] - base[1][key], big[2][key] - base[2][key]) for key in ("med", "cpu")}
        out.append("| %s net | | %s | %s | | %s | %s | %.2f | %.2f | |" % (
            big[0], ms(net["med"][0]), ms(net["cpu"][0]), ms(net["med"][1]), ms(net["cpu"][1]),
            ratio(*net["med"]), ratio(*net["cpu"])))
    out.append("")
    base, full = rows[0][1], rows[1][1]
    out.append("fxrun's saxpy n=%d, CPU medians (wall medians in parentheses): start-up and compilation, "
               "the n=1 row, %s ms (%s); making the two buffers (iota, zeros) and saving y, from a run with "
               "the same buffers but one block launched, minus the n=1 row, %s ms (%s); the %d work-items, "
               "the rest, %s ms (%s).\n" % (
                   saxpy_n, ms(base["cpu"]), ms(base["med"]), ms(one_block["cpu"] - base["cpu"]),
                   ms(one_block["med"] - base["med"]), saxpy_n, ms(full["cpu"] - one_block["cpu"]),
                   ms(full["med"] - one_block["med"])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--host-runs", type=int, default=5)
    ap.add_argument("--saxpy-n", type=int, default=1 << 24)
    ap.add_argument("--gemm-n", type=int, default=512)
    ap.add_argument("--isa-only", action="store_true",
                    help="only the ISA metrics, index-arithmetic and loop tables: no timing, seconds instead of minutes")
    ap.add_argument("--baseline-fxcc", help="another fxcc (e.g. before a change) for the index-arithmetic table")
    args = ap.parse_args()
    out = ["# bench/perf results\n",
           "Generated by `bench/perf/run.sh` on %s UTC at commit %s; %s, %d CPUs (load average "
           "%.1f at the start); %s.\n" % (
               time.strftime("%Y-%m-%d %H:%M", time.gmtime()), source_commit(), platform.platform(),
               os.cpu_count(), os.getloadavg()[0],
               subprocess.run([CLANG, "--version"], capture_output=True, text=True).stdout.splitlines()[0])]
    with tempfile.TemporaryDirectory(prefix="fxperf") as tmp:
        if not args.isa_only:
            section_compile(args.build, tmp, args.runs, out)
        asms = assemblies(args.build, tmp)
        section_isa(asms, out)
        section_nowrap(args.build, tmp, asms, args.baseline_fxcc, out)
        section_loops(asms, out)
        if not args.isa_only:
            section_host(args.build, tmp, args.host_runs, args.saxpy_n, args.gemm_n, out)
    out.append("Load average at the end: %.1f. What the loop tables show, kernel by kernel: "
               "README.md, section Findings.\n" % os.getloadavg()[0])
    with open(args.out, "w") as f:
        f.write("\n".join(out))
    print("wrote " + args.out)


if __name__ == "__main__":
    sys.exit(main())
