#!/usr/bin/env bash
# CMake package test: installs the build directory into a scratch DESTDIR,
# moves the tree, and builds examples/cmake against it with nothing but
# CMAKE_PREFIX_PATH, with the Ninja and the Makefile generator: the kernels
# for gfx942 and gfx1100 and the host, the C program that runs one of them
# through libfxrt, a no-op rebuild that runs nothing, edits that rebuild
# exactly the kernels they reach (an imported file: the kernels that import
# it), `cmake --install`. Then tests/cmake/checks: find_package's version
# rule, the errors of bad fxcc_add_kernels calls, BUNDLE, ARCHS from
# CMAKE_HIP_ARCHITECTURES, target ids, kernels attached to an executable,
# fxcc::fxrt_static.
#   run.sh BUILD_DIR SOURCE_DIR CC SANITIZE VERSION PREFIX
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd) cc=$3 sanitize=${4:-none} version=$5 prefix=$6
command -v cmake >/dev/null || { echo "cmake missing: skipped"; exit 77; }
command -v make >/dev/null || { echo "make missing: skipped (the Makefile generator is half of the test)"; exit 77; }
command -v ninja >/dev/null || { echo "ninja missing: skipped"; exit 77; }
command -v readelf >/dev/null || { echo "readelf missing: skipped"; exit 77; }
cmake_version=$(cmake --version | sed -n 's/^cmake version \([0-9.]*\).*/\1/p')
if [ "$(printf '%s\n' 3.20 "$cmake_version" | sort -V | head -n1)" != 3.20 ]; then
  echo "cmake $cmake_version is older than 3.20, which the package needs: skipped"; exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# Run a command quietly; on failure show its output and stop.
quiet() {
  local log=$tmp/last.log
  "$@" >"$log" 2>&1 || { cat "$log"; fail "$*"; }
}

# Nothing from the environment may point CMake elsewhere than the tree
# under test, or change how it builds.
unset CMAKE_PREFIX_PATH fxcc_DIR CMAKE_GENERATOR CMAKE_BUILD_TYPE CMAKE_TOOLCHAIN_FILE \
  CMAKE_C_COMPILER_LAUNCHER CC CFLAGS LDFLAGS CPATH LIBRARY_PATH LD_LIBRARY_PATH MAKEFLAGS
export CMAKE_BUILD_PARALLEL_LEVEL=2

# --no-rebuild: meson test has built everything already, and a second ninja
# in the same directory would fight over its lock.
quiet meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/dest"
# Move the tree: the package must find everything relative to itself.
mv "$tmp/dest" "$tmp/moved"
root=$tmp/moved$prefix
config=$(find "$root" -name fxccConfig.cmake -path '*/cmake/fxcc/*')
[ -n "$config" ] || fail "no fxccConfig.cmake installed under $root"
pkgdir=$(dirname "$config")
for f in fxccConfigVersion.cmake fxccKernels.cmake; do
  [ -f "$pkgdir/$f" ] || fail "$f not installed beside fxccConfig.cmake"
