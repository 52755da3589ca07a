#!/usr/bin/env bash
# Installs what is missing, builds everything and runs the whole test suite; ends with ctest's
# summary. Extra arguments go to ctest (e.g. -L unit, -R census).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build_dir=${STEREOVIEW_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTEREOVIEW_BUILD_TESTS=ON >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
cd "$build_dir"
ctest --output-on-failure --timeout 900 -j "$(nproc)" "$@"
