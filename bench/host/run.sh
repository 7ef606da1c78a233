#!/bin/sh
# run.sh - fxrun against C references compiled -O2 (docs/host-execution.md).
#   bench/host/run.sh [BUILD_DIR] [RUNS]
# Times the computation only: fxrun's "run on the host" stage of
# --time-passes (the launch, machine code for the kernels included) and the
# same span of the C programs, each the median of RUNS runs (5). Prints one
# markdown row per case: wall and CPU ms, and fxrun / C. Each case's output
# is compared byte for byte with C's first (same inputs: fxrun's rand()).
# Threads through FX_THREADS (1, then 2), which an fxrun older than worker
# threads ignores: FXRUN=/path/to/fxrun measures another build ("before").
# The tiled GEMM (examples/gemm_tiled.fx, barriers) runs twice: its
# barriers as work-item loops (the default) and on fibers
# (--host-barriers=fibers; an fxrun without the option fails that row).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
fxrun=${FXRUN:-$build/src/driver/fxrun}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc=${CC:-cc}
$cc -O2 -o "$tmp/saxpy" "$here/saxpy.c"
$cc -O2 -o "$tmp/gemm" "$here/gemm.c"
$cc -O2 -march=native -o "$tmp/gemm_tiled" "$here/gemm_tiled.c" -lm   # fmaf as an instruction (gemm_tiled.c)

# median of the wall (field 1) and CPU (field 2) ms of "run on the host" lines
stage_median() {
    grep 'run on the host' | sort -n -k"$1" | awk -v f="$1" '{ v[NR] = $f } END { print v[int((NR + 1) / 2)] }'
}

# measure NAME CMD...: runs it RUNS times, prints "wall cpu" medians
measure() {
    : > "$tmp/times"
    i=0
    while [ "$i" -lt "$runs" ]; do
        "$@" 2>> "$tmp/times" > /dev/null
        i=$((i + 1))
    done
    echo "$(stage_median 1 < "$tmp/times") $(stage_median 2 < "$tmp/times")"
}

N=33554432
G=512
echo "| case | threads | fxrun wall ms | fxrun CPU ms | C wall ms | C CPU ms | wall ratio | CPU ratio |"
echo "|---|---|---|---|---|---|---|---|"
c_saxpy=$(measure "$tmp/saxpy" $N "$tmp/y_c.bin")
c_gemm=$(measure "$tmp/gemm" $G "$tmp/c_c.bin")
c_tiled=$(measure "$tmp/gemm_tiled" $G "$tmp/t_c.bin")
for t in 1 2; do
    fx_saxpy=$(measure env FX_THREADS=$t "$fxrun" "$root/examples/saxpy.fx" saxpy --grid $((N / 256)) --block 256 \
        "x=rand(Float32, $N, seed=1)" "y=rand(Float32, $N, seed=2)" a=0.5 n=$N \
        --time-passes --save "y=$tmp/y_fx.bin")
    cmp -s "$tmp/y_fx.bin" "$tmp/y_c.bin" || echo "saxpy: fxrun's y differs from C's" >&2
    fx_gemm=$(measure env FX_THREADS=$t "$fxrun" "$root/examples/gemm.fx" gemm "A=rand(Float64, $G, $G, seed=1)" \
        "B=rand(Float64, $G, $G, seed=2)" "C=rand(Float64, $G, $G, seed=3)" alpha=1.5 beta=0.5 M=$G N=$G K=$G \
        --time-passes --save "C=$tmp/c_fx.bin")
    for how in regions fibers; do
        t_fx=$(measure env FX_THREADS=$t "$fxrun" "$root/examples/gemm_tiled.fx" gemm_tiled --grid $((G / 16)),$((G / 16)) \
            --block 16,16 "A=rand(Float32, $G, $G, seed=1)" "B=rand(Float32, $G, $G, seed=2)" \
            "C=zeros(Float32, $G, $G)" M=$G N=$G K=$G --host-barriers=$how --time-passes --save "C=$tmp/t_fx.bin")
        cmp -s "$tmp/t_fx.bin" "$tmp/t_c.bin" || echo "gemm_tiled ($how): fxrun's C differs from C's" >&2
        eval "fx_tiled_$how=\$t_fx"
    done
    for row in "saxpy 2^25 Float32|$fx_saxpy|$c_saxpy" "GEMM 512^3 Float64|$fx_gemm|$c_gemm" \
               "tiled GEMM 512^3 Float32, barriers as loops|$fx_tiled_regions|$c_tiled" \
               "tiled GEMM 512^3 Float32, on fibers|$fx_tiled_fibers|$c_tiled"; do
        echo "$row" | awk -F'|' -v t=$t '{ split($2, f, " "); split($3, c, " ");
            printf "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.2f | %.2f |\n", $1, t, f[1], f[2], c[1], c[2],
                   f[1] / c[1], f[2] / c[2] }'
    done
