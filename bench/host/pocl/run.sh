#!/bin/sh
# run.sh - fxrun against POCL, the OpenCL implementation for CPUs, on the
# same kernels written once in fx and once in OpenCL C (kernels/*.fx and
# kernels/*.cl: same algorithm, grid, block and arithmetic).
#   bench/host/pocl/run.sh [BUILD_DIR] [RUNS]
# Installs pocl-opencl-icd and ocl-icd-opencl-dev with apt-get if they are
# missing (as root, else through sudo), builds clrun.c and ulpcmp.c with cc,
# makes every input with fxrun's rand() (kernels/inputs.fx, --save) into raw
# files that both sides read, then for 1 and 2 threads (fxrun --threads,
# POCL_MAX_PTHREAD_COUNT) prints one markdown row per kernel:
# - fxrun ms: the median over RUNS processes of the "run on the host" stage
#   of --time-passes: the one launch, after the JIT and after the inputs
#   were read (so no page of a buffer is touched for the first time in it);
# - POCL ms: the median over RUNS clrun processes of one timed
#   clEnqueueNDRangeKernel + clFinish after an untimed run of the same
#   kernel (clrun.c);
# - gfx942 ms: fxrun --arch=gfx942 (gfx942's waves of 64 emulated), timed
#   as fxrun, and its ratio to the plain host run;
# - the outputs: fxrun's against POCL's, and gfx942's against fxrun's, bit
#   for bit, except softmax, whose exp() differs between the two libraries
#   (up to SOFTMAX_ULPS units in the last place, below).
# The three run in turn, RUNS rounds of one each, so that load from other
# processes falls on all of them alike. A geomean row follows each thread
# count; the load average (uptime) is printed before and after. RUNS
# defaults to 5. FXRUN=/path/to/fxrun measures another fxrun.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
fxrun=${FXRUN:-$build/src/driver/fxrun}
kern=$here/kernels
SOFTMAX_ULPS=8

[ -x "$fxrun" ] || { echo "run.sh: no fxrun at $fxrun (give the build directory)" >&2; exit 2; }

# POCL and the OpenCL headers and ICD loader, only for this benchmark.
missing=
for p in pocl-opencl-icd ocl-icd-opencl-dev; do
    dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "run.sh: installing$missing" >&2
    if [ "$(id -u)" = 0 ]; then
        sudo=
    elif command -v sudo > /dev/null; then
        sudo=sudo
    else
        echo "run.sh: need root or sudo to install$missing" >&2
        exit 1
    fi
    $sudo apt-get update -qq > /dev/null
    # shellcheck disable=SC2086
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing > /dev/null
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export POCL_CACHE_DIR="$tmp/pocl-cache"     # POCL's compiled kernels go away with the rest
cc=${CC:-cc}
$cc -std=c11 -O2 -Wall -Wextra -o "$tmp/clrun" "$here/clrun.c" -lOpenCL
$cc -std=c11 -O2 -Wall -Wextra -o "$tmp/ulpcmp" "$here/ulpcmp.c"

# input NAME KERNEL BUFFER: the buffer fxrun makes (rand/zeros) in NAME.bin
input() {
    "$fxrun" "$kern/inputs.fx" "$2" --grid 1 --block 1 "_p=$3" --save "_p=$tmp/$1.bin"
}
N=16777216      # saxpy, histogram, reduce: 2^24 elements
R=4096          # softmax: R rows of C
C=1024
G=512           # GEMM: G x G times G x G
T=4096          # transpose: T x T
input x f32 "rand(Float32, $N, seed=1)"
input y f32 "rand(Float32, $N, seed=2)"
input sm_x f32 "rand(Float32, $((R * C)), seed=3)"
input sm_y f32 "zeros(Float32, $((R * C)))"
input A f32 "rand(Float32, $G, $G, seed=4)"
input B f32 "rand(Float32, $G, $G, seed=5)"
input C f32 "zeros(Float32, $G, $G)"
input tr_a f32 "rand(Float32, $T, $T, seed=6)"
input tr_b f32 "zeros(Float32, $T, $T)"
input bytes u8 "rand(Uint8, $N, seed=7)"
input bins u32 "zeros(Uint32, 256)"
input ints i32 "rand(Int32, $N, seed=8)"
input total i32 "zeros(Int32, 1)"

