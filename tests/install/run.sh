#!/usr/bin/env bash
# Installed-tree test: installs the build directory into a scratch DESTDIR,
# then builds a C program against libfxrt with nothing but what
# `pkg-config fxrt` says (no -I into the source or build tree) and runs it on
# a host artifact the installed fxcc writes. A broken .pc, a header that
# pulls in LLVM's headers or the source tree, or a library that does not
# link, fails it.
#   run.sh BUILD_DIR SOURCE_DIR CC SANITIZE
set -euo pipefail
build=$1 src=$(cd "$2" && pwd) cc=$3 sanitize=${4:-none}
command -v pkg-config >/dev/null || { echo "pkg-config missing: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --no-rebuild: meson test has built everything already, and a second ninja
# in the same directory would fight over its lock.
meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/dest" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; exit 1; }

pc=$(find "$tmp/dest" -name fxrt.pc -path '*/pkgconfig/*')
[ -n "$pc" ] || { echo "no fxrt.pc installed"; exit 1; }
# Move the tree away from where it was installed: the .pc must find the
# headers and the library relative to itself.
mv "$tmp/dest" "$tmp/moved"
pc=${pc/#$tmp\/dest/$tmp/moved}
export PKG_CONFIG_PATH=$(dirname "$pc")
cflags=$(pkg-config --cflags fxrt)
libs=$(pkg-config --libs fxrt)
echo "cflags: $cflags"
echo "libs:   $libs"
case "$cflags $libs" in
  *"$src"*) echo "pkg-config points into the source tree"; exit 1 ;;
esac
case "$cflags" in
  *"$tmp/moved"*) ;;
  *) echo "--cflags does not point into the installed tree"; exit 1 ;;
esac
inc=$(pkg-config --variable=includedir fxrt)/fxcc
for h in fxrt.h fxrt_program.h fxrt_hip.h fxrt_llvm.h abi/fxplan.h abi/fxhost.h; do
  [ -f "$inc/$h" ] || { echo "header $h not installed"; exit 1; }
done

# The sanitized build's library needs the sanitizer runtime in the program.
san=()
[ "$sanitize" = none ] || san=("-fsanitize=$sanitize")
# -Werror -pedantic: the public headers must be clean C11 without LLVM.
"$cc" -std=c11 -Wall -Wextra -pedantic -Werror "${san[@]}" \
  "$src/tests/install/use_fxrt.c" -o "$tmp/use_fxrt" $cflags $libs

for page in man1/fxcc.1 man1/fxrun.1 man7/fx.7; do
  [ -n "$(find "$tmp/moved" -path "*/man/$page")" ] || { echo "manual page $page not installed"; exit 1; }
done

fxcc=$(find "$tmp/moved" -name fxcc -type f -perm -u+x | head -n1)
[ -n "$fxcc" ] || { echo "no fxcc installed"; exit 1; }
"$fxcc" "$src/examples/saxpy.fx" --target=host --emit-llvm -o "$tmp/saxpy.bc"
"$tmp/use_fxrt" "$tmp/saxpy.bc"
