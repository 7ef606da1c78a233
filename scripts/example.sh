#!/usr/bin/env bash
# Builds fxcc, compiles examples/saxpy.fx to an AMDGPU code object (gfx942)
# and runs the same kernel on the host CPU with fxrun.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
out=build/examples
mkdir -p "$out"
build/src/driver/fxcc examples/saxpy.fx --offload-arch=gfx942 -o "$out/saxpy.hsaco"
echo "compiled examples/saxpy.fx -> $out/saxpy.hsaco ($(stat -c %s "$out/saxpy.hsaco") bytes)"
build/src/driver/fxrun examples/saxpy.fx saxpy --grid 4 --block 256 \
  'x=iota(Float32, 1000)' 'y=zeros(Float32, 1000)' a=2.5 n=1000 --print y | cut -c1-120
