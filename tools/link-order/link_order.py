#!/usr/bin/env python3
"""Writes the symbol order fxcc is linked in: the code and read-only data
its compilations touch first, together, so that a compilation pages in a
few megabytes of the 120 MB binary instead of faulting all over it
(docs/compile-time.md, "Page faults in the binary: the link order").

  link_order.py --fxcc BIN --preload LIB --nm NM --out ORDER
                --arch GFX [--arch GFX ...] INPUT.fx ...

Compiles every input for every architecture twice: once as it is, once
under LIB (first_touch.c), which logs the first address touched on each
page of code and read-only data. The outputs must be the same bytes. The
order then lists, for lld's --symbol-ordering-file:
  1. the symbol holding each logged address, in the order of the logs: what
     the compilations run first comes first;
  2. every other symbol on a touched page, in address order: functions that
     ran after their page was already open, which the log cannot see.
"""
import argparse
import bisect
import concurrent.futures
import os
import subprocess
import sys
import tempfile

ORDERABLE = set('tTwWrR')   # code and read-only data symbols
PAGE = 4096


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument('--fxcc', required=True)
    p.add_argument('--preload', required=True)
    p.add_argument('--nm', required=True)
    p.add_argument('--out', required=True)
    p.add_argument('--arch', action='append', required=True)
    p.add_argument('inputs', nargs='+')
    return p.parse_args()


def compile_once(args, src, arch, out, log):
    """Compiles src for arch to out; with log, under the first-touch library."""
    env = dict(os.environ)
    if log:
        env['LD_PRELOAD'] = os.path.abspath(args.preload)
        env['FX_FIRST_TOUCH_LOG'] = log
    cmd = [args.fxcc, '-O3', '--offload-arch=' + arch, src, '-o', out]
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        sys.exit('link_order.py: %s%s failed (%d):\n%s' % (
            ' '.join(cmd), ' (logging first touches)' if log else '',
            r.returncode, r.stderr.decode(errors='replace')))


def profile_one(args, tmp, index, src, arch):
    """One input, one architecture: the log of its first touches."""
    plain = os.path.join(tmp, '%d.plain.hsaco' % index)
    traced = os.path.join(tmp, '%d.traced.hsaco' % index)
    log = os.path.join(tmp, '%d.log' % index)
    compile_once(args, src, arch, plain, None)
    compile_once(args, src, arch, traced, log)
    with open(plain, 'rb') as a, open(traced, 'rb') as b:
        if a.read() != b.read():
            sys.exit('link_order.py: %s for %s: logging first touches changed the '
                     'output (a system call given a protected page?)' % (src, arch))
    with open(log) as f:
        return [int(line, 16) for line in f]


def profile(args, tmp):
    """The logs of all compilations, in a fixed order however they ran."""
    runs = [(src, arch) for src in args.inputs for arch in args.arch]
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        futures = [pool.submit(profile_one, args, tmp, i, src, arch)
                   for i, (src, arch) in enumerate(runs)]
        return [f.result() for f in futures]


def symbols(args):
    """(address, size, name) of every sized code and read-only data symbol."""
    out = subprocess.run([args.nm, '-S', '--defined-only', args.fxcc],
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in ORDERABLE and int(f[1], 16) > 0:
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    syms.sort()
    return syms


def order(syms, logs):
    starts = [s[0] for s in syms]
    names, seen = [], set()

    def add(name):
        if name not in seen:
            seen.add(name)
            names.append(name)

    pages = set()
    for log in logs:
        for a in log:
            pages.add(a // PAGE)
            i = bisect.bisect_right(starts, a) - 1
            if i >= 0 and a < syms[i][0] + syms[i][1]:
                add(syms[i][2])
    for page in sorted(pages):
        lo, hi = page * PAGE, (page + 1) * PAGE
        i = max(bisect.bisect_right(starts, lo) - 1, 0)
        while i < len(syms) and syms[i][0] < hi:
            if syms[i][0] + syms[i][1] > lo:
                add(syms[i][2])
            i += 1
    return names


def main():
    args = parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        logs = profile(args, tmp)
    names = order(symbols(args), logs)
    with open(args.out, 'w') as f:
        f.write('\n'.join(names) + '\n')


if __name__ == '__main__':
    main()
