#!/usr/bin/env bash
# On the GPU machine (CUDA toolkit, CMake, ninja; no GL headers or loaders, no network): builds
# the CUDA-GL interop test from a core-only configuration and runs it through a headless EGL
# context on the GPU, then once more under compute-sanitizer memcheck. Prints a one-line summary
# last; exits 0 only when every test ran and passed.
#
# The GL pieces travel as Debian 12 packages in `.gl` (carried with the run), downloaded once on
# the workstation:
#   o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
#   apt-get $o update; (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 \
#     libgl1 libglx0 libgles2 libegl-dev libgl-dev libglvnd-dev libopengl-dev libglx-dev \
#     libgles-dev libglvnd-core-dev)
# The runtime loaders are unpacked into $GL_RUNTIME_ROOT (/ by default, then ldconfig); every
# package, headers included, into $GL_DEV_ROOT, whose include folder CMake gets as
# STEREOVIEW_GL_INCLUDE_DIR (the -dev packages are never unpacked into /).
#
# Usage: scripts/gpu_gl_check.sh [output dir]          (logs are written there)
# Environment: STEREOVIEW_COMMIT (the commit named in the summary; default: git's HEAD), GTEST_DIR (GoogleTest's CMake folder; default: the carried .gtest/ when present),
#   CUDA_ARCHS (90), GL_DEBS (.gl), GL_DEV_ROOT (/tmp/gldev), GL_RUNTIME_ROOT (/),
#   STEREOVIEW_GL_BUILD_DIR (build-gpu-gl), SANITIZER_TOOLS ("memcheck"; "" for none).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
out=${1:-gpu-gl-check}
mkdir -p "$out"
debs=${GL_DEBS:-.gl}
dev_root=${GL_DEV_ROOT:-/tmp/gldev}
runtime_root=${GL_RUNTIME_ROOT:-/}
build=${STEREOVIEW_GL_BUILD_DIR:-build-gpu-gl}
multiarch=x86_64-linux-gnu

summary() {
  echo
  echo "== gpu_gl_check: $*"
}

