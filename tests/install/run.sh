#!/usr/bin/env bash
# Installed-tree test: installs the build directory into a scratch DESTDIR,
# then builds C programs against libfxrt with nothing but what
# `pkg-config fxrt` says (no -I into the source or build tree) and runs them
# on a host artifact the installed fxcc writes, linked with libfxrt.so and
# with libfxrt.a. A broken .pc, a header that pulls in LLVM's headers or the
# source tree, a library that does not link, or a version, soname or
# exported symbol that is not what the headers say, fails it.
#   run.sh BUILD_DIR SOURCE_DIR CC SANITIZE VERSION
set -euo pipefail
build=$1 src=$(cd "$2" && pwd) cc=$3 sanitize=${4:-none} version=$5
command -v pkg-config >/dev/null || { echo "pkg-config missing: skipped"; exit 77; }
command -v readelf >/dev/null || { echo "readelf missing: skipped"; exit 77; }
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
headers=(fxrt.h fxrt_version.h fxrt_program.h fxrt_hip.h fxrt_llvm.h abi/fxplan.h abi/fxhost.h)
for h in "${headers[@]}"; do
  [ -f "$inc/$h" ] || { echo "header $h not installed"; exit 1; }
done
[ "$(pkg-config --modversion fxrt)" = "$version" ] ||
  { echo "fxrt.pc says version $(pkg-config --modversion fxrt), the project is $version"; exit 1; }

# The shared library: libfxrt.so.VERSION, its soname libfxrt.so.MAJOR.MINOR
# before 1.0 (every 0.x minor may break the API) and libfxrt.so.MAJOR from
# 1.0 on, and the development link libfxrt.so -> soname.
libdir=$(pkg-config --variable=libdir fxrt)
IFS=. read -r major minor _ <<<"$version"
soname=libfxrt.so.$major
[ "$major" = 0 ] && soname=libfxrt.so.$major.$minor
lib=$libdir/libfxrt.so.$version
[ -f "$lib" ] && [ ! -L "$lib" ] || { echo "libfxrt.so.$version not installed"; ls -l "$libdir"; exit 1; }
[ "$(readlink "$libdir/$soname")" = "libfxrt.so.$version" ] || { echo "$soname is not a link to libfxrt.so.$version"; exit 1; }
[ "$(readlink "$libdir/libfxrt.so")" = "$soname" ] || { echo "libfxrt.so is not a link to $soname"; exit 1; }
[ -f "$libdir/libfxrt.a" ] || { echo "libfxrt.a not installed"; exit 1; }
got=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$got" = "$soname" ] || { echo "libfxrt.so.$version has soname '$got', want $soname"; exit 1; }

# The library exports the functions the installed headers declare (comments
# removed; static inline ones are the header's own), and nothing else.
declared=$(cd "$inc" && perl -0777 -pe 's{/\*.*?\*/}{}gs' "${headers[@]}" | grep -v 'static inline' |
  grep -oE '\b(rt|fxplan)_[a-z0-9_]*\(' | tr -d '(' | sort -u)
exported=$(readelf --dyn-syms -W "$lib" | awk '$4 == "FUNC" && $7 != "UND" { sub(/@.*/, "", $8); print $8 }' | sort -u)
[ "$declared" = "$exported" ] ||
  { echo "libfxrt.so exports other functions than the headers declare:"; diff <(echo "$declared") <(echo "$exported"); exit 1; }
# CHANGELOG.md: its newest version is this one, and it names every
# function of the API, so that neither goes out unrecorded.
newest=$(sed -n 's/^## \([0-9][0-9.]*\)$/\1/p' "$src/CHANGELOG.md" | head -n1)
[ "$newest" = "$version" ] || { echo "CHANGELOG.md's newest version is '$newest', the project's $version"; exit 1; }
for f in $exported; do
  grep -qw -- "$f" "$src/CHANGELOG.md" || { echo "CHANGELOG.md does not name $f"; exit 1; }
done

# The sanitized build's library needs the sanitizer runtime in the program.
san=()
[ "$sanitize" = none ] || san=("-fsanitize=$sanitize")
# -Werror -pedantic: the public headers must be clean C11 without LLVM.
build_c() {
  "$cc" -std=c11 -Wall -Wextra -pedantic -Werror "${san[@]}" "$src/tests/install/$1.c" -o "$tmp/$2" $cflags "${@:3}"
}
build_c use_fxrt use_fxrt $libs -lm   # use_fxrt calls fmaf itself
build_c check_version check_version $libs
# The archive instead of the shared library: -l:libfxrt.a in place of
# -lfxrt, with the libraries `pkg-config --static` adds.
read -ra static_libs <<<"$(pkg-config --static --libs fxrt)"
for i in "${!static_libs[@]}"; do
  if [ "${static_libs[$i]}" = -lfxrt ]; then static_libs[$i]=-l:libfxrt.a; fi
done
build_c use_fxrt use_fxrt_static "${static_libs[@]}"
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
needed "$tmp/use_fxrt" | grep -qxF "$soname" || { echo "use_fxrt does not need $soname:"; needed "$tmp/use_fxrt"; exit 1; }
if needed "$tmp/use_fxrt_static" | grep -q '^libfxrt'; then
  echo "use_fxrt_static needs a shared libfxrt"; exit 1
fi

for page in man1/fxcc.1 man1/fxrun.1 man7/fx.7; do
  file=$(find "$tmp/moved" -path "*/man/$page")
  [ -n "$file" ] || { echo "manual page $page not installed"; exit 1; }
  head -n1 "$file" | grep -qF "\"fxcc $version\"" || { echo "$page: $(head -n1 "$file"), not fxcc $version"; exit 1; }
done

fxcc=$(find "$tmp/moved" -name fxcc -type f -perm -u+x | head -n1)
[ -n "$fxcc" ] || { echo "no fxcc installed"; exit 1; }
"$fxcc" "$src/examples/saxpy.fx" --target=host --emit-llvm -o "$tmp/saxpy.bc"
# The moved tree is not where the dynamic loader looks.
LD_LIBRARY_PATH=$libdir "$tmp/check_version" "$version"
LD_LIBRARY_PATH=$libdir "$tmp/use_fxrt" "$tmp/saxpy.bc"
"$tmp/use_fxrt_static" "$tmp/saxpy.bc"
