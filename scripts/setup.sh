#!/usr/bin/env bash
# Installs the Debian 12 packages fxcc needs, when they are missing, and
# configures the build directory (default: build). Idempotent.
#   scripts/setup.sh [BUILD_DIR] [extra meson options...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift || true

# libamdhip64-5: the HIP runtime, so the HIP backend's no-device path is the real one
# rocm-device-libs: AMD's ocml bitcode, for Float64 transcendentals on AMDGPU
# liblld-19-dev: lld's ELF linker as a library, to link code objects in-process
# groff-base: groff with the man macros, to check that the manual pages render
# python3-numpy, python3-pytest: the Python module's tests (tests/python), with
#   Debian's own interpreter, which a python3 earlier on PATH may not be
# cmake: the CMake package's test (tests/cmake), with Ninja and with Make
# libmpfr-dev: correctly rounded references for the accuracy test of the math builtins (tests/mathacc)
# libpolly-19-dev: Polly's static libraries, which LLVM's static LTO library
#   calls (lld links it): needed by -Dstatic_llvm=true, the default
# lld-19: the ld.lld that links the static fxcc in its profiled order (-Dlink_order)
need=(flex bison meson ninja-build pkg-config libcunit1-dev llvm-19-dev liblld-19-dev libpolly-19-dev lld-19 clang-19 gcc g++ libamdhip64-5 rocm-device-libs groff-base libmpfr-dev python3-numpy python3-pytest cmake make)
missing=()
for p in "${need[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --native-file native.ini "$@"
fi
ninja -C "$build"
