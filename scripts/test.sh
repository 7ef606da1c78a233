#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite.
#   scripts/test.sh [BUILD_DIR] [extra meson options...]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
scripts/setup.sh "$@"
# sanitized debug builds run several times slower: FX_TIMEOUT_MULTIPLIER scales the timeouts;
# FX_TEST_ARGS adds arguments of meson test (.ci/run: --no-suite slow, or test names)
# shellcheck disable=SC2086
meson test -C "$build" --print-errorlogs --num-processes 2 --timeout-multiplier "${FX_TIMEOUT_MULTIPLIER:-1}" \
    ${FX_TEST_ARGS:-}