done
libdir=${pkgdir%/cmake/fxcc}   # <root>/<libdir>
# No install path is written into the package (it would still work here if
# an fxcc were installed at $prefix, so this is checked by name).
if grep -F -e "$prefix/" -e "$tmp" "$pkgdir"/*.cmake | grep -vF -e /llvm- ; then
  fail "the package names absolute install paths (above)"
fi

# The example is built from a copy, since the test touches its files, in a
# directory with a space in its name: fxcc quotes file names in its
# dependency files as make reads them, which CMake, Ninja and make must all
# take correctly.
work="$tmp/x y"
mkdir -p "$work"
fxcc=$(find "$root" -name fxcc -type f -perm -u+x | head -n1)
[ -n "$fxcc" ] || fail "no fxcc installed"
exdir=$work/example
cp -r "$src/examples/cmake" "$exdir"

# The sanitized build's library needs the sanitizer runtime in the program,
# and its compiler (-Dfuzz needs clang).
cmake_args=(-DCMAKE_PREFIX_PATH="$root" -DCMAKE_C_COMPILER="$cc" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
[ "$sanitize" = none ] || cmake_args+=(-DCMAKE_C_FLAGS="-fsanitize=$sanitize")

IFS=. read -r major minor _ <<<"$version"
soname=libfxrt.so.$major
[ "$major" = 0 ] && soname=libfxrt.so.$major.$minor
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
# The machine byte of a code object's e_flags (EF_AMDGPU_MACH).
mach() { od -An -t x1 -j 48 -N 1 "$1" | tr -d ' '; }
declare -A mach_of=([gfx942]=4c [gfx1100]=41 [gfx90a]=3f)
check_hsaco() {   # FILE ARCH
  [ -f "$1" ] || fail "$1 was not built"
  [ "$(od -An -c -N 4 "$1" | tr -d ' ')" = '177ELF' ] || fail "$1 is not an ELF code object"
  [ "$(mach "$1")" = "${mach_of[$2]}" ] || fail "$1 is not for $2 (machine 0x$(mach "$1"))"
}
check_bc() {
  [ -f "$1" ] || fail "$1 was not built"
  [ "$(od -An -t x1 -N 4 "$1" | tr -d ' ')" = 4243c0de ] || fail "$1 is not LLVM bitcode"
}

# Modification times (ns) of the example's outputs, one "name time" a line.
kernels=(affine-gfx942.hsaco affine-gfx1100.hsaco affine-host.bc square-gfx942.hsaco square-gfx1100.hsaco square-host.bc)
stamps() { for k in "${kernels[@]}"; do echo "$k $(stat -c %.9Y "$1/$k")"; done; }
# Build B again after an edit and check that exactly the kernels named
# (space-separated, sorted) were written.
rebuild_expect() {   # BUILD_DIR WHAT EXPECTED...
  local b=$1 what=$2; shift 2
  stamps "$b" >"$tmp/before"
  quiet cmake --build "$b"
  stamps "$b" >"$tmp/after"
  local got want
  got=$(join "$tmp/before" "$tmp/after" | awk '$2 != $3 { print $1 }' | sort | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | sed '/^$/d' | sort | tr '\n' ' ')
  [ "$got" = "$want" ] || fail "$what rebuilt '${got% }', want '${want% }'"
  got=${got% }
  echo "  $what: rebuilt ${got:-nothing}"
}

for gen in Ninja "Unix Makefiles"; do
  echo "== $gen"
  b=$work/build-${gen// /-}
  quiet cmake -S "$exdir" -B "$b" -G "$gen" "${cmake_args[@]}"
  found=$(sed -n 's/^fxcc_DIR:[A-Z]*=//p' "$b/CMakeCache.txt")
  [ "$found" = "$pkgdir" ] || fail "found the package in '$found', not in the moved tree $pkgdir"
  # The build knows neither the meson build directory nor the source tree.
  if grep -rlF -e "$build/" -e "$src/" "$b"; then
    fail "the CMake build directory names the meson source or build tree (files above)"
  fi
  quiet cmake --build "$b"
  for stem in affine square; do
    for arch in gfx942 gfx1100; do check_hsaco "$b/$stem-$arch.hsaco" "$arch"; done
    check_bc "$b/$stem-host.bc"
  done
  # The program finds libfxrt through the run path CMake gives a build-tree
  # executable.
  needed "$b/run_affine" | grep -qxF "$soname" || fail "run_affine does not need $soname"
  "$b/run_affine"

  rebuild_expect "$b" "a build with nothing changed"
  # Coarse file systems keep one time per second: edits must come later.
  sleep 1
  touch "$exdir/include/common.fx"
  rebuild_expect "$b" "touching include/common.fx" affine-gfx942.hsaco affine-gfx1100.hsaco affine-host.bc
  sleep 1
  touch "$exdir/square.fx"
  rebuild_expect "$b" "touching square.fx" square-gfx942.hsaco square-gfx1100.hsaco square-host.bc
  rebuild_expect "$b" "a second build with nothing changed"

  # cmake --install: the program and every output of the kernels target.
  inst=$work/install-${gen// /-}
  quiet cmake --install "$b" --prefix "$inst"
  for k in "${kernels[@]}"; do
    [ -f "$inst/share/fxcc_example/$k" ] || fail "cmake --install did not install $k"
  done
  # Installed, the program has no run path: the moved libdir is not where the
  # dynamic loader looks.
  LD_LIBRARY_PATH=$libdir "$inst/bin/run_affine" "$inst/share/fxcc_example/affine-host.bc"
done

echo "== checks"
checks=$src/tests/cmake/checks
mkdir -p "$tmp/rule"
quiet cmake -DTEMPLATE="$src/cmake/fxccConfigVersion.cmake.in" -DWORK="$tmp/rule" -P "$src/tests/cmake/version_rule.cmake"
echo "  the version rule for 0.2.0 and 1.4.2"
check_args=(-G Ninja "${cmake_args[@]}" -DFXCC_EXAMPLE="$exdir" -DFXCC_PROJECT_VERSION="$version")
quiet cmake -S "$checks" -B "$work/versions" "${check_args[@]}" -DFXCC_CASE=versions
grep -c 'find_package(fxcc' "$tmp/last.log" | sed 's/^/  find_package with versions: /; s/$/ requests as the rule says/'

# Bad calls stop the configuration with these words (CMake wraps the
# message, so blanks and line ends are squeezed before comparing).
errors=(
  "no_sources|fxcc_add_kernels(k): no SOURCES"
  "no_archs|no ARCHS, and CMAKE_HIP_ARCHITECTURES is not set"
  "unknown_keyword|unknown keyword ARCH"
  "unknown_argument|unknown argument(s) 'gfx942'"
  "bad_arch|'sm_80' is no architecture"
  "bad_flag|FLAGS: -o is fxcc_add_kernels' own option"
  "duplicate|square-gfx942.hsaco is already an output of fxcc_add_kernels"
  "imported|fxcc::fxrt is an alias or imported target"
)
for e in "${errors[@]}"; do
  case=${e%%|*} words=${e#*|}
  if cmake -S "$checks" -B "$work/errors" "${check_args[@]}" -DFXCC_CASE="$case" >"$tmp/err.log" 2>&1; then
    fail "fxcc_add_kernels case $case configured without an error"
  fi
  tr -s ' \n' '  ' <"$tmp/err.log" | grep -qF -- "$words" || { cat "$tmp/err.log"; fail "case $case: no '$words'"; }
done
echo "  ${#errors[@]} bad calls refused"

c=$work/checks
quiet cmake -S "$checks" -B "$c" "${check_args[@]}"
# Building the executable builds the kernels attached to it, and nothing else.
quiet cmake --build "$c" --target run_static
check_bc "$c/static/affine-host.bc"
check_hsaco "$c/static/square-gfx942.hsaco" gfx942
[ ! -e "$c/hip/affine-gfx942.hsaco" ] || fail "building run_static built the hip target's kernels"
"$c/run_static"
if needed "$c/run_static" | grep -q '^libfxrt'; then fail "run_static (fxcc::fxrt_static) needs a shared libfxrt"; fi
quiet cmake --build "$c"
check_hsaco "$c/hip/affine-gfx942.hsaco" gfx942
check_hsaco "$c/hip/affine-gfx90a_xnack+.hsaco" gfx90a
for stem in affine square; do
  [ "$(head -c 24 "$c/bundle/$stem.hsaco")" = __CLANG_OFFLOAD_BUNDLE__ ] || fail "bundle/$stem.hsaco is not an offload bundle"
  check_bc "$c/bundle/$stem-host.bc"
done
# FXCC_KERNEL_OUTPUTS lists each target's outputs, in the order of the calls.
expect_outputs() {   # TARGET FILES...
  local t=$1; shift
  diff <(printf "$c/%s\n" "$@") "$c/outputs-$t.txt" || fail "FXCC_KERNEL_OUTPUTS of $t"
}
expect_outputs hip hip/affine-gfx90a_xnack+.hsaco hip/affine-gfx942.hsaco
expect_outputs bundles bundle/affine.hsaco bundle/affine-host.bc bundle/square.hsaco bundle/square-host.bc
expect_outputs run_static static/affine-host.bc static/square-gfx942.hsaco
echo "  BUNDLE, CMAKE_HIP_ARCHITECTURES, target ids, an executable's kernels, fxcc::fxrt_static"
