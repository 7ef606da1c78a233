#!/usr/bin/env bash
# The examples: examples/Makefile compiles every kernel file for gfx90a,
# gfx942, gfx1100 and gfx1201 (and for the host) with FXFLAGS, writes
# dependency files with phony rules for imports, skips files that are only
# imported, and rebuilds importers when an imported file changes. Then every
# kernel file runs on the host: each line of tests/examples/NAME.cmd is an
# fxrun command after `fxrun NAME.fx`, and NAME.expected holds what the
# lines print (stdout and stderr, then "exit N"). Every kernel file must
# have a .cmd. FX_UPDATE_GOLDEN=1 rewrites the .expected files.
#   run.sh FXCC FXRUN SOURCE_DIR
set -uo pipefail
fxcc=$(realpath "$1") fxrun=$(realpath "$2") src=$(realpath "$3")
here=$src/tests/examples
command -v make >/dev/null || { echo "make missing: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# A copy, so that the build and the touch below leave the source tree alone.
cp -r "$src/examples" "$tmp/ex"
rm -rf "$tmp/ex/out"
archs="gfx90a gfx942 gfx1100 gfx1201"
mk() { make -C "$tmp/ex" --no-print-directory FXCC="$fxcc" ARCHS="$archs" "$@"; }
# FXFLAGS reaches fxcc: a -D for a const of layernorm.fx only (an unknown
# name would be an error in the other files, so it goes to that file alone).
mk -j2 all host FXFLAGS="-O2" >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; bad "make failed"; }
grep -q -- '-O2 ' "$tmp/make.log" || bad "FXFLAGS did not reach fxcc"
mk "out/gfx942/layernorm.hsaco" -B FXFLAGS="-O1 -D EPS=1e-3" >"$tmp/make2.log" 2>&1 ||
  { cat "$tmp/make2.log"; bad "make with FXFLAGS=-D failed"; }

kernels=$(cd "$tmp/ex" && grep -lE '^[[:space:]]*(kernel|program)[[:space:]]' *.fx)
libs=$(cd "$tmp/ex" && grep -LE '^[[:space:]]*(kernel|program)[[:space:]]' *.fx)
[ -n "$libs" ] || bad "no import-only example to check that it is not built"
for a in $archs host; do
  ext=hsaco; [ $a = host ] && ext=bc
  for f in $kernels; do
    o=$tmp/ex/out/$a/${f%.fx}.$ext
    [ -s "$o" ] || bad "$a: ${f%.fx}.$ext was not built"
    [ -s "$o.d" ] || bad "$a: no dependency file for ${f%.fx}"
  done
  for f in $libs; do
    [ ! -e "$tmp/ex/out/$a/${f%.fx}.$ext" ] || bad "$a: import-only $f was compiled"
  done
done
# Dependency files: the import is a prerequisite and has its -MP phony rule.
dep=$tmp/ex/out/gfx942/softmax.hsaco.d
grep -q 'common.fx' "$dep" && grep -q '^common.fx:' "$dep" || bad "softmax's dependency file: $(cat "$dep")"
mk -q FXFLAGS="-O2" || bad "a second make would rebuild"
touch "$tmp/ex/common.fx"
n=$(mk -n FXFLAGS="-O2" | grep -c -- '--offload-arch')
importers=$(cd "$tmp/ex" && grep -l '^import "common.fx"' $kernels | wc -l)
[ "$n" -eq $((importers * 4)) ] || bad "after touching common.fx make would run $n compiles, expected $((importers * 4))"

# Run every kernel file on the host.
cd "$tmp/ex"
for f in $kernels; do
  name=${f%.fx}
  [ -f "$here/$name.cmd" ] || { bad "$f has no tests/examples/$name.cmd"; continue; }
  got=$tmp/$name.out
  : >"$got"
  while IFS= read -r args; do
    [ -n "$args" ] || continue
    eval "\"$fxrun\" \"$f\" $args" >>"$got" 2>&1
    echo "exit $?" >>"$got"
  done <"$here/$name.cmd"
  if [ "${FX_UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$got" "$here/$name.expected"
  elif ! diff -u "$here/$name.expected" "$got"; then
    bad "$name: output differs from tests/examples/$name.expected"
  fi
done
# The race and initialization checker stays silent on the kernels that use
# shared memory and barriers (the first run of each, under fxrun --check).
for name in softmax layernorm gemm_tiled attention; do
  args=$(grep -m1 . "$here/$name.cmd")
  out=$(eval "\"$fxrun\" \"$name.fx\" $args --check" 2>&1) || bad "$name under --check: $out"
  case $out in *race:* | *uninitialized* | *divergent*) bad "$name under --check: $out" ;; esac
done
# attention.fx's kernel (not its Float64 check) keeps its registers on
# every processor, for both head dimensions: no VGPR spilled, no scratch.
for a in $archs; do
  for d in 64 128; do
    "$fxcc" -D D=$d --offload-arch=$a "$src/examples/attention.fx" -S -o "$tmp/attention.s" ||
      { bad "attention.fx does not compile for $a, D=$d"; continue; }
    # the fields after ".name: attention" in its metadata entry: their count and sum
    read -r n got < <(awk '/^  - \./ { k = 0 } /\.name: +attention$/ { k = 1 }
      k && /\.(vgpr_spill_count|private_segment_fixed_size):/ { n++; s += $NF } END { print n + 0, s + 0 }' "$tmp/attention.s")
    [ "$n" -eq 2 ] && [ "$got" -eq 0 ] || bad "attention on $a, D=$d: spills or scratch ($n fields, sum $got)"
  done
done
[ $fail -eq 0 ] && echo "$(echo $kernels | wc -w) examples built for $archs and the host, and run"
exit $fail
