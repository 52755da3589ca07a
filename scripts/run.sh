#!/usr/bin/env bash
# Installs what is missing, builds stereoview and runs it on the built-in synthetic scene: the
# viewer window when a display is there, otherwise the headless pipeline, which writes each
# disparity (PFM and a colorized PNG) into out/synthetic/. Extra arguments go to the program.
# It builds only the program it runs (no tests; the CUDA engine only where there is a GPU), so
# the first picture comes quickly; the README's later sections build what they use.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
build_dir=${STEREOVIEW_BUILD_DIR:-build}
export NINJA_STATUS="[%p, %f of %t steps, %e s] "
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${STEREOVIEW_HEADLESS:-}" ]; then
  cmake --build "$build_dir" -j "$(nproc)" --target stereoview-viewer
  exec "$build_dir/ui/stereoview-viewer" "$@"
fi
echo "no display (DISPLAY is not set): running the pipeline headless instead of the viewer"
cmake --build "$build_dir" -j "$(nproc)" --target stereoview
out_dir=${STEREOVIEW_OUT_DIR:-out/synthetic}
mkdir -p "$out_dir"
"$build_dir/src/app/stereoview" --headless --source synthetic --frames 5 --out "$out_dir" "$@"
echo "disparities written to $out_dir/"
