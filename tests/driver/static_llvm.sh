#!/bin/sh
# -Dstatic_llvm=true: fxcc must not load libLLVM or libstdc++ at run time
# (their relocation is the start-up cost the option removes) and must be a
# fixed-address executable (a PIE would bring 300,000 relocations back),
# with the register alias lists of cg_regalias.cpp in place of LLVM's.
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
# LLVM's register alias lists come from cg_regalias.cpp: the replacement is
# linked in and nothing calls LLVM's own function (--gc-sections drops it).
syms=$(nm "$fxcc")
alias_fn=_ZNK4llvm14MCRegisterInfo18getCachedAliasesOfEt
if ! printf '%s\n' "$syms" | grep -q " T __wrap_$alias_fn\$"; then
  echo "static_llvm: $fxcc does not have cg_regalias.cpp's alias lists" >&2
  exit 1
fi
if printf '%s\n' "$syms" | grep -q " T $alias_fn\$"; then
  echo "static_llvm: $fxcc still calls LLVM's getCachedAliasesOf" >&2
  exit 1
fi
# And it works: a kernel to a code object.
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$fxcc" "$2" --offload-arch=gfx942 -O3 -o "$out/k.hsaco"
test -s "$out/k.hsaco"
echo "static_llvm: ok"
