#!/usr/bin/env bash
# The CPU engine against OpenCV's StereoSGBM (HH, SGBM, 3WAY; block 3) in one run, interleaved,
# medians, on 640x480 and 1280x720 with 1 and 2 threads: the table in docs/cpu-engine.md.
# Usage: scripts/cpu_bench.sh [BUILD_DIR] [extra flags for cpu_vs_opencv_bench, e.g. --runs 11]
set -euo pipefail
build=${1:-build}
shift || true
if [ ! -x "$build/src/bench/cpu_vs_opencv_bench" ]; then
  cmake --build "$build" --target cpu_vs_opencv_bench
fi
exec "$build/src/bench/cpu_vs_opencv_bench" --sizes 640x480,1280x720 --threads 1,2 --disparities 128 "$@"
