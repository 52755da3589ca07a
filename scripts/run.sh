#!/usr/bin/env bash
# Installs what is missing, builds stereoview and runs it on the built-in synthetic scene.
# The viewer is not built yet, so the pipeline runs headless and writes each disparity (PFM and
# a colorized PNG) into the folder it names. Extra arguments go to stereoview.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build_dir=${STEREOVIEW_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target stereoview
out_dir=${STEREOVIEW_OUT_DIR:-out/synthetic}
mkdir -p "$out_dir"
"$build_dir/src/app/stereoview" --headless --source synthetic --frames 5 --out "$out_dir" "$@"
echo "disparities written to $out_dir/"