shopt -s nullglob
packages=("$debs"/*.deb)
if [ ${#packages[@]} -eq 0 ]; then
  summary "FAILED: no .deb files in $debs (carry .gl; see the top of this script)"
  exit 1
fi

# 1. The GL loaders and headers.
mkdir -p "$dev_root" "$runtime_root"
for f in "${packages[@]}"; do
  dpkg -x "$f" "$dev_root" || { summary "FAILED: dpkg -x $f $dev_root"; exit 1; }
  case "$(basename "$f")" in
    *-dev_*) ;;  # headers and unversioned links: kept out of the runtime root
    *) dpkg -x "$f" "$runtime_root" || { summary "FAILED: dpkg -x $f $runtime_root"; exit 1; } ;;
  esac
done
[ "$runtime_root" = / ] && ldconfig
for header in GL/gl.h GL/glext.h EGL/egl.h EGL/eglext.h KHR/khrplatform.h; do
  [ -f "$dev_root/usr/include/$header" ] || { summary "FAILED: $header missing from the packages in $debs"; exit 1; }
done
# The NVIDIA EGL vendor file sits outside glvnd's default folders on some machines.
if [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ] &&
   ! ls /usr/share/glvnd/egl_vendor.d/*nvidia*.json /etc/glvnd/egl_vendor.d/*nvidia*.json >/dev/null 2>&1 &&
   [ -f /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json ]; then
  export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
fi
{
  echo "runtime root: $runtime_root, headers: $dev_root/usr/include"
  echo "__EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-}"
  ls /usr/share/glvnd/egl_vendor.d /etc/glvnd/egl_vendor.d /usr/local/nvidia/share/glvnd/egl_vendor.d 2>&1
  ldconfig -p | grep -E "libEGL|libOpenGL|libGLdispatch|libnvidia-egl|libnvidia-glcore"
} >"$out/gl_setup.log" 2>&1

# 2. Configure (core only) and build the one test.
gtest_args=()
gtest_dir=${GTEST_DIR:-}
[ -z "$gtest_dir" ] && [ -d "$PWD/.gtest/root/usr/lib/$multiarch/cmake/GTest" ] &&
  gtest_dir=$PWD/.gtest/root/usr/lib/$multiarch/cmake/GTest
[ -n "$gtest_dir" ] && gtest_args=(-DGTest_DIR="$gtest_dir")
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}" -DSTEREOVIEW_BUILD_TESTS=ON \
  -DSTEREOVIEW_WITH_APP_DEPS=OFF \
  -DSTEREOVIEW_GL_INCLUDE_DIR="$dev_root/usr/include" \
  -DSTEREOVIEW_GL_LIBRARY_DIR="${runtime_root%/}/usr/lib/$multiarch" \
  "${gtest_args[@]}" >"$out/configure.log" 2>&1 || {
  tail -30 "$out/configure.log"
  summary "FAILED: cmake configure (log: $out/configure.log)"
  exit 1
}
if ! ninja -C "$build" -t query gpu_gl_interop >/dev/null 2>&1; then
  grep -E "stereoview:|GL|EGL" "$out/configure.log"
  summary "FAILED: configure did not add gpu_gl_interop (GL headers, libEGL or libOpenGL not found; log: $out/configure.log)"
  exit 1
fi
ninja -C "$build" gpu_gl_interop >"$out/build.log" 2>&1 || {
  grep -E "error|FAILED" "$out/build.log" | head -30
  summary "FAILED: build (log: $out/build.log)"
  exit 1
}

# 3. Run, then run under the sanitizer.
test_binary="$build/tests/gpu/gpu_gl_interop"
timeout 120 "$test_binary" >"$out/gpu_gl_interop.log" 2>&1
rc=$?
cat "$out/gpu_gl_interop.log"
count() { grep -E "^\[  $1 *\] [0-9]+ test" "$out/gpu_gl_interop.log" | head -1 | grep -oE "[0-9]+" | head -1; }
passed=$(count PASSED)
skipped=$(count SKIPPED)
failed=$(count FAILED)
renderer=$(grep -m1 "^headless GL:" "$out/gpu_gl_interop.log" | sed 's/^headless GL: //')
# The 3D view's interop path at 1280x720 (InteropPointCloudFrameTimeAt1280x720 prints it): the
# median frame time of map + vertex kernel + unmap, per colour mode.
cloud_time=$(grep -E "^interop point cloud 1280x720" "$out/gpu_gl_interop.log" |
  sed -E 's/.*colour ([a-z]+): median ([0-9.]+) ms.*/\1 \2 ms/' | paste -sd, - | sed 's/,/, /g')
sanitizer=""
# The two negative tests provoke CUDA API errors on purpose (a released context, a bad texture),
# which the sanitizer would count; every other test runs under it.
negative_tests="*ReleasedContextIsNot:*RejectsBadArguments"
for tool in ${SANITIZER_TOOLS-memcheck}; do
  timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 "$test_binary" \
    --gtest_filter="-$negative_tests" \
    >"$out/gpu_gl_interop.$tool.log" 2>&1
  src=$?
  sanitizer+=", $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/gpu_gl_interop.$tool.log" | tail -1 | sed 's/^=* *//') (rc $src)"
  [ $src -eq 0 ] || rc=1
done

gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
where="${gpu:-no nvidia-smi}, $(date -u +%F), commit ${STEREOVIEW_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
if [ "$rc" -eq 0 ] && [ -z "$skipped" ] && [ -z "$failed" ] && [ -n "$passed" ]; then
  summary "PASSED: gpu_gl_interop $passed tests$sanitizer; $renderer${cloud_time:+; 3D view interop 1280x720 per frame: $cloud_time}; $where"
  exit 0
fi
reason=$(grep -m1 -A1 "Skipped$" "$out/gpu_gl_interop.log" | tail -1)
summary "FAILED: gpu_gl_interop rc $rc, passed ${passed:-0}, skipped ${skipped:-0}${reason:+ ($reason)}, failed ${failed:-0}$sanitizer; $where"
exit 1
