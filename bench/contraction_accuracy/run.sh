#!/usr/bin/env bash
# The accuracy benchmark of the contraction precisions: builds, runs one
# process per type (both cores), merges the tables and draws accuracy.png.
#   bench/contraction_accuracy/run.sh [OUTDIR] [--quick]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(realpath -m "${1:-$root/build/bench-accuracy}")
shift || true
mkdir -p "$out"
"$root/scripts/setup.sh" "$root/build" >/dev/null
command -v gnuplot >/dev/null || { sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo;
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq gnuplot-nox >/dev/null; }
bin="$root/build/bench/contraction_accuracy/contraction_accuracy"
"$bin" --guard --type Float32 "$@" "$out" > "$out/log-Float32.txt" &
"$bin" --guard --type Float64 "$@" "$out" > "$out/log-Float64.txt"
wait
cat "$out/results-Float32.dat" "$out/results-Float64.dat" > "$out/results.dat"
cat "$out/results-Float32.md" "$out/results-Float64.md" > "$out/results.md"
(cd "$out" && gnuplot "$root/bench/contraction_accuracy/plot.gp")
echo "tables: $out/results.md   plot: $out/accuracy.png   guard: $out/log-*.txt"
