#!/usr/bin/env python3
"""-Dlink_order: fxcc is linked by lld-19 in the order of ORDER (what the
build's profile touched first comes first), so the ordered functions sit
together at the start of the code: of the first 2000 functions in ORDER,
at least 95 % must lie in the first quarter of .text. An unordered link
spreads them over all of its 50 MB (fxcc-unordered fails this test).

  link_order.py FXCC ORDER
"""
import subprocess
import sys


def run(*cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, check=True).stdout.decode()


def main():
    fxcc, order = sys.argv[1], sys.argv[2]
    if 'LLD 19' not in run('readelf', '-p', '.comment', fxcc):
        sys.exit('link_order: %s was not linked by lld 19' % fxcc)
    names = open(order).read().split()
    if len(names) < 10000:
        sys.exit('link_order: %s lists only %d symbols' % (order, len(names)))
    text = [l.split() for l in run('readelf', '-SW', fxcc).splitlines() if ' .text ' in l]
    fields = text[0][text[0].index('.text') + 2:]
    start, size = int(fields[0], 16), int(fields[2], 16)
    addr = {}
    for line in run('nm', '--defined-only', fxcc).splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in 'tTwW':
            addr[f[2]] = int(f[0], 16)
    first = [addr[n] for n in names if n in addr][:2000]
    early = sum(1 for a in first if a < start + size // 4)
    print('link_order: %d of the first %d ordered functions in the first quarter of .text'
          % (early, len(first)))
    if len(first) < 2000 or early < 0.95 * len(first):
        sys.exit(1)


if __name__ == '__main__':
    main()
