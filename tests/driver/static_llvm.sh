#!/bin/sh
# -Dstatic_llvm=true: fxcc must not load libLLVM or libstdc++ at run time
# (their relocation is the start-up cost the option removes) and must be a
# fixed-address executable (a PIE would bring 300,000 relocations back).
#   static_llvm.sh FXCC KERNEL.fx
set -eu
fxcc=$1
dyn=$(readelf -d "$fxcc")
if printf '%s\n' "$dyn" | grep -E 'NEEDED.*\[lib(LLVM|stdc\+\+)' ; then
  echo "static_llvm: $fxcc still needs the libraries above" >&2
  exit 1
fi
if ! readelf -h "$fxcc" | grep -q 'Type: *EXEC'; then
  echo "static_llvm: $fxcc is not a fixed-address executable:" >&2
  readelf -h "$fxcc" | grep 'Type:' >&2
  exit 1
fi
# And it works: a kernel to a code object.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$fxcc" "$2" --offload-arch=gfx942 -O3 -o "$out/k.hsaco"
test -s "$out/k.hsaco"
echo "static_llvm: ok"