# median FILE: the median of the numbers in FILE, one a line
median() {
    sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# fx_once FILE CMD...: runs fxrun once, appends the wall ms of its "run on
# the host" stage to FILE
fx_once() {
    f=$1
    shift
    "$@" 2> "$tmp/err" > /dev/null || { cat "$tmp/err" >&2; echo "run.sh: failed: $*" >&2; exit 1; }
    awk '/run on the host/ { print $1 }' "$tmp/err" >> "$f"
}

# same A B ULPS: "same bits", "<= K ulp" or "DIFFER" (with the details on stderr)
same() {
    if cmp -s "$1" "$2"; then
        echo "same bits"
    elif [ "$3" = 0 ]; then
        echo "DIFFER"
    elif r=$("$tmp/ulpcmp" "$1" "$2" "$3"); then
        echo "$r" | sed -n 's/.*by at most \([0-9]*\) ulp.*/<= \1 ulp/p'
    else
        echo "$r" >&2
        echo "DIFFER"
    fi
}

# case NAME: the kernel's launch and arguments for both sides, in
# fx_args / cl_args, its output in out_fx (fxrun's name), out_cl (clrun's
# position), its input file out_in, and ulps (0: bit for bit)
case_args() {
    ulps=0
    case $1 in
    saxpy) launch="--grid $((N / 256)) --block 256"
           fx_args="x=@$tmp/x.bin y=@$tmp/y.bin a=0.5 n=$N"
           cl_args="@$tmp/x.bin @$tmp/y.bin float:0.5 int:$N"
           out_fx=y out_cl=1 ;;
    softmax) launch="--grid $R --block 256"
             fx_args="x=@$tmp/sm_x.bin y=@$tmp/sm_y.bin rows=$R cols=$C"
             cl_args="@$tmp/sm_x.bin @$tmp/sm_y.bin int:$R int:$C"
             out_fx=y out_cl=1 ulps=$SOFTMAX_ULPS ;;
    gemm_tiled) launch="--grid $((G / 16)),$((G / 16)) --block 16,16"
                fx_args="A=@$tmp/A.bin B=@$tmp/B.bin C=@$tmp/C.bin M=$G N=$G K=$G"
                cl_args="@$tmp/A.bin @$tmp/B.bin @$tmp/C.bin int:$G int:$G int:$G"
                out_fx=C out_cl=2 ;;
    transpose) launch="--grid $((T / 32)),$((T / 32)) --block 32,8"
               fx_args="a=@$tmp/tr_a.bin b=@$tmp/tr_b.bin rows=$T cols=$T"
               cl_args="@$tmp/tr_a.bin @$tmp/tr_b.bin int:$T int:$T"
               out_fx=b out_cl=1 ;;
    histogram) launch="--grid 256 --block 256"
               fx_args="x=@$tmp/bytes.bin n=$N bins=@$tmp/bins.bin"
               cl_args="@$tmp/bytes.bin int:$N @$tmp/bins.bin"
               out_fx=bins out_cl=2 ;;
    reduce) launch="--grid 256 --block 256"
            fx_args="x=@$tmp/ints.bin n=$N total=@$tmp/total.bin"
            cl_args="@$tmp/ints.bin int:$N @$tmp/total.bin"
            out_fx=total out_cl=2 ;;
    esac
}

kernels="saxpy softmax gemm_tiled transpose histogram reduce"
echo "load before: $(uptime)"
echo
echo "| kernel | threads | fxrun ms | POCL ms | fxrun / POCL | gfx942 waves ms | waves / fxrun | outputs: fxrun vs POCL; waves vs fxrun |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
: > "$tmp/rows"
for t in 1 2; do
    for k in $kernels; do
        case_args "$k"
        : > "$tmp/fx.ms"
        : > "$tmp/waves.ms"
        : > "$tmp/cl.ms"
        i=0
        while [ "$i" -lt "$runs" ]; do
            # shellcheck disable=SC2086
            fx_once "$tmp/fx.ms" "$fxrun" "$kern/$k.fx" $k $launch $fx_args --threads $t --time-passes \
                --save "$out_fx=$tmp/out_fx.bin"
            # shellcheck disable=SC2086
            fx_once "$tmp/waves.ms" "$fxrun" "$kern/$k.fx" $k --arch gfx942 $launch $fx_args --threads $t \
                --time-passes --save "$out_fx=$tmp/out_waves.bin"
            # shellcheck disable=SC2086
            POCL_MAX_PTHREAD_COUNT=$t "$tmp/clrun" "$kern/$k.cl" $k $launch --runs 1 \
                --save "$out_cl=$tmp/out_cl.bin" $cl_args 2> "$tmp/err" >> "$tmp/cl.ms" || { cat "$tmp/err" >&2; exit 1; }
            i=$((i + 1))
        done
        fx=$(median "$tmp/fx.ms")
        waves=$(median "$tmp/waves.ms")
        cl=$(median "$tmp/cl.ms")
        vs_cl=$(same "$tmp/out_fx.bin" "$tmp/out_cl.bin" $ulps)
        vs_waves=$(same "$tmp/out_waves.bin" "$tmp/out_fx.bin" $ulps)
        echo "$k $t $fx $cl $waves" >> "$tmp/rows"
        echo "$k|$t|$fx|$cl|$waves|$vs_cl; $vs_waves" | awk -F'|' '{
            printf "| %s | %d | %.1f | %.1f | %.2f | %.1f | %.2f | %s |\n", $1, $2, $3, $4, $3 / $4, $5, $5 / $3, $6 }'
    done
    awk -v t=$t '$2 == t { p += log($3 / $4); w += log($5 / $3); n++ }
        END { printf "| geomean | %d | | | %.2f | | %.2f | |\n", t, exp(p / n), exp(w / n) }' "$tmp/rows"
done
echo
echo "load after: $(uptime)"
