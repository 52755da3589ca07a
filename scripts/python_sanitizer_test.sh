#!/usr/bin/env bash
# The Python module's tests (tests/python) under a sanitizer: builds the module and the stereoview
# program its tests compare with (and make videos with) under the sanitizer, then runs pytest in
# Debian's python3 with the sanitizer's runtime preloaded (python3 itself is not instrumented, so
# the runtime must be in the process before the module is loaded).
#   address  every test, ASan + UBSan; LeakSanitizer off: CPython keeps its own allocations to
#            the end, which it would report as leaks (the C++ suite checks stereoview's leaks)
#   thread   the tests of threads sharing a Matcher or a source, and of the GIL, under TSan
# Exits non-zero on any failed test or sanitizer report (a report ends the process that made
# it: the pytest run, or a stereoview program a test runs, which fails that test).
# Usage: scripts/python_sanitizer_test.sh address|thread [pytest arguments]
# The build folders are scripts/sanitizer_test.sh's (same configuration): after it, only the
# module is left to build. STEREOVIEW_REMOVE_PASSED_BUILD=1 removes the folder once the tests pass.
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-}
[ $# -gt 0 ] && shift
supp=$PWD/tests/sanitizers

case "$kind" in
  address)
    build_dir=${STEREOVIEW_ASAN_BUILD_DIR:-build-asan}
    runtime=libasan.so
    tests=(tests/python)
    export ASAN_OPTIONS=detect_leaks=0:strict_string_checks=1
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    ;;
  thread)
    build_dir=${STEREOVIEW_TSAN_BUILD_DIR:-build-tsan}
    runtime=libtsan.so
    tests=(tests/python/test_threads.py tests/python/test_gil.py)
    export TSAN_OPTIONS=suppressions=$supp/tsan.supp:halt_on_error=1:second_deadlock_stack=1
    ;;
  *)
    echo "usage: scripts/python_sanitizer_test.sh address|thread [pytest arguments]" >&2
    exit 2
    ;;
esac

# The configuration of scripts/sanitizer_test.sh, so that either script reuses the other's build.
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTEREOVIEW_BUILD_TESTS=ON \
  -DSTEREOVIEW_WITH_CUDA=OFF -DSTEREOVIEW_SANITIZE="$kind" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target stereoview_python stereoview

# The interpreter the module is built for (third_party/python_dependencies.cmake), and the
# runtime the module was linked with (the compiler's own copy).
build=$(cd "$build_dir" && pwd)
python=$(sed -n 's/^Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt")
compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
# libstdc++ too: python3 does not link it, and ASan's __cxa_throw interceptor, set up when the
# runtime starts, fails its CHECK at the module's first C++ exception when it was not loaded then.
preload=$("$compiler" -print-file-name="$runtime")
cxx_runtime=$("$compiler" -print-file-name=libstdc++.so)
if [ ! -e "$preload" ]; then
  echo "python_sanitizer_test.sh: $compiler has no $runtime" >&2
  exit 1
fi

echo "== python $kind: ${tests[*]} with $preload preloaded"
start=$SECONDS
# --capture=sys: pytest's capture of file descriptor 2 would swallow the report of a sanitizer
# that ends the process.
LD_PRELOAD="$preload $cxx_runtime" PYTHONPATH=$build/python PYTHONDONTWRITEBYTECODE=1 \
  STEREOVIEW_CLI=$build/src/app/stereoview \
  "$python" -m pytest -q -p no:cacheprovider --capture=sys "${tests[@]}" "$@"
echo "== python $kind: passed in $((SECONDS - start)) s"
if [ "${STEREOVIEW_REMOVE_PASSED_BUILD:-0}" = 1 ]; then
  rm -rf "$build_dir"
fi