done

# Kernels with barriers that have no C reference (their fx.exp is fxcc's;
# smooth is bench/host/smooth.fx, a loop with barriers left by a break;
# settle is bench/host/settle.fx, the same loop in a fn left by a return;
# relax is bench/host/relax.fx, the same rounds in a loop whose condition
# is common.fx's block_max; on gfx942's emulated waves of 64 lanes,
# wave_rows is bench/host/wave_rows.fx, row sums through fx.wave_sum, and
# gemm_mfma is examples/gemm.fx's Float64 GEMM 512^3 on the matrix
# instructions, whose JIT takes longer as loops: the table is the run):
# the same kernel as work-item loops against fibers, one thread, outputs
# compared byte for byte between the two.
R=4096
C=1024
S=64      # smooth, settle, relax: rings of 256, one per block
echo
echo "| kernel (${R} rows of ${C} Float32; smooth, settle, relax: ${S} rings of 256; gemm_mfma: 512^3) | loops wall ms | loops CPU ms | fibers wall ms | fibers CPU ms | CPU loops / fibers |"
echo "|---|---|---|---|---|---|"
for k in softmax layernorm smooth settle relax wave_rows gemm_mfma; do
    for how in regions fibers; do
        src=$root/examples/$k.fx
        out=y
        kernel=$k
        launch="--block 256"
        case $k in
        softmax) set -- --grid $R "x=rand(Float32, $((R * C)), seed=1)" "y=zeros(Float32, $((R * C)))" rows=$R cols=$C ;;
        layernorm) set -- --grid $R "x=rand(Float32, $((R * C)), seed=1)" "gamma=rand(Float32, $C, seed=2)" \
                          "beta=rand(Float32, $C, seed=3)" "y=zeros(Float32, $((R * C)))" rows=$R cols=$C ;;
        smooth) src=$here/smooth.fx out=x
                set -- --grid $S "x=rand(Float32, $((S * 256)), seed=1)" tol=0.0001 ;;
        settle) src=$here/settle.fx out=x kernel=settle_rings
                set -- --grid $S "x=rand(Float32, $((S * 256)), seed=1)" "rounds=zeros(Int32, $S)" tol=0.0001 ;;
        relax) src=$here/relax.fx out=x
               set -- --grid $S "x=rand(Float32, $((S * 256)), seed=1)" tol=0.0001 ;;
        wave_rows) src=$here/wave_rows.fx
                   set -- --arch gfx942 --grid $R "x=rand(Float32, $((R * C)), seed=1)" "y=zeros(Float32, $R)" cols=$C ;;
        gemm_mfma) src=$root/examples/gemm.fx out=C kernel=gemm launch=
                   set -- --arch gfx942 "A=rand(Float64, $G, $G, seed=1)" "B=rand(Float64, $G, $G, seed=2)" \
                          "C=rand(Float64, $G, $G, seed=3)" alpha=1.5 beta=0.5 M=$G N=$G K=$G ;;
        esac
        v=$(measure env FX_THREADS=1 "$fxrun" -I "$root/examples" "$src" $kernel $launch "$@" \
            --host-barriers=$how --time-passes --save "$out=$tmp/$how.bin")
        eval "b_$how=\$v"
    done
    cmp -s "$tmp/regions.bin" "$tmp/fibers.bin" || echo "$k: loops and fibers differ" >&2
    echo "$k|$b_regions|$b_fibers" | awk -F'|' '{ split($2, a, " "); split($3, b, " ");
        printf "| %s | %.1f | %.1f | %.1f | %.1f | %.3f |\n", $1, a[1], a[2], b[1], b[2], a[2] / b[2] }'
done
