#!/usr/bin/env python3
"""Compares every cell of fxcc's compiled-in matrix layouts (dump_layouts)
with AMD's Matrix Instruction Calculator tables (../shared/isa/
matrix-layouts.json and matrix-layouts-ml.json): for each instruction,
operand, lane and element of the intrinsic's vector operand, the matrix
element held there must be the one the vendor's table places there, and
every element the table lists must be held somewhere. Every instruction of
the first file must be compiled in; the second file's that are not yet are
listed. Exit 77 (skipped) when the JSON is not present.

  check_layouts.py DUMP_EXE REQUIRED_JSON [MORE_JSON...]"""
import json, os, subprocess, sys

def vendor_places(ins, op):
    """(lane, element) -> (block, row, col), read straight from the JSON."""
    held = {}
    for key, places in ins[op].items():
        cell = tuple(int(x) for x in key.split(","))
        for p in places:
            lo, hi = p["bits"]
            width = hi - lo + 1
            held[(p["lane"], (p["vgpr"] * 32 + lo) // width)] = (cell, width)
    return held

def main():
    exe, paths = sys.argv[1], sys.argv[2:]
    for path in paths:
        if not os.path.exists(path):
            print("no vendor tables at", path)
            return 77
    vendor, required = {}, set()
    for n, path in enumerate(paths):
        for i in json.load(open(path))["instructions"]:
            vendor[(i["arch_family"], i["instruction"])] = i
            if n == 0:
                required.add((i["arch_family"], i["instruction"]))
    lines = subprocess.run([exe], check=True, capture_output=True, text=True).stdout.splitlines()
    failures = checked = 0
    seen = set()
    for n in range(0, len(lines), 4):
        _, fam, insn, m, nn, k, blocks, wave = lines[n].split()
        m, nn, k, blocks, wave = int(m), int(nn), int(k), int(blocks), int(wave)
        ins = vendor.get((fam, insn))
        if ins is None:
            print(f"{fam} {insn}: not in the vendor tables"); failures += 1; continue
        seen.add((fam, insn))
        for what, ours, theirs in (("M", m, ins["M"]), ("N", nn, ins["N"]), ("K", k, ins["K"]),
                                   ("blocks", blocks, ins.get("blocks", 1)), ("wave", wave, ins["wave_size"])):
            if ours != theirs:
                print(f"{insn}: {what} is {ours}, the vendor says {theirs}"); failures += 1
        for line in lines[n + 1:n + 4]:
            f = line.split()
            op, rows, cols, per_lane, bits = f[0], int(f[1]), int(f[2]), int(f[3]), int(f[4])
            pos = [int(x) for x in f[5:]]
            held = vendor_places(ins, op)
            want_rows, want_cols = {"A": (m, k), "B": (k, nn), "D": (m, nn)}[op]
            if (rows, cols) != (want_rows, want_cols):
                print(f"{insn} {op}: {rows}x{cols}, expected {want_rows}x{want_cols}"); failures += 1
            if len(pos) != wave * per_lane or len(held) != wave * per_lane:
                print(f"{insn} {op}: {len(pos)} places, the vendor has {len(held)}"); failures += 1
                continue
            for lane in range(wave):
                for e in range(per_lane):
                    p = pos[lane * per_lane + e]
                    ours = (p // (rows * cols), p // cols % rows, p % cols)
                    cell, width = held[(lane, e)]
                    checked += 1
                    if ours != cell or width != bits:
                        failures += 1
                        if failures < 20:
                            print(f"{fam} {insn} {op}: lane {lane} element {e} holds {ours} ({bits} bits), "
                                  f"the vendor says {cell} ({width} bits)")
    for key in vendor:
        if key in required and key not in seen:
            print(f"{key[0]} {key[1]}: in the vendor tables but not compiled in"); failures += 1
    missing = sorted(f"{f} {i}" for f, i in vendor if (f, i) not in seen)
    if missing:
        print("not compiled in:", ", ".join(missing))
    print(f"{len(seen)} instructions, {checked} cells compared, {failures} differences")
    return 1 if failures else 0

sys.exit(main())
