#!/usr/bin/env bash
# Builds the libFuzzer harnesses (build-fuzz: clang-19, -Dfuzz=true, ASan +
# UBSan) and runs each one for SECONDS (default 60), one after the other on
# one core, then prints per harness the executions per second and the
# coverage reached (cov: edges, ft: features). docs/fuzzing.md has the rest.
#   scripts/fuzz.sh [SECONDS_PER_HARNESS] [HARNESS...]
#   FUZZ_KEEP_GOING=1  record findings (timeouts, OOMs, crashes) and go on
#                      fuzzing (libFuzzer's -fork=1) instead of stopping at
#                      the first: for long campaigns (bench/fuzz/README.md)
#   FUZZ_BUILD=DIR     another build directory (default build-fuzz)
# Exits 1 when a harness found something; the input is in
# $FUZZ_BUILD/findings/ (reproduce: $FUZZ_BUILD/fuzz/fuzz_NAME FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(parse fxir llvm diff regions options)
build=${FUZZ_BUILD:-build-fuzz}

if ! command -v clang-19 >/dev/null; then
  echo "fuzz: installing clang-19"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang-19 >/dev/null
fi
# fxcc links libLLVM-19.so here (-Dstatic_llvm=false): the harnesses are what
# this build is for, and they link the shared library in every build.
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-19 CXX=clang++-19 meson setup "$build" --native-file native.ini -Dfuzz=true \
    -Db_sanitize=address,undefined -Db_lundef=false -Dtests=false -Dstatic_llvm=false >/dev/null
fi
ninja -C "$build" >/dev/null

# Seeds: every .fx file of the repository and every regression input. The
# corpus a run grows stays in $build/corpus/NAME for the next run.
seeds="$build/corpus/seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$build/findings"
while IFS= read -r f; do
  cp "$f" "$seeds/$(echo "$f" | tr / _)"
done < <(find tests examples -name '*.fx' -type f; find tests/fuzz/regress -type f)
# fuzz_regions reads its first byte as the waves, "wild" and wave operations
# (fuzz/fuzz_regions.c) and each further byte as one choice of the
# generator: seeds of random bytes, four for each of the 12 settings (text
# makes skewed choices: it took longer to find a planted bug).
rseeds="$build/corpus/seeds-regions"
rm -rf "$rseeds"
mkdir -p "$rseeds"
for k in $(seq 0 47); do
  { printf "\\$(printf %03o $((k % 12)))"; head -c 600 /dev/urandom; } >"$rseeds/setting-$k"
done
# fuzz_options reads a command line before the source (fuzz/fuzz_options.c):
# each .fx file with 0 to 4 options drawn at random in front (byte 0: how
# many, then two bytes each), plus its regression inputs, whose first line
# names their options ("#fxcc: ...", the whole file the source).
oseeds="$build/corpus/seeds-options"
rm -rf "$oseeds"
mkdir -p "$oseeds"
k=0
while IFS= read -r f; do
  n=$((k % 5))
  { printf "\\$(printf %03o $n)"; head -c $((2 * n)) /dev/urandom; cat "$f"; } >"$oseeds/$k-$(basename "$f")"
  k=$((k + 1))
done < <(find tests examples -name '*.fx' -type f)
cp tests/fuzz/regress/options/* "$oseeds/"

# Leak checking on (whatever the caller's ASAN_OPTIONS say): libFuzzer
# checks for memory an iteration leaks. FUZZ_ASAN_OPTIONS overrides.
export ASAN_OPTIONS=${FUZZ_ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
keep=()
if [ -n "${FUZZ_KEEP_GOING:-}" ]; then
  keep=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi

status=0
summary=()
for h in "${harnesses[@]}"; do
  exe="$build/fuzz/fuzz_$h"
  corpus="$build/corpus/$h"
  log="$build/fuzz-$h.log"
  mkdir -p "$corpus"
  dict=()
  case $h in diff|regions) ;; *) dict=(-dict=fuzz/fx.dict) ;; esac   # those two read recipes, not .fx
  hseeds=$seeds
  [ "$h" != regions ] || hseeds=$rseeds
  [ "$h" != options ] || hseeds=$oseeds
  echo "fuzz: $h for ${secs}s (log: $log)"
  rc=0
  "$exe" "${dict[@]}" "${keep[@]}" -max_total_time="$secs" -timeout=120 -rss_limit_mb=4096 -max_len=8192 \
    -print_final_stats=1 -artifact_prefix="$build/findings/$h-" "$corpus" "$hseeds" >"$log" 2>&1 || rc=$?
  last=$(grep -E '^#[0-9]+:?[[:space:]].*cov: ' "$log" | tail -1 || true)
  execs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  rate=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || true)
  if [ -z "$rate" ]; then   # fork mode prints no final stats: the last status line's rate
    rate=$(echo "$last" | grep -oE 'exec/s: [0-9]+' | grep -oE '[0-9]+' || true)
  fi
  [ -n "$execs" ] || execs=$(echo "$last" | grep -oE '^#[0-9]+' | tr -d '#' || true)
  cov=$(echo "$last" | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+' || true)
  ft=$(echo "$last" | grep -oE 'ft: [0-9]+' | grep -oE '[0-9]+' || true)
  ncorp=$(find "$corpus" -type f | wc -l)
  # a slow unit (over 10 s, e.g. the Float64 Ozaki example: 16 Int8 GEMM
  # kernels for three targets, ~26 s under ASan) is reported, not a finding;
  # a unit over 120 s is a timeout, which is
  nfind=$(find "$build/findings" -name "$h-*" ! -name "$h-slow-unit-*" -type f | wc -l)
  nslow=$(find "$build/findings" -name "$h-slow-unit-*" -type f | wc -l)
  kept=$(echo "$last" | grep -oE 'oom/timeout/crash: [0-9/]+' || true)   # fork mode
  line=$(printf '%-6s %8s execs/s  cov: %-6s ft: %-7s corpus: %-6s findings: %s' "$h" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$ncorp" "$nfind")
  [ -n "$execs" ] && line="$line  (executions: $execs)"
  [ -n "$kept" ] && line="$line  $kept"
  [ "$nslow" -eq 0 ] || line="$line  slow units: $nslow"
  if [ $rc -ne 0 ]; then
    status=1
    line="$line  FAILED (exit $rc):"
    grep -E 'ERROR|FINDING|MISMATCH|runtime error|SUMMARY' "$log" | head -5 | sed 's/^/    /' >&2 || true
  fi
  echo "$line"
  summary+=("$line")
done
echo "fuzz: summary (${secs}s per harness)"
printf '  %s\n' "${summary[@]}"
exit $status
