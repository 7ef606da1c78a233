#!/usr/bin/env bash
# The Python module from an install tree alone: installs the build directory
# into a scratch DESTDIR, moves the tree elsewhere, and runs the module's
# pytest suite and examples/python with nothing on the path but the moved
# tree's package directory (no build or source tree: the tests reach the
# examples' .fx files by FXRT_TEST_SOURCE_ROOT, as data).
#   run.sh BUILD_DIR SOURCE_DIR PURELIB_REL SANITIZE
set -euo pipefail
build=$1 src=$(cd "$2" && pwd) purelib=$3 sanitize=${4:-none}

# The first python3 on PATH may lack numpy or pytest (a version manager's
# interpreter); Debian's own has them once scripts/setup.sh ran.
python=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null && "$p" -c 'import numpy, pytest' 2>/dev/null; then python=$p; break; fi
done
[ -n "$python" ] || { echo "no python3 with numpy and pytest (scripts/setup.sh installs them): skipped"; exit 77; }

case "$sanitize" in *fuzzer*)
  echo "libfxrt built for libFuzzer needs the fuzzer's runtime, which no interpreter has: skipped"; exit 77 ;;
esac
# libfxrt.so carries the sanitizers' calls: their runtimes must come first
# into the interpreter, which was not built with them.
preload=()
case "$sanitize" in *address*) preload+=("$(gcc -print-file-name=libasan.so)") ;; esac
case "$sanitize" in *undefined*) preload+=("$(gcc -print-file-name=libubsan.so)") ;; esac
if [ ${#preload[@]} -gt 0 ]; then
  export LD_PRELOAD="${preload[*]}"
  export ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/dest" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; exit 1; }
prefix=$(cd "$build" && meson introspect --buildoptions | "$python" -c \
  'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
mv "$tmp/dest$prefix" "$tmp/moved"
rm -rf "$tmp/dest"
pkg=$tmp/moved/$purelib
[ -f "$pkg/fxrt/__init__.py" ] || { echo "fxrt not installed in $purelib"; exit 1; }

cd "$tmp"   # nothing of the source tree in the working directory
export PYTHONPATH=$pkg PYTHONDONTWRITEBYTECODE=1 FXRT_TEST_SOURCE_ROOT=$src
"$python" -m pytest -q -p no:cacheprovider "$src/tests/python" "$src/examples/python"
