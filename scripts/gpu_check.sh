#!/usr/bin/env bash
# On the GPU machine (CUDA toolkit, CMake, ninja; no OpenCV/GLFW): builds the core and the CUDA
# engine, runs the GPU tests, runs them again under compute-sanitizer (memcheck, racecheck), runs
# the benchmark, and prints a short summary table last. GoogleTest comes from $GTEST_DIR (a
# Debian libgtest-dev unpacked there) when the machine has none.
# Usage: scripts/gpu_check.sh [output dir]    (logs and bench JSON are written there)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-gpu-check}
mkdir -p "$out"
build=${STEREOVIEW_GPU_BUILD_DIR:-build-gpu}
gtest_args=()
[ -n "${GTEST_DIR:-}" ] && gtest_args=(-DGTest_DIR="$GTEST_DIR")
# The Python module (issue 23) with the CUDA engine, where the machine's python3 has pybind11,
# NumPy and pytest (the GPU machine's does, from pip): built core-only, without the io layer.
python_args=()
if python3 -c "import pybind11, numpy, pytest" 2>/dev/null; then
  python_args=(-DPython3_EXECUTABLE="$(command -v python3)" -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)")
fi

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=${CUDA_ARCHS:-90} -DSTEREOVIEW_BUILD_TESTS=ON \
  "${gtest_args[@]}" "${python_args[@]}" >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
ninja -C "$build" >"$out/build.log" 2>&1 || { grep -E "error|FAILED" "$out/build.log" | head -30; exit 1; }

# The sanitizers slow kernels down by two orders of magnitude: they run the cases up to 641x479
# (the full-HD and 256-disparity cases run without them). Override with SANITIZER_FILTER.
sanitizer_filter=${SANITIZER_FILTER:-"-*FullHd*:*1920*:Pipelines/CudaEqualsCpu.SameFixedPointDisparities/4:Pipelines/CudaEqualsCpu.SameFixedPointDisparities/6:Pipelines/CudaEqualsCpu.SameFixedPointDisparities/11:Cases/FastSgmEqualsCpu.*/11:Cases/FastSgmEqualsCpu.*/12:Cases/FastSgmEqualsCpu.*/13"}
status=()
for t in "$build"/tests/gpu/gpu_*; do
  [ -f "$t" ] && [ -x "$t" ] || continue
  name=$(basename "$t")
  timeout 300 "$t" >"$out/$name.log" 2>&1; rc=$?
  status+=("$name tests: $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/$name.log" | tr '\n' ' ') (rc $rc)")
  for tool in ${SANITIZER_TOOLS:-memcheck racecheck}; do
    timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 "$t" --gtest_filter="$sanitizer_filter" \
      >"$out/$name.$tool.log" 2>&1; rc=$?
    status+=("$name $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$name.$tool.log" | tail -1) (rc $rc)")
  done
done

if [ -d "$build/python/stereoview" ]; then
  PYTHONPATH="$build/python" PYTHONDONTWRITEBYTECODE=1 timeout 300 python3 -m pytest -q -rs \
    -p no:cacheprovider tests/python >"$out/python.log" 2>&1; rc=$?
  status+=("python module (pytest tests/python): $(tail -1 "$out/python.log") (rc $rc)")
else
  status+=("python module: not built ($(grep -m1 'Python' "$out/configure.log" || echo 'no pybind11/NumPy/pytest'))")
fi

"$build/src/app/stereoview" bench --engine cuda --algorithms census-sgm \
  --sizes ${BENCH_SIZES:-640x480,1280x720,1920x1080,3840x2160} --disparity-counts 64,128,256 \
  --runs ${BENCH_RUNS:-50} --warmup 5 | tee "$out/bench_sgm.txt"
"$build/src/app/stereoview" bench --engine cuda --algorithms bm-sad,bm-ssd,bm-zncc --window 9 \
  --sizes 640x480,1920x1080 --disparity-counts 64,128 --runs ${BENCH_RUNS:-50} --warmup 5 \
  | tee "$out/bench_bm.txt"
# The other algorithms of the registry (issue 7's rows of docs/algorithms.md's table).
"$build/src/app/stereoview" bench --engine cuda --algorithms ${BENCH_OTHER:-rank-sgm,esaw,esmp} \
  --sizes 640x480,1920x1080 --disparity-counts 64,128 --runs ${BENCH_RUNS:-50} --warmup 3 \
  | tee "$out/bench_other.txt"
# The frame as a program gets it (issue 18): host to host, streamed and alone, and the public
# device call; the headless CLI's host time per frame at full HD.
"$build/src/app/stereoview" bench --host-to-host --engine cuda --algorithms census-sgm \
  --sizes ${STREAM_SIZES:-640x480,1280x720,1920x1080,3840x2160} --disparity-counts 128 \
  --runs ${BENCH_RUNS:-50} --warmup 5 | tee "$out/bench_host_to_host.txt"
"$build/src/app/stereoview" bench --device --algorithms census-sgm \
  --sizes ${STREAM_SIZES:-640x480,1280x720,1920x1080,3840x2160} --disparity-counts 128 \
  --runs ${BENCH_RUNS:-50} --warmup 5 | tee "$out/bench_device.txt"
"$build/src/app/stereoview" --headless --engine cuda --size 1920x1080 --frames 60 \
  >"$out/headless_1080p.txt" 2>&1
# The viewer's processing thread at full HD, as the viewer runs it with CUDA-GL interop.
"$build/src/app/stereoview" bench --viewer-loop --engine cuda --algorithms census-sgm \
  --sizes 1920x1080 --disparity-counts 128 --runs ${BENCH_RUNS:-50} --warmup 5 \
  | tee "$out/bench_viewer_loop.txt"

echo
echo "== summary: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $(date -u +%F), commit ${STEREOVIEW_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
printf '%s\n' "${status[@]}"
grep -E "^census-sgm +(640x480 +128|1920x1080 +128|1920x1080 +256) " "$out/bench_sgm.txt"
grep -E "^bm-sad +1920x1080 +128 " "$out/bench_bm.txt"
grep -E "^(rank-sgm|esaw|esmp) +(640x480|1920x1080) +128 " "$out/bench_other.txt"
echo "host to host (device ms, fps, ms/frame, latency ms, host ms; under each row, where the time goes):"
grep -E "^(input: |census-sgm |  streamed |  alone: )" "$out/bench_host_to_host.txt"
echo "device call:"
grep -E "^census-sgm " "$out/bench_device.txt"
grep -E "^host time" "$out/headless_1080p.txt"
echo "viewer loop (fps, ms/frame, host ms, host p90, copy ms):"
grep -E "^census-sgm " "$out/bench_viewer_loop.txt"
