# The Python module (src/python) is optional like OpenCV: it needs the Python 3 development
# headers, NumPy at run time and Debian's pybind11-dev. Without OpenCV it is built too, with the
# engines and evaluation but without the io layer's sources, calibration and image files (so a
# core-only build, as on the GPU machine, can test the CUDA engine from Python).
# Debian's interpreter first: python3-numpy, python3-pytest and pybind11-dev (scripts/setup.sh)
# belong to /usr/bin/python3, and a pyenv or venv python3 earlier on PATH (as on CI machines) has
# none of them, so the module's tests would skip and its README commands fail. Set
# -DPython3_EXECUTABLE=... to build for another interpreter.
# A sanitizer build makes the module too: python3 itself is not instrumented, so it loads only
# with the sanitizer's runtime preloaded, which scripts/python_sanitizer_test.sh does.
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python 3 interpreter for the module and its tests")
endif()
option(STEREOVIEW_WITH_PYTHON "Build the stereoview Python module when pybind11 is found" ON)
set(STEREOVIEW_HAS_PYTHON OFF)
set(STEREOVIEW_PYTHON_SKIP_REASON "")
if(NOT STEREOVIEW_WITH_PYTHON)
  set(STEREOVIEW_PYTHON_SKIP_REASON "STEREOVIEW_WITH_PYTHON is OFF")
else()
  find_package(Python3 QUIET COMPONENTS Interpreter Development.Module)
  find_package(pybind11 CONFIG QUIET)
  if(Python3_Development.Module_FOUND AND pybind11_FOUND)
    set(STEREOVIEW_HAS_PYTHON ON)
    # The static libraries end up inside a shared module.
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
  else()
    set(STEREOVIEW_PYTHON_SKIP_REASON
        "Python headers or pybind11 not found: apt-get install python3-dev pybind11-dev")
    message(STATUS "stereoview: ${STEREOVIEW_PYTHON_SKIP_REASON}")
  endif()
endif()
