#!/usr/bin/env bash
# Compile time of fxcc against clang-19 on the same ten kernels (kernels/*.fx
# or examples/*.fx, and their HIP twins kernels/*.hip), gfx942, -O3. Each
# kernel is compiled by the two compilers in turn, RUNS times after one
# warm-up; the figure is the
# median CPU time (user + sys, children included: clang's lld and bundler,
# and a linker child of fxcc if any), which a shared machine disturbs less
# than wall time. Prints a markdown table and the geometric mean of the ratios.
# When hipcc is installed (Debian 12: hipcc 5.2.3 over clang-15) it is a third
# column: clang-15 does not know gfx942, so fxcc and hipcc are compared on
# gfx90a, each kernel compiled once more by fxcc for that target.
#   bench/compile/run.sh [RUNS]          (default 11)
#   FXCC=/path/to/fxcc bench/compile/run.sh   (default: build/src/driver/fxcc)
#   HIPCC= bench/compile/run.sh          (leaves hipcc out)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
runs=${1:-11}
fxcc=${FXCC:-$root/build/src/driver/fxcc}
clang=${CLANG:-clang-19}
hipcc=${HIPCC-$(command -v hipcc || true)}
arch=gfx942
hiparch=gfx90a      # the newest gfx9 processor clang-15 knows besides gfx940
bc=${DEVICE_LIBS:-/usr/lib/x86_64-linux-gnu/amdgcn/bitcode}
kernels=(saxpy softmax layernorm gemm_tiled sgemm_unroll128 exp_f64 dsincos reduce_sum transpose stencil5)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# What clang's HIP toolchain links for the device math library (ocml and
# the control files fxcc links too), for the kernels that call it.
devlibs=()
for f in ocml oclc_isa_version_940 oclc_finite_only_off oclc_unsafe_math_off oclc_daz_opt_off \
         oclc_correctly_rounded_sqrt_on oclc_wavefrontsize64_on oclc_abi_version_500; do
  devlibs+=(-Xclang -mlink-builtin-bitcode -Xclang "$bc/$f.bc")
done

# CPU seconds (user + sys) of one run of the command, to the millisecond
# (bash's time keyword, which reports milliseconds).
cpu_of() {
  local TIMEFORMAT='%3U %3S'
  { time "$@" >/dev/null 2>"$out/err" || { cat "$out/err" >&2; exit 1; }; } 2>"$out/t"
  awk '{ printf "%.4f\n", $1 + $2 }' "$out/t"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if [ -n "$hipcc" ]; then
  echo "| kernel | fxcc ms | clang-19 ms | fxcc / clang | fxcc $hiparch ms | hipcc $hiparch ms | fxcc / hipcc |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
else
  echo "hipcc not found: its columns are left out" >&2
  echo "| kernel | fxcc ms | clang-19 ms | fxcc / clang |"
  echo "|---|---:|---:|---:|"
fi
logsum=0
hiplogsum=0
for k in "${kernels[@]}"; do
  src=$here/kernels/$k.fx
  [ -f "$src" ] || src=$root/examples/$k.fx      # the four examples are used as they are
  fx=("$fxcc" -O3 --offload-arch=$arch "$src" -o "$out/$k.hsaco")
  hip=("$clang" -x hip --offload-arch=$arch --cuda-device-only -nogpuinc -nogpulib -O3 -c "$here/kernels/$k.hip"
       -o "$out/$k.o")
  case $k in exp_f64|dsincos) hip+=("${devlibs[@]}") ;; esac
  # hipcc as a HIP user runs it: its own include paths and device libraries
  # (ocml for the Float64 kernels), bundled output as with clang above.
  fx90=("$fxcc" -O3 --offload-arch=$hiparch "$src" -o "$out/$k.90a.hsaco")
  hipc=("$hipcc" --offload-arch=$hiparch --cuda-device-only -O3 -c "$here/kernels/$k.hip" -o "$out/$k.90a.o")
  cpu_of "${fx[@]}" >/dev/null      # warm-up: the files are in the page cache
  cpu_of "${hip[@]}" >/dev/null
  : >"$out/a"; : >"$out/b"; : >"$out/c"; : >"$out/d"
  if [ -n "$hipcc" ]; then
    cpu_of "${fx90[@]}" >/dev/null
    cpu_of "${hipc[@]}" >/dev/null
  fi
  for ((r = 0; r < runs; r++)); do
    cpu_of "${fx[@]}" >>"$out/a"
    cpu_of "${hip[@]}" >>"$out/b"
    if [ -n "$hipcc" ]; then
      cpu_of "${fx90[@]}" >>"$out/c"
      cpu_of "${hipc[@]}" >>"$out/d"
    fi
  done
  a=$(median <"$out/a"); b=$(median <"$out/b")
  if [ -n "$hipcc" ]; then
    c=$(median <"$out/c"); d=$(median <"$out/d")
    awk -v k="$k" -v a="$a" -v b="$b" -v c="$c" -v d="$d" \
      'BEGIN { printf "| %s | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f |\n", k, a * 1000, b * 1000, a / b, c * 1000, d * 1000, c / d }'
    hiplogsum=$(awk -v s="$hiplogsum" -v c="$c" -v d="$d" 'BEGIN { printf "%.6f", s + log(c / d) }')
  else
    awk -v k="$k" -v a="$a" -v b="$b" 'BEGIN { printf "| %s | %.1f | %.1f | %.3f |\n", k, a * 1000, b * 1000, a / b }'
  fi
  logsum=$(awk -v s="$logsum" -v a="$a" -v b="$b" 'BEGIN { printf "%.6f", s + log(a / b) }')
done
if [ -n "$hipcc" ]; then
  awk -v s="$logsum" -v h="$hiplogsum" -v n=${#kernels[@]} \
    'BEGIN { printf "| **geomean** | | | **%.3f** | | | **%.3f** |\n", exp(s / n), exp(h / n) }'
else
  awk -v s="$logsum" -v n=${#kernels[@]} 'BEGIN { printf "| **geomean** | | | **%.3f** |\n", exp(s / n) }'
fi
echo "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
