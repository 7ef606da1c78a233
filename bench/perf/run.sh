#!/bin/bash
# run.sh - fxcc vs clang-19 on bench/perf/kernels: compile time, ISA
# metrics, host run time of fxrun vs C. Writes bench/perf/results.md.
#   bench/perf/run.sh [BUILD_DIR] [extra perf.py options, e.g. --runs 21]
# Needs fxcc and fxrun built in BUILD_DIR (default: build), clang-19 and gcc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-build}
shift || true
case $build in /*) ;; *) build=$root/$build ;; esac
for tool in "$build/src/driver/fxcc" "$build/src/driver/fxrun"; do
    [ -x "$tool" ] || { echo "run.sh: $tool is not built (ninja -C $build)" >&2; exit 1; }
done
for tool in clang-19 gcc python3; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool is not installed" >&2; exit 1; }
done
exec python3 "$here/perf.py" --build "$build" --out "$here/results.md" "$@"
