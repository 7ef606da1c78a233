#!/bin/sh
# -Dstatic_llvm=true: fxcc must not load libLLVM or libstdc++ at run time
# (their relocation is the start-up cost the option removes) and must be a
# fixed-address executable (a PIE would bring 300,000 relocations back),
# with the register alias lists of cg_regalias.cpp in place of LLVM's.
# fxrun is linked the same way but keeps libgcc_s.so, where its JIT finds
# libgcc's routines (Int128 division, Float16 conversions) by name.
#   static_llvm.sh FXCC KERNEL.fx FXRUN
set -eu
fxcc=$1
fxrun=$3
for prog in "$fxcc" "$fxrun"; do
  if readelf -d "$prog" | grep -E 'NEEDED.*\[lib(LLVM|stdc\+\+)' ; then
    echo "static_llvm: $prog still needs the libraries above" >&2
    exit 1
  fi
done
if ! readelf -d "$fxrun" | grep -q 'NEEDED.*\[libgcc_s'; then
  echo "static_llvm: $fxrun does not load libgcc_s.so, which its JIT's code calls" >&2
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
"$fxrun" "$2" saxpy --grid 1 --block 4 'x=iota(Float32, 4)' 'y=zeros(Float32, 4)' a=2 n=4 --print y |
  grep -q '^y = \[0.0, 2.0, 4.0, 6.0\]'
echo "static_llvm: ok"
